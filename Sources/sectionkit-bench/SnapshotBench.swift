import Foundation
import SectionKit

/// `SnapshotSectionProvider.apply(_:)`: a whole snapshot of many sections diffed by identity.
enum SnapshotBench {
  typealias Row = DiffBench.Row
  typealias Snapshot = [SectionContents<Int, Row>]

  /// `sections` sections of `elements` rows, and the same with 5% each of the rows deleted,
  /// updated, moved (to a random place of a random section: nearly all across sections) and
  /// inserted; the number of those edits (a move counts one) and of the moves across sections.
  static func churned(sections: Int, elements: Int, seed: UInt64)
    -> (old: Snapshot, new: Snapshot, edits: Int, crossSection: Int)
  {
    var random = DiffBench.SplitMix(state: seed)
    let old = (0..<sections).map { section in
      SectionContents(
        id: section, elements: (0..<elements).map { Row(id: section * elements + $0) })
    }
    var new = old
    let k = sections * elements / 20
    func pick() -> (Int, Int) {
      while true {
        let s = random.next(below: new.count)
        if !new[s].elements.isEmpty { return (s, random.next(below: new[s].elements.count)) }
      }
    }
    for _ in 0..<k {
      let (s, e) = pick()
      new[s].elements.remove(at: e)
    }
    for _ in 0..<k {
      let (s, e) = pick()
      new[s].elements[e].version += 1
    }
    var crossSection = 0
    for _ in 0..<k {
      let (s, e) = pick()
      let row = new[s].elements.remove(at: e)
      let t = random.next(below: new.count)
      if t != s { crossSection += 1 }
      new[t].elements.insert(row, at: random.next(below: new[t].elements.count + 1))
    }
    for offset in 0..<k {
      let t = random.next(below: new.count)
      new[t].elements.insert(
        Row(id: sections * elements + offset), at: random.next(below: new[t].elements.count + 1))
    }
    return (old, new, 4 * k, crossSection)
  }

  static func report() {
    print(
      "## Applying a snapshot of 1,000 sections × 100 elements, 20% churn (5% each deletes, "
        + "updates, moves incl. across sections, inserts), coordinator + adapter, median of 5")
    let (old, new, edits, crossSection) = churned(sections: 1_000, elements: 100, seed: 42)
    var changes = 0
    var changesets = 0
    var movesAcross = 0
    let coordinated = Bench.medianOf(5) {
      let provider = SnapshotSectionProvider<Int, Row>()
      try! provider.apply(old)
      let coordinator = Coordinator(sectionProvider: provider.provider)
      let adapter = NullAdapter()
      coordinator.adapter = adapter
      let seconds = Bench.seconds { try! provider.apply(new) }
      withExtendedLifetime(coordinator) {}
      changes = adapter.operations
      changesets = adapter.changesets
      movesAcross = adapter.movesAcross
      return seconds
    }
    let detached = Bench.medianOf(5) {
      let provider = SnapshotSectionProvider<Int, Row>()
      try! provider.apply(old)
      return Bench.seconds { try! provider.apply(new) }
    }
    print(
      String(
        format:
          "   with coordinator %7.2f ms (target ≤ 50 ms), alone %7.2f ms; %d changes in %d "
          + "changeset(s) for %d known edits (%d moves across sections, %d of them emitted as "
          + "moves): ratio %.3f",
        coordinated * 1000, detached * 1000, changes, changesets, edits, crossSection,
        movesAcross, Double(changes) / Double(edits)))
    print()
  }
}
