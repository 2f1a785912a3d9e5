import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// A section that conforms to every handler and implements nothing it need not.
final class DefaultsSection: ArraySection<String>, SelectionHandler, EditingHandler, MoveHandler,
  ActionHandler
{
  func performAction(named name: String, at index: Int) {}
}

/// A section that conforms to every handler and records every call.
final class RecordingSection: ArraySection<String>, SelectionHandler, EditingHandler,
  MoveHandler, ActionHandler
{
  var multiple = false
  var refused: Set<Int> = []
  var pinned: Set<Int> = []
  var log: [String] = []
  var allowsMultipleSelection: Bool { multiple }
  func shouldHighlight(at index: Int) -> Bool { !refused.contains(index) }
  func shouldSelect(at index: Int) -> Bool { !refused.contains(index) }
  func shouldDeselect(at index: Int) -> Bool { !refused.contains(index) }
  func didSelect(at index: Int) { log.append("select \(index)") }
  func didDeselect(at index: Int) { log.append("deselect \(index)") }
  func allowsEditing(at index: Int) -> Bool { index != 0 }
  func didSetEditing(_ editing: Bool) { log.append("editing \(editing)") }
  func didSetEditing(_ editing: Bool, at index: Int) { log.append("editing \(editing) \(index)") }
  func canMove(at index: Int) -> Bool { !pinned.contains(index) }
  func targetIndex(sourceIndex: Int, proposedIndex: Int) -> Int { Swift.max(proposedIndex, 1) }
  func actions(at index: Int) -> [ElementAction] {
    [ElementAction(name: "shout"), ElementAction(name: "delete", isDestructive: true)]
  }
  func performAction(named name: String, at index: Int) {
    log.append("\(name) \(index)")
    if name == "delete" { remove(at: index) }
    if name == "shout" { self[index] = self[index].uppercased() }
  }
  func take() -> [String] {
    defer { log = [] }
    return log
  }
}

@Suite("Handlers: selection, editing, moves and actions routed by the coordinator")
struct HandlerTests {
  final class Fixture {
    let root = ComposedSectionProvider()
    let plain: ArraySection<String> = ["p0"]
    let a = RecordingSection(["a0", "a1", "a2", "a3"])
    let b = RecordingSection(["b0", "b1"])
    let coordinator: Coordinator
    let adapter = TestAdapter()

    init() {
      root.append(plain)
      root.append(a)
      root.append(b)
      coordinator = Coordinator(sectionProvider: root)
      coordinator.adapter = adapter
    }
  }

  // MARK: Defaults

  @Test func selectionDefaults() {
    let section = DefaultsSection(["x"])
    #expect(!section.allowsMultipleSelection)
    #expect(section.shouldHighlight(at: 0))
    #expect(section.shouldSelect(at: 0))
    #expect(section.shouldDeselect(at: 0))
    section.didSelect(at: 0)
    section.didDeselect(at: 0)
    // Outside a coordinator, the section side does nothing.
    section.select(index: 0)
    section.selectAll()
    section.deselect(index: 0)
    section.deselectAll()
    #expect(section.selectedIndexes.isEmpty)
  }

  @Test func editingMoveAndActionDefaults() {
    let section = DefaultsSection(["x", "y"])
    #expect(section.allowsEditing(at: 0))
    section.didSetEditing(true)
    section.didSetEditing(true, at: 0)
    #expect(!section.isEditing)
    #expect(section.editingIndexes.isEmpty)
    #expect(section.canMove(at: 0))
    #expect(section.targetIndex(sourceIndex: 0, proposedIndex: 1) == 1)
    section.didMove(from: 0, to: 1)  // ArraySection's default moves the element
    #expect(section.elements == ["y", "x"])
    #expect(section.actions(at: 0).isEmpty)
  }

  // MARK: Selection

  @Test func sectionsThatDoNotConformIgnoreSelection() {
    let f = Fixture()
    #expect(!f.coordinator.shouldSelect([0, 0]))
    #expect(!f.coordinator.shouldHighlight([0, 0]))
    #expect(!f.coordinator.selectElement(at: [0, 0]))
    #expect(f.coordinator.selectedIndexPaths.isEmpty)
  }

