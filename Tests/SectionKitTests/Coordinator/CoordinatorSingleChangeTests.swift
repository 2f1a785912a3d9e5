import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// The one-event path of the coordinator (a batch whose only event is an element change, read
/// off without a reducer) against the reducer, on random single changes: the same changeset,
/// the same presented state after it, and the same answer to where an element went.
///
/// Reproduce a failure with `SECTIONKIT_SEED=<seed> swift test --filter CoordinatorSingleChangeTests`;
/// run longer with `SECTIONKIT_FUZZ_ITERATIONS=<n>` (default 2,000).
@Suite struct CoordinatorSingleChangeTests {
  static let iterations =
    ProcessInfo.processInfo.environment["SECTIONKIT_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 2_000

  /// Random sections (some empty) under two providers, shown by a validating adapter.
  final class Tree {
    let root = ComposedSectionProvider()
    var sections: [ArraySection<Int>] = []
    let coordinator: Coordinator
    let adapter = TestAdapter()

    init(using random: inout SeededGenerator) {
      let providers = [ComposedSectionProvider(), ComposedSectionProvider()]
      for provider in providers { root.append(provider) }
      for index in 0..<Int.random(in: 1...6, using: &random) {
        let section = ArraySection<Int>(Array(0..<Int.random(in: 0...5, using: &random)))
        sections.append(section)
        providers[index % 2].append(section)
      }
      coordinator = Coordinator(sectionProvider: root)
      coordinator.adapter = adapter
    }
  }

  /// One random element change of `section` that reports an event (an equal write and a move
  /// onto itself report none); `false` when the section offers none.
  static func change(_ section: ArraySection<Int>, using random: inout SeededGenerator) -> Bool {
    let count = section.count
    switch Int.random(in: 0..<5, using: &random) {
    case 4 where count > 0:
      let index = Int.random(in: 0..<count, using: &random)
      section.reconfigure(at: index, with: section[index] &+ 1)
    case 1 where count > 0: section.remove(at: Int.random(in: 0..<count, using: &random))
    case 2 where count > 0:
      let index = Int.random(in: 0..<count, using: &random)
      section[index] = section[index] &+ 1
    case 3 where count > 1:
      let from = Int.random(in: 0..<count, using: &random)
      let offset = Int.random(in: 1..<count, using: &random)
      section.move(from: from, to: (from + offset) % count)
    default: section.insert(-1, at: Int.random(in: 0...count, using: &random))
    }
    return true
  }

  @Test func aSingleChangeReadsOffAsTheReducerDoes() {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0x5106)
    var random = SeededGenerator(seed: seed)
    var tree = Tree(using: &random)
    for iteration in 0..<Self.iterations {
      if iteration % 50 == 0 { tree = Tree(using: &random) }
      let coordinator = tree.coordinator
      let section = tree.sections.randomElement(using: &random)!
      let before = tree.adapter.changesets.count
      coordinator.performBatchUpdates {
        _ = Self.change(section, using: &random)
        guard let single = coordinator.singleChange, coordinator.reducer == nil else {
          Issue.record("seed \(seed), iteration \(iteration): no single change was recorded")
          return
        }
        // Inside the batch: the model holds the new state, the coordinator presents the old.
        var reducer = BatchReducer(presented: coordinator.presented)
        reducer.apply(single.event)
        let expected = reducer.finish(mapping: coordinator.mapping)
        // The reducer asks the model for the section's new count; the single change derives it.
        // Built in the coordinator's spare arrays (a copy: the coordinator's stay as they were).
        var spare = coordinator.spareArrays
        let actual = single.commit(
          oldCount: coordinator.presented.counts[single.section], spare: &spare)
        #expect(
          actual.changeset == expected.changeset,
          "seed \(seed), iteration \(iteration): \(single.event)")
        var expectedState = coordinator.presented
        expectedState.apply(expected)
        var actualState = coordinator.presented
        actualState.apply(actual)
        #expect(actualState.counts == expectedState.counts, "seed \(seed), iteration \(iteration)")
        // Where every element the adapter shows is now, in every section.
        for (index, count) in coordinator.presented.counts.enumerated() {
          for item in 0..<count {
            let old = IndexPath(item: item, section: index)
            #expect(
              single.newPath(ofOld: old) == reducer.newPath(ofOld: old),
              "seed \(seed), iteration \(iteration): \(single.event), \(old)")
          }
        }
      }
      // The same changeset reached the adapter, which validated it against its replay.
      #expect(tree.adapter.changesets.count == before + 1)
      #expect(
        (0..<coordinator.numberOfSections).map { coordinator.numberOfElements(inSection: $0) }
          == coordinator.mapping.sections.map(\.numberOfElements),
        "seed \(seed), iteration \(iteration)")
    }
  }

  /// A second event of the batch hands the first to a reducer: the batch reads off as a
  /// reducer of both.
  @Test func aSecondEventStartsTheReducerWithTheFirst() {
    let section: ArraySection<Int> = [0, 1, 2]
    let root = ComposedSectionProvider()
    root.append(section)
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = TestAdapter()
    coordinator.adapter = adapter
    coordinator.performBatchUpdates {
      section.remove(at: 0)
      #expect(coordinator.singleChange != nil && coordinator.reducer == nil)
      section.append(9)
      #expect(coordinator.singleChange == nil && coordinator.reducer != nil)
    }
    #expect(coordinator.singleChange == nil && coordinator.reducer == nil)
    #expect(adapter.changesets.count == 1)
  }

  /// The `updateData` closure of a batch that an adapter keeps does nothing once its batch is
  /// over, also while a later batch is being applied.
  @Test func aKeptUpdateDataClosureIsCutOff() {
    final class KeepingAdapter: ViewAdapter {
      var kept: (() -> Void)?
      var keep = true
      var countsSeen: [Int] = []
      func reloadData(from coordinator: Coordinator) {}
      func apply(
        _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
      ) {
        // A late call of the previous batch's closure: the presented state must not switch.
        kept?()
        countsSeen.append(coordinator.numberOfElements(inSection: 0))
        updateData()
        countsSeen.append(coordinator.numberOfElements(inSection: 0))
        kept = keep ? updateData : nil
      }
    }
    let section: ArraySection<Int> = [0]
    let root = ComposedSectionProvider()
    root.append(section)
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = KeepingAdapter()
    coordinator.adapter = adapter
    section.append(1)
    section.append(2)
    #expect(adapter.countsSeen == [1, 2, 2, 3])
    let kept = coordinator.updateDataCallback
    #expect(kept == nil, "a callback the adapter kept is cut off and not reused")
    adapter.keep = false
    adapter.kept = nil
    section.append(3)
    section.append(4)
    #expect(adapter.countsSeen == [1, 2, 2, 3, 3, 4, 4, 5])
  }
}
