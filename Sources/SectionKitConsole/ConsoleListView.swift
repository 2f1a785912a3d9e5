import Foundation
import SectionKit

/// A scrolling list on a terminal screen: a ``/SectionKit/ViewAdapter`` that draws only the rows
/// that fit, keeps a cursor in view, pins the header of the section at the top, and follows each
/// changeset without losing its place.
///
/// ```swift
/// let list = ConsoleListView(
///   output: StandardOutput(), size: ConsoleSize.terminal() ?? ConsoleSize(rows: 24, columns: 80))
/// coordinator.adapter = list          // draws the first screen
/// list.moveCursor(.pageDown)          // keys move the cursor; the view scrolls to keep it
/// people.insert("Ada", at: 0)         // above the screen: the rows shown stay where they are
/// ```
///
/// **What it draws.** Each section is its header line (as ``ConsoleAdapter`` shows it), its
/// elements, its ``/SectionKit/DisplayHandler/emptyStateText`` when it has none, and its footer.
/// `›` and reverse video mark the cursor, `▸` a selected element. The last ``statusLines`` lines
/// of the screen are the app's. With no element at all (and no empty state), ``emptyText`` is
/// shown alone.
///
/// **Following changes.** A changeset moves the cursor, the selection and the first element on
/// screen (the anchor) with their elements; the anchor keeps its row, so an insert above the
/// screen does not move what is shown. A deleted cursor element moves the cursor to its
/// neighbour; when its section is deleted, to the first element of what takes the section's
/// place, else to the last element before it. Each frame is compared with the previous one and only the rows that differ are
/// written (cursor positioning and erase-to-end-of-line, no clearing), so a reloaded element is
/// redrawn alone.
///
/// **Display lifecycle.** The rows it draws drive ``/SectionKit/DisplayHandler`` through the
/// coordinator: `willDisplay` for each element and header that comes into view, `didEndDisplaying`
/// once when it leaves — scrolled away, or deleted or reloaded (then with its old index, before
/// the coordinator switches to the new state; a reloaded element on screen is then displayed
/// again, as a reloaded cell is another cell).
///
/// **Ownership.** The coordinator holds the list strongly, as its ``/SectionKit/Coordinator/adapter``;
/// the list holds the coordinator weakly, so that the two do not keep each other alive. Whoever
/// attaches the list (`coordinator.adapter = list`) must keep a strong reference to the
/// coordinator for as long as the list is drawn: drawing the list (``draw()``, a key, a resize)
/// after its coordinator is gone is a programming error and traps, saying so. A list never
/// attached draws nothing.
///
/// - Complexity: a reload reads the section counts, O(s) for s sections, and the rows on screen;
///   a key press or a changeset of k parts costs O(r·k + s) for r rows on screen — never in
///   proportion to the number of elements.
public final class ConsoleListView<Output: TextOutputStream>: ViewAdapter {
  /// Where the view writes.
  public private(set) var output: Output
  /// Index paths and style (`.auto` style is resolved at init: ANSI unless `NO_COLOR` or `TERM=dumb`).
  public let options: ConsoleOptions
  /// The screen size; set it when the terminal is resized (the next ``draw()`` redraws everything,
  /// scrolled so that the cursor stays on screen).
  public var size: ConsoleSize {
    didSet { if size != oldValue { frame = [] } }
  }
  /// Lines the app shows at the bottom of the screen (a status line, help); they take rows from
  /// the list. Drawn by the next ``draw()``, which keeps the cursor on the rows left.
  public var statusLines: [String] = []
  /// What is shown, alone, when no section has an element and none shows an empty state
  /// (``/SectionKit/DisplayHandler/emptyStateText``): the headers and footers of empty sections
  /// are not drawn then. Drawn on one
  /// line, control characters escaped as in element text (`\u{1B}`), like every text the list
  /// draws.
  public var emptyText = "(nothing to show)"
  /// The element the cursor is on, or `nil` when there is none.
  public private(set) var cursor: IndexPath?
  /// The summary of the last changeset applied (`1 element inserted`), or `reload`.
  public private(set) var lastChange = ""

