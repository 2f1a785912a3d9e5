import Foundation
import SectionKit
import Testing

@testable import SectionKitConsole

/// A titled section that records what it is told about display, and counts the texts read.
final class Shown: ArraySection<String>, ConsolePresentable, DisplayHandler, SelectionHandler,
  EditingHandler, MoveHandler
{
  var title = ""
  var empty: String?
  var events: [String] = []
  var textReads = 0
  var allowsMultipleSelection: Bool { true }
  convenience init(_ title: String, _ names: [String], empty: String? = nil) {
    self.init(names)
    self.title = title
    self.empty = empty
  }
  var consoleHeader: String? { title }
  func consoleText(forElementAt index: Int) -> String {
    textReads += 1
    return self[index]
  }
  var emptyStateText: String? { empty }
  func willDisplay(at index: Int) { events.append("+\(index)") }
  func didEndDisplaying(at index: Int) { events.append("-\(index)") }
  func willDisplayHeader() { events.append("+header") }
  func didEndDisplayingHeader() { events.append("-header") }
}

/// A list view on a string, with its coordinator and an emulated screen fed with what it writes.
final class ListFixture {
  let root = ComposedSectionProvider()
  let coordinator: Coordinator
  let list: ConsoleListView<String>
  var emulator: ScreenEmulator
  private var read: String.Index

  init(_ sections: [Shown], rows: Int = 8, columns: Int = 30, indexPaths: Bool = false) {
    for section in sections { root.append(section) }
    coordinator = Coordinator(sectionProvider: root)
    list = ConsoleListView(
      output: String(), size: ConsoleSize(rows: rows, columns: columns),
      options: ConsoleOptions(showsIndexPaths: indexPaths, style: .plain))
    emulator = ScreenEmulator(rows: rows, columns: columns)
    read = list.output.startIndex
    coordinator.adapter = list
  }

  /// The screen after feeding the emulator what was written since the last call; checks that it
  /// is the frame the view means.
  @discardableResult
  func screen(sourceLocation: SourceLocation = #_sourceLocation) -> String {
    emulator.feed(String(list.output[read...]))
    read = list.output.endIndex
    let meant = list.screen.map { line -> String in
      var line = line
      while line.hasSuffix(" ") { line.removeLast() }
      return line
    }
    #expect(emulator.lines == meant, sourceLocation: sourceLocation)
    return emulator.lines.joined(separator: "\n") + "\n"
  }
}

func names(_ prefix: String, _ count: Int) -> [String] { (0..<count).map { "\(prefix) \($0)" } }

@Suite struct ConsoleListViewTests {
  @Test func firstScreen_readsOnlyTheRowsThatFit() {
    let big = Shown("Big", names("item", 100_000))
    let fixture = ListFixture([big, Shown("After", ["x"])], rows: 6)
    #expect(big.textReads == 5, "one text per element row on screen: \(big.textReads)")
    assertSnapshot(fixture.screen(), named: "list-first-screen")
  }

  @Test func cursor_scrollsTheViewAndPinsTheHeader() {
    let fixture = ListFixture([Shown("A", names("a", 10)), Shown("B", names("b", 10))], rows: 6)
    fixture.list.statusLines = ["status"]
    for _ in 0..<6 { fixture.list.moveCursor(.down) }
    #expect(fixture.list.cursor == [0, 6])
    var screens = fixture.screen()
    fixture.list.moveCursor(.pageDown)
    screens += "--- page down\n" + fixture.screen()
    fixture.list.moveCursor(.last)
    screens += "--- last\n" + fixture.screen()
    fixture.list.moveCursor(.pageUp)
    screens += "--- page up\n" + fixture.screen()
    fixture.list.moveCursor(.first)
    screens += "--- first\n" + fixture.screen()
    assertSnapshot(screens, named: "list-scrolling")
    #expect(fixture.list.cursor == [0, 0])
  }

  @Test func insertAboveTheScreen_keepsTheRowsInPlace() {
    let a = Shown("A", names("a", 50))
    let fixture = ListFixture([a], rows: 6)
    fixture.list.setCursor([0, 30])
    let before = fixture.screen()
    let written = fixture.list.rowsWritten
    a.insert(contentsOf: ["new 1", "new 2"], at: 0)
    #expect(fixture.list.cursor == [0, 32], "the cursor follows its element")
    #expect(fixture.screen() == before, "an insert above the screen moves nothing shown")
    #expect(fixture.list.rowsWritten == written, "and writes nothing")
  }

