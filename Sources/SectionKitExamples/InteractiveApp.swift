import Foundation
import SectionKit
import SectionKitConsole

/// The interactive demo (`sectionkit-demo --interactive`): a contacts app on a
/// ``/SectionKitConsole/ConsoleListView``.
///
/// A few thousand generated contacts in one section per letter, below a segmented section
/// (Favourites / Recent, switched with Tab); add, delete and rename contacts, select them, move
/// them while editing; a status line shows the cursor and the last changeset, `?` shows the keys.
///
/// On a terminal, key presses arrive through ``handle(_:)``; a script (standard input that is not
/// a terminal) sends one command per line through ``perform(line:)``, and the demo prints the log
/// of a ``/SectionKitConsole/ConsoleAdapter`` attached next to the list (``TeeAdapter``).
public final class ContactsApp<Output: TextOutputStream> {
  /// A contacts section: titled, selectable (several at once), editable, movable, and with an
  /// empty state.
  public final class Contacts: ArraySection<String>, ConsolePresentable, SelectionHandler,
    EditingHandler, MoveHandler, DisplayHandler
  {
    /// The header.
    public var title = ""
    /// Several contacts can be selected.
    public var allowsMultipleSelection: Bool { true }
    /// The title.
    public var consoleHeader: String? { title }
    /// Shown when the section has no contacts.
    public var emptyStateText: String? { "No contacts — press n to add one" }
  }

  /// The coordinator of the tree.
  public let coordinator: Coordinator
  /// The list view.
  public let list: ConsoleListView<Output>
  /// The segmented section at the top (Favourites, Recent).
  public let groups = SegmentedSectionProvider()
  /// The message of the last command.
  public private(set) var message = "? for help"
  /// Whether the help is shown.
  public private(set) var showsHelp = false
  /// The text being typed for `add` or `rename` on a terminal, with the command it is for.
  public private(set) var prompt: (command: InteractiveCommand, text: String)?
  private var added = 0

  /// The keys, shown by `?`.
  public static var help: [String] {
    [
      "↑↓ jk PgUp PgDn Home End g G: move",
      "space select · Tab group · q quit",
      "n add · d delete · r rename",
      "e edit, then J/K move · ? help",
    ]
  }

  /// Builds the tree with `contacts` generated contacts and attaches `list` (or, when `log` is
  /// given, a ``TeeAdapter`` of both, the list first).
  public init(list: ConsoleListView<Output>, contacts: Int = 3_000, log: (any ViewAdapter)? = nil) {
    self.list = list
    let favourites = Contacts(["Ada Lovelace", "Grace Hopper", "Linus Torvalds"])
    favourites.title = "★ Favourites"
    let recent = Contacts(["Margaret Hamilton", "Barbara Liskov"])
    recent.title = "⟲ Recent"
    groups.append(favourites)
    groups.append(recent)
    let root = ComposedSectionProvider()
    root.append(groups)
    for (letter, names) in Self.generate(contacts) {
      let section = Contacts(names)
      section.title = letter
      root.append(section)
    }
    coordinator = Coordinator(sectionProvider: root)
    logsMoves = log != nil
    coordinator.adapter = log.map { TeeAdapter(list, $0) } ?? list
    updateStatus()
    list.draw()
  }

  /// With a log next to the list, moves are made in the model (a changeset both adapters
  /// follow) rather than by the list, which only the list would see.
  private let logsMoves: Bool

