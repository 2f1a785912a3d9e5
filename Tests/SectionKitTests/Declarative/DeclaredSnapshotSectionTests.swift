import Foundation
import SectionKit
import SectionKitTesting
import Testing

/// `SectionContents(id:elements:as:configure:)`: a snapshot's board column of the app's own
/// section type, with a header and handlers, selected, edited and reordered — within its column
/// and across columns — like any `ArraySection` subclass, through the strict `TestAdapter`.
@Suite struct DeclaredSnapshotSectionTests {
  /// A board column: its identity and title (the header) and the handlers of a board; cards move
  /// between columns.
  final class Column: ArraySection<Int>, SelectionHandler, EditingHandler, MoveHandler {
    var columnID = ""
    var title = ""
    var configured = 0
    var onMove: (Int, Int) -> Void = { _, _ in }
    var onMoveIn: (_ source: String, _ from: Int, _ to: Int) -> Void = { _, _, _ in }
    var editingCalls: [Bool] = []
    var allowsMultipleSelection: Bool { true }
    func didSetEditing(_ editing: Bool) { editingCalls.append(editing) }
    func didMove(from: Int, to: Int) {
      move(from: from, to: to)
      onMove(from, to)
    }
    func canMoveOut(at index: Int, to destination: any MoveHandler) -> Bool {
      destination is Column
    }
    func targetIndex(forMoveInFrom source: any MoveHandler, at sourceIndex: Int, proposedIndex: Int)
      -> Int?
    { proposedIndex }
    func didMoveIn(from source: any MoveHandler, at sourceIndex: Int, to index: Int) {
      guard let source = source as? Column else { return }
      insert(source.remove(at: sourceIndex), at: index)
      onMoveIn(source.columnID, sourceIndex, index)
    }
  }

  /// A column of another type, to check that contents changing type are replaced.
  final class Archive: ArraySection<Int> {}

  /// The app's model: columns of cards, and the snapshot applied from it.
  final class Board: DeclaredBoard {
    var columns: [BoardColumnModel]
    let snapshots = SnapshotSectionProvider<String, Int>()
    let coordinator: Coordinator
    let view: TestAdapter

    init(_ columns: [BoardColumnModel], keeps: Bool) {
      self.columns = columns
      coordinator = Coordinator(sectionProvider: snapshots.provider)
      view = TestAdapter(strict: true)
      view.keepsChangesets = keeps
      try! apply()
      coordinator.adapter = view
    }

    func apply() throws {
      try snapshots.apply(
        columns.enumerated().map { position, column in
          if column.archived {
            return SectionContents(id: column.id, elements: column.cards, as: Archive.self)
          }
          return SectionContents(id: column.id, elements: column.cards, as: Column.self) {
            section in
            section.columnID = column.id
            section.title = column.title
            section.configured += 1
            section.onMove = { [unowned self] from, to in
              columns[position].cards.insert(columns[position].cards.remove(at: from), at: to)
            }
            section.onMoveIn = { [unowned self] source, from, to in
              let was = columns.firstIndex { $0.id == source }!
              columns[position].cards.insert(columns[was].cards.remove(at: from), at: to)
            }
          }
        })
    }

    func update() throws { try apply() }