  @Test func reloadedElement_isRedrawnAlone() {
    let a = Shown("A", names("a", 50))
    let fixture = ListFixture([a], rows: 6)
    fixture.screen()
    let written = fixture.list.rowsWritten
    a[2] = "renamed"
    #expect(fixture.list.rowsWritten == written + 1)
    assertSnapshot(fixture.screen(), named: "list-reloaded")
  }

  @Test func deletedCursorElement_movesTheCursorToItsNeighbour() {
    let a = Shown("A", names("a", 5))
    let fixture = ListFixture([a])
    fixture.list.setCursor([0, 2])
    a.remove(at: 2)
    #expect(fixture.list.cursor == [0, 2], "the next element, now at the same place")
    #expect(fixture.list.screen.contains { $0.hasPrefix("›") && $0.contains("a 3") })
    a.removeLast(2)
    #expect(fixture.list.cursor == [0, 1], "no next element: the previous one")
    fixture.screen()
  }

  @Test func wideCharacters_neverOverrunTheLine() {
    let a = Shown("名前", ["漢字漢字漢字漢字漢字漢字漢字漢字", "e\u{301}e\u{301} combining", "👩‍💻 emoji 👍🏽 ok"])
    let fixture = ListFixture([a], rows: 5, columns: 12)
    for line in fixture.list.screen {
      #expect(TerminalColumns.width(of: line) <= 12, "\(line)")
    }
    assertSnapshot(fixture.screen(), named: "list-wide")
  }

  @Test func displayLifecycle_followsTheViewportAndChangesets() {
    let a = Shown("A", names("a", 10))
    let fixture = ListFixture([a], rows: 4)
    #expect(a.events == ["+header", "+0", "+1", "+2"])
    a.events = []
    for _ in 0..<3 { fixture.list.moveCursor(.down) }
    #expect(a.events == ["-0", "+3"], "a.0 scrolled away under the pinned header")
    a.events = []
    a.remove(at: 2)
    #expect(a.events.first == "-2", "told with the index it had, before the new state")
    #expect(a.events.dropFirst().sorted() == ["+3"])
    a.events = []
    fixture.root.remove(a)
    #expect(a.events.sorted() == ["-1", "-2", "-3", "-header"])
    let list = fixture.list
    #expect(list.displayedIndexPaths.isEmpty && list.displayedHeaderSections.isEmpty)
  }

  @Test func emptyStates_areShownInsteadOfElements() {
    let a = Shown("Inbox", [], empty: "No messages")
    let fixture = ListFixture([a], rows: 4)
    assertSnapshot(fixture.screen(), named: "list-empty-section")
    let bare = ListFixture([], rows: 3)
    bare.list.emptyText = "Nothing here"
    bare.list.draw()
    #expect(bare.list.screen.first == "Nothing here")
  }

  @Test func programSelection_isShown() {
    let a = Shown("A", names("a", 3))
    let fixture = ListFixture([a])
    fixture.coordinator.selectElement(at: [0, 1])
    #expect(fixture.list.selectedIndexPaths == [[0, 1]])
    #expect(fixture.list.screen.contains(" ▸ a 1"))
    fixture.list.setCursor([0, 2])
    fixture.list.toggleSelection(in: fixture.coordinator)
    #expect(fixture.coordinator.selectedIndexPaths == [[0, 1], [0, 2]])
    a.insert("first", at: 0)
    #expect(fixture.list.selectedIndexPaths == [[0, 2], [0, 3]])
  }

  @Test func moveWhileEditing_movesTheRowWithItsSelection() {
    let a = Shown("A", names("a", 4))
    let fixture = ListFixture([a])
    fixture.coordinator.setEditing(true)
    fixture.list.setCursor([0, 1])
    fixture.list.toggleSelection(in: fixture.coordinator)
    #expect(fixture.list.moveCursorElement(by: 2, in: fixture.coordinator) == [0, 3])
    #expect(Array(a) == ["a 0", "a 2", "a 3", "a 1"])
    #expect(fixture.list.selectedIndexPaths == [[0, 3]])
    #expect(fixture.coordinator.selectedIndexPaths == [[0, 3]])
    fixture.screen()
  }