  @Test func selectAsksTheSectionAndTellsIt() {
    let f = Fixture()
    f.a.refused = [2]
    #expect(f.coordinator.shouldHighlight([1, 1]))
    #expect(!f.coordinator.shouldHighlight([1, 2]))
    #expect(f.coordinator.shouldSelect([1, 1]))
    #expect(!f.coordinator.userDidSelect([1, 2]))
    #expect(f.coordinator.userDidSelect([1, 1]))
    #expect(f.a.take() == ["select 1"])
    #expect(f.coordinator.selectedIndexPaths == [[1, 1]])
    #expect(f.a.selectedIndexes == [1])
    #expect(f.coordinator.isSelected([1, 1]))
    #expect(f.adapter.selections.isEmpty)  // the adapter initiated it
  }

  @Test func singleSelectionDeselectsThePreviousElementAndTellsTheAdapter() {
    let f = Fixture()
    f.adapter.userSelect([1, 0], in: f.coordinator)
    f.adapter.userSelect([1, 3], in: f.coordinator)
    #expect(f.a.take() == ["select 0", "deselect 0", "select 3"])
    #expect(f.adapter.deselections == [[[1, 0]]])
    #expect(f.adapter.mirrorSelectedIndexPaths == [[1, 3]])
    #expect(f.coordinator.selectedIndexPaths == [[1, 3]])
  }

  @Test func multipleSelectionKeepsEveryElement() {
    let f = Fixture()
    f.a.multiple = true
    f.coordinator.selectElement(at: [1, 3])
    f.coordinator.selectElement(at: [1, 0])
    #expect(f.a.selectedIndexes == [0, 3])
    #expect(f.adapter.deselections.isEmpty)
  }

  @Test func deselectAsksTheSection() {
    let f = Fixture()
    f.coordinator.selectElement(at: [1, 1])
    #expect(f.coordinator.shouldDeselect([1, 1]))
    #expect(!f.coordinator.shouldDeselect([1, 0]))  // not selected
    f.a.refused = [1]
    #expect(!f.coordinator.deselectElement(at: [1, 1]))
    f.a.refused = []
    #expect(f.coordinator.deselectElement(at: [1, 1]))
    #expect(f.a.take() == ["select 1", "deselect 1"])
    #expect(f.coordinator.selectedIndexPaths.isEmpty)
  }

  @Test func sectionSideSelectionIsReportedToTheAdapter() {
    let f = Fixture()
    f.b.multiple = true
    f.b.select(index: 1)
    #expect(f.adapter.selections == [[[2, 1]]])
    f.b.selectAll()
    #expect(f.adapter.selections == [[[2, 1]], [[2, 0]]])
    #expect(f.b.selectedIndexes == [0, 1])
    f.b.deselect(index: 0)
    #expect(f.adapter.deselections == [[[2, 0]]])
    f.b.deselectAll()
    #expect(f.adapter.deselections == [[[2, 0]], [[2, 1]]])
    #expect(f.b.take() == ["select 1", "select 0", "deselect 0", "deselect 1"])
    #expect(f.adapter.mirrorSelectedIndexPaths.isEmpty)
  }

  @Test func selectAllDoesNothingInASingleSelectionSection() {
    let f = Fixture()
    f.a.selectAll()
    #expect(f.a.selectedIndexes.isEmpty)
  }

  @Test func selectionFollowsInsertsDeletesAndMoves() {
    let f = Fixture()
    f.a.multiple = true
    f.adapter.userSelect([1, 1], in: f.coordinator)
    f.adapter.userSelect([1, 3], in: f.coordinator)
    _ = f.a.take()
    f.a.performBatchUpdates {
      f.a.insert("new", at: 0)  // a1 → 2, a3 → 4
      f.a.remove(at: 4)  // a3 deleted
      f.a.move(from: 2, to: 0)  // a1 → 0
      f.a[1] = "A-new"
    }
    #expect(f.coordinator.selectedIndexPaths == [[1, 0]])
    #expect(f.a.take() == ["deselect 3"])  // the index before the batch
    #expect(f.adapter.mirrorSelectedIndexPaths == [[1, 0]])
  }

