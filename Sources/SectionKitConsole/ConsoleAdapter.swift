import Foundation
import SectionKit

/// A ``/SectionKit/ViewAdapter`` that shows a ``/SectionKit/Coordinator``'s sections as text: the
/// whole tree on a terminal, redrawn after every change, or an append-only log of reloads and
/// changesets anywhere else.
///
/// ```swift
/// let coordinator = Coordinator(sectionProvider: contacts)
/// let console = ConsoleAdapter(options: ConsoleOptions(showsIndexPaths: true))
/// coordinator.adapter = console       // draws the tree
/// friends.append("Linus")             // changeset 1: 1 element inserted
///                                     //   inserted [2, 2] Linus
/// ```
///
/// **What it shows.** Each section's header, elements and footer, as the section chooses through
/// ``ConsolePresentable`` (see ``ConsoleRenderer``), with `▸` before selected elements.
///
/// **Like a view.** The adapter keeps the lines it shows and changes them only as a changeset
/// says (deletes and reloads in old coordinates, inserts in new ones, moves from old to new), the
/// way a `UICollectionView` changes its cells. Deleted and moved elements are logged with the
/// text they had; a changeset that does not fit the old state or the data source's new counts is
/// reported with a `!` line and followed by a full re-read, where UIKit would throw.
///
/// **Selection.** The adapter remembers the index paths the coordinator selects and deselects.
/// A reload clears them; a changeset remaps them: a deleted element (or one in a deleted or
/// reloaded section) is no longer selected, every other selected element follows the inserts,
/// deletes and moves of its section (a reloaded element stays selected).
///
/// **Where it writes.** Any `TextOutputStream`: ``StandardOutput`` by default, a `String` in tests
/// (read it back through ``output``). Style and mode `.auto` are decided once, at init, from a
/// ``ConsoleEnvironment`` (`isatty`, `NO_COLOR`, `TERM`, `COLUMNS`).
///
/// - Complexity: a reload and each changeset cost O(n) for the n elements shown (the adapter
///   re-reads headers and, in redraw mode, redraws everything); the console is a tool for
///   demos, tests and debugging, not for trees of millions of elements.
public final class ConsoleAdapter<Output: TextOutputStream>: ViewAdapter {
  /// Where the adapter writes.
  public private(set) var output: Output
  /// The options in force, with `.auto` style, mode and width resolved for ``environment``.
  public let options: ConsoleOptions
  /// The environment read at init.
  public let environment: ConsoleEnvironment
  /// The number of changesets applied so far (the log numbers them from 1).
  public private(set) var changesetCount = 0
  /// The element the user is on, marked `›` in the tree (the interactive demo's cursor).
  public var cursor: IndexPath?
  /// When set, the tree is drawn with this layout (boxes in character cells) instead of as a list.
  public var layout: ConsoleLayoutRenderer?

  /// What the adapter shows.
  private var shown: [ShownSection] = []
  /// Announcements to draw at the top of the next redraw.
  private var pendingNotes: [String] = []
  /// Text written with ``write(_:)`` since the last redraw, written again after the next frame.
  private var pendingWrites = ""
  /// The number of lines rendered so far (what a log line costs is checked against it).
  var linesRendered = 0

  /// Creates an adapter that writes to `output`.
  ///
  /// - Parameters:
  ///   - output: the stream written to; the adapter owns it (read it back through ``output``).
  ///   - options: what to show and how; `.auto` values are resolved for `environment` now.
  ///   - environment: whether `output` is a terminal, and the relevant environment variables.
  ///     The default, ``ConsoleEnvironment/pipe``, is right for any stream that is not a
  ///     terminal; pass ``ConsoleEnvironment/current(fileDescriptor:)`` for one that is.
  public init(
    output: Output, options: ConsoleOptions = ConsoleOptions(),
    environment: ConsoleEnvironment = .pipe
  ) {
    self.output = output
    self.environment = environment
    self.options = options.resolved(for: environment)
  }

  /// The selected elements, by global index path, sorted.
  /// - Complexity: O(n) for n elements shown.
  public var selectedIndexPaths: [IndexPath] {
    var paths: [IndexPath] = []
    for (section, shownSection) in shown.enumerated() {
      for (index, row) in shownSection.rows.enumerated() where row.isSelected {
        paths.append([section, index])
      }
    }
    return paths
  }

  /// The current tree as the adapter shows it, rendered with ``options``.
  public var renderedTree: String {
    options.render(ConsoleRenderer.treeLines(shown, options: options, cursor: cursor))
  }

  /// Writes `text` as a note, each line prefixed with `» `: at once in log mode; in redraw mode
  /// at once and again at the top of the next redraw.
  ///
  /// Use it to say what is about to happen: `console.announce(#"friends.append("Linus")"#)`.
  /// Control characters in `text` are shown escaped (`\u{1B}`), as in element text; write
  /// terminal sequences of your own with ``write(_:)``.
  public func announce(_ text: String) {
    if options.mode == .redraw { pendingNotes.append(text) }
    output.write(options.render(noteLines(text)))
  }

