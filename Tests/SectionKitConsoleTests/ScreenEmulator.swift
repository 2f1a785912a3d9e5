import Foundation

@testable import SectionKitConsole

/// A terminal screen that understands what the list view writes — cursor home and positioning
/// (`ESC[H`, `ESC[r;cH`), erase screen (`ESC[2J`), erase to end of line (`ESC[K`), SGR styling
/// (ignored) — and wide characters (two cells). Tests read it back to check that the rows the
/// view writes, and only those, make up the screen it means.
struct ScreenEmulator {
  private(set) var cells: [[String]]
  private var row = 0
  private var column = 0
  let columns: Int

  init(rows: Int, columns: Int) {
    self.columns = columns
    cells = Array(repeating: Array(repeating: " ", count: columns), count: rows)
  }

  /// The screen, one string per row, trailing spaces removed.
  var lines: [String] {
    cells.map { row in
      var line = row.joined()
      while line.hasSuffix(" ") { line.removeLast() }
      return line
    }
  }

  mutating func feed(_ text: String) {
    var characters = Array(text)
    var index = 0
    while index < characters.count {
      let character = characters[index]
      index += 1
      guard character == "\u{1B}" else {
        put(character)
        continue
      }
      // CSI: ESC [ parameters final
      guard index < characters.count, characters[index] == "[" else { continue }
      index += 1
      var parameters = ""
      while index < characters.count, !characters[index].isLetter {
        parameters.append(characters[index])
        index += 1
      }
      guard index < characters.count else { break }
      let final = characters[index]
      index += 1
      let numbers = parameters.split(separator: ";").map { Int($0) ?? 1 }
      switch final {
      case "H":
        row = (numbers.first ?? 1) - 1
        column = (numbers.count > 1 ? numbers[1] : 1) - 1
      case "J":
        cells = cells.map { $0.map { _ in " " } }
      case "K":
        guard cells.indices.contains(row) else { break }
        for cell in column..<columns { cells[row][cell] = " " }
      default: break  // SGR and anything else: no effect on the text
      }
    }
    characters = []
  }

  private mutating func put(_ character: Character) {
    guard character != "\n" else {
      row += 1
      column = 0
      return
    }
    let width = TerminalColumns.width(of: character)
    precondition(
      cells.indices.contains(row) && column + width <= columns,
      "ScreenEmulator: \(character) written at row \(row), column \(column) overruns "
        + "\(columns) columns")
    guard width > 0 else {
      if column > 0 { cells[row][column - 1].append(character) }
      return
    }
    cells[row][column] = String(character)
    if width == 2 { cells[row][column + 1] = "" }
    column += width
  }
}
