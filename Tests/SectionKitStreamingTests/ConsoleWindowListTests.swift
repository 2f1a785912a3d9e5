import Foundation
import SectionKit
import SectionKitConsole
import SectionKitConsoleStreaming
import SectionKitStreaming
import SectionKitTesting
import Testing

/// A terminal client of a remote list: the local list a ``ConsoleWindowList`` presents equals the
/// whole list's shape with the window's values, after every batch and every window move, and
/// every batch it makes passes the strict validator.
@Suite struct ConsoleWindowListTests {
  /// What the local list must be: the full list's counts, its values inside `window`,
  /// placeholders elsewhere.
  static func expected(_ full: [[Card]], _ window: StreamWindow) -> [[Card?]] {
    var row = 0
    return full.map { section in
      section.map { card in
        defer { row += 1 }
        return (window.start..<window.start + window.length).contains(row) ? card : nil
      }
    }
  }

  @Test(arguments: streamSeeds(base: 0x7E2A_0001, count: 30))
  func theLocalListIsTheWholeListWithTheWindowsValues(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let board = RandomBoard(sections: Int.random(in: 1...5, using: &random), cards: 12)
    let windows = WindowedStream(following: board.stream)
    var full = StreamMirror<Card>()
    for update in drain(board.stream.subscribe()) { try full.apply(update) }
    let fullSubscription = board.stream.subscribe(after: full.position)
    let length = Int.random(in: 1...15, using: &random)
    let anchor = Bool.random(using: &random) ? Int.random(in: 0..<length, using: &random) : nil
    let subscription = windows.subscribe(
      window: StreamWindow(
        start: Int.random(in: 0...30, using: &random), length: length, anchor: anchor))
    let list = ConsoleWindowList<Card>(text: \.description)
    let validator = TestAdapter(strict: true)
    validator.keepsChangesets = seed % 2 == 0  // adapters that keep changesets and that do not
    list.coordinator.adapter = validator
    for step in 0..<80 {
      switch Int.random(in: 0..<6, using: &random) {
      case 0:
        subscription.move(
          to: Int.random(in: 0...(full.sections.joined().count + 3), using: &random))
      case 1:
        // Where a view showing a few random rows would move it.
        let paths = (0..<3).compactMap { _ -> IndexPath? in
          guard let section = full.sections.indices.randomElement(using: &random),
            !full.sections[section].isEmpty
          else { return nil }
          return [section, Int.random(in: 0..<full.sections[section].count, using: &random)]
        }
        if let start = list.windowStart(showing: paths) { subscription.move(to: start) }
      default:
        board.randomBatch(maximum: 8, using: &random)
        windows.pump()
        for update in drain(fullSubscription) { try full.apply(update) }
      }
      while let update = subscription.poll() { try list.apply(update) }
      let shown = list.rows.map { $0.map(\.value) }
      #expect(
        shown == Self.expected(full.sections, list.mirror.window), "seed \(seed), step \(step)")
      #expect(
        (0..<list.coordinator.numberOfSections).map {
          list.coordinator.numberOfElements(inSection: $0)
        } == full.sections.map(\.count), "seed \(seed), step \(step)")
    }
  }

  @Test func aConsoleListViewScrollsTheWindowAndDrawsValuesNotPlaceholders() throws {
    let board = RandomBoard(sections: 3, cards: 40)
    let windows = WindowedStream(following: board.stream)
    let subscription = windows.subscribe(window: StreamWindow(start: 0, length: 24))
    let list = ConsoleWindowList<Card>(text: { "card \($0.description)" })
    let view = ConsoleListView(output: "", size: ConsoleSize(rows: 8, columns: 40))
    list.coordinator.adapter = view
    func catchUp() throws {
      windows.pump()
      while let update = subscription.poll() { try list.apply(update) }
      if let start = list.windowStart(showing: view.displayedIndexPaths) {
        subscription.move(to: start)
        while let update = subscription.poll() { try list.apply(update) }
      }
      view.draw()
    }
    try catchUp()
    let rowsOnScreen = { view.screen.filter { $0.contains("card ") || $0.contains("…") } }
    #expect(view.screen.first?.contains("Section 0 (40 rows)") == true, "\(view.screen)")
    for _ in 0..<14 {
      view.moveCursor(.pageDown)
      try catchUp()
      #expect(!rowsOnScreen().isEmpty)
      #expect(
        rowsOnScreen().allSatisfy { !$0.contains("…") }, "placeholders on screen: \(view.screen)")
    }
    // At the end of the list, the window holds its last rows.
    view.moveCursor(.last)
    try catchUp()
    #expect(list.mirror.after == 0)
    #expect(rowsOnScreen().allSatisfy { !$0.contains("…") }, "\(view.screen)")
    // A card inserted above the screen: the cursor stays on its card.
    let cursor = try #require(view.cursor)
    let card = try #require(list.rows[cursor[0]][cursor[1]].value)
    board.sections[0].insert(Card(id: 10_000), at: 0)
    try catchUp()
    #expect(list.rows[view.cursor![0]][view.cursor![1]].value == card)
  }
}
