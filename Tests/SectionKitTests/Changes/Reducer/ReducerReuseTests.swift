import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// A coordinator keeps the reducer of its last batch and reuses its arrays for the next one
/// (``BatchReducer/restart(presented:)``), and the read-off sorts the touched sections in place.
/// On random batches, the changeset the coordinator delivers is the one a fresh reducer reads off
/// the same events, and a reducer answers where every old element went the same before its
/// read-off and after.
///
/// Reproduce a failure with `SECTIONKIT_SEED=<seed> swift test --filter ReducerReuseTests`;
/// run longer with `SECTIONKIT_FUZZ_ITERATIONS=<n>` (default 500 batches).
@Suite struct ReducerReuseTests {
  @Test func reusedReducerReadsOffAsAFreshOne() {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0x5E0E)
    var random = SeededGenerator(seed: seed)
    var tree = RunPoolSmallListTests.Tree(using: &random)
    var compared = 0
    for iteration in 0..<RunPoolSmallListTests.iterations {
      if iteration % 25 == 0 { tree = RunPoolSmallListTests.Tree(using: &random) }
      let coordinator = tree.coordinator
      let changes = Int.random(in: 2...60, using: &random)
      var expected: Changeset?
      let context = "seed \(seed), iteration \(iteration)"
      coordinator.performBatchUpdates {
        for _ in 0..<changes { tree.change(using: &random) }
        guard let events = coordinator.reducer?.events.events else { return }
        // Inside the batch: the model holds the new state, the coordinator presents the old.
        let presented = coordinator.presented
        var fresh = BatchReducer(presented: presented)
        for event in events { fresh.apply(event) }
        let paths = presented.counts.enumerated().flatMap { section, count in
          (0..<count).map { IndexPath(item: $0, section: section) }
        }
        let before = paths.map { fresh.newPath(ofOld: $0) }
        let commit = fresh.finish(mapping: coordinator.mapping)
        #expect(paths.map { fresh.newPath(ofOld: $0) } == before, "\(context): \(events)")
        expected = commit.changeset
      }
      guard let expected else { continue }
      compared += 1
      if expected.isEmpty { continue }
      #expect(tree.adapter.changesets.last == expected, "\(context)")
    }
    #expect(compared > RunPoolSmallListTests.iterations / 2)
  }

  /// Batches touching many of a tree's sections (at least one in 16 of them, across more than 64,
  /// where the touched sections are sorted through a bit set of several words, and fewer, where
  /// they are sorted by comparison): every changeset valid, its lists sorted (the adapter's JSON
  /// round trip rejects unsorted ones), and replayed to the model.
  @Test(arguments: [150, 1_500])
  func batchesTouchingManySectionsAreValid(sectionCount: Int) {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0xD0E5)
    var random = SeededGenerator(seed: seed)
    let root = ComposedSectionProvider()
    let sections = (0..<sectionCount).map { _ in ArraySection<Int>(Array(0..<3)) }
    for section in sections { root.append(section) }
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = TestAdapter.toleratingReloadsWithMoves(record: TestAdapter.reportToTestFramework)
    coordinator.adapter = adapter
    var next = 100
    for iteration in 0..<40 {
      coordinator.performBatchUpdates {
        for _ in 0..<Int.random(in: 20...200, using: &random) {
          next += 1
          RunPoolSmallListTests.Tree.randomElementChange(
            in: sections.randomElement(using: &random)!, value: next, using: &random)
        }
      }
      let expected = sections.map { $0.elements.map(String.init(describing:)) }
      guard adapter.mirrorValues == expected else {
        Issue.record("seed \(seed), iteration \(iteration): the mirror is not the model")
        return
      }
    }
    #expect(adapter.changesets.count == 40)
  }

  /// When the adapter keeps no changeset, the coordinator writes the next batch's changeset into
  /// the storage of the last one (its box, its lists and its list of new counts): every changeset
  /// written so must still be valid and replay to the model, with nothing left of the last one.
  @Test func changesetsWrittenIntoTheLastOnesStorageAreValid() {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0xB0C5)
    var random = SeededGenerator(seed: seed)
    var tree = RunPoolSmallListTests.Tree(using: &random, keepsChangesets: false)
    var reused = 0
    for iteration in 0..<RunPoolSmallListTests.iterations {
      if iteration % 25 == 0 {
        tree = RunPoolSmallListTests.Tree(using: &random, keepsChangesets: false)
      }
      if tree.coordinator.batchReducer.holdsSpareBox { reused += 1 }
      let changes = Int.random(in: 2...30, using: &random)
      tree.coordinator.performBatchUpdates {
        for _ in 0..<changes { tree.change(using: &random) }
      }
      // The adapter validates and replays each changeset, and reports what fails.
      let values = tree.sections.map { $0.elements.map(String.init(describing:)) }
      guard tree.adapter.mirrorValues.flatMap(\.self).sorted() == values.flatMap(\.self).sorted()
      else {
        Issue.record("seed \(seed), iteration \(iteration): the mirror is not the model")
        return
      }
    }
    // The adapter records copies of what it lets go: they keep nothing of the coordinator's.
    #expect(tree.adapter.changesets.count == tree.adapter.applyCount)
    // Every batch after one whose changeset had several parts starts with that one's box.
    #expect(reused > RunPoolSmallListTests.iterations / 5, "reused \(reused)")
  }
}
