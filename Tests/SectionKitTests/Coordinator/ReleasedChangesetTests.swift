import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// An adapter that reads each changeset inside `apply` and keeps nothing — the kind every UIKit
/// adapter is — lets the coordinator write the next batch's changeset into the storage of the
/// last one. Nothing of an earlier changeset may reach a later one, however large its lists were.
@Suite struct ReleasedChangesetTests {
  /// Reads each changeset, validates it against the counts it saw before and after `updateData`,
  /// and keeps nothing of it.
  final class ForgetfulAdapter: ViewAdapter {
    var counts: [Int] = []
    var problems: [String] = []
    var applied = 0
    var summaries: [String] = []

    func reloadData(from coordinator: Coordinator) { counts = Self.counts(coordinator) }

    func apply(
      _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
    ) {
      let old = counts
      updateData()
      counts = Self.counts(coordinator)
      applied += 1
      summaries.append(
        "\(changeset.deletedElements.count) deleted, \(changeset.insertedElements.count) inserted")
      let violations = BatchValidator().validate(
        oldCounts: old, newCounts: counts, changeset: changeset
      ).filter(\.isError)
      if let first = violations.first {
        problems.append("changeset \(applied): \(violations.count) errors, first \(first)")
      }
    }

    static func counts(_ coordinator: Coordinator) -> [Int] {
      (0..<coordinator.numberOfSections).map { coordinator.numberOfElements(inSection: $0) }
    }
  }

  /// The new user's reproduction: two large batches with a section removed, then a single
  /// change. The third changeset carried the 99,000 deletes of the first again.
  @Test func whenAnEarlierBatchDeletedManyElements_aLaterChangesetCarriesOnlyItsOwn() {
    let big = ArraySection(Array(0..<100_000))
    let small: ArraySection<Int> = [-1]
    let small2: ArraySection<Int> = [-2]
    let root = ComposedSectionProvider()
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = ForgetfulAdapter()
    coordinator.adapter = adapter
    root.append(big)
    root.append(small)
    root.append(small2)
    root.performBatchUpdates {
      big.removeSubrange(1_000..<100_000)
      _ = root.remove(at: 1)
    }
    root.performBatchUpdates {
      big.removeSubrange(200..<1_000)
      _ = root.remove(at: 1)
    }
    big.removeSubrange(100..<200)
    #expect(adapter.problems.isEmpty, "\(adapter.problems)")
    #expect(
      adapter.summaries.suffix(3) == [
        "99000 deleted, 0 inserted", "800 deleted, 0 inserted", "100 deleted, 0 inserted",
      ])
  }

  /// Random batches over sections of very different sizes (none to 30,000 elements), with bulk
  /// removals and insertions whose lists outgrow what the coordinator keeps for reuse, section
  /// inserts, removes and moves, and single changes between them: every changeset is valid
  /// through a strict adapter that keeps none (its storage reused) and one that keeps all.
  ///
  /// Reproduce a failure with `SECTIONKIT_SEED=<seed> swift test --filter ReleasedChangesetTests`.
  @Test(arguments: [false, true])
  func randomBatchesOverSectionsOfVeryDifferentSizes_areValid(keepsChangesets: Bool) {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0x5A7E)
    var random = SeededGenerator(seed: seed)
    for round in 0..<4 {
      let root = ComposedSectionProvider()
      var sections: [ArraySection<Int>] = []
      var next = 1_000_000
      func newSection() -> ArraySection<Int> {
        let count = [0, 1, 3, 40, 10_000, 30_000].randomElement(using: &random)!
        defer { next += count }
        return ArraySection(Array(next..<next + count))
      }
      for _ in 0..<Int.random(in: 2...5, using: &random) {
        let section = newSection()
        sections.append(section)
        root.append(section)
      }
      let coordinator = Coordinator(sectionProvider: root)
      // Strict, validated and replayed element by element (a reload beside moves is kept only
      // where the replay proves UIKit lands it right).
      let adapter = TestAdapter.toleratingReloadsWithMoves { failure in
        Issue.record("seed \(seed), round \(round): \(failure)")
      }
      adapter.keepsChangesets = keepsChangesets
      coordinator.adapter = adapter
      for batch in 0..<30 {
        func change() {
          let section = sections.randomElement(using: &random)!
          let count = section.count
          switch Int.random(in: 0..<10, using: &random) {
          case 0 where count > 0:
            let start = Int.random(in: 0..<count, using: &random)
            section.removeSubrange(start..<Int.random(in: start...count, using: &random))
          case 1:
            let added = [1, 5, 5_000].randomElement(using: &random)!
            section.insert(
              contentsOf: next..<next + added, at: Int.random(in: 0...count, using: &random))
            next += added
          case 2 where sections.count > 1:
            let removed = root.remove(at: Int.random(in: 0..<sections.count, using: &random))
            sections.removeAll { $0 === removed.object }
          case 3 where sections.count < 8:
            let section = newSection()
            let index = Int.random(in: 0...sections.count, using: &random)
            root.insert(.section(section), at: index)
            sections.insert(section, at: index)
          case 4 where sections.count > 1:
            let from = Int.random(in: 0..<sections.count, using: &random)
            let to = Int.random(in: 0..<sections.count, using: &random)
            root.moveChild(at: from, to: to)
            sections.insert(sections.remove(at: from), at: to)
          case 5 where count > 0:
            section[Int.random(in: 0..<count, using: &random)] = next
            next += 1
          case 6 where count > 1:
            section.move(
              from: Int.random(in: 0..<count, using: &random),
              to: Int.random(in: 0..<count, using: &random))
          default:
            section.insert(next, at: Int.random(in: 0...count, using: &random))
            next += 1
          }
        }
        if batch % 3 == 2 {
          change()  // a batch of one change
        } else {
          root.performBatchUpdates {
            for _ in 0..<Int.random(in: 1...6, using: &random) { change() }
          }
        }
        #expect(adapter.mirrorCounts == sections.map(\.count), "seed \(seed), round \(round)")
      }
    }
  }
}
