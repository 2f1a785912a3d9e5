import Foundation
import SectionKit
import SectionKitTesting
import Testing

/// `SectionNode(id:elements:as:configure:)`: a declarative board column of the app's own section
/// type, with a header and handlers, selected, edited and reordered like any `ArraySection`
/// subclass, through the strict `TestAdapter`.
@Suite struct DeclaredSectionTests {
  /// A board column: a title (the header) and the handlers of a board.
  final class Column: ArraySection<Int>, SelectionHandler, EditingHandler, MoveHandler {
    var title = ""
    var onMove: (Int, Int) -> Void = { _, _ in }
    var editingCalls: [Bool] = []
    var allowsMultipleSelection: Bool { true }
    func didSetEditing(_ editing: Bool) { editingCalls.append(editing) }
    func didMove(from: Int, to: Int) {
      move(from: from, to: to)
      onMove(from, to)
    }
  }

  /// A column of another type, to check that a node changing type is replaced.
  final class Archive: ArraySection<Int> {}

  /// The app's model: columns of cards, and the tree rendered from it.
  final class Board: DeclaredBoard {
    var columns: [BoardColumnModel]
    let tree = SectionTree<Int>()
    let coordinator: Coordinator
    let view: TestAdapter

    init(_ columns: [BoardColumnModel], keeps: Bool) {
      self.columns = columns
      coordinator = Coordinator(sectionProvider: tree.provider)
      view = TestAdapter(strict: true)
      view.keepsChangesets = keeps
      try! render()
      coordinator.adapter = view
    }

    func render() throws {
      try tree.render {
        for (position, column) in columns.enumerated() {
          if column.archived {
            SectionNode(id: column.id, elements: column.cards, as: Archive.self)
          } else {
            SectionNode(id: column.id, elements: column.cards, as: Column.self) { section in
              section.title = column.title
              section.onMove = { [unowned self] from, to in
                columns[position].cards.insert(columns[position].cards.remove(at: from), at: to)
              }
            }
          }
        }
      }
    }

    func update() throws { try render() }

    func expectShown(sourceLocation: SourceLocation = #_sourceLocation) {
      #expect(view.failures.isEmpty, sourceLocation: sourceLocation)
      #expect(
        view.mirrorValues == columns.map { $0.cards.map(String.init) },
        sourceLocation: sourceLocation)
      for (index, column) in columns.enumerated() {
        let section = coordinator.section(at: index)
        if column.archived {
          #expect(section is Archive, sourceLocation: sourceLocation)
        } else {
          #expect((section as? Column)?.title == column.title, sourceLocation: sourceLocation)
        }
      }
    }
  }

  @Test func aDeclaredColumn_hasItsHeaderAndKeepsItsObject() throws {
    let board = Board(
      [("todo", "To do", [1, 2], false), ("done", "Done", [3], false)], keeps: false)
    let todo = try #require(board.coordinator.section(at: 0) as? Column)
    #expect(todo.title == "To do")
    board.columns[0].title = "Next"
    board.columns[0].cards.append(4)
    try board.render()
    #expect(board.coordinator.section(at: 0) === todo)
    #expect(todo.title == "Next")
    board.view.assertLastChangeset(equals: Changeset(insertedElements: [[0, 2]]))
    board.expectShown()

    // Another type under the same identity replaces the section.
    board.columns[1].archived = true
    try board.render()
    #expect(board.coordinator.section(at: 1) is Archive)
    board.view.assertLastChangeset(equals: Changeset(deletedSections: [1], insertedSections: [1]))
    board.expectShown()
  }

  @Test func aDeclaredColumn_isSelectedEditedAndReordered() throws {
    let board = Board([("todo", "To do", [1, 2, 3], false)], keeps: true)
    let todo = try #require(board.coordinator.section(at: 0) as? Column)
    #expect(board.view.userSelect([0, 2], in: board.coordinator))
    #expect(board.coordinator.selectedIndexPaths == [[0, 2]])

    board.coordinator.setEditing(true)
    #expect(todo.editingCalls == [true])
    #expect(board.view.userMove(from: [0, 2], to: [0, 0], in: board.coordinator) == [0, 0])
    #expect(board.columns[0].cards == [3, 1, 2])
    #expect(todo.elements == [3, 1, 2])
    #expect(board.coordinator.selectedIndexPaths == [[0, 0]])
    let applied = board.view.applyCount
    try board.render()  // the model agrees with the section: nothing to send
    #expect(board.view.applyCount == applied)
    board.expectShown()
  }

  /// Random renders of a changing board mixed with the user's moves and selections.
  @Test(arguments: [false, true])
  func randomBoards_stayShownAsTheModelSays(keeps: Bool) throws {
    var random = SeededGenerator(seed: 304)
    for _ in 0..<40 {
      let board = Board(
        [("a", "A", [1, 2, 3], false), ("b", "B", [4], false), ("c", "C", [], false)],
        keeps: keeps)
      try runRandomBoardSteps(board, steps: 40, movesAcross: false, using: &random)
    }
  }
}