  /// The coordinator drawn, held weakly: it holds the list as its adapter (see the type's
  /// documentation, *Ownership*).
  private weak var coordinator: Coordinator?
  /// Whether a coordinator attached the list (a list drawn after its coordinator went away traps).
  private var wasAttached = false
  /// The element counts shown, per section.
  private(set) var counts: [Int] = [] {
    didSet { elementTotal = counts.reduce(0, +) }
  }
  /// The number of elements shown, in all sections.
  private var elementTotal = 0
  /// The selected elements shown.
  private var selection: Set<IndexPath> = []
  /// The first line of the list on screen (below the pinned header, if any).
  private var top: Line?
  /// What the screen shows, one string per row (with its styling), empty before the first frame.
  private var frame: [String] = []
  /// Elements and headers on screen, with the section each belongs to (told when they leave).
  private var displayedElements: [IndexPath: any Section] = [:]
  private var displayedHeaders: [Int: any Section] = [:]
  /// The number of rows written (a frame writes only the rows that changed).
  public private(set) var rowsWritten = 0

  /// Creates a list view writing to `output`, `size` cells large.
  ///
  /// - Parameters:
  ///   - output: the terminal (``StandardOutput``), or a `String` in tests.
  ///   - size: the screen size, usually ``ConsoleSize/terminal(fileDescriptor:)``.
  ///   - options: index paths and style; the mode and width are not used (the list always draws
  ///     a screen, to `size.columns`).
  ///   - environment: decides `.auto` style.
  public init(
    output: Output, size: ConsoleSize, options: ConsoleOptions = ConsoleOptions(),
    environment: ConsoleEnvironment = ConsoleEnvironment(isTerminal: true, variables: [:])
  ) {
    self.output = output
    self.size = size
    var options = options.resolved(for: environment)
    options.width = nil
    self.options = options
  }

  // MARK: State

  /// The selected elements, sorted.
  ///
  /// - Complexity: O(s log s) for s selected elements.
  public var selectedIndexPaths: [IndexPath] {
    selection.sorted { $0.lexicographicallyPrecedes($1) }
  }

  /// The elements on screen, sorted.
  public var displayedIndexPaths: [IndexPath] {
    displayedElements.keys.sorted { $0.lexicographicallyPrecedes($1) }
  }

  /// The sections whose header is on screen, sorted.
  public var displayedHeaderSections: [Int] { displayedHeaders.keys.sorted() }

  /// The element counts shown, per section.
  public var shownCounts: [Int] { counts }

  /// The screen as plain text, one line per row (what the last frame drew, styling removed).
  public var screen: [String] { frame.map(withoutStyling) }

  /// The number of rows the list gets: the screen less the status lines (at least one).
  var bodyRows: Int { max(1, size.rows - statusLines.count) }

  // MARK: Moving the cursor

  /// A cursor movement.
  public enum CursorMove: Hashable, Sendable {
    /// One element up or down (`↑`/`↓`, `k`/`j`).
    case up, down
    /// A screen up or down (Page Up / Page Down).
    case pageUp, pageDown
    /// The first or last element (Home / End, `g` / `G`).
    case first, last
  }

  /// Moves the cursor, scrolls to keep it on screen and draws.
  ///
  /// - Complexity: O(r + s) for r rows on screen and s sections.
  public func moveCursor(_ move: CursorMove) {
    guard let cursor else { return draw() }
    let page = max(1, bodyRows - 1)
    switch move {
    case .up: self.cursor = element(cursor, offsetBy: -1)
    case .down: self.cursor = element(cursor, offsetBy: 1)
    case .pageUp: self.cursor = element(cursor, offsetBy: -page)
    case .pageDown: self.cursor = element(cursor, offsetBy: page)
    case .first:
      self.cursor = firstElement(from: 0)
      top = firstLine(from: 0)
    case .last: self.cursor = lastElement(before: counts.count)
    }
    scrollToCursor()
    draw()
  }

