import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// A card on a board: its identity and its title.
struct BoardCard: Hashable, CustomStringConvertible {
  var id: Int
  var title: String
  var description: String { "\(id):\(title)" }
}

/// A board column: cards whose id is a multiple of 7 are pinned to their column, a column holds
/// at most `capacity` cards, and a `stamping` column marks each card it receives (a change made
/// in the same call as the move, which reaches the adapter as a changeset).
final class BoardColumn: ArraySection<BoardCard>, MoveHandler, SelectionHandler {
  var capacity = Int.max
  var stamping = false
  var allowsMultipleSelection = true

  func canMoveOut(at index: Int, to destination: any MoveHandler) -> Bool {
    self[index].id % 7 != 0
  }

  func targetIndex(forMoveInFrom source: any MoveHandler, at sourceIndex: Int, proposedIndex: Int)
    -> Int?
  {
    count < capacity ? proposedIndex : nil
  }

  func didMoveIn(from source: any MoveHandler, at sourceIndex: Int, to index: Int) {
    guard let source = source as? BoardColumn else { return }
    performBatchUpdates {
      insert(source.remove(at: sourceIndex), at: index)
      if stamping { self[index].title += "*" }
    }
  }
}

/// Moves the adapter reports across sections (a board's card dragged to another column).
@Suite struct InteractiveMoveAcrossTests {
  final class Board {
    let columns: [ArraySection<BoardCard>]
    let root = ComposedSectionProvider()
    let coordinator: Coordinator
    let adapter: TestAdapter

    init(_ columns: [ArraySection<BoardCard>], keepsChangesets: Bool = false) {
      self.columns = columns
      for column in columns { root.append(column) }
      coordinator = Coordinator(sectionProvider: root)
      adapter = TestAdapter(strict: true)
      adapter.keepsChangesets = keepsChangesets
      coordinator.adapter = adapter
    }

    var model: [[String]] { columns.map { $0.elements.map(\.description) } }
  }

  static func cards(_ ids: ClosedRange<Int>) -> [BoardCard] {
    ids.map { BoardCard(id: $0, title: "c\($0)") }
  }

  @Test func bothSectionsMustAgree() {
    let open = BoardColumn(Self.cards(1...3))
    let full = BoardColumn(Self.cards(8...9))
    full.capacity = 2
    let plain = ArraySection(Self.cards(10...11))
    let board = Board([open, full, plain])
    let coordinator = board.coordinator
    // Into a column that accepts: the proposed index, clamped to 0...count.
    #expect(coordinator.targetIndexPath(forMoveFrom: [1, 0], proposed: [0, 3]) == [0, 3])
    #expect(coordinator.targetIndexPath(forMoveFrom: [1, 0], proposed: [0, 9]) == [0, 3])
    // A full column refuses: the move stays in the source column.
    #expect(coordinator.targetIndexPath(forMoveFrom: [0, 0], proposed: [1, 0]) == [0, 2])
    // A section that is no move handler refuses.
    #expect(coordinator.targetIndexPath(forMoveFrom: [0, 1], proposed: [2, 0]) == [0, 2])
    // A pinned card (id 7's multiple) is not given up; no card of a plain section moves.
    let pinned = BoardColumn([BoardCard(id: 7, title: "p")])
    let second = Board([pinned, BoardColumn(Self.cards(1...1))])
    #expect(second.coordinator.targetIndexPath(forMoveFrom: [0, 0], proposed: [1, 0]) == [0, 0])
    #expect(coordinator.targetIndexPath(forMoveFrom: [2, 0], proposed: [0, 0]) == nil)
  }

  @Test func aCardDraggedToAnotherColumnIsNotEchoed() {
    let todo = BoardColumn(Self.cards(1...3))
    let done = BoardColumn(Self.cards(4...5))
    let board = Board([todo, done])
    #expect(board.adapter.userMove(from: [0, 1], to: [1, 2], in: board.coordinator) == [1, 2])
    #expect(todo.elements.map(\.id) == [1, 3])
    #expect(done.elements.map(\.id) == [4, 5, 2])
    #expect(board.adapter.applyCount == 0)
    #expect(board.adapter.reloadCount == 1)
    #expect(board.adapter.mirrorValues == board.model)
    // The coordinator shows the moved state: the next change is relative to it.
    done.remove(at: 2)
    #expect(board.adapter.lastChangeset?.deletedElements == [[1, 2]])
    #expect(board.adapter.mirrorValues == board.model)
    #expect(board.adapter.failures.isEmpty)
  }

