import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// Events from the bottom of chains 100,000 providers deep, and building such chains top-down:
/// every walk over the levels is a loop, and building is linear.
@Suite("Deep provider chains: the pipe")
struct DeepChainPipeTests {
  static let depth = 100_000

  @Test func anElementEventFromTheBottom_reachesAStrictAdapterWithItsGlobalIndex() throws {
    let bottom = ArraySection<Int>([1, 2, 3])
    let root = ComposedSectionProvider()
    root.append(DeepChainTests.chainBuiltBottomUp(depth: Self.depth, bottom: .section(bottom)))
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = TestAdapter(strict: true)
    coordinator.adapter = adapter
    bottom.append(4)
    let last = Self.depth / 2 - 1
    #expect(adapter.lastChangeset == Changeset(insertedElements: [[last, 3]]))
    bottom.performBatchUpdates {
      bottom.remove(at: 0)
      bottom[0] = 20
    }
    #expect(
      adapter.lastChangeset
        == Changeset(deletedElements: [[last, 0]], reloadedElements: [[last, 1]]))
    #expect(coordinator.numberOfElements(inSection: last) == 3)
  }

  @Test func anElementEventFromTheBottom_withNoCoordinator_travelsUpWithoutRecursion() {
    let bottom = ArraySection<Int>([1])
    let root = ComposedSectionProvider()
    root.append(DeepChainTests.chainBuiltBottomUp(depth: Self.depth, bottom: .section(bottom)))
    bottom.append(2)
    bottom.performBatchUpdates { bottom.removeAll() }
    #expect(bottom.isEmpty)
    let mapping = SectionProviderMapping(sectionProvider: root)
    let recorder = MappingRecorder(mapping)
    bottom.append(3)
    #expect(
      recorder.take() == [
        .willBeginUpdating, .element(.insert(0), inSection: Self.depth / 2 - 1), .didEndUpdating,
      ])
  }

  @Test func sectionsInsertedAndRemovedAtTheBottom_areCountedWithoutRecursion() throws {
    let inner = ComposedSectionProvider()
    inner.append(ArraySection<Int>([1]))
    let root = ComposedSectionProvider()
    root.append(DeepChainTests.chainBuiltBottomUp(depth: Self.depth, bottom: .provider(inner)))
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = TestAdapter(strict: true)
    coordinator.adapter = adapter
    let added = ArraySection<Int>([7, 8])
    inner.append(added)
    let sections = Self.depth / 2 + 1
    #expect(adapter.lastChangeset == Changeset(insertedSections: [sections - 1]))
    // Every level's cached offsets are stale now: the first count walks them with a loop.
    #expect(root.numberOfSections == sections)
    #expect(coordinator.mapping.sectionOffset(for: added) == sections - 1)
    inner.remove(added)
    #expect(adapter.lastChangeset == Changeset(deletedSections: [sections - 1]))
    #expect(root.numberOfSections == sections - 1)
  }

  /// A chain built top-down: each new provider is appended under the deepest one; with a
  /// section first when `filled`, so that the new provider is not empty when it joins.
  static func chainBuiltTopDown(depth: Int, filled: Bool) -> ComposedSectionProvider {
    let root = ComposedSectionProvider()
    var deepest: any ParentSectionProvider = root
    for level in 1..<depth {
      let next: any ParentSectionProvider =
        level % 2 == 0 ? ComposedSectionProvider() : SegmentedSectionProvider()
      if filled { next.append(ArraySection<Int>([level])) }
      deepest.append(next)
      deepest = next
    }
    return root
  }

  @Test(arguments: [false, true])
  func buildingAChainTopDown_walksAncestorsLinearly(filled: Bool) {
    let depth = 2_000
    let counter = AncestorWalk.Counter()
    let root = AncestorWalk.$counter.withValue(counter) {
      Self.chainBuiltTopDown(depth: depth, filled: filled)
    }
    #expect(counter.steps <= 2 * depth, "the cycle checks took \(counter.steps) steps")
    #expect(root.numberOfSections == (filled ? 1 : 0))
  }

  @Test func aChainOneHundredThousandDeep_isBuiltTopDown_thenPresented() throws {
    let root = ComposedSectionProvider()
    var deepest: any ParentSectionProvider = root
    for level in 1..<Self.depth {
      let next: any ParentSectionProvider =
        level % 2 == 0 ? ComposedSectionProvider() : SegmentedSectionProvider()
      deepest.append(next)
      deepest = next
    }
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = TestAdapter(strict: true)
    coordinator.adapter = adapter
    let section = ArraySection<Int>([1, 2])
    deepest.append(section)
    #expect(adapter.lastChangeset == Changeset(insertedSections: [0]))
    #expect(root.numberOfSections == 1)
    #expect(coordinator.mapping.indexPath(for: 1, in: section) == [0, 1])
  }
}