  /// Puts the cursor on `indexPath` (an element shown), scrolls to it and draws.
  public func setCursor(_ indexPath: IndexPath) {
    checkShown(indexPath, "setCursor(_:)")
    cursor = indexPath
    scrollToCursor()
    draw()
  }

  // MARK: User input

  /// The user toggled the selection of the element under the cursor: the view shows it, reports
  /// it to the coordinator, and takes it back when the coordinator refuses.
  ///
  /// - Returns: whether the element is selected afterwards (`false` with no cursor).
  @discardableResult
  public func toggleSelection(in coordinator: Coordinator) -> Bool {
    guard let cursor else { return false }
    let wasSelected = selection.contains(cursor)
    if wasSelected { selection.remove(cursor) } else { selection.insert(cursor) }
    let selected =
      wasSelected ? !coordinator.userDidDeselect(cursor) : coordinator.userDidSelect(cursor)
    if selected { selection.insert(cursor) } else { selection.remove(cursor) }
    draw()
    return selected
  }

  /// The user moves the element under the cursor by `offset` places in its section (while
  /// editing): the view asks the coordinator where it may go, moves it there with its selection
  /// and the cursor, then reports the move.
  ///
  /// - Parameters:
  ///   - offset: Places to move, negative towards the start; any `Int`, `.min` and `.max`
  ///     included: the move stops at the first or last element of the section.
  ///   - coordinator: The coordinator this list is attached to.
  /// - Returns: where the element went, or `nil` when it cannot move.
  @discardableResult
  public func moveCursorElement(by offset: Int, in coordinator: Coordinator) -> IndexPath? {
    guard let from = cursor else { return nil }
    let last = counts[from[0]] - 1
    let (sum, overflow) = from[1].addingReportingOverflow(offset)
    let item = overflow ? (offset > 0 ? last : 0) : min(max(0, sum), last)
    let proposed = IndexPath(item: item, section: from[0])
    guard let target = coordinator.targetIndexPath(forMoveFrom: from, proposed: proposed),
      target != from, target[0] == from[0]
    else { return nil }
    let low = min(from[1], target[1])
    let high = max(from[1], target[1])
    selection = Set(
      selection.map { path in
        guard path[0] == from[0], (low...high).contains(path[1]) else { return path }
        if path == from { return target }
        return [path[0], path[1] + (target[1] > from[1] ? -1 : 1)]
      })
    cursor = target
    coordinator.moveElement(from: from, to: target)
    scrollToCursor()
    draw()
    return target
  }

  // MARK: ViewAdapter

  /// Reads the section counts (not the elements), puts the cursor on the first element and draws
  /// the first screen. Elements and headers shown before hear `didEndDisplaying` (with the index
  /// they had); the selection is cleared.
  public func reloadData(from coordinator: Coordinator) {
    for (path, section) in displayedElements {
      (section as? any DisplayHandler)?.didEndDisplaying(at: path[1])
    }
    for section in displayedHeaders.values {
      (section as? any DisplayHandler)?.didEndDisplayingHeader()
    }
    displayedElements = [:]
    displayedHeaders = [:]
    self.coordinator = coordinator
    wasAttached = true
    counts = (0..<coordinator.numberOfSections).map { coordinator.numberOfElements(inSection: $0) }
    selection = []
    cursor = firstElement(from: 0)
    top = firstLine(from: 0)
    lastChange = "reload"
    frame = []
    draw()
  }