  @Test func aReloadedElementStaysSelected() {
    let f = Fixture()
    f.adapter.userSelect([1, 2], in: f.coordinator)
    f.a[2] = "changed"
    #expect(f.coordinator.selectedIndexPaths == [[1, 2]])
    #expect(f.adapter.mirrorSelectedIndexPaths == [[1, 2]])
  }

  @Test func aDeletedSectionLeavesTheSelection() {
    let f = Fixture()
    f.coordinator.selectElement(at: [2, 1])
    _ = f.b.take()
    f.root.remove(f.b)
    #expect(f.coordinator.selectedIndexPaths.isEmpty)
    #expect(f.b.take() == ["deselect 1"])
    #expect(f.b.selectedIndexes.isEmpty)
  }

  @Test func selectionWorksAtAnyDepthAndThroughSegmentSwitches() {
    let root = ComposedSectionProvider()
    let middle = ComposedSectionProvider()
    let tabs = SegmentedSectionProvider()
    let first = RecordingSection(["f0", "f1"])
    let second = RecordingSection(["s0"])
    root.append(ArraySection(["top"]))
    root.append(middle)
    middle.append(tabs)
    tabs.append(first)
    tabs.append(second)
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = TestAdapter()
    coordinator.adapter = adapter
    first.select(index: 1)
    #expect(coordinator.selectedIndexPaths == [[1, 1]])
    tabs.currentIndex = 1
    #expect(coordinator.selectedIndexPaths.isEmpty)
    #expect(first.take() == ["select 1", "deselect 1"])
    first.select(index: 0)  // not shown: nothing happens
    #expect(first.selectedIndexes.isEmpty)
    #expect(coordinator.selectElement(at: [1, 0]))
    #expect(second.take() == ["select 0"])
    #expect(adapter.failures.isEmpty)
  }

  @Test func aReloadAfterAChangeClearsTheSelectionButAttachingKeepsIt() {
    let f = Fixture()
    f.coordinator.selectElement(at: [1, 1])
    let second = TestAdapter()
    f.coordinator.adapter = second
    #expect(second.selections == [[[1, 1]]])
    #expect(second.mirrorSelectedIndexPaths == [[1, 1]])
    f.coordinator.adapter = nil
    f.a.append("while detached")
    #expect(f.coordinator.selectedIndexPaths.isEmpty)
    #expect(f.a.take() == ["select 1", "deselect 1"])
  }

  // MARK: Editing

  @Test func setEditingReachesEveryShownSectionAndElement() {
    let f = Fixture()
    f.coordinator.setEditing(true)
    #expect(f.coordinator.isEditing)
    #expect(f.a.take() == ["editing true", "editing true 1", "editing true 2", "editing true 3"])
    #expect(f.b.take() == ["editing true", "editing true 1"])
    #expect(f.a.isEditing)
    #expect(f.a.editingIndexes == IndexSet([1, 2, 3]))
    #expect(f.coordinator.allowsEditing([1, 1]))
    #expect(!f.coordinator.allowsEditing([1, 0]))
    #expect(!f.coordinator.allowsEditing([0, 0]))
    f.coordinator.setEditing(false)
    #expect(f.a.take().first == "editing false")
    #expect(!f.a.isEditing)
  }

  @Test func sectionsAddedOrRemovedWhileEditingFollowTheEditingState() {
    let f = Fixture()
    f.coordinator.setEditing(true)
    _ = f.b.take()
    let late = RecordingSection(["l0", "l1"])
    f.root.append(late)
    #expect(late.take() == ["editing true", "editing true 1"])
    #expect(late.isEditing)
    f.root.remove(f.b)
    #expect(f.b.take() == ["editing false", "editing false 1"])
    #expect(!f.b.isEditing)
  }

