import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// Issue 16: input from outside must not take a server down. A client one changeset behind
/// sends a path that is no longer shown, or names its element by identity.
@Suite("Input that may be late: ElementReference")
struct StaleInputTests {
  struct Task: Identifiable, Hashable {
    var id: Int
    var title: String
  }

  final class Tasks: ArraySection<Task>, SelectionHandler, ActionHandler, MoveHandler,
    EditingHandler
  {
    var allowsMultipleSelection: Bool { true }
    func actions(at index: Int) -> [ElementAction] {
      [ElementAction(name: "done"), ElementAction(name: "rename", argumentLabel: "title")]
    }
    func performAction(named name: String, at index: Int, argument: String?) {
      switch name {
      case "done": remove(at: index)
      case "rename": self[index].title = argument!
      default: break
      }
    }
  }

  final class Fixture {
    let today = Tasks([Task(id: 1, title: "a"), Task(id: 2, title: "b")])
    let plain: ArraySection<String> = ["p"]
    let adapter = TestAdapter(strict: true)
    let coordinator: Coordinator
    var root: ComposedSectionProvider { coordinator.root }
    init() { coordinator = coordinate([today, plain], adapter: adapter) }
  }

  @Test func aStalePathThrowsAClearErrorAndChangesNothing() {
    let f = Fixture()
    f.today.remove(at: 1)  // the client still shows [0, 1]
    let stale: ElementReference = .indexPath([0, 1])
    #expect(throws: ElementLookupError.elementOutOfRange([0, 1], elementCount: 1)) {
      try f.coordinator.userDidSelect(f.coordinator.indexPath(for: stale))
    }
    #expect(throws: ElementLookupError.elementOutOfRange([0, 1], elementCount: 1)) {
      try f.coordinator.element(stale)
    }
    #expect(throws: ElementLookupError.sectionOutOfRange([5, 0], sectionCount: 2)) {
      try f.coordinator.indexPath(for: .indexPath([5, 0]))
    }
    #expect(throws: ElementLookupError.malformed([0])) {
      try f.coordinator.indexPath(for: .indexPath([0]))
    }
    #expect(throws: ElementLookupError.elementOutOfRange([0, -1], elementCount: 1)) {
      try f.coordinator.indexPath(for: .indexPath([0, -1]))
    }
    #expect(f.coordinator.selectedIndexPaths == [])
    #expect(f.today.map(\.title) == ["a"])
    #expect(
      ElementLookupError.elementOutOfRange([0, 1], elementCount: 1).description
        == "Coordinator: element 1 of [0, 1] is out of range 0..<1 (section 0)")
  }

  @Test func aPathInRangeResolvesToItself() throws {
    let f = Fixture()
    let path = try f.coordinator.indexPath(for: .indexPath([0, 1]))
    #expect(path == [0, 1])
    #expect(f.coordinator.userDidSelect(path))
    #expect(f.coordinator.selectedIndexPaths == [[0, 1]])
    let element = try f.coordinator.element(.indexPath([0, 1]))
    #expect(element.section === f.today && element.index == 1)
  }

  @Test func anElementNamedByItsSectionAndIndex() throws {
    let f = Fixture()
    #expect(
      try f.coordinator.userDidSelect(f.coordinator.indexPath(for: .element(in: f.today, at: 1))))
    #expect(f.coordinator.selectedIndexPaths == [[0, 1]])
    #expect(try f.coordinator.indexPath(for: .element(in: f.today, at: 1)) == [0, 1])
    #expect(f.coordinator.indexPath(for: 0, in: f.plain) == [1, 0])
    #expect(f.coordinator.indexPath(for: 1, in: f.plain) == nil)
    let elsewhere = Tasks([])
    #expect(f.coordinator.indexPath(for: 0, in: elsewhere) == nil)
    #expect(throws: ElementLookupError.sectionNotShown("Tasks")) {
      try f.coordinator.indexPath(for: .element(in: elsewhere, at: 0))
    }
    #expect(throws: ElementLookupError.indexOutOfRange(2, elementCount: 2, section: "Tasks")) {
      try f.coordinator.indexPath(for: .element(in: f.today, at: 2))
    }
  }

  @Test func anElementNamedByItsID() throws {
    let f = Fixture()
    f.today.insert(Task(id: 3, title: "c"), at: 0)  // ids 3, 1, 2
    #expect(
      try f.coordinator.performAction(
        "rename", at: f.coordinator.indexPath(for: .id(2, in: f.today)), argument: "B"))
    #expect(f.today.map(\.title) == ["c", "a", "B"])
    #expect(try f.coordinator.indexPath(for: .id(1, in: f.today)) == [0, 1])
    #expect(
      try f.coordinator.performAction("done", at: f.coordinator.indexPath(for: .id(1, in: f.today)))
    )
    #expect(throws: ElementLookupError.noElementWithID("1", section: "Tasks")) {
      try f.coordinator.indexPath(for: .id(1, in: f.today))
    }
    #expect(throws: ElementLookupError.noElementWithID("x", section: "Tasks")) {
      try f.coordinator.indexPath(for: .id("x", in: f.today))
    }
    #expect(throws: ElementLookupError.sectionHasNoIDs("ArraySection<String>")) {
      try f.coordinator.indexPath(for: .id("p", in: f.plain))
    }
    #expect(f.adapter.failures.isEmpty)
  }

  /// Inside a batch that has changed the model the one resolver refuses every kind of reference
  /// (the handler handed the path would read another element); between batches it takes them.
  @Test func everyReferenceInsideABatchIsRefused() throws {
    let f = Fixture()
    var caught: [ElementLookupError] = []
    f.root.performBatchUpdates {
      f.today.insert(Task(id: 9, title: "z"), at: 0)
      for reference: ElementReference in [.indexPath([0, 0]), .element(in: f.today, at: 0)] {
        do { _ = try f.coordinator.indexPath(for: reference) } catch {
          if let error = error as? ElementLookupError { caught.append(error) }
        }
      }
    }
    #expect(caught == [.batchInProgress, .batchInProgress])
    #expect(try f.coordinator.indexPath(for: .id(9, in: f.today)) == [0, 0])
  }

  @Test func anIDInsideABatchIsRefused() {
    let f = Fixture()
    var caught: ElementLookupError?
    f.root.performBatchUpdates {
      f.today.append(Task(id: 9, title: "z"))
      do { _ = try f.coordinator.indexPath(for: .id(9, in: f.today)) } catch {
        caught = error as? ElementLookupError
      }
    }
    #expect(caught == .batchInProgress)
  }

  /// The forms that take an index path keep trapping: a path out of range there is a
  /// programming error.
  @Test func theIndexPathFormsStillTrap() async {
    await #expect(processExitsWith: .failure) {
      _ = coordinate([ArraySection(["a"])]).isSelected([0, 1])
    }
    await #expect(processExitsWith: .failure) {
      _ = coordinate([ArraySection(["a"])]).performAction("x", at: [1, 0])
    }
  }
}