  /// Moves the cursor, the selection and the anchor through `changeset`, tells the elements and
  /// headers it deletes from the screen that they end displaying, switches the coordinator to
  /// the new state and draws the rows that changed.
  public func apply(
    _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
  ) {
    self.coordinator = coordinator
    wasAttached = true
    let positions = ChangesetPositions(changeset)
    let oldCounts = counts
    func follow(_ path: IndexPath) -> IndexPath? {
      Self.newPathOrNeighbour(of: path, oldCount: oldCounts[path[0]], in: positions)
    }
    // The anchor: the first element on screen and its row, else the top line's section.
    let anchor = anchorRow()
    let oldTopSection = top?.section

    var keptElements: [IndexPath: any Section] = [:]
    for (path, section) in displayedElements {
      // A reloaded element is another element in the same place, as a reloaded cell is another
      // cell: the one shown ends displaying, the new one is displayed by the next frame.
      if !positions.isReloaded(element: path), let new = positions.newPath(ofOld: path) {
        keptElements[new] = section
      } else {
        coordinator.didEndDisplaying(path)
      }
    }
    var keptHeaders: [Int: any Section] = [:]
    for (index, section) in displayedHeaders {
      if let new = positions.newSection(ofOld: index) {
        keptHeaders[new] = section
      } else {
        coordinator.didEndDisplayingHeader(inSection: index)
      }
    }
    let newCursor = cursor.flatMap(follow)
    let newAnchor = anchor.flatMap { anchor in follow(anchor.path).map { ($0, anchor.row) } }
    selection = Set(selection.compactMap { positions.newPath(ofOld: $0) })

    updateData()
    displayedElements = keptElements
    displayedHeaders = keptHeaders
    counts = (0..<coordinator.numberOfSections).map { coordinator.numberOfElements(inSection: $0) }
    lastChange = ConsoleRenderer.summary(of: changeset)

    cursor = newCursor.flatMap(isShown) ?? nearestElement(to: cursor ?? [0, 0], in: positions)
    if let (path, row) = newAnchor, isShown(path) != nil {
      top = line(.element(path[0], path[1]), back: row)
    } else if let section = oldTopSection {
      // The top section's new place (where it was, when it is deleted): what follows it moves up.
      top =
        firstLine(from: newPlace(ofSection: section, in: positions))
        ?? lastLine(before: counts.count)
    } else {
      top = firstLine(from: 0)
    }
    scrollToCursor()
    draw()
  }

  /// Shows `indexPaths` selected (the program selected them through the coordinator).
  public func coordinator(_ coordinator: Coordinator, didSelect indexPaths: [IndexPath]) {
    for path in indexPaths where isShown(path) != nil { selection.insert(path) }
    draw()
  }

  /// Shows `indexPaths` deselected.
  public func coordinator(_ coordinator: Coordinator, didDeselect indexPaths: [IndexPath]) {
    for path in indexPaths { selection.remove(path) }
    draw()
  }

  /// Whether the element is shown selected.
  public func showsSelected(_ indexPath: IndexPath) -> Bool? {
    selection.contains(indexPath)
  }

  // MARK: Drawing

