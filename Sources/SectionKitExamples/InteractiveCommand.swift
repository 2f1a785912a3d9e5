import SectionKitConsole

/// What a key press means in the interactive demo (`sectionkit-demo --interactive`), and what a
/// line of its script means (``init(word:)``).
///
/// The keys are the demo's choice, so this key map is example code. What an app needs to drive
/// the console from its own input is library API on `ConsoleAdapter`: `cursor`,
/// `toggleSelection(at:in:)`, `moveElement(from:to:in:)` and `refreshDecorations(from:)`;
/// ``ContactsApp`` shows how to use them on a `ConsoleListView`.
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
  /// A screen up or down (Page Up, Page Down).
  case pageUp, pageDown
  /// The first element (Home, `g`) or the last (End, `G`).
  case first, last
  /// Switch the segmented section (Tab).
  case nextSegment
  /// Show or hide the help (`?`).
  case help
  /// Add an element after the cursor (`n`), delete the element under the cursor (`d`), rename
  /// it (`r`).
  case add, delete, rename

  /// The commands in `bytes`, read from a raw terminal, in order; unknown keys are skipped.
  ///
  /// ```swift
  /// InteractiveCommand.commands(in: Array("jj \u{1B}[Aq".utf8))
  /// // [.cursorDown, .cursorDown, .toggleSelection, .cursorUp, .quit]
  /// ```
  public static func commands(in bytes: [UInt8]) -> [InteractiveCommand] {
    var decoder = ConsoleKeyDecoder()
    return (decoder.decode(bytes) + decoder.flush()).compactMap(InteractiveCommand.init(key:))
  }

  /// The command of a key, or `nil`: the arrows, Page Up/Down, Home/End, and the plain keys of
  /// ``command(for:)``.
  public init?(key: ConsoleKey) {
    switch key {
    case .up: self = .cursorUp
    case .down: self = .cursorDown
    case .pageUp: self = .pageUp
    case .pageDown: self = .pageDown
    case .home: self = .first
    case .end: self = .last
    case .enter: self = .toggleSelection
    case .tab: self = .nextSegment
    case .control("c"), .control("d"): self = .quit
    case .character(let character):
      guard let byte = character.asciiValue, let command = Self.command(for: byte) else {
        return nil
      }
      self = command
    default: return nil
    }
  }

  /// The command a script names: `up`, `down`, `pageup`, `pagedown`, `first`, `last`, `select`,
  /// `edit`, `moveup`, `movedown`, `actions`, `tab`, `help`, `add`, `delete`, `rename`, `quit`.
  public init?(word: String) {
    let words: [String: InteractiveCommand] = [
      "up": .cursorUp, "down": .cursorDown, "pageup": .pageUp, "pagedown": .pageDown,
      "first": .first, "last": .last, "select": .toggleSelection, "edit": .toggleEditing,
      "moveup": .moveUp, "movedown": .moveDown, "actions": .listActions, "tab": .nextSegment,
      "help": .help, "add": .add, "delete": .delete, "rename": .rename, "quit": .quit,
    ]
    guard let command = words[word.lowercased()] else { return nil }
    self = command
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
    case UInt8(ascii: "g"): .first
    case UInt8(ascii: "G"): .last
    case 0x09: .nextSegment
    case UInt8(ascii: "?"): .help
    case UInt8(ascii: "n"): .add
    case UInt8(ascii: "d"): .delete
    case UInt8(ascii: "r"): .rename
    default: nil
    }
  }
}