  /// Writes the tree as the adapter shows it now: appended in log mode, a redraw in redraw mode.
  public func writeTree() {
    show([], tree: true)
  }

  /// Re-reads the headers, footers and editing state of the sections shown (they can change
  /// without a changeset, e.g. when `coordinator.setEditing(_:)` is called).
  public func refreshDecorations(from coordinator: Coordinator) {
    for index in shown.indices where index < coordinator.numberOfSections {
      shown[index].refreshDecorations(coordinator: coordinator, at: index)
    }
  }

  /// Writes `text` as it is (add the newline yourself). In redraw mode the text is also kept and
  /// written again after the next frame (a frame clears the screen), then dropped.
  public func write(_ text: String) {
    if options.mode == .redraw { pendingWrites += text }
    output.write(text)
  }

  // MARK: ViewAdapter

  /// Re-reads everything; the selection is cleared.
  public func reloadData(from coordinator: Coordinator) {
    shown = ShownSection.snapshot(of: coordinator)
    let total = shown.reduce(0) { $0 + $1.rows.count }
    let sections = shown.count == 1 ? "1 section" : "\(shown.count) sections"
    let summary = StyledLine("reload: \(sections), \(elementCount(total))", .note)
    show([summary], tree: true)
  }

  /// Switches the coordinator to the new state, applies `changeset` to what the adapter shows
  /// and logs it (or redraws).
  public func apply(
    _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
  ) {
    updateData()
    changesetCount += 1
    // What the log entry needs of the old state, then the rows changed in place: a changeset
    // costs what it changes (plus its sections' headers), not a copy of everything shown.
    let old = RememberedTexts(changeset, in: shown)
    var taken: [ShownSection] = []
    swap(&taken, &shown)
    let (new, problems) = ShownSection.applying(changeset, to: &taken, reading: coordinator)
    shown = new
    guard problems.isEmpty else {
      // Only the summary: the parts of a changeset that does not fit may name sections and
      // elements that do not exist, in ranges of any width.
      var lines = [
        StyledLine(
          "changeset \(changesetCount): " + ConsoleRenderer.summary(of: changeset), .note)
      ]
      let shownProblems = problems.prefix(problemsShown)
      for problem in shownProblems {
        lines.append(
          StyledLine("! inconsistent changeset: \(problem); re-read everything", .warning))
      }
      if problems.count > shownProblems.count {
        lines.append(
          StyledLine("! … and \(problems.count - shownProblems.count) more problems", .warning))
      }
      show(lines, tree: true)
      return
    }
    let lines = ConsoleRenderer.changesetLines(
      changeset, number: changesetCount, old: old, new: new)
    show(lines, tree: options.logsTreeAfterChanges)
  }

  /// Marks `indexPaths` selected. Each must be an element the adapter shows.
  public func coordinator(_ coordinator: Coordinator, didSelect indexPaths: [IndexPath]) {
    var lines: [StyledLine] = []
    for path in indexPaths {
      precondition(
        path.count == 2 && shown.indices.contains(path[0])
          && shown[path[0]].rows.indices.contains(path[1]),
        "ConsoleAdapter.coordinator(_:didSelect:): \(format(path)) is not an element shown "
          + "(\(shown.count) sections)")
      guard !shown[path[0]].rows[path[1]].isSelected else { continue }
      shown[path[0]].rows[path[1]].isSelected = true
      lines.append(selectionLine("selected", .selected, path))
    }
    if !lines.isEmpty { show(lines, tree: false) }
  }

  /// Marks `indexPaths` deselected; paths not selected (or not shown) are ignored.
  public func coordinator(_ coordinator: Coordinator, didDeselect indexPaths: [IndexPath]) {
    var lines: [StyledLine] = []
    for path in indexPaths {
      guard path.count == 2, shown.indices.contains(path[0]),
        shown[path[0]].rows.indices.contains(path[1]), shown[path[0]].rows[path[1]].isSelected
      else { continue }
      shown[path[0]].rows[path[1]].isSelected = false
      lines.append(selectionLine("deselected", .footer, path))
    }
    if !lines.isEmpty { show(lines, tree: false) }
  }

  /// Whether the element at `indexPath` is shown selected: the coordinator tells the console
  /// of a selection made by program code (`coordinator.selectElement(at:)`), which it does not show yet.
  public func showsSelected(_ indexPath: IndexPath) -> Bool? {
    isShownSelected(indexPath)
  }

  // MARK: User input

  /// The number of elements shown in each section.
  public var shownCounts: [Int] { shown.map(\.rows.count) }

  /// Whether the element at `indexPath` is shown selected (`false` for a path not shown).
  public func isShownSelected(_ indexPath: IndexPath) -> Bool {
    indexPath.count == 2 && shown.indices.contains(indexPath[0])
      && shown[indexPath[0]].rows.indices.contains(indexPath[1])
      && shown[indexPath[0]].rows[indexPath[1]].isSelected
  }

