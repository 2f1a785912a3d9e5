// The code of Docs/TestingYourSections.md, compiled and run. Keep the two in sync.
import SectionKit
import SectionKitTesting
import Testing
import XCTest

/// A section of the app under test: to-dos, newest first.
final class TodoSection: Section {
  struct Todo {
    var id: Int
    var title: String
    var done = false
  }

  weak var updateDelegate: (any SectionUpdateDelegate)?
  private(set) var todos: [Todo] = []
  var numberOfElements: Int { todos.count }

  func add(_ todo: Todo) {
    updateDelegate?.willBeginUpdating(self)
    todos.insert(todo, at: 0)
    updateDelegate?.section(self, didInsertElementAt: 0)
    updateDelegate?.didEndUpdating(self)
  }

  func rename(id: Int, to title: String) {
    guard let index = todos.firstIndex(where: { $0.id == id }) else { return }
    updateDelegate?.willBeginUpdating(self)
    todos[index].title = title
    updateDelegate?.section(self, didUpdateElementAt: index)
    updateDelegate?.didEndUpdating(self)
  }

  func removeDone() {
    updateDelegate?.willBeginUpdating(self)
    for index in todos.indices.reversed() where todos[index].done {
      todos.remove(at: index)
      updateDelegate?.section(self, didRemoveElementAt: index)
    }
    updateDelegate?.didEndUpdating(self)
  }
}

@Suite struct TodoSectionTests {
  /// Identity and content of a to-do, as the view would show it.
  static func describeTodo(_ section: any Section, at index: Int) -> String {
    guard let section = section as? TodoSection else {
      return TestAdapter.describeElement(section, at: index)
    }
    let todo = section.todos[index]
    return "\(todo.id):\(todo.title)" + (todo.done ? " ✓" : "")
  }

  @Test func renameAndClearInOneBatch_showsTheModel() {
    let todos = TodoSection()
    let root = ComposedSectionProvider()
    root.append(todos)
    let coordinator = Coordinator(sectionProvider: root)
    let view = TestAdapter(strict: true, elementReader: Self.describeTodo)
    coordinator.adapter = view

    todos.add(.init(id: 1, title: "milk"))
    todos.add(.init(id: 2, title: "bread", done: true))
    root.performBatchUpdates {
      todos.rename(id: 1, to: "oat milk")
      todos.removeDone()
    }

    view.assertMirror(equals: [["1:oat milk"]])
    view.assertLastChangeset(
      equals: Changeset(deletedElements: [[0, 0]], reloadedElements: [[0, 1]]))
    #expect(view.changesets.count == 3)
  }

  @Test func validatorOnItsOwn() {
    let validator = BatchValidator()
    // Counts only: does UIKit accept the batch?
    let violations = validator.validate(
      oldCounts: [3], newCounts: [3], changeset: Changeset(deletedElements: [[0, 1]]))
    #expect(violations.map(\.rule) == [.invalidNumberOfItems])

    // Values too: does the view end up showing the model?
    let result = validator.check(
      old: [["a@1", "b@1", "c@1"]], new: [["c@1", "a@1", "b@2"]],
      changeset: Changeset(
        reloadedElements: [[0, 1]], movedElements: [.init(from: [0, 2], to: [0, 0])]))
    #expect(result.errors.isEmpty)
    #expect(result.mismatch?.description == "replay mismatch at [0, 2]: expected b@2, got a@1")
  }
}

final class TodoTests: XCTestCase {
  func testRename() {
    let todos = TodoSection()
    let root = ComposedSectionProvider()
    root.append(todos)
    let coordinator = Coordinator(sectionProvider: root)
    let view = TestAdapter(elementReader: TodoSectionTests.describeTodo)
    coordinator.adapter = view
    todos.add(.init(id: 1, title: "milk"))
    XCTAssertTrue(view.assertMirror(equals: [["1:milk"]]))
  }
}
