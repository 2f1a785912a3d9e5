import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// An element event of a section inserted earlier in the open batch is covered by the section's
/// insertion: when every listener between the section and its coordinator is built in, the
/// event stops at the section instead of climbing the tree to be ignored there. A section that
/// leaves the tree (or the coordinator that presented it) reports to its next one, brackets
/// close once, and the fast path ends with the batch. (Listeners of the user's, which still
/// hear every event: `CoordinatorInsertedSectionsListenerTests`.)
@Suite("Element events of sections inserted in the open batch stop at the section")
struct CoordinatorInsertedSectionsTests {
  // MARK: Fixtures

  /// A coordinator presenting `root` through a strict test adapter that replays every
  /// changeset on a mirror of the elements and compares it with the model.
  static func present(_ root: any SectionProvider) -> (Coordinator, TestAdapter) {
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = TestAdapter(strict: true)
    coordinator.adapter = adapter
    return (coordinator, adapter)
  }

  /// The element events the coordinator's reducer recorded in the open batch.
  static func recordedElementEvents(_ coordinator: Coordinator) -> [SectionProviderMapping.Event] {
    (coordinator.reducer?.events.events ?? []).filter {
      if case .element = $0 { true } else { false }
    }
  }

  // MARK: The fast path

  @Test
  func fillingSectionsInsertedInTheBatch_reachesTheReducerAsTheirInsertionsOnly() {
    let root = ComposedSectionProvider()
    let providers = [ComposedSectionProvider(), ComposedSectionProvider()]
    let old = ArraySection<Int>([0, 1])
    providers[0].append(old)
    for provider in providers { root.append(provider) }
    let (coordinator, adapter) = Self.present(root)
    var recorded: [SectionProviderMapping.Event] = []
    root.performBatchUpdates {
      for step in 0..<4 {
        let section = ArraySection<Int>()
        providers[step % 2].append(section)
        for element in 0..<20 { section.append(element) }
        section.remove(at: 3)
        section[0] = 100
        section.move(from: 0, to: 5)
        section.append(contentsOf: [7, 8])
        section.performBatchUpdates {
          section.insert(9, at: 0)
          section.removeLast()
        }
      }
      old.append(2)
      recorded = Self.recordedElementEvents(coordinator)
    }
    // Only the element event of the section that was there before the batch climbed.
    #expect(recorded == [.element(.insert(2), inSection: 0)])
    #expect(adapter.failures.isEmpty)
    let changeset = adapter.lastChangeset
    // Sections 1 and 2 under the first provider, after the old one; 3 and 4 under the second.
    #expect(changeset?.insertedSectionRanges == [1..<5])
    #expect(changeset?.insertedElements == [IndexPath(item: 2, section: 0)])
    #expect(coordinator.numberOfElements(inSection: 1) == 21)
  }

  /// A section of the user's that calls its delegate by hand.
  final class TallySection: Section {
    weak var updateDelegate: (any SectionUpdateDelegate)?
    private(set) var numberOfElements = 0

    func add() {
      numberOfElements += 1
      updateDelegate?.willBeginUpdating(self)
      updateDelegate?.section(self, didInsertElementAt: numberOfElements - 1)
      updateDelegate?.section(self, didUpdateElementAt: 0)
      updateDelegate?.didEndUpdating(self)
    }
  }

  @Test
  func otherSectionsInsertedInTheBatch_stopTheirEventsToo() {
    let root = ComposedSectionProvider()
    let (coordinator, adapter) = Self.present(root)
    let single = SingleElementSection<String?>(element: nil)
    let tally = TallySection()
    var recorded: [SectionProviderMapping.Event] = []
    root.performBatchUpdates {
      root.append(single)
      root.append(tally)
      single.replace(element: "a")
      single.replace(element: "b")
      tally.add()
      tally.add()
      recorded = Self.recordedElementEvents(coordinator)
    }
    #expect(recorded.isEmpty)
    #expect(adapter.failures.isEmpty)
    #expect(adapter.lastChangeset?.insertedSectionRanges == [0..<2])
    #expect(coordinator.numberOfElements(inSection: 0) == 1)
    #expect(coordinator.numberOfElements(inSection: 1) == 2)
    // Between batches, each change is a batch of its own again.
    single.replace(element: nil)
    tally.add()
    #expect(adapter.failures.isEmpty)
    #expect(adapter.changesets.count == 3)
    #expect(coordinator.numberOfElements(inSection: 1) == 3)
  }