  /// `count` contacts, "First Last", grouped by the last name's initial, sorted.
  static func generate(_ count: Int) -> [(String, [String])] {
    let first = [
      "Ada", "Alan", "Anita", "Barbara", "Bjarne", "Brian", "Chris", "Dennis", "Donald", "Edsger",
      "Frances", "Grace", "Guido", "Hedy", "Ivan", "James", "Jean", "John", "Ken", "Leslie",
      "Linus", "Lynn", "Margaret", "Niklaus", "Radia", "Richard", "Robin", "Shafi", "Sophie",
      "Tim", "Tony", "Ursula", "Vint", "Whitfield", "Yukihiro", "Zhang",
    ]
    let last = [
      "Abbott", "Allen", "Backus", "Baker", "Cerf", "Conway", "Dahl", "Diffie", "Engelbart",
      "Floyd", "Goldwasser", "Hamilton", "Hoare", "Iverson", "Jones", "Kay", "Knuth", "Lamport",
      "Liskov", "Matsumoto", "McCarthy", "Naur", "Nygaard", "Oberon", "Perlman", "Pike",
      "Quinlan", "Ritchie", "Rossum", "Stroustrup", "Sutherland", "Thompson", "Ullman", "Valiant",
      "Wirth", "Wilson", "Xu", "Yao", "Zuse",
    ]
    var byLetter: [String: [String]] = [:]
    for index in 0..<count {
      let name = first[index % first.count] + " " + last[(index / first.count) % last.count]
      let suffix =
        index >= first.count * last.count ? " \(index / (first.count * last.count) + 1)" : ""
      byLetter[String(name.split(separator: " ")[1].prefix(1)), default: []].append(name + suffix)
    }
    return byLetter.keys.sorted().map { ($0, byLetter[$0]!.sorted()) }
  }

  /// The section under the cursor, when it is a contacts section.
  private var current: (section: Contacts, index: Int)? {
    guard let cursor = list.cursor,
      let section = coordinator.section(at: cursor[0]) as? Contacts
    else { return nil }
    return (section, cursor[1])
  }

  // MARK: Input

  /// Handles bytes read from a raw terminal, all of them (a sequence cut at the end is read as
  /// far as it goes): keys, or the text of a prompt. Draws.
  ///
  /// - Returns: `false` when the user quit.
  public func handle(_ bytes: [UInt8]) -> Bool {
    var decoder = ConsoleKeyDecoder()
    return handle(keys: decoder.decode(bytes) + decoder.flush())
  }

  /// Handles keys, as ``/SectionKitConsole/ConsoleApp`` delivers them: commands, or the text of
  /// a prompt. Draws once.
  ///
  /// - Returns: `false` when the user quit.
  public func handle(keys: [ConsoleKey]) -> Bool {
    if prompt == nil { message = "" }
    for key in keys {
      if prompt != nil {
        handlePrompt(key)
        continue
      }
      guard let command = InteractiveCommand(key: key) else { continue }
      switch command {
      case .quit: return false
      case .add: prompt = (.add, "")
      case .rename: prompt = (.rename, current.map { $0.section[$0.index] } ?? "")
      default: perform(command)
      }
    }
    updateStatus()
    list.draw()
    return true
  }

  /// One key typed at the prompt: a character, Backspace, Return (done) or Escape / Ctrl-C
  /// (cancelled).
  private func handlePrompt(_ key: ConsoleKey) {
    guard let command = prompt?.command, var text = prompt?.text else { return }
    switch key {
    case .enter:
      prompt = nil
      perform(command, text: text)
      return
    case .escape, .control("c"):
      prompt = nil
      message = "cancelled"
      return
    case .backspace:
      if !text.isEmpty { text.removeLast() }
    case .character(let character):
      text.append(character)
    default:
      break
    }
    prompt = (command, text)
  }

  /// The terminal was resized: the list takes the new size and the whole screen is redrawn.
  public func resize(to size: ConsoleSize) {
    list.size = size
    message = "resized to \(size)"
    updateStatus()
    list.draw()
  }

  /// Performs one line of a script: a command word (``InteractiveCommand/init(word:)``), then
  /// the text for `add` and `rename`, or a count for the cursor moves (`down 5`).
  ///
  /// - Returns: `false` for `quit`; `nil` for a line that is not a command.
  public func perform(line: String) -> Bool? {
    let words = line.split(separator: " ", maxSplits: 1).map(String.init)
    guard let word = words.first, let command = InteractiveCommand(word: word) else {
      return words.isEmpty ? true : nil
    }
    guard command != .quit else { return false }
    message = ""
    let argument = words.count > 1 ? words[1] : nil
    if let argument, let count = Int(argument), count > 0 {
      for _ in 0..<min(count, 100_000) { perform(command) }
    } else {
      perform(command, text: argument)
    }
    updateStatus()
    list.draw()
    return true
  }

