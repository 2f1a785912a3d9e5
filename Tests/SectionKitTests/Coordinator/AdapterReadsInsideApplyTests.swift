import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// An adapter that reads element values inside `apply`, before it calls `updateData`.
final class ReadingBeforeUpdateAdapter: ViewAdapter {
  var paths: [IndexPath] = []
  var read: [String] = []
  var errors: [ElementLookupError] = []

  func reloadData(from coordinator: Coordinator) {}

  func apply(
    _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
  ) {
    for path in paths {
      do {
        let (section, index) = try coordinator.element(.indexPath(path))
        read.append((section as! ArraySection<String>)[index])
      } catch {
        errors.append(error)
      }
    }
    updateData()
  }
}

/// Issue 16: inside `apply`, before `updateData()`, the coordinator answers for the old state
/// while the sections already hold the new elements.
@Suite("Reading elements inside apply, before updateData")
struct AdapterReadsInsideApplyTests {
  /// `["a", "b", "c"]`, one batch `remove(at: 0)`, `removeLast()`: the survivor "b" was shown at
  /// `[0, 1]`; reading it before `updateData` must give "b", not trap.
  @Test func aSurvivorIsReadAtItsOldPath() async {
    await #expect(processExitsWith: .success) {
      let list: ArraySection<String> = ["a", "b", "c"]
      let coordinator = coordinate([list])
      final class Reader: ViewAdapter {
        var value: String?
        func reloadData(from coordinator: Coordinator) {}
        func apply(
          _ changeset: Changeset, from coordinator: Coordinator,
          updateData: @escaping () -> Void
        ) {
          let (section, index) = coordinator.sectionAndIndex(for: [0, 1])
          value = (section as! ArraySection<String>)[index]
          updateData()
        }
      }
      let reader = Reader()
      coordinator.adapter = reader
      list.performBatchUpdates {
        list.remove(at: 0)
        list.removeLast()
      }
      precondition(reader.value == "b")
    }
  }

  /// Reading the deleted `[0, 0]` gave "b" (another element's value): it traps, naming the path.
  @Test func aDeletedElementTrapsInsteadOfGivingAnotherValue() async {
    await #expect(processExitsWith: .failure) {
      let list: ArraySection<String> = ["a", "b", "c"]
      let coordinator = coordinate([list])
      final class Reader: ViewAdapter {
        func reloadData(from coordinator: Coordinator) {}
        func apply(
          _ changeset: Changeset, from coordinator: Coordinator,
          updateData: @escaping () -> Void
        ) {
          _ = coordinator.sectionAndIndex(for: [0, 0])
          updateData()
        }
      }
      coordinator.adapter = Reader()
      list.performBatchUpdates {
        list.remove(at: 0)
        list.removeLast()
      }
    }
  }

  /// The non-trapping form answers every old path: the survivor's value, a clear error for the
  /// deleted ones.
  @Test func theNonTrappingFormNamesWhatLeft() {
    let list: ArraySection<String> = ["a", "b", "c"]
    let coordinator = coordinate([list])
    let adapter = ReadingBeforeUpdateAdapter()
    adapter.paths = [[0, 0], [0, 1], [0, 2]]
    coordinator.adapter = adapter
    list.performBatchUpdates {
      list.remove(at: 0)
      list.removeLast()
    }
    #expect(adapter.read == ["b"])
    #expect(
      adapter.errors == [.deletedInBatch([0, 0]), .deletedInBatch([0, 2])])
    #expect(
      adapter.errors.first?.description
        == "Coordinator: [0, 0] was deleted by the changeset being applied")
  }

  /// Survivors are found through moves, inserts, reloads and section changes.
  @Test func survivorsAreFoundThroughEveryKindOfChange() {
    let first: ArraySection<String> = ["a", "b", "c", "d"]
    let second: ArraySection<String> = ["x"]
    let coordinator = coordinate([first, second])
    let root = coordinator.root
    let adapter = ReadingBeforeUpdateAdapter()
    adapter.paths = [[0, 0], [0, 1], [0, 2], [0, 3], [1, 0]]
    coordinator.adapter = adapter
    root.performBatchUpdates {
      root.insert(ArraySection<String>(["new"]), at: 0)
      first.move(from: 0, to: 3)  // b c d a
      first.insert("i", at: 0)  // i b c d a
      first[2] = "C"  // i b C d a
      first.remove(at: 3)  // i b C a
    }
    #expect(adapter.read == ["a", "b", "C", "x"])
    #expect(adapter.errors == [.deletedInBatch([0, 3])])
  }

  /// Program code inside an open batch reads through the coordinator the same way.
  @Test func insideAnOpenBatchToo() throws {
    let list: ArraySection<String> = ["a", "b", "c"]
    let coordinator = coordinate([list])
    coordinator.adapter = TestAdapter(strict: true)
    try list.performBatchUpdates {
      list.remove(at: 0)
      let (section, index) = coordinator.sectionAndIndex(for: [0, 2])
      #expect((section as! ArraySection<String>)[index] == "c")
      #expect(throws: ElementLookupError.deletedInBatch([0, 0])) {
        try coordinator.element(.indexPath([0, 0]))
      }
      let survivor = try coordinator.element(.indexPath([0, 1]))
      #expect(survivor.index == 0)
    }
    #expect(coordinator.sectionAndIndex(for: [0, 1]).index == 1)
  }
}