  @Test func resize_redrawsTheWholeScreen() {
    let fixture = ListFixture([Shown("A", names("a", 20))], rows: 6, columns: 20)
    fixture.screen()
    fixture.list.size = ConsoleSize(rows: 4, columns: 14)
    fixture.list.draw()
    fixture.emulator = ScreenEmulator(rows: 4, columns: 14)
    assertSnapshot(fixture.screen(), named: "list-resized")
  }

  @Test func resizeOrMoreStatusLines_keepTheCursorOnScreen() {
    let fixture = ListFixture([Shown("A", names("a", 20))], rows: 11, columns: 20)
    let list = fixture.list
    list.setCursor([0, 9])
    fixture.screen()
    #expect(list.screen[10].hasPrefix("›"), "\(list.screen)")
    func expectCursorShown(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
      #expect(
        list.screen.contains { $0.hasPrefix("›") && $0.contains("a 9") }
          && list.displayedIndexPaths.contains([0, 9]),
        "\(what): \(list.screen)", sourceLocation: sourceLocation)
    }
    list.size = ConsoleSize(rows: 9, columns: 20)
    list.draw()
    fixture.emulator = ScreenEmulator(rows: 9, columns: 20)
    fixture.screen()
    expectCursorShown("11 rows → 9")
    list.statusLines = ["one", "two", "three"]
    list.draw()
    fixture.screen()
    expectCursorShown("three status lines")
    list.statusLines = ["status"]
    list.size = ConsoleSize(rows: 2, columns: 20)
    list.draw()
    fixture.emulator = ScreenEmulator(rows: 2, columns: 20)
    fixture.screen()
    expectCursorShown("one row for the list: no pinned header")
  }

  @Test func sectionsWithNoElementAnywhere_showTheListsEmptyText() {
    let a = Shown("A", [])
    let b = Shown("B", [])
    let fixture = ListFixture([a, b], rows: 4)
    #expect(fixture.screen().hasPrefix("(nothing to show)\n"), "\(fixture.list.screen)")
    #expect(a.events.isEmpty && b.events.isEmpty, "no header is shown: \(a.events) \(b.events)")
    b.append("b 0")
    #expect(fixture.screen().hasPrefix("── A ──"), "\(fixture.list.screen)")
    b.remove(at: 0)
    #expect(fixture.screen().hasPrefix("(nothing to show)\n"), "\(fixture.list.screen)")
    #expect(a.events == ["+header", "-header"] && b.events == ["+header", "+0", "-0", "-header"])
    #expect(fixture.list.displayedHeaderSections.isEmpty)
  }

  @Test func removingTheCursorsSection_movesTheCursorToTheNextElementElseTheLastBefore() {
    let a = Shown("A", names("a", 3))
    let b = Shown("B", names("b", 2))
    let fixture = ListFixture([a, b])
    fixture.list.setCursor([1, 1])
    fixture.root.remove(b)
    #expect(fixture.list.cursor == [0, 2], "the last element of the section before")
    fixture.screen()

    let c = Shown("C", names("c", 2))
    let after = ListFixture([Shown("A", names("a", 3)), c, Shown("D", names("d", 2))])
    after.list.setCursor([1, 1])
    after.root.remove(c)
    #expect(after.list.cursor == [1, 0], "the first element of the section that took its place")
    after.screen()
  }

  @Test func removingTheTopSection_bringsUpWhatFollowedIt() {
    let b = Shown("B", names("b", 2))
    let fixture = ListFixture([Shown("A", names("a", 20)), b, Shown("C", names("c", 20))], rows: 6)
    fixture.list.setCursor([2, 2])
    #expect(fixture.screen().hasPrefix("── B ──"), "\(fixture.list.screen)")
    fixture.root.remove(b)
    #expect(fixture.list.cursor == [1, 2])
    #expect(
      fixture.screen().hasPrefix("── C ──"), "the view stays where B was: \(fixture.list.screen)")
  }

  @Test func aReloadedElementOnScreen_endsDisplayingAndIsDisplayedAgain() {
    let a = Shown("A", names("a", 5))
    let fixture = ListFixture([a], rows: 4)
    a.events = []
    a[1] = "renamed"
    #expect(a.events == ["-1", "+1"], "as a reloaded cell is another cell: \(a.events)")
    a.events = []
    a[4] = "off screen"
    #expect(a.events.isEmpty, "\(a.events)")
    fixture.screen()
  }
}
