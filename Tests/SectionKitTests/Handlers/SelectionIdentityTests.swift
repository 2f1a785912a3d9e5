import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// Issue 16: a selected element that is updated and moved in one batch becomes delete + insert
/// in the changeset; its selection follows it by identity.
@Suite("Selection follows an element's identity through a batch")
struct SelectionIdentityTests {
  final class Fixture {
    let tasks = RecordingSection(["t0", "t1", "t2", "t3"])
    let other = RecordingSection(["o0"])
    let adapter = TestAdapter(strict: true)
    let coordinator: Coordinator

    init() {
      tasks.multiple = true
      coordinator = coordinate([tasks, other], adapter: adapter)
    }
  }

  @Test func anUpdatedAndMovedElementKeepsItsSelection() {
    let f = Fixture()
    f.adapter.userSelect([0, 2], in: f.coordinator)
    _ = f.tasks.take()
    f.tasks.performBatchUpdates {
      f.tasks[2] = "T2"
      f.tasks.move(from: 2, to: 0)
    }
    #expect(
      f.adapter.lastChangeset == Changeset(deletedElements: [[0, 2]], insertedElements: [[0, 0]]))
    #expect(f.coordinator.selectedIndexPaths == [[0, 0]])
    #expect(f.tasks.selectedIndexes == [0])
    // The section's selection did not change; the view, which dropped the deleted cell's
    // selection, hears where the element is now.
    #expect(f.tasks.take() == [])
    #expect(f.adapter.selections == [[[0, 0]]])
    #expect(f.adapter.mirrorSelectedIndexPaths == [[0, 0]])
    #expect(f.adapter.failures.isEmpty)
  }

  @Test func aReloadThatUIKitWouldMisplaceKeepsItsSelection() {
    let f = Fixture()
    f.adapter.userSelect([0, 1], in: f.coordinator)
    f.adapter.userSelect([0, 3], in: f.coordinator)
    _ = f.tasks.take()
    // t1 updated while t3 moves before it: t1's reload would land wrong, so it is delete +
    // insert.
    f.tasks.performBatchUpdates {
      f.tasks[1] = "T1"
      f.tasks.move(from: 3, to: 0)
    }
    let changeset = f.adapter.lastChangeset!
    #expect(changeset.deletedElements.contains([0, 1]) || changeset.reloadedElements == [[0, 1]])
    #expect(f.coordinator.selectedIndexPaths == [[0, 0], [0, 2]])
    #expect(f.tasks.take() == [])
    #expect(f.adapter.mirrorSelectedIndexPaths == [[0, 0], [0, 2]])
    #expect(f.adapter.failures.isEmpty)
  }

  @Test func aDeletedElementStillLeaves() {
    let f = Fixture()
    f.adapter.userSelect([0, 2], in: f.coordinator)
    _ = f.tasks.take()
    f.tasks.performBatchUpdates {
      f.tasks.remove(at: 2)
      f.tasks.insert("t2", at: 0)
    }
    #expect(f.coordinator.selectedIndexPaths == [])
    #expect(f.tasks.take() == ["deselect 2"])
    #expect(f.adapter.selections == [])
  }
}

/// Changesets can move an element to another section (UIKit allows it; hand-written changesets
/// and diffing produce them): the selection follows it there when the destination can hold it,
/// and is reported lost otherwise.
@Suite("Selection through cross-section moves")
struct CrossSectionSelectionTests {
  @Test func aSelectedElementFollowsIntoAnotherSection() {
    var state = SelectionState()
    let a = Multiple([0, 1, 2])
    let b = Multiple([0, 1])
    _ = state.insert(1, of: a)
    _ = state.insert(0, of: b)
    // a's element 1 goes to b's front; b's element 0 shifts to 1.
    let changeset = Changeset(movedElements: [.init(from: [0, 1], to: [1, 0])])
    let sections: [any Section] = [a, b]
    let deselected = state.remap(through: changeset) { sections[$0] }
    #expect(deselected.map(\.index) == [1])
    #expect(state.indexes(of: a) == [])
    #expect(state.indexes(of: b) == [0, 1])
    #expect(state.movedAcross.followed.map(\.index) == [0])
    #expect(state.movedAcross.lost == [])
  }

  @Test func whereTheDestinationCannotHoldItTheSelectionIsLost() {
    var state = SelectionState()
    let a = Multiple([0, 1, 2])
    let single = Single([0, 1])
    let plain: ArraySection<Int> = [0]
    _ = state.insert(0, of: a)
    _ = state.insert(2, of: a)
    _ = state.insert(1, of: single)
    // Old sections [a, single, plain]; a section inserted at 0 shifts them by one.
    let changeset = Changeset(
      insertedSections: [0],
      movedElements: [.init(from: [0, 0], to: [2, 0]), .init(from: [0, 2], to: [3, 1])])
    let sections: [any Section] = [a, single, plain]
    let deselected = state.remap(through: changeset) { sections[$0] }
    #expect(deselected.map(\.index).sorted() == [0, 2])
    #expect(state.indexes(of: single) == [2])
    #expect(state.movedAcross.followed.isEmpty)
    #expect(state.movedAcross.lost == [[2, 0], [3, 1]])
  }
}
