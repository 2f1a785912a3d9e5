import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// The reducer keeps a section's runs in a small list while they are few, and in a treap beyond
/// (``RunPool/Slots``). On random batches, reducers replaying the batch's events with lists of 16
/// runs, of 4 (most sections turn into treaps partway), and with treaps only read off the same
/// changeset, the same presented state, and the same answer to where every element went; and
/// every changeset the coordinator delivers passes the strict `TestAdapter`.
///
/// Reproduce a failure with `SECTIONKIT_SEED=<seed> swift test --filter RunPoolSmallListTests`;
/// run longer with `SECTIONKIT_FUZZ_ITERATIONS=<n>` (default 500 batches).
@Suite struct RunPoolSmallListTests {
  static let iterations =
    ProcessInfo.processInfo.environment["SECTIONKIT_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 500

  /// Random sections (some empty) under two providers, shown by a strict validating adapter.
  final class Tree {
    let providers = [ComposedSectionProvider(), ComposedSectionProvider()]
    let root = ComposedSectionProvider()
    var sections: [ArraySection<Int>] = []
    let coordinator: Coordinator
    /// Strict, except for one warning: the reducer keeps a reload in a batch with moves when
    /// UIKit's own arithmetic (which ignores moves) lands it on its true new path — the adapter's
    /// replay proves it does.
    let adapter = TestAdapter.toleratingReloadsWithMoves(record: TestAdapter.reportToTestFramework)
    var next = 1_000

    /// `keepsChangesets`: whether the adapter holds each changeset (and its storage, which the
    /// coordinator then cannot reuse), or records copies and lets it go.
    init(using random: inout SeededGenerator, keepsChangesets: Bool = true) {
      adapter.keepsChangesets = keepsChangesets
      for provider in providers { root.append(provider) }
      // Sometimes more sections than the reducer searches linearly (16).
      let sectionCount = Int.random(in: 1...(Bool.random(using: &random) ? 6 : 40), using: &random)
      for index in 0..<sectionCount {
        let section = ArraySection<Int>(Array(0..<Int.random(in: 0...12, using: &random)))
        sections.append(section)
        providers[index % 2].append(section)
      }
      coordinator = Coordinator(sectionProvider: root)
      coordinator.adapter = adapter
    }

    /// One random change: mostly an element change, sometimes a section inserted, removed or
    /// moved.
    func change(using random: inout SeededGenerator) {
      let provider = providers.randomElement(using: &random)!
      let children = provider.children.count
      switch Int.random(in: 0..<40, using: &random) {
      case 0:
        let section = ArraySection<Int>(Array(0..<Int.random(in: 0...4, using: &random)))
        sections.append(section)
        provider.insert(.section(section), at: Int.random(in: 0...children, using: &random))
      case 1 where children > 1:
        let removed = provider.remove(at: Int.random(in: 0..<children, using: &random)).object
        sections.removeAll { $0 === removed }
      case 2 where children > 1:
        provider.moveChild(
          at: Int.random(in: 0..<children, using: &random),
          to: Int.random(in: 0..<children, using: &random))
      default:
        guard let section = sections.randomElement(using: &random) else { return }
        next += 1
        Self.randomElementChange(in: section, value: next, using: &random)
      }
    }

    /// One random element change of `section`: a remove, an update to `value`, a move (never
    /// onto itself) or an insert of `value`.
    static func randomElementChange(
      in section: ArraySection<Int>, value: Int, using random: inout SeededGenerator
    ) {
      let count = section.count
      switch Int.random(in: 0..<4, using: &random) {
      case 1 where count > 0: section.remove(at: Int.random(in: 0..<count, using: &random))
      case 2 where count > 0: section[Int.random(in: 0..<count, using: &random)] = value
      case 3 where count > 1:
        let from = Int.random(in: 0..<count, using: &random)
        let offset = Int.random(in: 1..<count, using: &random)
        section.move(from: from, to: (from + offset) % count)
      default: section.insert(value, at: Int.random(in: 0...count, using: &random))
      }
    }
  }

  @Test func smallListsReadOffAsTreaps() {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0x5109)
    var random = SeededGenerator(seed: seed)
    var tree = Tree(using: &random)
    var compared = 0
    for iteration in 0..<Self.iterations {
      if iteration % 25 == 0 { tree = Tree(using: &random) }
      let coordinator = tree.coordinator
      let changes = Int.random(in: 2...60, using: &random)
      coordinator.performBatchUpdates {
        for _ in 0..<changes { tree.change(using: &random) }
        guard let events = coordinator.reducer?.events.events else { return }
        compared += 1
        // Inside the batch: the model holds the new state, the coordinator presents the old.
        let presented = coordinator.presented
        var reducers = [16, 4, 0].map { capacity in
          var reducer = BatchReducer(presented: presented, listCapacity: capacity)
          for event in events { reducer.apply(event) }
          return reducer
        }
        let commits = reducers.indices.map { reducers[$0].finish(mapping: coordinator.mapping) }
        let context = "seed \(seed), iteration \(iteration): \(events)"
        for (reducer, commit) in zip(reducers.dropLast(), commits.dropLast()) {
          #expect(commit.changeset == commits.last!.changeset, "\(context)")
          var state = presented
          state.apply(commit)
          var treapState = presented
          treapState.apply(commits.last!)
          #expect(state.counts == treapState.counts, "\(context)")
          for (section, count) in presented.counts.enumerated() {
            for item in 0..<count {
              let old = IndexPath(item: item, section: section)
              #expect(
                reducer.newPath(ofOld: old) == reducers.last!.newPath(ofOld: old),
                "\(context), \(old)")
            }
          }
        }
      }
      #expect(
        (0..<coordinator.numberOfSections).map { coordinator.numberOfElements(inSection: $0) }
          == coordinator.mapping.sections.map(\.numberOfElements),
        "seed \(seed), iteration \(iteration)")
    }
    #expect(compared > Self.iterations / 2)
  }
}
