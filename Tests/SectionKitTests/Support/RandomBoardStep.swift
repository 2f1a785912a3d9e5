import Foundation
import SectionKit
import SectionKitTesting
import Testing

/// A board as an app keeps it: columns with an identity, a title (the header), cards, and whether
/// the column is archived (shown by a section of another class).
typealias BoardColumnModel = (id: String, title: String, cards: [Int], archived: Bool)

/// What a random board step leaves the caller to do: the user's input, made once the model is
/// no longer being written.
enum BoardUserInput {
  /// The user drags the card at `from` towards `to`.
  case drag(from: IndexPath, to: IndexPath)
  /// The user selects the card at a path.
  case select(IndexPath)
}

/// One random step on a board model, shared by the declarative board tests: the model changes (a
/// card inserted or removed, a card moved to another column when `movesAcross`, a title changed,
/// a column archived, inserted or swapped with another), or the user drags or selects a card of a
/// column that is not archived (returned; to another column when `movesAcross`). `next` is the
/// last card and column number used.
func randomBoardStep(
  _ columns: inout [BoardColumnModel], next: inout Int, movesAcross: Bool,
  using random: inout SeededGenerator
) -> BoardUserInput? {
  let columnCount = columns.count
  let column = columnCount == 0 ? 0 : Int.random(in: 0..<columnCount, using: &random)
  let count = columnCount == 0 ? 0 : columns[column].cards.count
  switch Int.random(in: 0..<(movesAcross ? 9 : 8), using: &random) {
  case 0 where columnCount > 0:
    next += 1
    columns[column].cards.insert(next, at: Int.random(in: 0...count, using: &random))
  case 1 where count > 0:
    columns[column].cards.remove(at: Int.random(in: 0..<count, using: &random))
  case 2 where columnCount > 0:
    columns[column].title += "'"
  case 3 where columnCount > 0:
    columns[column].archived.toggle()
  case 4:
    next += 1
    columns.insert(
      ("n\(next)", "N\(next)", [], false), at: Int.random(in: 0...columnCount, using: &random))
  case 5 where columnCount > 1:
    columns.swapAt(0, columnCount - 1)
  case 6 where count > (movesAcross ? 0 : 1) && !columns[column].archived:
    let from = Int.random(in: 0..<count, using: &random)
    guard movesAcross else {
      let to = Int.random(in: 0..<count, using: &random)
      return .drag(from: [column, from], to: [column, to])
    }
    let other = Int.random(in: 0..<columnCount, using: &random)
    let to = Int.random(in: 0...columns[other].cards.count, using: &random)
    return .drag(from: [column, from], to: [other, to])
  case 7 where count > 0 && !columns[column].archived:
    return .select([column, Int.random(in: 0..<count, using: &random)])
  case 8 where count > 0:
    // A card moves to another column in the model (a move across in a snapshot).
    let other = Int.random(in: 0..<columnCount, using: &random)
    let card = columns[column].cards.remove(at: Int.random(in: 0..<count, using: &random))
    columns[other].cards.insert(
      card, at: Int.random(in: 0...columns[other].cards.count, using: &random))
  default:
    break
  }
  return nil
}

/// A board whose sections an app describes declaratively (a `SectionTree` or a
/// `SnapshotSectionProvider`) from ``columns``, shown through a strict `TestAdapter`.
protocol DeclaredBoard: AnyObject {
  var columns: [BoardColumnModel] { get set }
  var coordinator: Coordinator { get }
  var view: TestAdapter { get }
  /// Describes the sections from ``columns`` again (a render, an apply).
  func update() throws
  /// Expects the view to show ``columns``, each column with its header.
  func expectShown(sourceLocation: SourceLocation)
}

/// Random steps (``randomBoardStep(_:next:movesAcross:using:)``) on `board`, each followed by
/// an update: after each, the view shows the model and the coordinator's selection.
func runRandomBoardSteps(
  _ board: some DeclaredBoard, steps: Int, movesAcross: Bool,
  using random: inout SeededGenerator, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  var next = 10
  for _ in 0..<steps {
    switch randomBoardStep(&board.columns, next: &next, movesAcross: movesAcross, using: &random)
    {
    case .drag(let from, let to):
      // The user drags a card; the columns' handlers move it in the model.
      board.coordinator.setEditing(true)
      _ = board.view.userMove(from: from, to: to, in: board.coordinator)
      board.expectShown(sourceLocation: sourceLocation)
    case .select(let path):
      board.view.userSelect(path, in: board.coordinator)
    case nil:
      break
    }
    try board.update()
    board.expectShown(sourceLocation: sourceLocation)
    #expect(
      board.view.mirrorSelectedIndexPaths == board.coordinator.selectedIndexPaths,
      sourceLocation: sourceLocation)
  }
}