  /// Draws the screen: the rows of the list from the top line (the header of its section pinned
  /// above it), then the status lines. The view scrolls first, as little as it can, so that the
  /// cursor is on screen (a resize or more status lines can leave it below the last row). Only
  /// the rows that differ from the previous frame are written; the first frame after a reload or
  /// a resize clears the screen. Elements and headers that come into view hear `willDisplay`,
  /// those that left `didEndDisplaying`.
  ///
  /// Traps when the coordinator the list was attached to has been deallocated (see
  /// *Ownership* in the type's documentation); draws nothing before the list is attached.
  ///
  /// - Complexity: O(r) for r rows on screen (plus the section walk past empty sections).
  public func draw() {
    guard let coordinator else {
      precondition(
        !wasAttached,
        "ConsoleListView.draw(): the Coordinator this list shows has been deallocated. The list "
          + "holds it weakly (the coordinator holds the list as its adapter): whoever sets "
          + "`coordinator.adapter = list` must keep a strong reference to the Coordinator while "
          + "the list is drawn")
      return
    }
    scrollToCursor()
    clampTop()
    var rows: [StyledLine] = []
    var elements: [IndexPath: any Section] = [:]
    var headers: [Int: any Section] = [:]
    let body = bodyRows
    if !showsEmptyText, var line = top {
      if pinsHeader(above: line) {
        rows.append(headerRow(line.section))
        headers[line.section] = coordinator.section(at: line.section)
      }
      while rows.count < body {
        rows.append(row(line))
        switch line {
        case .header(let section): headers[section] = coordinator.section(at: section)
        case .element(let section, let index):
          elements[[section, index]] = coordinator.section(at: section)
        default: break
        }
        guard let next = next(line) else { break }
        line = next
      }
    } else {
      rows.append(StyledLine(singleLine(emptyText), .footer))
    }
    while rows.count < body { rows.append(StyledLine()) }
    for status in statusLines.suffix(size.rows - rows.count) {
      rows.append(StyledLine(singleLine(status), .note))
    }
    writeFrame(rows)
    updateDisplayed(elements: elements, headers: headers)
  }

  /// Whether the list shows ``emptyText``: no element anywhere, and no empty state.
  ///
  /// - Complexity: O(1) while there are elements; O(s) for s sections when there is none.
  private var showsEmptyText: Bool {
    elementTotal == 0 && !counts.indices.contains { emptyState($0) != nil }
  }

  private func writeFrame(_ rows: [StyledLine]) {
    let ansi = options.style == .ansi
    let rendered = rows.map { line -> String in
      var text = line.truncated(to: size.columns).rendered(ansi: ansi)
      text.removeLast()
      return text
    }
    var out = ""
    let whole = frame.count != rendered.count
    if whole { out += ConsoleEscape.clearScreen }
    for (index, text) in rendered.enumerated() where whole || frame[index] != text {
      out += "\u{1B}[\(index + 1);1H" + text + "\u{1B}[K"
      rowsWritten += 1
    }
    frame = rendered
    if !out.isEmpty { output.write(out) }
  }

  private func updateDisplayed(elements: [IndexPath: any Section], headers: [Int: any Section]) {
    guard let coordinator else { return }
    for (path, section) in displayedElements where elements[path] == nil {
      if path[0] < counts.count, coordinator.section(at: path[0]) === section,
        path[1] < counts[path[0]]
      {
        coordinator.didEndDisplaying(path)
      } else {
        (section as? any DisplayHandler)?.didEndDisplaying(at: path[1])
      }
    }
    for (index, section) in displayedHeaders where headers[index] == nil {
      (section as? any DisplayHandler)?.didEndDisplayingHeader()
    }
    let newElements = elements.keys.filter { displayedElements[$0] == nil }
      .sorted { $0.lexicographicallyPrecedes($1) }
    let newHeaders = headers.keys.filter { displayedHeaders[$0] == nil }.sorted()
    displayedElements = elements
    displayedHeaders = headers
    for section in newHeaders { coordinator.willDisplayHeader(inSection: section) }
    for path in newElements { coordinator.willDisplay(path) }
  }

  // MARK: Rows

  private func row(_ line: Line) -> StyledLine {
    switch line {
    case .header(let section): return headerRow(section)
    case .element(let section, let index): return elementRow([section, index])
    case .empty(let section):
      return StyledLine("     " + (emptyState(section) ?? ""), .footer)
    case .footer(let section): return StyledLine("   └ " + (footer(section) ?? ""), .footer)
    }
  }

  private func headerRow(_ section: Int) -> StyledLine {
    guard let coordinator else { return StyledLine() }
    let shown = coordinator.section(at: section)
    var title = header(section) ?? ""
    if (shown as? any EditingHandler)?.isEditing == true { title += " ✎" }
    return StyledLine(ConsoleRenderer.rule(title, width: size.columns), .header)
  }