  @Test func theSelectionFollowsTheCard() {
    let todo = BoardColumn(Self.cards(1...3))
    let done = BoardColumn(Self.cards(4...5))
    done.allowsMultipleSelection = false
    let board = Board([todo, done])
    let coordinator = board.coordinator
    #expect(board.adapter.userSelect([0, 1], in: coordinator))
    #expect(board.adapter.userSelect([0, 2], in: coordinator))
    board.adapter.userMove(from: [0, 1], to: [1, 0], in: coordinator)
    #expect(coordinator.selectedIndexPaths == [[0, 1], [1, 0]])
    #expect(todo.selectedIndexes == [1])
    #expect(done.selectedIndexes == [0])
    // Into a single-selection column that already holds a selection: the selection is lost and
    // the view told so.
    board.adapter.userMove(from: [0, 1], to: [1, 3], in: coordinator)
    #expect(coordinator.selectedIndexPaths == [[1, 0]])
    #expect(board.adapter.deselections.last == [[1, 3]])
    #expect(board.adapter.mirrorSelection == [[false], [true, false, false, false]])
    #expect(board.adapter.failures.isEmpty)
  }

  @Test func changesMadeWithTheMoveAreDeliveredRelativeToTheMovedState() {
    let todo = BoardColumn(Self.cards(1...3))
    let done = BoardColumn(Self.cards(4...5))
    done.stamping = true
    let board = Board([todo, done])
    board.adapter.userMove(from: [0, 0], to: [1, 1], in: board.coordinator)
    #expect(board.adapter.applyCount == 1)
    #expect(board.adapter.lastChangeset?.reloadedElements == [[1, 1]])
    #expect(done.elements.map(\.title) == ["c4", "c1*", "c5"])
    #expect(board.adapter.mirrorValues == board.model)
    #expect(board.adapter.failures.isEmpty)
  }

  @Test func aMoveTheSectionsDoNotMakeReloadsTheView() {
    /// Accepts cards but only copies them in: no removal from the source.
    final class Copying: ArraySection<BoardCard>, MoveHandler {
      func targetIndex(
        forMoveInFrom source: any MoveHandler, at sourceIndex: Int, proposedIndex: Int
      ) -> Int? { proposedIndex }
      func didMoveIn(from source: any MoveHandler, at sourceIndex: Int, to index: Int) {
        insert((source as! BoardColumn)[sourceIndex], at: index)
      }
    }
    let todo = BoardColumn(Self.cards(1...2))
    let copying = Copying(Self.cards(4...4))
    let board = Board([todo, copying])
    #expect(board.adapter.userSelect([0, 0], in: board.coordinator))
    #expect(board.adapter.userMove(from: [0, 0], to: [1, 0], in: board.coordinator) == [1, 0])
    #expect(board.adapter.reloadCount == 2)
    #expect(board.adapter.mirrorValues == board.model)
    #expect(board.coordinator.selectedIndexPaths.isEmpty)
    #expect(todo.selectedIndexes.isEmpty)
    #expect(board.adapter.failures.isEmpty)
  }

  @Test func aRefusedMoveAcrossReloads() {
    let todo = BoardColumn(Self.cards(1...2))
    let full = BoardColumn(Self.cards(4...4))
    full.capacity = 1
    let board = Board([todo, full])
    #expect(!board.coordinator.moveElement(from: [0, 0], to: [1, 0]))
    #expect(board.adapter.reloadCount == 2)
    #expect(todo.elements.map(\.id) == [1, 2])
    #expect(full.elements.map(\.id) == [4])
  }

