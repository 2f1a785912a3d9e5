import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// Issue 16: actions take no argument, so "rename to …" cannot be an action.
@Suite("Actions with an argument")
struct ActionArgumentTests {
  final class Names: ArraySection<String>, ActionHandler {
    func actions(at index: Int) -> [ElementAction] {
      [ElementAction(name: "rename", argumentLabel: "new name"), ElementAction(name: "drop")]
    }
    func performAction(named name: String, at index: Int, argument: String?) {
      switch name {
      case "rename": self[index] = argument!
      case "drop": remove(at: index)
      default: break
      }
    }
  }

  static func attach(_ section: any Section) -> (Coordinator, TestAdapter) {
    let adapter = TestAdapter(strict: true)
    return (coordinate([section], adapter: adapter), adapter)
  }

  @Test func renameToIsAnAction() {
    let names = Names(["ada", "grace"])
    let (coordinator, adapter) = Self.attach(names)
    #expect(coordinator.actions(at: [0, 1]).first?.argumentLabel == "new name")
    #expect(coordinator.performAction("rename", at: [0, 1], argument: "Grace"))
    #expect(names.elements == ["ada", "Grace"])
    #expect(adapter.lastChangeset == Changeset(reloadedElements: [[0, 1]]))
    // An action that takes an argument is not performed without one.
    #expect(!coordinator.performAction("rename", at: [0, 0]))
    #expect(names.elements == ["ada", "Grace"])
    // One that takes none gets `nil`.
    #expect(coordinator.performAction("drop", at: [0, 0]))
    #expect(names.elements == ["Grace"])
  }

  /// A section written before actions took arguments keeps working.
  @Test func theArgumentlessRequirementStillWorks() {
    let section = RecordingSection(["a"])
    let (coordinator, _) = Self.attach(section)
    #expect(coordinator.performAction("shout", at: [0, 0], argument: "ignored"))
    #expect(section.elements == ["A"])
  }

  @Test func aSectionThatListsActionsItDoesNotPerformTraps() async {
    await #expect(processExitsWith: .failure) {
      final class Listing: ArraySection<String>, ActionHandler {
        func actions(at index: Int) -> [ElementAction] { [ElementAction(name: "go")] }
      }
      coordinate([Listing(["a"])]).performAction("go", at: [0, 0])
    }
  }

  @Test func anActionWithoutALabelDecodesFromOlderJSON() throws {
    let json = Data(#"{"name":"archive","title":"Archive","isDestructive":false}"#.utf8)
    let action = try JSONDecoder().decode(ElementAction.self, from: json)
    #expect(action == ElementAction(name: "archive", title: "Archive"))
    #expect(action.argumentLabel == nil)
  }
}