  @Test
  func aBatchOfTheCoordinatorsOwn_stopsTheEventsToo() {
    let root = ComposedSectionProvider()
    let (coordinator, adapter) = Self.present(root)
    var recorded: [SectionProviderMapping.Event] = []
    coordinator.performBatchUpdates {
      let section = ArraySection<Int>()
      root.append(section)
      for element in 0..<10 { section.append(element) }
      recorded = Self.recordedElementEvents(coordinator)
    }
    #expect(recorded.isEmpty)
    #expect(adapter.failures.isEmpty)
    #expect(adapter.changesets.count == 1)
    #expect(coordinator.numberOfElements(inSection: 0) == 10)
  }

  @Test
  func theFastPathEndsWithTheBatch() {
    let root = ComposedSectionProvider()
    let (coordinator, adapter) = Self.present(root)
    let section = ArraySection<Int>()
    root.performBatchUpdates {
      root.append(section)
      section.append(0)
    }
    section.append(1)
    root.performBatchUpdates { section.append(2) }
    #expect(adapter.failures.isEmpty)
    #expect(adapter.changesets.count == 3)
    #expect(adapter.changesets.last?.insertedElements == [IndexPath(item: 2, section: 0)])
    #expect(coordinator.numberOfElements(inSection: 0) == 3)
  }

  @Test
  func aChangeMadeWhileTheBatchIsApplied_reachesTheNextChangeset() {
    let root = ComposedSectionProvider()
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = RecordingAdapter()
    coordinator.adapter = adapter
    let section = ArraySection<Int>()
    adapter.duringApply = { _ in section.append(1) }
    root.performBatchUpdates {
      root.append(section)
      section.append(0)
    }
    #expect(adapter.changesets.count == 2)
    #expect(adapter.changesets.first?.insertedSectionRanges == [0..<1])
    #expect(adapter.changesets.last?.insertedElements == [IndexPath(item: 1, section: 0)])
    #expect(coordinator.numberOfElements(inSection: 0) == 2)
  }

  // MARK: Sections that move, leave and come back

