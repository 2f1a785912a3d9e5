import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// Issue 16: a list-wide single selection, as `UICollectionView.allowsMultipleSelection =
/// false`, and which selection is the most recent.
@Suite("List-wide single selection and the most recent selection")
struct ListSelectionTests {
  final class Fixture {
    let today = RecordingSection(["t0", "t1"])
    let upcoming = RecordingSection(["u0", "u1", "u2"])
    let adapter = TestAdapter(strict: true)
    let coordinator: Coordinator
    init() {
      today.multiple = true
      upcoming.multiple = true
      coordinator = coordinate([today, upcoming], adapter: adapter)
    }
  }

  @Test func byDefaultEachSectionDecides() {
    let f = Fixture()
    f.adapter.userSelect([0, 0], in: f.coordinator)
    f.adapter.userSelect([1, 1], in: f.coordinator)
    #expect(f.coordinator.allowsMultipleSelection)
    #expect(f.coordinator.selectedIndexPaths == [[0, 0], [1, 1]])
    #expect(f.coordinator.lastSelectedIndexPath == [1, 1])
  }

  /// Selecting in Upcoming left Today's selection, and "rename the selected task" renamed the
  /// wrong one.
  @Test func selectingInOneSectionDeselectsEveryOther() {
    let f = Fixture()
    f.coordinator.allowsMultipleSelection = false
    f.adapter.userSelect([0, 0], in: f.coordinator)
    f.adapter.userSelect([0, 1], in: f.coordinator)
    #expect(f.coordinator.selectedIndexPaths == [[0, 1]])
    f.adapter.userSelect([1, 2], in: f.coordinator)
    #expect(f.coordinator.selectedIndexPaths == [[1, 2]])
    #expect(f.coordinator.lastSelectedIndexPath == [1, 2])
    #expect(f.today.take() == ["select 0", "deselect 0", "select 1", "deselect 1"])
    #expect(f.upcoming.take() == ["select 2"])
    #expect(f.adapter.deselections == [[[0, 0]], [[0, 1]]])
    #expect(f.adapter.mirrorSelectedIndexPaths == [[1, 2]])
    // A section's own call obeys it too; selectAll does nothing.
    f.today.select(index: 0)
    #expect(f.coordinator.selectedIndexPaths == [[0, 0]])
    f.upcoming.selectAll()
    #expect(f.coordinator.selectedIndexPaths == [[0, 0]])
    #expect(f.adapter.mirrorSelectedIndexPaths == [[0, 0]])
    #expect(f.adapter.failures.isEmpty)
  }

  @Test func turningItOffKeepsTheMostRecent() {
    let f = Fixture()
    f.adapter.userSelect([1, 0], in: f.coordinator)
    f.adapter.userSelect([0, 1], in: f.coordinator)
    f.adapter.userSelect([1, 2], in: f.coordinator)
    f.coordinator.allowsMultipleSelection = false
    #expect(f.coordinator.selectedIndexPaths == [[1, 2]])
    #expect(f.adapter.mirrorSelectedIndexPaths == [[1, 2]])
  }

  @Test func theMostRecentFollowsChangesetsAndEndsWithItsSelection() {
    let f = Fixture()
    f.adapter.userSelect([0, 0], in: f.coordinator)
    f.adapter.userSelect([1, 1], in: f.coordinator)
    f.upcoming.insert("new", at: 0)
    #expect(f.coordinator.lastSelectedIndexPath == [1, 2])
    f.upcoming.remove(at: 2)
    #expect(f.coordinator.lastSelectedIndexPath == nil)
    #expect(f.coordinator.selectedIndexPaths == [[0, 0]])
    f.upcoming.select(index: 0)
    #expect(f.coordinator.lastSelectedIndexPath == [1, 0])
    f.upcoming.deselect(index: 0)
    #expect(f.coordinator.lastSelectedIndexPath == nil)
  }

  /// When nothing is selected, nothing is left to follow: a changeset costs the selection
  /// nothing.
  @Test func nothingIsTrackedOnceNothingIsSelected() {
    let f = Fixture()
    f.adapter.userSelect([0, 0], in: f.coordinator)
    f.adapter.userDeselect([0, 0], in: f.coordinator)
    f.today.append("t2")
    #expect(f.coordinator.handlers.selection.tracked.isEmpty)
    #expect(f.coordinator.handlers.lastSelected == nil)
  }
}
