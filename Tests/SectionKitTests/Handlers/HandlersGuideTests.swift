import Foundation
import SectionKit
import SectionKitTesting
import Testing

/// The example of Docs/Handlers.md, compiled and checked.
@Suite("Docs/Handlers.md example")
struct HandlersGuideTests {
  final class People: ArraySection<String>, SelectionHandler {
    var allowsMultipleSelection = false
    private(set) var picked: Set<String> = []
    func didSelect(at index: Int) { picked.insert(self[index]) }
    func didDeselect(at index: Int) { picked.remove(self[index]) }
  }

  struct Todo: Identifiable, Hashable {
    var id: Int
    var title: String
  }

  final class Todos: ArraySection<Todo>, SelectionHandler, ActionHandler {
    let name: String

    init(name: String, _ todos: [Todo] = []) {
      self.name = name
      super.init(todos)
    }

    @available(*, unavailable) required init() { fatalError("Todos needs a name") }

    func actions(at index: Int) -> [ElementAction] {
      [ElementAction(name: "rename", argumentLabel: "new title"), ElementAction(name: "done")]
    }

    func performAction(named name: String, at index: Int, argument: String?) {
      switch name {
      case "rename": self[index].title = argument!
      case "done": remove(at: index)
      default: break
      }
    }
  }

  @Test func aTaskListWithOneSelectionAndActions() throws {
    let view = TestAdapter(strict: true)

    let today = Todos(name: "Today", [Todo(id: 1, title: "Write"), Todo(id: 2, title: "Read")])
    let upcoming = Todos(name: "Upcoming", [Todo(id: 3, title: "Plan")])
    let list = ComposedSectionProvider()
    list.append(today)
    list.append(upcoming)
    let coordinator = Coordinator(sectionProvider: list)
    coordinator.adapter = view
    coordinator.allowsMultipleSelection = false

    coordinator.selectElement(at: [0, 1])
    coordinator.selectElement(at: [1, 0])
    #expect(view.deselections == [[[0, 1]]])
    let selected = try #require(coordinator.lastSelectedIndexPath)
    #expect(selected == [1, 0])
    coordinator.performAction("rename", at: selected, argument: "Plan the week")
    coordinator.performAction("done", at: try coordinator.indexPath(for: .id(1, in: today)))
    #expect(coordinator.selectedIndexPaths == [[1, 0]])

    #expect(today.map(\.title) == ["Read"])
    #expect(upcoming.map(\.title) == ["Plan the week"])
    #expect(upcoming.name == "Upcoming")
    #expect(view.failures.isEmpty)
  }

  @Test func contactsWithFamilyMultipleAndFriendsSingle() {
    let view = TestAdapter()

    let family = People(["Mum", "Dad", "Gran"])
    family.allowsMultipleSelection = true
    let friends = People(["Ada", "Grace"])
    let contacts = ComposedSectionProvider()
    contacts.append(family)
    contacts.append(friends)
    let coordinator = Coordinator(sectionProvider: contacts)
    coordinator.adapter = view

    coordinator.selectElement(at: [0, 0])
    coordinator.selectElement(at: [0, 2])
    coordinator.selectElement(at: [1, 0])
    coordinator.selectElement(at: [1, 1])
    #expect(coordinator.selectedIndexPaths == [[0, 0], [0, 2], [1, 1]])
    #expect(view.deselections == [[[1, 0]]])

    family.insert("Grandad", at: 0)
    #expect(coordinator.selectedIndexPaths == [[0, 1], [0, 3], [1, 1]])
    friends.deselectAll()
    #expect(view.deselections == [[[1, 0]], [[1, 1]]])
    #expect(family.picked == ["Mum", "Gran"])
    #expect(friends.picked.isEmpty)
  }
}
