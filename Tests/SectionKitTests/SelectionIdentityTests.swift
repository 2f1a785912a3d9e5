import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// Issue 16: a selected element that is updated and moved in one batch becomes delete + insert
/// in the changeset; its selection follows it by identity.
@Suite("Selection follows an element's identity through a batch")
struct SelectionIdentityTests {
  final class Fixture {
    let root = ComposedSectionProvider()
    let tasks = RecordingSection(["t0", "t1", "t2", "t3"])
    let other = RecordingSection(["o0"])
    let coordinator: Coordinator
    let adapter = TestAdapter(strict: true)

    init() {
      tasks.multiple = true
      root.append(tasks)
      root.append(other)
      coordinator = Coordinator(sectionProvider: root)
      coordinator.adapter = adapter
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
