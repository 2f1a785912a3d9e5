import Foundation
import SectionKit
import SectionKitConsole

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
    case .pageUp, .pageDown, .first, .last, .nextSegment, .help, .add, .delete, .rename:
      return "not in this session (see ContactsApp)"
    case .listActions:
      guard let cursor else { return "" }
      let actions = coordinator.actions(at: cursor).map(\.title)
      return actions.isEmpty ? "no actions" : "actions: " + actions.joined(separator: ", ")
    }
  }
}
