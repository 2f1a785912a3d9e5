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

    coordinator.select([0, 0])
    coordinator.select([0, 2])
    coordinator.select([1, 0])
    coordinator.select([1, 1])
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