  /// Performs `command` (`text` is the name for `add` and `rename`).
  public func perform(_ command: InteractiveCommand, text: String? = nil) {
    switch command {
    case .cursorUp: list.moveCursor(.up)
    case .cursorDown: list.moveCursor(.down)
    case .pageUp: list.moveCursor(.pageUp)
    case .pageDown: list.moveCursor(.pageDown)
    case .first: list.moveCursor(.first)
    case .last: list.moveCursor(.last)
    case .toggleSelection:
      guard let cursor = list.cursor else { return }
      let selected = list.toggleSelection(in: coordinator)
      message = "\(selected ? "selected" : "deselected") \(cursor)"
    case .toggleEditing:
      coordinator.setEditing(!coordinator.isEditing)
      message = "editing \(coordinator.isEditing ? "on: J/K move" : "off")"
    case .moveUp, .moveDown:
      guard coordinator.isEditing else {
        message = "press e to edit before moving"
        return
      }
      let offset = command == .moveUp ? -1 : 1
      let target: IndexPath?
      if logsMoves, let (section, index) = current, section.indices.contains(index + offset) {
        section.move(from: index, to: index + offset)
        target = list.cursor
      } else {
        target = logsMoves ? nil : list.moveCursorElement(by: offset, in: coordinator)
      }
      message = target.map { "moved to \($0)" } ?? "cannot move there"
    case .nextSegment:
      groups.currentIndex = (groups.currentIndex + 1) % groups.children.count
      message = "group: \(["Favourites", "Recent"][groups.currentIndex])"
    case .help:
      showsHelp.toggle()
    case .add:
      added += 1
      let name = text ?? "New contact \(added)"
      guard let (section, index) = current else {
        message = "nothing to add to"
        return
      }
      section.insert(name, at: index + 1)
      list.setCursor([list.cursor![0], index + 1])
      message = "added \(name)"
    case .delete:
      guard let (section, index) = current else { return }
      let name = section.remove(at: index)
      message = "deleted \(name)"
    case .rename:
      guard let (section, index) = current, let text, !text.isEmpty else { return }
      section[index] = text
      message = "renamed to \(text)"
    case .listActions:
      message = "no actions"
    case .quit:
      break
    }
  }

  /// The status lines: the prompt or the message, the cursor, the last changeset; the help on
  /// top when shown.
  private func updateStatus() {
    let cursor = list.cursor.map { "\($0)" } ?? "none"
    let first =
      prompt.map { "\($0.command == .add ? "add" : "rename"): \($0.text)▏ (Return, Esc)" }
      ?? message
    let state =
      "cursor \(cursor) · \(list.selectedIndexPaths.count) selected"
      + (coordinator.isEditing ? " · editing" : "") + " · last: \(list.lastChange)"
    list.statusLines = (showsHelp ? Self.help : []) + [first, state]
  }

  /// The status lines as the list shows them.
  public var statusLines: [String] { list.statusLines }
}

/// Two adapters on one coordinator: `first` is applied first (it reads the old state before
/// switching), `second` after (its `updateData` does nothing, the state has switched). Selection
/// news go to both; `first` answers ``showsSelected(_:)``.
public final class TeeAdapter: ViewAdapter {
  let first: any ViewAdapter
  let second: any ViewAdapter

  /// Forwards to `first`, then `second`.
  public init(_ first: any ViewAdapter, _ second: any ViewAdapter) {
    self.first = first
    self.second = second
  }

  /// Both reload.
  public func reloadData(from coordinator: Coordinator) {
    first.reloadData(from: coordinator)
    second.reloadData(from: coordinator)
  }

  /// Both apply, `first` first.
  public func apply(
    _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
  ) {
    first.apply(changeset, from: coordinator, updateData: updateData)
    second.apply(changeset, from: coordinator, updateData: updateData)
  }

  /// Both are told.
  public func coordinator(_ coordinator: Coordinator, didSelect indexPaths: [IndexPath]) {
    first.coordinator(coordinator, didSelect: indexPaths)
    second.coordinator(coordinator, didSelect: indexPaths)
  }

  /// Both are told.
  public func coordinator(_ coordinator: Coordinator, didDeselect indexPaths: [IndexPath]) {
    first.coordinator(coordinator, didDeselect: indexPaths)
    second.coordinator(coordinator, didDeselect: indexPaths)
  }

  /// What `first` shows.
  public func showsSelected(_ indexPath: IndexPath) -> Bool? {
    first.showsSelected(indexPath)
  }
}
