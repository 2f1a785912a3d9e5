import Foundation
import SectionKit

/// `ArraySection.replaceElements(with:)` against Foundation's `difference(from:)` on the ids.
enum DiffBench {
  struct Row: Identifiable, Equatable {
    var id: Int
    var version = 0
  }

  /// `count` rows, and the same rows with 5% each deleted, updated, moved and inserted; the number
  /// of those edits (a move counts one).
  static func churned(_ count: Int, seed: UInt64) -> (old: [Row], new: [Row], edits: Int) {
    var random = SplitMix(state: seed)
    let old = (0..<count).map { Row(id: $0) }
    var new = Blocks(old)
    let k = count / 20
    for _ in 0..<k { new.remove(at: random.next(below: new.count)) }
    for _ in 0..<k { new.update(at: random.next(below: new.count)) { $0.version += 1 } }
    for _ in 0..<k {
      let row = new.remove(at: random.next(below: new.count))
      new.insert(row, at: random.next(below: new.count + 1))
    }
    for offset in 0..<k {
      new.insert(Row(id: count + offset), at: random.next(below: new.count + 1))
    }
    return (old, new.elements, 4 * k)
  }

  /// An array cut into blocks, so that `churned` removes and inserts at random positions of 10⁵
  /// rows in O(√n) each instead of O(n) (what `Array.remove(at:)` costs, which made generating
  /// the data most of a `diffonce` run under callgrind); the same rows as an array would hold.
  struct Blocks {
    private var blocks: [[Row]]
    private(set) var count: Int
    private static let size = 256

    init(_ rows: [Row]) {
      blocks = stride(from: 0, to: rows.count, by: Self.size).map {
        Array(rows[$0..<min($0 + Self.size, rows.count)])
      }
      if blocks.isEmpty { blocks = [[]] }
      count = rows.count
    }

    var elements: [Row] { blocks.flatMap { $0 } }

    /// The block holding position `index` (the last one for `index == count`), and the offset.
    private func locate(_ index: Int) -> (block: Int, offset: Int) {
      var offset = index
      for block in blocks.indices {
        if offset < blocks[block].count || block == blocks.count - 1 { return (block, offset) }
        offset -= blocks[block].count
      }
      return (0, offset)
    }

    @discardableResult
    mutating func remove(at index: Int) -> Row {
      let (block, offset) = locate(index)
      count -= 1
      return blocks[block].remove(at: offset)
    }

    mutating func update(at index: Int, _ body: (inout Row) -> Void) {
      let (block, offset) = locate(index)
      body(&blocks[block][offset])
    }

    mutating func insert(_ row: Row, at index: Int) {
      let (block, offset) = locate(index)
      blocks[block].insert(row, at: offset)
      count += 1
      if blocks[block].count > 2 * Self.size {
        let tail = Array(blocks[block][Self.size...])
        blocks[block].removeSubrange(Self.size...)
        blocks.insert(tail, at: block + 1)
      }
    }
  }

  struct Figures {
    var detached: Double
    var coordinated: Double
    var changes: Int
    var changesets: Int
    var foundation: Double
    var foundationChanges: Int
  }

  /// A section holding `rows` under a coordinator with a `NullAdapter` attached; keep the
  /// coordinator alive while the section changes.
  static func coordinated(_ rows: [Row]) -> (ArraySection<Row>, NullAdapter, Coordinator) {
    let section = ArraySection(rows)
    let root = ComposedSectionProvider()
    root.append(section)
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = NullAdapter()
    coordinator.adapter = adapter
    return (section, adapter, coordinator)
  }

  /// The seconds `replaceElements(with: new)` takes on a section of `old` with a coordinator and
  /// an adapter attached, and the operations of the changeset the adapter received.
  static func coordinatedDiff(_ old: [Row], _ new: [Row]) -> (seconds: Double, operations: Int) {
    let (section, adapter, coordinator) = coordinated(old)
    let seconds = Bench.seconds { try! section.replaceElements(with: new) }
    withExtendedLifetime(coordinator) {}
    return (seconds, adapter.operations)
  }

  /// Diffs `count` rows with 20% churn: on a section alone, then with a coordinator and an
  /// adapter attached (the whole pipe, one changeset); and Foundation's diff of the ids.
  static func run(count: Int) -> Figures {
    let (old, new, _) = churned(count, seed: 42)
    let detached = Bench.medianOf(5) {
      let section = ArraySection(old)
      return Bench.seconds { try! section.replaceElements(with: new) }
    }
    var changes = 0
    var changesets = 0
    let coordinated = Bench.medianOf(5) {
      let (section, adapter, coordinator) = Self.coordinated(old)
      let seconds = Bench.seconds { try! section.replaceElements(with: new) }
      withExtendedLifetime(coordinator) {}
      changes = adapter.operations
      changesets = adapter.changesets
      return seconds
    }
    let oldIDs = old.map(\.id)
    let newIDs = new.map(\.id)
    var foundationChanges = 0
    // Foundation's diff is quadratic in the worst case (seconds at 100,000 rows): one run there.
    let foundation = Bench.medianOf(count > 10_000 ? 1 : 5) {
      Bench.seconds {
        let difference = newIDs.difference(from: oldIDs).inferringMoves()
        foundationChanges = difference.count
      }
    }
    return Figures(
      detached: detached, coordinated: coordinated, changes: changes, changesets: changesets,
      foundation: foundation, foundationChanges: foundationChanges)
  }