  // MARK: Moves

  @Test func anAdapterMoveUpdatesTheModelWithoutAnEcho() {
    let f = Fixture()
    f.a.multiple = true
    f.adapter.userSelect([1, 1], in: f.coordinator)
    f.adapter.userSelect([1, 3], in: f.coordinator)
    let changesets = f.adapter.changesets.count
    #expect(f.adapter.userMove(from: [1, 3], to: [1, 1], in: f.coordinator) == [1, 1])
    #expect(f.a.elements == ["a0", "a3", "a1", "a2"])
    #expect(f.adapter.changesets.count == changesets)
    #expect(f.adapter.reloadCount == 1)
    #expect(f.coordinator.selectedIndexPaths == [[1, 1], [1, 2]])
    #expect(f.adapter.mirrorSelectedIndexPaths == [[1, 1], [1, 2]])
    #expect(f.adapter.mirrorValues[1] == ["a0", "a3", "a1", "a2"])
    // The data source still agrees with the model.
    f.a.append("a4")
    #expect(f.adapter.failures.isEmpty)
  }

  @Test func targetIndexPathAsksTheSectionAndStaysInTheSection() {
    let f = Fixture()
    f.a.pinned = [0]
    #expect(f.coordinator.canMove([1, 1]))
    #expect(!f.coordinator.canMove([1, 0]))
    #expect(!f.coordinator.canMove([0, 0]))
    #expect(f.coordinator.targetIndexPath(forMoveFrom: [1, 0], proposed: [1, 2]) == nil)
    #expect(f.coordinator.targetIndexPath(forMoveFrom: [1, 2], proposed: [1, 0]) == [1, 1])
    #expect(f.coordinator.targetIndexPath(forMoveFrom: [1, 2], proposed: [2, 0]) == [1, 3])
    #expect(f.coordinator.targetIndexPath(forMoveFrom: [1, 2], proposed: [0, 0]) == [1, 1])
  }

  @Test func aRefusedMoveMakesTheAdapterReload() {
    let f = Fixture()
    f.a.pinned = [0]
    #expect(!f.coordinator.moveElement(from: [1, 0], to: [1, 2]))
    #expect(f.adapter.reloadCount == 2)
    #expect(f.a.elements == ["a0", "a1", "a2", "a3"])
  }

  @Test func otherChangesMadeWhileMovingAreDelivered() {
    final class Stamping: ArraySection<String>, MoveHandler {
      func didMove(from: Int, to: Int) {
        performBatchUpdates {
          move(from: from, to: to)
          self[to] += "*"
        }
      }
    }
    let section = Stamping(["x", "y", "z"])
    let root = ComposedSectionProvider()
    root.append(section)
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = TestAdapter()
    coordinator.adapter = adapter
    adapter.userMove(from: [0, 0], to: [0, 2], in: coordinator)
    #expect(adapter.changesets == [Changeset(reloadedElements: [[0, 2]])])
    #expect(adapter.mirrorValues == [["y", "z", "x*"]])
    #expect(adapter.failures.isEmpty)
  }

  // MARK: Actions

  @Test func actionsAreListedAndTriggeredByName() {
    let f = Fixture()
    #expect(f.coordinator.actions(at: [1, 0]).map(\.name) == ["shout", "delete"])
    #expect(f.coordinator.actions(at: [0, 0]).isEmpty)
    #expect(f.coordinator.actions(at: [1, 0])[1].isDestructive)
    #expect(ElementAction(name: "go").title == "go")
    #expect(!f.coordinator.performAction("unknown", at: [1, 0]))
    #expect(!f.coordinator.performAction("delete", at: [0, 0]))
    #expect(f.coordinator.performAction("shout", at: [1, 1]))
    #expect(f.coordinator.performAction("delete", at: [1, 0]))
    #expect(f.a.elements == ["A1", "a2", "a3"])
    #expect(f.adapter.changesets.last == Changeset(deletedElements: [[1, 0]]))
    #expect(f.adapter.failures.isEmpty)
  }
}
