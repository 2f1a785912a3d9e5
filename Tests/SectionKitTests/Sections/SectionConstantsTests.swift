import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// Issue 16: an `ArraySection` subclass with constants of its own. The only initializer it must
/// write besides its own is `init()`, which it marks unavailable.
final class StoredTasks: ArraySection<String>, ActionHandler {
  let store: String
  let limit: Int

  init(store: String, limit: Int, _ tasks: [String] = []) {
    self.store = store
    self.limit = limit
    super.init(tasks)
  }

  @available(*, unavailable, message: "StoredTasks needs a store")
  required init() { fatalError("StoredTasks needs a store") }

  func actions(at index: Int) -> [ElementAction] { count < limit ? [.init(name: "copy")] : [] }
  func performAction(named name: String, at index: Int) { append("\(store): \(self[index])") }
}

@Suite("An ArraySection subclass with constants")
struct SectionConstantsTests {
  @Test func aSubclassWithLetConstantsWorksInATree() {
    let tasks = StoredTasks(store: "inbox", limit: 3, ["a"])
    let adapter = TestAdapter(strict: true)
    let coordinator = coordinate([tasks], adapter: adapter)
    #expect(coordinator.performAction("copy", at: [0, 0]))
    #expect(tasks.elements == ["a", "inbox: a"])
    #expect(adapter.mirrorValues == [["a", "inbox: a"]])
    #expect(tasks.limit == 3)
  }

  /// The section's own initializers and literals still work for ArraySection and for
  /// subclasses without constants.
  @Test func theInitializersStillWork() {
    let literal: ArraySection<Int> = [1, 2, 3]
    #expect(literal.elements == [1, 2, 3])
    #expect(ArraySection([4, 5]).elements == [4, 5])
    #expect(ArraySection<Int>(0..<3).elements == [0, 1, 2])
    #expect(ArraySection<Int>(repeating: 7, count: 2).elements == [7, 7])
    let recording: RecordingSection = ["x", "y"]
    #expect(recording.elements == ["x", "y"])
    #expect(RecordingSection(["z"]).elements == ["z"])
    #expect(RecordingSection().isEmpty)
  }
}
