import Foundation
import Testing

@testable import SectionKit

@Suite("Coordinator: batching, minimality and canonical form")
struct CoordinatorTests {
  final class Fixture {
    let root = ComposedSectionProvider()
    let a: ArraySection<String> = ["a0", "a1", "a2", "a3"]
    let b: ArraySection<String> = ["b0", "b1"]
    let coordinator: Coordinator
    let adapter = RecordingAdapter()

    init() {
      root.append(a)
      root.append(b)
      coordinator = Coordinator(sectionProvider: root)
      coordinator.adapter = adapter
      _ = adapter.take()
    }

    /// The only changeset delivered since the last call.
    func changeset() -> Changeset? {
      let entries = adapter.take()
      guard entries.count == 1, case .changeset(let changeset, _, _) = entries[0] else {
        return nil
      }
      return changeset
    }
  }

  @Test func attachingAnAdapterReloadsIt() {
    let fixture = Fixture()
    fixture.coordinator.adapter = RecordingAdapter()
    let adapter = fixture.coordinator.adapter as! RecordingAdapter
    #expect(adapter.entries == [.reload(counts: [4, 2])])
  }

  @Test func oneChangesetPerOutermostBatch() {
    let f = Fixture()
    f.root.performBatchUpdates {
      f.a.append("a4")
      f.coordinator.performBatchUpdates {
        f.b.remove(at: 0)
        f.a.performBatchUpdates { f.a[0] = "A0" }
      }
    }
    #expect(
      f.changeset()
        == Changeset(
          deletedElements: [.at(1, 0)], insertedElements: [.at(0, 4)], reloadedElements: [.at(0, 0)]
        ))
  }

  @Test func aChangeOutsideABatchIsABatchOfOne() {
    let f = Fixture()
    f.a.append("x")
    f.b.append("y")
    #expect(
      f.adapter.changesets == [
        Changeset(insertedElements: [.at(0, 4)]), Changeset(insertedElements: [.at(1, 2)]),
      ])
  }

  @Test func dataSourceAnswersOldCountsUntilUpdateData() {
    let f = Fixture()
    f.root.performBatchUpdates {
      f.a.remove(at: 0)
      f.root.append(ArraySection<String>(["c0"]))
      #expect(f.coordinator.numberOfSections == 2, "no answer runs ahead of the adapter")
      #expect(f.coordinator.numberOfElements(inSection: 0) == 4)
    }
    #expect(
      f.adapter.take() == [
        .changeset(
          Changeset(insertedSections: [2], deletedElements: [.at(0, 0)]), before: [4, 2],
          after: [3, 2, 1])
      ])
  }

  @Test func anAdapterThatNeverCallsUpdateDataStillSwitchesWhenApplyReturns() {
    let f = Fixture()
    f.adapter.callsUpdateData = false
    f.a.append("x")
    #expect(f.coordinator.numberOfElements(inSection: 0) == 5)
  }

  // MARK: Minimality

  @Test func insertThenRemoveInOneBatchIsNothing() {
    let f = Fixture()
    f.root.performBatchUpdates {
      f.a.insert("x", at: 1)
      f.a.remove(at: 1)
      let c = ArraySection<String>(["c"])
      f.root.append(c)
      f.root.remove(c)
    }
    #expect(f.adapter.take().isEmpty)
  }

  @Test func anUpdateToAnInsertedElementIsJustTheInsert() {
    let f = Fixture()
    f.root.performBatchUpdates {
      f.a.insert("x", at: 1)
      f.a[1] = "y"
    }
    #expect(f.changeset() == Changeset(insertedElements: [.at(0, 1)]))
  }

  @Test func changesInsideARemovedSectionVanish() {
    let f = Fixture()
    f.root.performBatchUpdates {
      f.a[0] = "A"
      f.a.remove(at: 3)
      f.a.append("z")
      f.root.remove(f.a)
    }
    #expect(f.changeset() == Changeset(deletedSections: [0]))
  }

  @Test func changesInsideAnInsertedSectionAreCoveredByTheInsert() {
    let f = Fixture()
    let c: ArraySection<String> = ["c0"]
    f.root.performBatchUpdates {
      f.root.insert(c, at: 0)
      c.append("c1")
      c[0] = "C0"
      f.b.append("b2")
    }
    #expect(f.changeset() == Changeset(insertedSections: [0], insertedElements: [.at(2, 2)]))
  }

  @Test func elementsThatKeepTheirRelativeOrderAreNotMoves() {
    let f = Fixture()
    f.a.move(from: 3, to: 0)
    #expect(f.changeset() == Changeset(movedElements: [.init(from: .at(0, 3), to: .at(0, 0))]))
    f.root.performBatchUpdates {
      f.a.remove(at: 0)
      f.a.append("a3")
    }
    // Removing and appending is a new element, not a move: the others keep their places.
    #expect(f.changeset() == Changeset(deletedElements: [.at(0, 0)], insertedElements: [.at(0, 3)]))
    f.root.performBatchUpdates {
      f.a.swapAt(0, 3)  // two moves on the section: one of them is enough for the view
    }
    #expect(f.changeset()?.movedElements.count == 2)
    f.root.performBatchUpdates {
      f.a.move(from: 0, to: 3)
      f.a.move(from: 0, to: 3)
    }
    // [x, y, z, w] → [z, w, x, y]: the longest run that keeps its order (z, w) stays.
    #expect(f.changeset()?.movedElements.count == 2)
    f.a.move(from: 1, to: 1)
    #expect(f.adapter.take().isEmpty)
  }

  @Test func aMoveAndBackIsNothing() {
    let f = Fixture()
    f.root.performBatchUpdates {
      f.a.move(from: 0, to: 3)
      f.a.move(from: 3, to: 0)
    }
    #expect(f.adapter.take().isEmpty)
  }

  // MARK: Canonical form (`Docs/Batching.md`, rule B11)

  @Test func anUpdatedElementThatMovedIsDeleteAndInsert() {
    let f = Fixture()
    f.root.performBatchUpdates {
      f.a[0] = "A0"
      f.a.move(from: 0, to: 2)
    }
    #expect(f.changeset() == Changeset(deletedElements: [.at(0, 0)], insertedElements: [.at(0, 2)]))
  }

  @Test func aReloadWhoseUIKitDestinationIsRightStaysAReload() {
    let f = Fixture()
    f.root.performBatchUpdates {
      f.a.remove(at: 0)  // a1 a2 a3
      f.a.insert("x", at: 3)  // a1 a2 a3 x
      f.a[1] = "A2"
    }
    #expect(
      f.changeset()
        == Changeset(
          deletedElements: [.at(0, 0)], insertedElements: [.at(0, 3)], reloadedElements: [.at(0, 2)]
        ))
  }

  @Test func aReloadThatMovesElsewhereWouldShiftIsDeleteAndInsert() {
    // [a0 a1 a2 a3] → move a3 to the front, update a1: new [a3 a0 a1 a2]. UIKit ignores moves when
    // it computes a reload's destination, so reloading old [0, 1] would land at [0, 1] (a0's place).
    let f = Fixture()
    f.root.performBatchUpdates {
      f.a.move(from: 3, to: 0)
      f.a[2] = "A1"
    }
    #expect(
      f.changeset()
        == Changeset(
          deletedElements: [.at(0, 1)], insertedElements: [.at(0, 2)],
          movedElements: [.init(from: .at(0, 3), to: .at(0, 0))]))
  }

  @Test func sectionChangesUseOldAndNewCoordinates() {
    let f = Fixture()
    let c: ArraySection<String> = ["c0"]
    f.root.performBatchUpdates {
      f.root.remove(f.a)  // old 0 deleted
      f.root.append(c)  // new 1 inserted
      f.b.remove(at: 1)  // old [1, 1] deleted
      f.b.insert("x", at: 0)  // new [0, 0] inserted
    }
    #expect(
      f.changeset()
        == Changeset(
          deletedSections: [0], insertedSections: [1], deletedElements: [.at(1, 1)],
          insertedElements: [.at(0, 0)]))
  }

  // MARK: Reloads

  @Test func invalidateAllTurnsTheWholeBatchIntoAReload() {
    final class Volatile: Section {
      weak var updateDelegate: (any SectionUpdateDelegate)?
      var numberOfElements = 2
    }
    let f = Fixture()
    let volatile = Volatile()
    f.root.performBatchUpdates {
      f.root.append(volatile)
      volatile.numberOfElements = 5
      volatile.updateDelegate?.invalidateAll(volatile)
      f.a.append("after the invalidation")
    }
    #expect(f.adapter.take() == [.reload(counts: [5, 2, 5])])
  }

  @Test func replacingTheProviderReloads() {
    let f = Fixture()
    let other = ComposedSectionProvider()
    other.append(ArraySection<Int>([1, 2, 3]))
    f.coordinator.replace(sectionProvider: other)
    #expect(f.adapter.take() == [.reload(counts: [3])])
    f.a.append("no longer presented")
    #expect(f.adapter.take().isEmpty)
    #expect(f.root.updateDelegate == nil, "the old root is released by the coordinator")
  }

  @Test func changesWithoutAnAdapterAreNotLost() {
    let root = ComposedSectionProvider()
    let coordinator = Coordinator(sectionProvider: root)
    let section: ArraySection<Int> = [1]
    root.append(section)
    section.append(2)
    #expect(coordinator.numberOfSections == 1)
    #expect(coordinator.numberOfElements(inSection: 0) == 2)
    let adapter = RecordingAdapter()
    coordinator.adapter = adapter
    #expect(adapter.take() == [.reload(counts: [2])])
    section.append(3)
    #expect(adapter.changesets == [Changeset(insertedElements: [.at(0, 2)])])
  }

  @Test func detachingTheAdapterStopsDelivery() {
    let f = Fixture()
    f.coordinator.adapter = nil
    f.a.append("x")
    #expect(f.adapter.take().isEmpty)
  }

  // MARK: Re-entrancy and the anchor's crash reports

  @Test func aChangeMadeWhileApplyingBecomesTheNextBatch() {
    let f = Fixture()
    f.adapter.duringApply = { coordinator in
      #expect(coordinator.state == .applying)
      f.b.append("b2")
      f.b.append("b3")
    }
    f.a.append("a4")
    #expect(
      f.adapter.take() == [
        .changeset(Changeset(insertedElements: [.at(0, 4)]), before: [4, 2], after: [5, 2]),
        .changeset(
          Changeset(insertedElements: [.at(1, 2), .at(1, 3)]), before: [5, 2], after: [5, 4]),
      ])
    #expect(f.coordinator.state == .idle)
  }

  @Test func aSectionAddedBeforeAnyAdapterIsShownByTheFirstReload() {
    let root = ComposedSectionProvider()
    let coordinator = Coordinator(sectionProvider: root)
    root.append(ArraySection<Int>([1, 2]))
    let adapter = RecordingAdapter()
    coordinator.adapter = adapter
    root.append(ArraySection<Int>([3]))
    #expect(
      adapter.take() == [
        .reload(counts: [2]),
        .changeset(Changeset(insertedSections: [1]), before: [2], after: [2, 1]),
      ])
  }

  @Test func oneHundredFiftySectionsInsertedAtOnceArriveAsOneChangeset() {
    let f = Fixture()
    f.root.performBatchUpdates {
      for index in 0..<150 { f.root.insert(ArraySection<Int>([index]), at: 1 + index) }
    }
    let changeset = f.changeset()
    #expect(changeset == Changeset(insertedSections: IndexSet(integersIn: 1..<151)))
    #expect(f.coordinator.numberOfSections == 152)
  }

  // MARK: A misbehaving adapter cannot corrupt the model

  final class UnrulyAdapter: ViewAdapter {
    var action: (Coordinator, @escaping () -> Void) -> Void = { _, _ in }
    var savedUpdate: (() -> Void)?
    var applied = 0
    var reloaded = 0
    func reloadData(from coordinator: Coordinator) { reloaded += 1 }
    func apply(
      _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
    ) {
      applied += 1
      action(coordinator, updateData)
    }
  }

  @Test func updateDataCalledTwiceOrLateDoesNothing() {
    let f = Fixture()
    let adapter = UnrulyAdapter()
    f.coordinator.adapter = adapter
    adapter.action = { _, update in
      update()
      update()
      adapter.savedUpdate = update
    }
    f.a.append("x")
    adapter.action = { _, _ in }
    f.b.append("y")
    adapter.savedUpdate?()  // a late call, after its batch and the next one
    #expect(f.coordinator.numberOfElements(inSection: 0) == 5)
    #expect(f.coordinator.numberOfElements(inSection: 1) == 3)
    #expect(adapter.applied == 2)
  }

  @Test func anAdapterThatDetachesItselfWhileApplyingLosesNothing() {
    let f = Fixture()
    let adapter = UnrulyAdapter()
    f.coordinator.adapter = adapter
    adapter.action = { coordinator, _ in
      f.b.append("made while detaching")
      coordinator.adapter = nil
    }
    f.a.append("x")
    #expect(adapter.applied == 1)
    f.a.append("y")
    let next = RecordingAdapter()
    f.coordinator.adapter = next
    #expect(next.take() == [.reload(counts: [6, 3])])
    f.b.remove(at: 0)
    #expect(next.changesets == [Changeset(deletedElements: [.at(1, 0)])])
  }

  @Test func anAdapterReplacedWhileApplyingMakesTheNewOneReload() {
    let f = Fixture()
    let adapter = UnrulyAdapter()
    let replacement = RecordingAdapter()
    f.coordinator.adapter = adapter
    adapter.action = { coordinator, update in
      update()
      coordinator.adapter = replacement
    }
    f.a.append("x")
    #expect(replacement.take() == [.reload(counts: [5, 2])])
    f.a.append("y")
    #expect(replacement.changesets == [Changeset(insertedElements: [.at(0, 5)])])
    #expect(adapter.applied == 1)
  }

  @Test func removedSectionsAreReleased() {
    let f = Fixture()
    weak var weakSection: ArraySection<Int>?
    do {
      let section = ArraySection<Int>([1])
      weakSection = section
      f.root.append(section)
      f.root.remove(section)
    }
    #expect(weakSection == nil)
  }

  @Test func changesetDescriptionListsPartsInUIKitOrder() {
    let changeset = Changeset(
      deletedSections: [1], insertedSections: [1, 2, 3], deletedElements: [.at(0, 1)],
      movedElements: [.init(from: .at(0, 0), to: .at(0, 2))])
    #expect(
      changeset.description == """
        deleted sections: 1
        deleted elements: [0, 1]
        moved elements: [0, 0] → [0, 2]
        inserted sections: 1-3
        """)
    #expect(!changeset.isEmpty && Changeset().isEmpty && Changeset().description == "no changes")
    let data = try! JSONEncoder().encode(changeset)
    #expect(try! JSONDecoder().decode(Changeset.self, from: data) == changeset)
  }
}
