import Foundation
import SectionKit

/// What a key press means in the interactive demo (`sectionkit-demo --interactive`).
public enum InteractiveCommand: Hashable, Sendable {
  /// Move the cursor up (`↑`, `k`) or down (`↓`, `j`).
  case cursorUp, cursorDown
  /// Select or deselect the element under the cursor (space, Return).
  case toggleSelection
  /// Enter or leave editing mode (`e`).
  case toggleEditing
  /// Move the element under the cursor up (`K`) or down (`J`, `m`).
  case moveUp, moveDown
  /// List the element's actions (`a`).
  case listActions
  /// Quit (`q`, Ctrl-C, Ctrl-D).
  case quit

  /// The commands in `bytes`, read from a raw terminal, in order; unknown keys are skipped.
  ///
  /// ```swift
  /// InteractiveCommand.commands(in: Array("jj \u{1B}[Aq".utf8))
  /// // [.cursorDown, .cursorDown, .toggleSelection, .cursorUp, .quit]
  /// ```
  public static func commands(in bytes: [UInt8]) -> [InteractiveCommand] {
    var result: [InteractiveCommand] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if byte == 0x1B, index + 1 < bytes.count,
        bytes[index] == UInt8(ascii: "[") || bytes[index] == UInt8(ascii: "O")
      {
        switch bytes[index + 1] {
        case UInt8(ascii: "A"): result.append(.cursorUp)
        case UInt8(ascii: "B"): result.append(.cursorDown)
        default: break
        }
        index += 2
        continue
      }
      if let command = command(for: byte) { result.append(command) }
    }
    return result
  }

  /// The command of one plain key, or `nil`.
  public static func command(for byte: UInt8) -> InteractiveCommand? {
    switch byte {
    case UInt8(ascii: "k"): .cursorUp
    case UInt8(ascii: "j"): .cursorDown
    case UInt8(ascii: " "), 0x0D, 0x0A: .toggleSelection
    case UInt8(ascii: "e"): .toggleEditing
    case UInt8(ascii: "K"): .moveUp
    case UInt8(ascii: "J"), UInt8(ascii: "m"): .moveDown
    case UInt8(ascii: "a"): .listActions
    case UInt8(ascii: "q"), 0x03, 0x04: .quit
    default: nil
    }
  }
}

/// A cursor over the elements an adapter shows, and what each ``InteractiveCommand`` does to a
/// coordinator through a ``ConsoleAdapter``.
public struct InteractiveSession {
  /// The element under the cursor, or `nil` when nothing is shown.
  public private(set) var cursor: IndexPath?

  /// Creates a session with the cursor on the first element.
  public init() {}

  /// Performs `command`; returns a line describing what happened (empty for plain cursor
  /// moves), or `nil` for ``InteractiveCommand/quit``.
  public mutating func perform<Output>(
    _ command: InteractiveCommand, console: ConsoleAdapter<Output>, coordinator: Coordinator
  ) -> String? {
    let paths = console.shownCounts.enumerated().flatMap { section, count in
      (0..<count).map { IndexPath(item: $0, section: section) }
    }
    if cursor == nil || !paths.contains(cursor!) { cursor = paths.first }
    let position = cursor.flatMap { paths.firstIndex(of: $0) }
    switch command {
    case .quit:
      return nil
    case .cursorUp, .cursorDown:
      guard let position else { return "" }
      let next = command == .cursorUp ? position - 1 : position + 1
      if paths.indices.contains(next) { cursor = paths[next] }
      return ""
    case .toggleEditing:
      coordinator.setEditing(!coordinator.isEditing)
      return "editing \(coordinator.isEditing ? "on" : "off")"
    case .toggleSelection:
      guard let cursor else { return "" }
      let selected = console.toggleSelection(at: cursor, in: coordinator)
      return "\(selected ? "selected" : "not selected") \(cursor)"
    case .moveUp, .moveDown:
      guard let cursor else { return "" }
      guard coordinator.isEditing else { return "press e to edit before moving" }
      let proposed = IndexPath(item: cursor[1] + (command == .moveUp ? -1 : 1), section: cursor[0])
      guard let target = console.moveElement(from: cursor, to: proposed, in: coordinator) else {
        return "cannot move \(cursor) there"
      }
      self.cursor = target
      return "moved \(cursor) → \(target)"
    case .listActions:
      guard let cursor else { return "" }
      let actions = coordinator.actions(at: cursor).map(\.title)
      return actions.isEmpty ? "no actions" : "actions: " + actions.joined(separator: ", ")
    }
  }
}