  @Test func aPathIntoAnotherSectionBeyondItsEndTraps() async {
    await #expect(processExitsWith: .failure) {
      let board = Board([BoardColumn(Self.cards(1...2)), BoardColumn(Self.cards(4...4))])
      board.coordinator.moveElement(from: [0, 0], to: [1, 2])
    }
  }

  /// Random boards and random steps — cards dragged within and across columns (some refused),
  /// program changes, user selections — through the strict `TestAdapter`, keeping changesets or
  /// letting them go by seed; after each step the view equals the model and a reference board,
  /// and the view's selection equals the coordinator's and a reference selection.
  @Test(arguments: 0..<40)
  func randomizedAgainstAReference(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    let columnCount = Int.random(in: 2...4, using: &random)
    var next = 1
    var reference: [[BoardCard]] = []
    var columns: [ArraySection<BoardCard>] = []
    for index in 0..<columnCount {
      let cards = (0..<Int.random(in: 0...4, using: &random)).map { _ in
        defer { next += 1 }
        return BoardCard(id: next, title: "c\(next)")
      }
      reference.append(cards)
      if index == columnCount - 1 && seed % 3 == 0 {
        columns.append(ArraySection(cards))  // a column that takes part in no move
      } else {
        let column = BoardColumn(cards)
        column.capacity = Int.random(in: 3...8, using: &random)
        column.stamping = Bool.random(using: &random)
        column.allowsMultipleSelection = Bool.random(using: &random)
        columns.append(column)
      }
    }
    let board = Board(columns, keepsChangesets: seed % 2 == 0)
    let coordinator = board.coordinator
    let adapter = board.adapter
    var selected: Set<Int> = []
    func column(_ index: Int) -> BoardColumn? { columns[index] as? BoardColumn }
    func multiple(_ index: Int) -> Bool { column(index)?.allowsMultipleSelection ?? false }

    for step in 0..<60 {
      let c = Int.random(in: 0..<columnCount, using: &random)
      let count = reference[c].count
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<4 where count > 0:
        // The user drags a card towards a random place, in its column or another.
        let from = IndexPath(item: Int.random(in: 0..<count, using: &random), section: c)
        let d = Int.random(in: 0..<columnCount, using: &random)
        let proposed = IndexPath(
          item: Int.random(in: 0...reference[d].count, using: &random), section: d)
        let card = reference[c][from[1]]
        guard let target = adapter.userMove(from: from, to: proposed, in: coordinator) else {
          #expect(column(c) == nil, "seed \(seed) step \(step)")
          continue
        }
        if target[0] == c {
          reference[c].insert(reference[c].remove(at: from[1]), at: target[1])
          continue
        }
        // Both columns agreed: the expected outcome.
        let destination = column(target[0])!
        #expect(card.id % 7 != 0 && reference[target[0]].count < destination.capacity)
        var moved = reference[c].remove(at: from[1])
        if destination.stamping { moved.title += "*" }
        reference[target[0]].insert(moved, at: target[1])
        if selected.contains(card.id), !multiple(target[0]),
          reference[target[0]].contains(where: { $0.id != card.id && selected.contains($0.id) })
        {
          selected.remove(card.id)
        }
      case 4 where count > 0:
        // The program removes a card.
        let index = Int.random(in: 0..<count, using: &random)
        selected.remove(reference[c].remove(at: index).id)
        columns[c].remove(at: index)
      case 5:
        // The program inserts a card.
        let index = Int.random(in: 0...count, using: &random)
        let card = BoardCard(id: next, title: "c\(next)")
        next += 1
        reference[c].insert(card, at: index)
        columns[c].insert(card, at: index)
      case 6 where count > 0:
        // The program renames a card.
        let index = Int.random(in: 0..<count, using: &random)
        reference[c][index].title += "'"
        columns[c][index].title += "'"
      case 7..<10 where count > 0:
        // The user selects a card.
        let index = Int.random(in: 0..<count, using: &random)
        let path = IndexPath(item: index, section: c)
        guard !coordinator.isSelected(path) else { continue }
        if adapter.userSelect(path, in: coordinator) {
          if !multiple(c) { selected.subtract(reference[c].map(\.id)) }
          selected.insert(reference[c][index].id)
        }
      default:
        continue
      }
      let label = "seed \(seed) step \(step)"
      #expect(board.model == reference.map { $0.map(\.description) }, "\(label)")
      #expect(adapter.mirrorValues == board.model, "\(label)")
      let shown = adapter.mirrorSelection.enumerated().flatMap { section, flags in
        flags.indices.filter { flags[$0] }.map { IndexPath(item: $0, section: section) }
      }
      #expect(shown == coordinator.selectedIndexPaths, "\(label)")
      let selectedIDs = Set(coordinator.selectedIndexPaths.map { reference[$0[0]][$0[1]].id })
      #expect(selectedIDs == selected, "\(label)")
      #expect(adapter.failures.isEmpty, "\(label)")
      if !adapter.failures.isEmpty { return }
    }
    #expect(adapter.reloadCount == 1, "seed \(seed): no move refused after asking")
  }
}