  @Test
  func aSectionInsertedThenMovedRemovedAndFilled_inOneBatch() {
    let root = ComposedSectionProvider()
    let first = ComposedSectionProvider()
    let second = ComposedSectionProvider()
    let old = ArraySection<Int>([0, 1, 2])
    root.append(old)
    root.append(first)
    root.append(second)
    let (coordinator, adapter) = Self.present(root)
    let a = ArraySection<Int>()
    let b = ArraySection<Int>()
    root.performBatchUpdates {
      first.append(a)
      second.append(b)
      a.append(contentsOf: [1, 2, 3])
      b.append(4)
      // Moved with its provider, filled again.
      root.moveChild(at: 1, to: 0)
      a.append(5)
      // Removed, changed outside the tree, added back elsewhere, filled again.
      first.remove(a)
      a.append(6)
      second.insert(a, at: 0)
      a.remove(at: 0)
      b.append(7)
      old.remove(at: 1)
    }
    #expect(adapter.failures.isEmpty)
    let changeset = adapter.lastChangeset
    #expect(changeset?.insertedSectionRanges == [1..<3])
    #expect(changeset?.deletedElements == [IndexPath(item: 1, section: 0)])
    #expect(coordinator.numberOfElements(inSection: 1) == 4)
    #expect(coordinator.numberOfElements(inSection: 2) == 2)

    // The next batch sees every change of both sections again.
    root.performBatchUpdates {
      a.append(8)
      b.remove(at: 0)
    }
    #expect(adapter.failures.isEmpty)
    #expect(
      adapter.lastChangeset?.insertedElements == [IndexPath(item: 4, section: 1)])
    #expect(adapter.lastChangeset?.deletedElements == [IndexPath(item: 0, section: 2)])
  }

  @Test
  func aProviderThatLeavesTheTreeInTheBatch_reportsItsSectionsToItsNextParent() {
    let rootA = ComposedSectionProvider()
    let rootB = ComposedSectionProvider()
    rootB.append(ArraySection<Int>([0]))
    let (coordinatorA, adapterA) = Self.present(rootA)
    let (coordinatorB, adapterB) = Self.present(rootB)
    let provider = ComposedSectionProvider()
    let section = ArraySection<Int>()
    rootA.performBatchUpdates {
      rootA.append(provider)
      provider.append(section)
      section.append(0)
      rootA.remove(provider)
      // Presented by the other coordinator, between its batches: each change its own batch.
      rootB.append(provider)
      section.append(1)
    }
    #expect(adapterA.failures.isEmpty && adapterB.failures.isEmpty)
    #expect(coordinatorA.numberOfSections == 0)
    #expect(adapterB.lastChangeset?.insertedElements == [IndexPath(item: 1, section: 1)])
    #expect(coordinatorB.numberOfElements(inSection: 1) == 2)
  }

  @Test
  func aProviderThatLeavesTheTreeInTheBatch_reportsToADelegateOfTheUsers() {
    let root = ComposedSectionProvider()
    let (coordinator, adapter) = Self.present(root)
    let provider = ComposedSectionProvider()
    let section = ArraySection<Int>()
    let recorder = EventRecorder()
    root.performBatchUpdates {
      root.append(provider)
      provider.append(section)
      section.append(0)
      root.remove(provider)
      provider.updateDelegate = recorder
      section.append(1)
    }
    #expect(recorder.take() == ["begin", "section 0: insert(1)", "end"])
    #expect(adapter.failures.isEmpty)
    #expect(coordinator.numberOfSections == 0)
  }

  @Test
  func aSegmentSwitchedAwayAndBackInTheBatch() {
    let root = ComposedSectionProvider()
    let segmented = SegmentedSectionProvider()
    let first = ArraySection<Int>([0])
    let second = ArraySection<Int>()
    segmented.append(first)
    segmented.append(second)
    root.append(segmented)
    let (coordinator, adapter) = Self.present(root)
    root.performBatchUpdates {
      segmented.currentIndex = 1
      second.append(1)
      segmented.currentIndex = 0
      second.append(2)
      first.append(3)
      segmented.currentIndex = 1
      second.append(4)
    }
    #expect(adapter.failures.isEmpty)
    #expect(coordinator.numberOfElements(inSection: 0) == 3)
    // Switched away between batches: the section's changes reach no one.
    segmented.currentIndex = 0
    second.append(5)
    #expect(adapter.failures.isEmpty)
    #expect(coordinator.numberOfElements(inSection: 0) == 2)
    segmented.currentIndex = 1
    #expect(adapter.failures.isEmpty)
    #expect(coordinator.numberOfElements(inSection: 0) == 4)
  }

  // MARK: Brackets and coordinators

  @Test
  func nestedBatches_closeEveryBracketOnce() {
    let root = ComposedSectionProvider()
    let provider = ComposedSectionProvider()
    root.append(provider)
    let (coordinator, adapter) = Self.present(root)
    let section = ArraySection<Int>()
    let late = ArraySection<Int>()
    coordinator.performBatchUpdates {
      root.performBatchUpdates {
        provider.performBatchUpdates {
          provider.append(section)
          section.performBatchUpdates {
            section.append(1)
            section.append(contentsOf: [2, 3])
          }
        }
        section.append(4)
      }
      // A section whose own bracket opened before it joined the tree.
      late.performBatchUpdates {
        late.append(0)
        root.append(late)
        late.append(1)
        late.performBatchUpdates { _ = late.remove(at: 0) }
      }
      section.append(5)
    }
    #expect(adapter.failures.isEmpty)
    #expect(adapter.changesets.count == 1)
    #expect(adapter.lastChangeset?.insertedSectionRanges == [0..<2])
    #expect(coordinator.numberOfElements(inSection: 0) == 5)
    #expect(coordinator.numberOfElements(inSection: 1) == 1)
    // Every bracket closed: the next change is a batch of its own.
    section.append(6)
    #expect(adapter.changesets.count == 2)
    #expect(adapter.failures.isEmpty)
  }

  @Test
  func aSectionThatAnnouncedItsBracketBeforeItWasInserted_closesIt() {
    let root = ComposedSectionProvider()
    let section = ArraySection<Int>([0])
    root.append(section)
    let (coordinator, adapter) = Self.present(root)
    root.performBatchUpdates {
      section.performBatchUpdates {
        section.append(1)
        root.remove(section)
        root.append(section)
        section.append(2)
      }
      section.append(3)
    }
    #expect(adapter.failures.isEmpty)
    #expect(adapter.changesets.count == 1)
    #expect(coordinator.numberOfElements(inSection: 0) == 4)
    section.append(4)
    #expect(adapter.changesets.count == 2)
    #expect(adapter.lastChangeset?.insertedElements == [IndexPath(item: 4, section: 0)])
  }

  @Test
  func aCoordinatorAttachedInTheMiddleOfTheBatch() {
    let root = ComposedSectionProvider()
    let before = ArraySection<Int>()
    let after = ArraySection<Int>()
    var coordinator: Coordinator?
    var adapter: TestAdapter?
    root.performBatchUpdates {
      root.append(before)
      before.append(0)
      (coordinator, adapter) = Self.present(root)
      before.append(1)
      root.append(after)
      after.append(2)
      before.append(3)
    }
    #expect(adapter?.failures.isEmpty == true)
    #expect(adapter?.lastChangeset?.insertedSectionRanges == [1..<2])
    #expect(
      adapter?.lastChangeset?.insertedElements == [
        IndexPath(item: 1, section: 0), IndexPath(item: 2, section: 0),
      ])
    #expect(coordinator?.numberOfElements(inSection: 1) == 1)
  }

  @Test
  func aCoordinatorReleasedInTheMiddleOfTheBatch_leavesTheNextOneEveryEvent() {
    let root = ComposedSectionProvider()
    var first: Coordinator? = Coordinator(sectionProvider: root)
    first!.adapter = TestAdapter(strict: true)
    let section = ArraySection<Int>()
    var second: Coordinator?
    var adapter: TestAdapter?
    root.performBatchUpdates {
      root.append(section)
      section.append(0)
      first = nil
      (second, adapter) = Self.present(root)
      section.append(1)
    }
    #expect(first == nil)
    #expect(adapter?.failures.isEmpty == true)
    #expect(adapter?.lastChangeset?.insertedElements == [IndexPath(item: 1, section: 0)])
    #expect(second?.numberOfElements(inSection: 0) == 2)
  }

  @Test
  func aTreeReplacedInTheMiddleOfTheBatch_reportsToItsNextCoordinator() {
    let old = ComposedSectionProvider()
    let (coordinator, adapter) = Self.present(old)
    let section = ArraySection<Int>()
    var next: Coordinator?
    var nextAdapter: TestAdapter?
    coordinator.performBatchUpdates {
      old.append(section)
      section.append(0)
      coordinator.replace(sectionProvider: ComposedSectionProvider())
      (next, nextAdapter) = Self.present(old)
      section.append(1)
    }
    #expect(adapter.failures.isEmpty && nextAdapter?.failures.isEmpty == true)
    #expect(nextAdapter?.lastChangeset?.insertedElements == [IndexPath(item: 1, section: 0)])
    #expect(next?.numberOfElements(inSection: 0) == 2)
  }

  // MARK: Re-indexing section events

  @Test
  func indexSetsShiftedIntoAParentsCoordinates() {
    #expect(IndexSet().shifted(by: 3) == IndexSet())
    #expect(IndexSet([1, 2, 3]).shifted(by: 0) == IndexSet([1, 2, 3]))
    #expect(IndexSet(integersIn: 2..<5).shifted(by: 3) == IndexSet(integersIn: 5..<8))
    #expect(IndexSet([1, 2, 5]).shifted(by: 3) == IndexSet([4, 5, 8]))
    #expect(IndexSet([0, 7]).shifted(by: 1) == IndexSet([1, 8]))
  }
}