  private func elementRow(_ path: IndexPath) -> StyledLine {
    guard let coordinator else { return StyledLine() }
    let isCursor = cursor == path
    let isSelected = selection.contains(path)
    let style: TextStyle? = isCursor ? .cursor : isSelected ? .selected : nil
    var line = StyledLine((isCursor ? "›" : " ") + (isSelected ? "▸ " : "  "), style)
    if options.showsIndexPaths {
      line.append(format(path), isCursor ? .cursor : .indexPath)
      line.append(" ", style)
    }
    line.append(ShownSection.text(of: coordinator.section(at: path[0]), at: path[1]), style)
    if isCursor {
      // Reverse video to the end of the line.
      let used = TerminalColumns.width(of: line.plainText)
      if used < size.columns {
        line.append(String(repeating: " ", count: size.columns - used), style)
      }
    }
    return line
  }

  func header(_ section: Int) -> String? {
    guard let coordinator else { return nil }
    let shown = coordinator.section(at: section)
    if let presentable = shown as? any ConsolePresentable {
      return presentable.consoleHeader.map(singleLine)
    }
    return "Section \(section) (\(elementCount(counts[section])))"
  }

  func footer(_ section: Int) -> String? {
    (coordinator?.section(at: section) as? any ConsolePresentable)?.consoleFooter.map(singleLine)
  }

  func emptyState(_ section: Int) -> String? {
    guard counts[section] == 0 else { return nil }
    return coordinator?.emptyStateText(inSection: section).map(singleLine)
  }

  // MARK: Scrolling

  /// The first element on screen and its row in the list's rows (below a pinned header it is 1).
  private func anchorRow() -> (path: IndexPath, row: Int)? {
    guard var line = top else { return nil }
    var row = pinsHeader(above: line) ? 1 : 0
    let body = bodyRows
    while row < body {
      if case .element(let section, let index) = line {
        return ([section, index], row - (pinsHeader(above: top!) ? 1 : 0))
      }
      guard let next = next(line) else { return nil }
      line = next
      row += 1
    }
    return nil
  }

  /// Scrolls so that the cursor is on screen, moving as little as possible.
  private func scrollToCursor() {
    guard let cursor else { return }
    let target = Line.element(cursor[0], cursor[1])
    guard let current = top else {
      top = firstLine(from: 0)
      return
    }
    if target < current {
      top = cursor[1] == 0 && hasHeader(cursor[0]) ? .header(cursor[0]) : target
      return
    }
    // On screen already?
    var line = current
    let capacity = bodyRows - (pinsHeader(above: current) ? 1 : 0)
    for _ in 0..<capacity {
      if line == target { return }
      guard let next = next(line) else { break }
      line = next
    }
    // Make the cursor the last row.
    var candidate = self.line(target, back: bodyRows - 1)
    if pinsHeader(above: candidate) { candidate = self.line(target, back: bodyRows - 2) }
    top = candidate
  }

  /// Keeps the screen full: when the list ends before the last row, scrolls back.
  private func clampTop() {
    guard let current = top else {
      top = firstLine(from: 0)
      return
    }
    var line = current
    var count = pinsHeader(above: current) ? 2 : 1
    while count < bodyRows, let next = next(line) {
      line = next
      count += 1
    }
    guard count < bodyRows, previous(current) != nil else { return }
    var candidate = self.line(line, back: bodyRows - 1)
    if pinsHeader(above: candidate) { candidate = self.line(line, back: bodyRows - 2) }
    if candidate < current { top = candidate }
  }
}

/// Plain text of a rendered row (SGR sequences removed).
private func withoutStyling(_ text: String) -> String {
  guard text.contains("\u{1B}") else { return text }
  var result = ""
  var inEscape = false
  for character in text {
    if inEscape {
      if character == "m" { inEscape = false }
    } else if character == "\u{1B}" {
      inEscape = true
    } else {
      result.append(character)
    }
  }
  return result
}