  /// The emitted changes over the known edits, over `runs` random 20% churns of `count` rows.
  static func editRatio(count: Int, runs: Int) -> Double {
    var emitted = 0
    var known = 0
    for seed in 0..<UInt64(runs) {
      let (old, new, edits) = churned(count, seed: seed)
      let (section, adapter, coordinator) = coordinated(old)
      try! section.replaceElements(with: new)
      withExtendedLifetime(coordinator) {}
      emitted += adapter.operations
      known += edits
    }
    return Double(emitted) / Double(known)
  }

  /// One 20% churn of `count` rows, diffed once on a section alone and once under a coordinator
  /// with an adapter: the mode to profile (`sectionkit-bench diffonce`, under
  /// `valgrind --tool=callgrind`), with no Foundation diff and no repetition.
  static func once(count: Int) {
    let (old, new, _) = churned(count, seed: 42)
    let section = ArraySection(old)
    let detached = Bench.seconds { try! section.replaceElements(with: new) }
    let (coordinatedSection, adapter, coordinator) = Self.coordinated(old)
    let coordinated = Bench.seconds { try! coordinatedSection.replaceElements(with: new) }
    withExtendedLifetime(coordinator) {}
    print(
      String(
        format: "   %6d rows once: diff alone %6.2f ms; with coordinator %6.2f ms, %d changes",
        count, detached * 1000, coordinated * 1000, adapter.operations))
  }

  /// The 20% churn of `count` rows diffed `runs` times alone and `runs` times under a coordinator
  /// with an adapter, data made once: the medians, without Foundation's diff or the worst cases
  /// (`sectionkit-bench difftimes`, quicker than `diff` to compare builds, and a loop to sample
  /// with `perf record`).
  static func times(count: Int, runs: Int) {
    let (old, new, _) = churned(count, seed: 42)
    let detached = Bench.medianOf(runs) {
      let section = ArraySection(old)
      return Bench.seconds { try! section.replaceElements(with: new) }
    }
    var changes = 0
    let coordinated = Bench.medianOf(runs) {
      let (seconds, operations) = coordinatedDiff(old, new)
      changes = operations
      return seconds
    }
    print(
      String(
        format:
          "   %6d rows, median of %d: diff alone %6.2f ms; with coordinator %6.2f ms, %d changes",
        count, runs, detached * 1000, coordinated * 1000, changes))
  }

  /// A small seeded generator, so that every run diffs the same data.
  struct SplitMix {
    var state: UInt64
    mutating func next(below bound: Int) -> Int {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      z ^= z >> 31
      return Int(z % UInt64(bound))
    }
  }

  static func report() {
    print(
      "## Diffing one section, 20% churn (5% each deletes, updates, moves, inserts), median of 5")
    for count in [10_000, 100_000] {
      let figures = run(count: count)
      print(
        String(
          format:
            "   %6d rows: diff alone %6.2f ms; with coordinator %6.2f ms, %d changes in %d "
            + "changeset(s); Foundation difference(from:).inferringMoves() %7.2f ms, %d changes",
          count, figures.detached * 1000, figures.coordinated * 1000, figures.changes,
          figures.changesets, figures.foundation * 1000, figures.foundationChanges))
    }
    print(
      String(
        format: "   edit-count ratio (changes emitted / known edits, 20 runs of 1,000 rows): %.3f",
        editRatio(count: 1_000, runs: 20)))
    let count = 100_000
    let old = (0..<count).map { Row(id: $0) }
    let worst: [(String, [Row])] = [
      ("reverse", old.reversed()),
      ("rotate by one", Array(old[1...] + old[..<1])),
      ("first to last", Array(old[1...]) + [old[0]]),
      ("last to first", [old[count - 1]] + Array(old[..<(count - 1)])),
      ("all new", (count..<2 * count).map { Row(id: $0) }),
      ("all same", old),
    ]
    for (name, new) in worst {
      var changes = 0
      let seconds = Bench.medianOf(3) {
        let (seconds, operations) = coordinatedDiff(old, new)
        changes = operations
        return seconds
      }
      print(
        String(
          format: "   100,000 rows, %@: %7.2f ms with coordinator, %d changes", name,
          seconds * 1000, changes))
    }
    print()
  }
}