    func expectShown(sourceLocation: SourceLocation = #_sourceLocation) {
      #expect(view.failures.isEmpty, sourceLocation: sourceLocation)
      #expect(
        view.mirrorValues == columns.map { $0.cards.map(String.init) },
        sourceLocation: sourceLocation)
      #expect(snapshots.sectionIDs == columns.map(\.id), sourceLocation: sourceLocation)
      for (index, column) in columns.enumerated() {
        let section = coordinator.section(at: index)
        #expect(snapshots.section(withID: column.id) === section, sourceLocation: sourceLocation)
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
    #expect(todo.configured == 1)
    board.columns[0].title = "Next"
    board.columns[0].cards.append(4)
    try board.apply()
    #expect(board.coordinator.section(at: 0) === todo)
    #expect(todo.title == "Next")
    #expect(todo.configured == 2)
    board.view.assertLastChangeset(equals: Changeset(insertedElements: [[0, 2]]))
    board.expectShown()

    // Another type under the same identity replaces the section.
    board.columns[1].archived = true
    try board.apply()
    #expect(board.coordinator.section(at: 1) is Archive)
    board.view.assertLastChangeset(equals: Changeset(deletedSections: [1], insertedSections: [1]))
    board.expectShown()
    // Sections without a type are `IdentifiedSection`s, as before.
    try board.snapshots.apply([SectionContents(id: "plain", elements: [9])])
    #expect(board.coordinator.section(at: 0) is IdentifiedSection<String, Int>)
  }

  @Test func anApplyThatThrowsConfiguresNothing() throws {
    let board = Board([("todo", "To do", [1, 2], false)], keeps: false)
    let todo = try #require(board.coordinator.section(at: 0) as? Column)
    board.columns[0].title = "Next"
    board.columns[0].cards = [1, 1]
    #expect(throws: SnapshotError.self) { try board.apply() }
    #expect(todo.title == "To do")
    #expect(todo.configured == 1)
  }

  @Test func contentsCompareTheirSectionClass() {
    let plain = SectionContents(id: "a", elements: [1])
    let column = SectionContents(id: "a", elements: [1], as: Column.self)
    #expect(plain != column)
    #expect(column == SectionContents(id: "a", elements: [1], as: Column.self) { $0.title = "x" })
    #expect(Set([plain, column]).count == 2)
  }

  @Test func aConfigureThatChangesTheElementsTraps() async {
    await #expect(processExitsWith: .failure) {
      let snapshots = SnapshotSectionProvider<String, Int>()
      try? snapshots.apply([SectionContents(id: "a", elements: [1], as: Column.self)])
      try? snapshots.apply([
        SectionContents(id: "a", elements: [1, 2], as: Column.self) { $0.append(3) }
      ])
    }
  }

  @Test func aDeclaredColumn_isSelectedEditedAndReordered() throws {
    let board = Board(
      [("todo", "To do", [1, 2, 3], false), ("done", "Done", [], false)], keeps: true)
    let todo = try #require(board.coordinator.section(at: 0) as? Column)
    #expect(board.view.userSelect([0, 2], in: board.coordinator))
    #expect(board.coordinator.selectedIndexPaths == [[0, 2]])

    board.coordinator.setEditing(true)
    #expect(todo.editingCalls == [true])
    #expect(board.view.userMove(from: [0, 2], to: [0, 0], in: board.coordinator) == [0, 0])
    #expect(board.columns[0].cards == [3, 1, 2])
    #expect(board.coordinator.selectedIndexPaths == [[0, 0]])
    // Across columns: the card and its selection go to "done", the model follows.
    #expect(board.view.userMove(from: [0, 0], to: [1, 0], in: board.coordinator) == [1, 0])
    #expect(board.columns.map(\.cards) == [[1, 2], [3]])
    #expect(board.coordinator.selectedIndexPaths == [[1, 0]])
    let applied = board.view.applyCount
    try board.apply()  // the model agrees with the sections: nothing to send
    #expect(board.view.applyCount == applied)
    board.expectShown()
  }

  /// Random applies of a changing board mixed with the user's moves (within and across columns)
  /// and selections, keeping changesets and letting them go.
  @Test(arguments: [false, true])
  func randomBoards_stayShownAsTheModelSays(keeps: Bool) throws {
    var random = SeededGenerator(seed: 305)
    for _ in 0..<40 {
      let board = Board(
        [("a", "A", [1, 2, 3], false), ("b", "B", [4], false), ("c", "C", [], false)],
        keeps: keeps)
      try runRandomBoardSteps(board, steps: 40, movesAcross: true, using: &random)
    }
  }
}
