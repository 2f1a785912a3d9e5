import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// An `ArraySection<Item>` that takes selection and records what it hears, by index and by the
/// element's id at the time of the call.
final class HeardItems: ArraySection<Item>, SelectionHandler {
  var multiple = true
  var heard: [String] = []
  var allowsMultipleSelection: Bool { multiple }
  func didSelect(at index: Int) { heard.append("select \(index)") }
  func didDeselect(at index: Int) { heard.append("deselect \(index)") }

  /// The ids of the selected elements, sorted.
  var selectedIDs: [Int] { selectedIndexes.map { self[$0].id }.sorted() }

  func take() -> [String] {
    defer { heard = [] }
    return heard
  }
}

/// Hardening issue, item 4: UIKit lands a reloaded element where rule B3 puts it (explicit
/// deletes and inserts only, moves ignored), and the selection must follow it there.
@Suite("Selection follows a reloaded element where UIKit lands it")
struct SelectionReloadTests {
  final class Fixture {
    let items: HeardItems
    let adapter = TestAdapter(strict: false)
    let coordinator: Coordinator

    init(_ ids: [Int]) {
      items = HeardItems(ids.map { Item(id: $0) })
      coordinator = coordinate([items], adapter: adapter)
    }

    /// The ids the coordinator, the adapter's view and the section name as selected.
    func selected() -> (coordinator: [Int], view: [Int], section: [Int], last: Int?) {
      (
        coordinator.selectedIndexPaths.map { items[$0[1]].id }.sorted(),
        adapter.mirrorSelectedIndexPaths.map { items[$0[1]].id }.sorted(),
        items.selectedIDs,
        coordinator.lastSelectedIndexPath.map { items[$0[1]].id }
      )
    }
  }

  @Test func aReloadBesideAMoveKeepsItsSelection() throws {
    // [a, b, c] → [c, b', a]: reloaded [0, 1], moved [0, 0] → [0, 2].
    let f = Fixture([1, 2, 3])
    f.adapter.userSelect([0, 1], in: f.coordinator)
    _ = f.items.take()
    try f.items.replaceElements(
      with: [Item(id: 3), Item(id: 2, version: 1), Item(id: 1)], identifiedBy: \.id,
      isUpdated: !=)
    let changeset = try #require(f.adapter.lastChangeset)
    #expect(changeset.reloadedElements == [[0, 1]])
    #expect(changeset.movedElements == [.init(from: [0, 0], to: [0, 2])])
    let selected = f.selected()
    #expect(selected.coordinator == [2])
    #expect(selected.view == [2])
    #expect(selected.section == [2])
    #expect(selected.last == 2)
    #expect(f.coordinator.selectedIndexPaths == [[0, 1]])
    #expect(f.items.take() == [])
    #expect(f.adapter.failures.isEmpty)
  }

  /// A reconfigured element keeps its cell, and so its selection, where rule B3 lands it.
  @Test func aReconfigureBesideAnInsertKeepsItsSelection() throws {
    let f = Fixture([1, 2, 3])
    f.adapter.userSelect([0, 1], in: f.coordinator)
    _ = f.items.take()
    f.items.performBatchUpdates {
      f.items.insert(Item(id: 9), at: 0)
      f.items.reconfigure(at: 2, with: Item(id: 2, version: 1))
    }
    #expect(f.adapter.lastChangeset?.reconfiguredElements == [[0, 1]])
    let selected = f.selected()
    #expect(selected.coordinator == [2] && selected.view == [2] && selected.section == [2])
    #expect(f.coordinator.selectedIndexPaths == [[0, 2]])
    #expect(f.items.take() == [])
    #expect(f.adapter.failures.isEmpty)
  }

  @Test func aSwapAndAnUpdateInOneBatchKeepTheSelection() throws {
    let f = Fixture([1, 2, 3])
    f.adapter.userSelect([0, 1], in: f.coordinator)
    _ = f.items.take()
    f.items.performBatchUpdates {
      f.items.swapAt(0, 2)
      f.items[1] = Item(id: 2, version: 1)
    }
    #expect(f.adapter.lastChangeset?.reloadedElements == [[0, 1]])
    let selected = f.selected()
    #expect(selected.coordinator == [2] && selected.view == [2] && selected.section == [2])
    #expect(selected.last == 2)
    #expect(f.items.take() == [])
    #expect(f.adapter.failures.isEmpty)
  }

  @Test func anInsertAReloadAndAMoveKeepTheSelection() throws {
    // [35, 20@4, 36], 35 and 36 selected: bump 20, move 35 to the end, swap, insert 37 at 0.
    let f = Fixture([35, 20, 36])
    f.items[1] = Item(id: 20, version: 4)
    f.adapter.userSelect([0, 0], in: f.coordinator)
    f.adapter.userSelect([0, 2], in: f.coordinator)
    _ = f.items.take()
    f.items.performBatchUpdates {
      f.items[1] = Item(id: 20, version: 5)
      f.items.move(from: 0, to: 2)
      f.items.swapAt(0, 1)
      f.items.insert(Item(id: 37), at: 0)
    }
    let changeset = try #require(f.adapter.lastChangeset)
    #expect(changeset.insertedElements == [[0, 0]])
    #expect(changeset.reloadedElements == [[0, 1]])
    #expect(changeset.movedElements == [.init(from: [0, 0], to: [0, 3])])
    #expect(f.coordinator.selectedIndexPaths == [[0, 1], [0, 3]])
    let selected = f.selected()
    #expect(selected.coordinator == [35, 36] && selected.view == [35, 36])
    #expect(selected.section == [35, 36])
    #expect(f.items.take() == [])
    #expect(f.adapter.failures.isEmpty)
  }

  @Test func aSectionMovedAndChangedKeepsItsSelection() throws {
    // The changeset deletes and inserts the section (B11); its elements survive by identity.
    let first = HeardItems([Item(id: 1), Item(id: 2)])
    let second = HeardItems([Item(id: 3)])
    let adapter = TestAdapter(strict: false)
    let coordinator = coordinate([first, second], adapter: adapter)
    adapter.userSelect([0, 1], in: coordinator)
    _ = first.take()
    coordinator.root.performBatchUpdates {
      coordinator.root.moveChild(at: 0, to: 1)
      first[0].version += 1
    }
    #expect(adapter.lastChangeset?.deletedSections == [0])
    #expect(coordinator.selectedIndexPaths == [[1, 1]])
    #expect(adapter.mirrorSelectedIndexPaths == [[1, 1]])
    #expect(first.selectedIDs == [2])
    #expect(coordinator.lastSelectedIndexPath == [1, 1])
    #expect(first.take() == [])
    #expect(adapter.failures.isEmpty)
  }
}