  /// The user toggled the selection of the element at `indexPath` (a key press in the
  /// interactive demo): the adapter marks it, reports it with `coordinator.userDidSelect(_:)` or
  /// `coordinator.userDidDeselect(_:)`, and takes the mark back when the coordinator refuses.
  ///
  /// - Returns: whether the element is selected afterwards.
  @discardableResult
  public func toggleSelection(at indexPath: IndexPath, in coordinator: Coordinator) -> Bool {
    precondition(
      indexPath.count == 2 && shown.indices.contains(indexPath[0])
        && shown[indexPath[0]].rows.indices.contains(indexPath[1]),
      "ConsoleAdapter.toggleSelection(at:in:): \(format(indexPath)) is not an element shown "
        + "(\(shown.count) sections)")
    let wasSelected = isShownSelected(indexPath)
    // Shown first, then reported, as a view does.
    shown[indexPath[0]].rows[indexPath[1]].isSelected = !wasSelected
    let selected =
      wasSelected ? !coordinator.userDidDeselect(indexPath) : coordinator.userDidSelect(indexPath)
    if shown.indices.contains(indexPath[0]), shown[indexPath[0]].rows.indices.contains(indexPath[1])
    {
      shown[indexPath[0]].rows[indexPath[1]].isSelected = selected
      if selected != wasSelected {
        show(
          [selectionLine(selected ? "selected" : "deselected", .selected, indexPath)], tree: false)
      }
    }
    return selected
  }

  /// The user moved the element at `from` towards `proposed` (the interactive demo's `J`/`K`):
  /// the adapter asks the coordinator where it may go, moves its row there (with its selection),
  /// then reports the move with `coordinator.moveElement(from:to:)`.
  ///
  /// - Returns: where the element went, or `nil` when it cannot move.
  @discardableResult
  public func moveElement(from: IndexPath, to proposed: IndexPath, in coordinator: Coordinator)
    -> IndexPath?
  {
    guard let target = coordinator.targetIndexPath(forMoveFrom: from, proposed: proposed),
      target != from
    else { return nil }
    let row = shown[from[0]].rows.remove(at: from[1])
    shown[target[0]].rows.insert(row, at: target[1])
    coordinator.moveElement(from: from, to: target)
    var line = StyledLine("moved", .note)
    line.append(" \(format(from)) → \(format(target)) \(row.text)")
    show([line], tree: false)
    return target
  }

  // MARK: Writing

  private func selectionLine(_ verb: String, _ style: TextStyle, _ path: IndexPath) -> StyledLine {
    var line = StyledLine(verb, style)
    line.append(" \(format(path)) \(shown[path[0]].rows[path[1]].text)")
    return line
  }

  /// Log mode: `lines`, then the tree if `tree`. Redraw mode: clear the screen, then the pending
  /// notes, the tree and `lines`.
  ///
  /// The tree is rendered only when it is written: a log line costs what it writes.
  private func show(_ lines: [StyledLine], tree: Bool) {
    switch options.mode {
    case .redraw, .auto:
      let notes = pendingNotes.flatMap(noteLines)
      pendingNotes = []
      let blank = StyledLine()
      let log = lines.isEmpty ? [] : [blank] + lines
      let frame = notes + (notes.isEmpty ? [] : [blank]) + treeLines() + log
      linesRendered += frame.count
      output.write(ConsoleEscape.clearScreen + options.render(frame) + pendingWrites)
      pendingWrites = ""
    case .log:
      let written = tree ? lines + treeLines() : lines
      linesRendered += written.count
      output.write(options.render(written))
    }
  }

  /// The lines of the tree as the adapter shows it: the list, or the layout's drawing.
  private func treeLines() -> [StyledLine] {
    layout.map { drawing in
      drawing.render(shown).split(separator: "\n", omittingEmptySubsequences: false)
        .dropLast().map { StyledLine(String($0)) }
    } ?? ConsoleRenderer.treeLines(shown, options: options, cursor: cursor)
  }
}

extension ConsoleAdapter where Output == StandardOutput {
  /// Creates an adapter on standard output; `environment` is the process's by default
  /// (`isatty(1)`, `NO_COLOR`, `TERM`, `COLUMNS`).
  public convenience init(
    options: ConsoleOptions = ConsoleOptions(), environment: ConsoleEnvironment = .current()
  ) {
    self.init(output: StandardOutput(), options: options, environment: environment)
  }
}

/// `» line` for each line of `text`, control characters escaped.
private func noteLines(_ text: String) -> [StyledLine] {
  text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }.map {
    StyledLine("» " + singleLine(String($0)), .note)
  }
}

/// The number of problems of an inconsistent changeset the log lists.
private let problemsShown = 5

/// Terminal control sequences.
enum ConsoleEscape {
  /// Cursor home, then erase the screen.
  static let clearScreen = "\u{1B}[H\u{1B}[2J"
}
