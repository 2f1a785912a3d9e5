import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// The climb of an element change made as a batch of its own (`ChildLink.carryOwnBatch`), which
/// passes the change up without a `Hop` while every provider on the way has its bracket closed,
/// and the coordinator's `applyOwnBatch`, which hands it to the adapter without recording it:
/// on random trees of composed and segmented providers, every such change must reach the
/// mapping's delegate as the general climb delivers it, and the adapter as a valid changeset,
/// also when a provider on the way has a bracket open, a segment is not presented, offsets are
/// stale, or the adapter changes the model while it applies.
///
/// Reproduce a failure with `SECTIONKIT_SEED=<seed> swift test --filter ChildLinkOwnBatchTests`;
/// run longer with `SECTIONKIT_FUZZ_ITERATIONS=<n>` (default 2,000).
@Suite struct ChildLinkOwnBatchTests {
  static let iterations =
    ProcessInfo.processInfo.environment["SECTIONKIT_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 2_000

  /// Records what a mapping delivers.
  final class Recorder: SectionProviderMappingDelegate {
    var events: [SectionProviderMapping.Event] = []
    func mapping(
      _ mapping: SectionProviderMapping, didReceive event: SectionProviderMapping.Event
    ) {
      events.append(event)
    }
  }

  /// A random tree: a composed root over composed and segmented providers, two levels deep, with
  /// sections (some empty) at every level.
  final class Tree {
    let root = ComposedSectionProvider()
    var sections: [ArraySection<Int>] = []
    var composed: [ComposedSectionProvider] = []
    var segmented: [SegmentedSectionProvider] = []

    init(using random: inout SeededGenerator) {
      composed = [root]
      for _ in 0..<Int.random(in: 1...4, using: &random) { addProvider(using: &random) }
      for _ in 0..<Int.random(in: 2...8, using: &random) { addSection(using: &random) }
    }

    /// Any provider of the tree, as a parent.
    func randomParent(using random: inout SeededGenerator) -> any ParentSectionProvider {
      let all: [any ParentSectionProvider] = composed + segmented
      return all.randomElement(using: &random)!
    }

    func addProvider(using random: inout SeededGenerator) {
      let parent = randomParent(using: &random)
      if Bool.random(using: &random) {
        let provider = ComposedSectionProvider()
        parent.append(provider)
        composed.append(provider)
      } else {
        let provider = SegmentedSectionProvider()
        parent.append(provider)
        segmented.append(provider)
      }
    }

    /// A new section in a random provider, at a random position: the offsets cached after it go
    /// stale.
    func addSection(using random: inout SeededGenerator) {
      let section = ArraySection<Int>(Array(0..<Int.random(in: 0...4, using: &random)))
      let parent = randomParent(using: &random)
      parent.insert(section, at: Int.random(in: 0...parent.children.count, using: &random))
      sections.append(section)
    }

    /// Switches a random segmented provider to a random child.
    func switchSegment(using random: inout SeededGenerator) {
      guard let provider = segmented.randomElement(using: &random), provider.children.count > 0
      else { return }
      provider.currentIndex = Int.random(in: 0..<provider.children.count, using: &random)
    }

    /// The providers above `section`, nearest first.
    func ancestors(of section: ArraySection<Int>) -> [any ParentSectionProvider] {
      var result: [any ParentSectionProvider] = []
      var node: AnyObject = section
      while let parent = parentObject(of: node) as? any ParentSectionProvider {
        result.append(parent)
        node = parent
      }
      return result
    }
  }

  /// Makes one random element change of `section` (one that reports an event) and returns it.
  static func change(
    _ section: ArraySection<Int>, using random: inout SeededGenerator
  ) -> ElementChange {
    let count = section.count
    switch Int.random(in: 0..<4, using: &random) {
    case 1 where count > 0:
      let index = Int.random(in: 0..<count, using: &random)
      section.remove(at: index)
      return .remove(index)
    case 2 where count > 0:
      let index = Int.random(in: 0..<count, using: &random)
      section[index] = section[index] &+ 1
      return .update(index)
    case 3 where count > 1:
      let from = Int.random(in: 0..<count, using: &random)
      let to = (from + Int.random(in: 1..<count, using: &random)) % count
      section.move(from: from, to: to)
      return .move(from: from, to: to)
    default:
      let index = Int.random(in: 0...count, using: &random)
      section.insert(-1, at: index)
      return .insert(index)
    }
  }

  /// Runs `body` inside a bracket of `provider`.
  static func inBracket<R>(of provider: any ParentSectionProvider, _ body: () -> R) -> R {
    if let composed = provider as? ComposedSectionProvider {
      return composed.performBatchUpdates(body)
    }
    return (provider as! SegmentedSectionProvider).performBatchUpdates(body)
  }

  /// A mapping delegate hears each change as its own batch, at the section's global index, or
  /// nothing when the section is not presented: with every bracket closed (the climb without a
  /// hop), and with a bracket of a provider on the way open (the climb goes on as a hop there).
  @Test func eachChangeReachesTheMappingAsTheGeneralClimbDeliversIt() {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0xC11B)
    var random = SeededGenerator(seed: seed)
    var tree = Tree(using: &random)
    var mapping = SectionProviderMapping(sectionProvider: tree.root)
    let recorder = Recorder()
    mapping.delegate = recorder
    for iteration in 0..<Self.iterations {
      if iteration % 40 == 0 {
        mapping.delegate = nil
        mapping.detach()
        tree = Tree(using: &random)
        mapping = SectionProviderMapping(sectionProvider: tree.root)
        mapping.delegate = recorder
      }
      switch Int.random(in: 0..<10, using: &random) {
      case 0: tree.addSection(using: &random)
      case 1: tree.switchSegment(using: &random)
      case 2: tree.addProvider(using: &random)
      default:
        let section = tree.sections.randomElement(using: &random)!
        let global = mapping.sectionOffset(for: section)
        recorder.events = []
        let change: ElementChange
        let ancestors = tree.ancestors(of: section)
        if Bool.random(using: &random), let provider = ancestors.randomElement(using: &random) {
          change = Self.inBracket(of: provider) { Self.change(section, using: &random) }
        } else {
          change = Self.change(section, using: &random)
        }
        let expected: [SectionProviderMapping.Event] =
          global.map { [.willBeginUpdating, .element(change, inSection: $0), .didEndUpdating] }
          ?? []
        #expect(
          recorder.events == expected,
          "seed \(seed), iteration \(iteration): \(change) in section \(String(describing: global))"
        )
      }
      recorder.events = []
    }
  }

  /// An adapter that validates every changeset and, on some, changes the model before its
  /// `apply` returns, once the validating adapter read the new state: the change made then is
  /// the next batch.
  final class ReentrantAdapter: ViewAdapter {
    let validating = TestAdapter()
    var sections: [ArraySection<Int>] = []
    var random: SeededGenerator
    var reentered = 0

    init(seed: UInt64) {
      random = SeededGenerator(seed: seed)
    }

    func reloadData(from coordinator: Coordinator) {
      validating.reloadData(from: coordinator)
    }

    func apply(
      _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
    ) {
      validating.apply(changeset, from: coordinator, updateData: updateData)
      if Int.random(in: 0..<4, using: &random) == 0 { reenter() }
    }

    private func reenter() {
      guard let section = sections.randomElement(using: &random) else { return }
      reentered += 1
      _ = ChildLinkOwnBatchTests.change(section, using: &random)
    }
  }

  /// Through a coordinator: every change made outside a batch (most of them handed to the
  /// adapter at once), inside one, or by the adapter while it applies reaches the adapter as a
  /// valid changeset that replays to the model, and the coordinator presents the model after it.
  @Test func eachChangeReachesTheAdapterValid() {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0xC11C)
    var random = SeededGenerator(seed: seed)
    var tree = Tree(using: &random)
    var adapter = ReentrantAdapter(seed: seed)
    var coordinator = Coordinator(sectionProvider: tree.root)
    var reentered = 0
    for iteration in 0..<Self.iterations {
      if iteration % 40 == 0 {
        reentered += adapter.reentered
        tree = Tree(using: &random)
        adapter = ReentrantAdapter(seed: seed &+ UInt64(iteration))
        coordinator = Coordinator(sectionProvider: tree.root)
        coordinator.adapter = adapter
      }
      adapter.sections = tree.sections
      switch Int.random(in: 0..<10, using: &random) {
      case 0: tree.addSection(using: &random)
      case 1: tree.switchSegment(using: &random)
      case 2:
        let section = tree.sections.randomElement(using: &random)!
        coordinator.performBatchUpdates { _ = Self.change(section, using: &random) }
      default:
        _ = Self.change(tree.sections.randomElement(using: &random)!, using: &random)
      }
      #expect(
        (0..<coordinator.numberOfSections).map { coordinator.numberOfElements(inSection: $0) }
          == coordinator.mapping.sections.map(\.numberOfElements),
        "seed \(seed), iteration \(iteration)")
      #expect(coordinator.state == .idle, "seed \(seed), iteration \(iteration)")
    }
    // The re-entrant branch ran (the draws make it near certain; a fixed seed makes it exact).
    #expect(reentered + adapter.reentered > 0, "seed \(seed)")
  }
}
