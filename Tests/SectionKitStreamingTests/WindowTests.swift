import Foundation
import SectionKit
import SectionKitStreaming
import SectionKitTesting
import Testing

/// Where a window goes through one batch, computed another way than the library does: the old
/// rows are tagged with their global index, the changeset applied to the tags with the library's
/// one applier, and the rows that stay (neither deleted, moved, nor in a deleted, reloaded or
/// moved section) read back with their tags.
struct WindowReference {
  /// For each new global row, the old global row it stayed from, or `nil`.
  let stayedFrom: [Int?]

  init(old: [[Card]], new: [[Card]], changeset: Changeset) throws {
    var tags: [[Int?]] = []
    var row = 0
    for section in old {
      tags.append(
        section.indices.map { _ in
          defer { row += 1 }
          return row
        })
    }
    for move in changeset.movedSections { tags[move.from] = tags[move.from].map { _ in nil } }
    for section in changeset.reloadedSections { tags[section] = tags[section].map { _ in nil } }
    for move in changeset.movedElements { tags[move.from[0]][move.from[1]] = nil }
    let reloads = Dictionary(
      uniqueKeysWithValues: zip(
        changeset.reloadedElementDestinations,
        changeset.reloadedElements.map { tags[$0[0]][$0[1]] }))
    try changeset.apply(
      to: &tags, insertedSection: { Array(repeating: nil, count: new[$0].count) },
      newElement: { path in reloads[path] ?? nil })
    stayedFrom = tags.flatMap { $0 }
  }

  /// Where `window` starts after the batch, by ``StreamWindow``'s rules.
  func newStart(of window: StreamWindow, oldTotal: Int) -> Int {
    let end = min(window.start + window.length, oldTotal)
    if let anchor = window.anchor, window.start + anchor < end,
      let row = stayedFrom.firstIndex(of: window.start + anchor)
    {
      return max(0, row - anchor)
    }
    if window.start == 0 { return 0 }
    return stayedFrom.firstIndex { $0.map { $0 >= window.start } ?? false } ?? stayedFrom.count
  }
}

/// A window a test follows: its subscription, its mirror, and where the reference says it is.
final class FollowedWindow {
  let subscription: WindowSubscription<Card>
  var mirror = WindowMirror<Card>()
  var expected: StreamWindow

  init(_ windows: WindowedStream<Card>, _ window: StreamWindow) {
    subscription = windows.subscribe(window: window)
    expected = window
  }

  /// Applies every update ready, each clipped changeset checked by the strict validator against
  /// the window's counts.
  func catchUp() throws {
    while let update = subscription.poll() {
      let oldCounts = mirror.rows.map(\.count)
      try mirror.apply(update)
      if case .changeset(let clipped) = update {
        let violations = BatchValidator().validate(
          oldCounts: oldCounts, newCounts: mirror.rows.map(\.count),
          changeset: clipped.changeset)
        #expect(violations.isEmpty, "\(clipped.changeset): \(violations)")
      }
    }
  }
}

@Suite("Windows: a client follows a range of rows, exactly")
struct WindowTests {
  /// Random batches and window moves over boards of up to a few hundred rows; after every one,
  /// every window's mirror equals the slice of the full list the reference says it shows, and
  /// its counts are the list's.
  @Test(arguments: streamSeeds(base: 9_100, count: 60))
  func windowsEqualTheSliceOfTheFullList(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let board = RandomBoard(sections: Int.random(in: 1...5, using: &random), cards: 12)
    let windows = WindowedStream(following: board.stream)
    var full = StreamMirror<Card>()
    for update in drain(board.stream.subscribe()) { try full.apply(update) }
    let fullSubscription = board.stream.subscribe(after: full.position)
    var followed: [FollowedWindow] = []
    for _ in 0..<6 {
      let length = Int.random(in: 1...12, using: &random)
      let anchor = Bool.random(using: &random) ? Int.random(in: 0..<length, using: &random) : nil
      let start = Int.random(in: 0...board.content.joined().count, using: &random)
      followed.append(
        FollowedWindow(windows, StreamWindow(start: start, length: length, anchor: anchor)))
    }
    for window in followed { try window.catchUp() }
    for step in 0..<80 {
      if Int.random(in: 0..<5, using: &random) == 0 {
        let window = followed.randomElement(using: &random)!
        let start = Int.random(in: 0...(full.sections.joined().count + 3), using: &random)
        window.subscription.move(to: start)
        window.expected.start = min(start, full.sections.joined().count)
      } else {
        board.randomBatch(maximum: 8, using: &random)
        windows.pump()
        let old = full.sections
        for update in drain(fullSubscription) {
          try full.apply(update)
          guard case .changeset(let changeset) = update else { continue }
          let reference = try WindowReference(
            old: old, new: full.sections, changeset: changeset.changeset)
          for window in followed {
            window.expected.start = reference.newStart(
              of: window.expected, oldTotal: old.joined().count)
          }
        }
      }
      let list = Array(full.sections.joined())
      for window in followed {
        try window.catchUp()
        let end = min(window.expected.start + window.expected.length, list.count)
        #expect(window.mirror.window == window.expected, "seed \(seed), step \(step)")
        #expect(
          window.mirror.flattened == Array(list[window.expected.start..<end]),
          "seed \(seed), step \(step), window \(window.expected)")
        #expect(window.mirror.counts == full.sections.map(\.count))
        #expect(window.mirror.before == window.expected.start)
        #expect(window.mirror.after == list.count - end)
      }
    }
  }

  /// The rules of `StreamWindow`, one at a time.
  @Test func anInsertAboveChangesOnlyTheCountBefore() throws {
    let board = RandomBoard(sections: 1, cards: 10)
    let windows = WindowedStream(following: board.stream)
    let window = FollowedWindow(windows, StreamWindow(start: 4, length: 3))
    try window.catchUp()
    let shown = window.mirror.flattened
    board.sections[0].insert(Card(id: 100), at: 1)
    windows.pump()
    let update = window.subscription.poll()
    guard case .changeset(let clipped) = update else {
      Issue.record("expected a changeset, got \(String(describing: update))")
      return
    }
    #expect(clipped.changeset.isEmpty)
    #expect(clipped.window.start == 5)
    #expect(clipped.counts == [0: 11])
    try window.mirror.apply(update!)
    #expect(window.mirror.flattened == shown)
    #expect(window.mirror.before == 5)
  }

  @Test func aDeleteInsidePullsTheNextRowFromBelow() throws {
    let board = RandomBoard(sections: 1, cards: 10)
    let windows = WindowedStream(following: board.stream)
    let window = FollowedWindow(windows, StreamWindow(start: 4, length: 3))
    try window.catchUp()
    let ids = board.content[0].map(\.id)
    board.sections[0].remove(at: 5)
    windows.pump()
    try window.catchUp()
    #expect(window.mirror.flattened.map(\.id) == [ids[4], ids[6], ids[7]])
    #expect(window.mirror.before == 4)
  }

  @Test func anAnchoredWindowKeepsItsRowInPlace() throws {
    let board = RandomBoard(sections: 1, cards: 10)
    let windows = WindowedStream(following: board.stream)
    let window = FollowedWindow(windows, StreamWindow(start: 4, length: 3, anchor: 2))
    try window.catchUp()
    let anchorID = window.mirror.flattened[2].id
    board.sections[0].remove(at: 5)  // inside the window, above the anchor
    board.sections[0].insert(Card(id: 200), at: 0)  // above the window
    windows.pump()
    try window.catchUp()
    #expect(window.mirror.flattened[2].id == anchorID)
    // The anchor deleted: the unanchored rule, and the row at offset 2 is the anchor.
    board.sections[0].remove(at: board.content[0].firstIndex { $0.id == anchorID }!)
    windows.pump()
    try window.catchUp()
    #expect(window.mirror.window.anchor == 2)
  }

  @Test func aMoveSendsOnlyTheRowsThatEnter() throws {
    let board = RandomBoard(sections: 2, cards: 10)
    let windows = WindowedStream(following: board.stream)
    let window = FollowedWindow(windows, StreamWindow(start: 2, length: 5))
    try window.catchUp()
    window.subscription.move(to: 4)
    let update = window.subscription.poll()
    guard case .moved(let moved) = update else {
      Issue.record("expected a move, got \(String(describing: update))")
      return
    }
    #expect(moved.elements.count == 2)
    #expect(moved.changeset.deletedElements.count == 2)
    try window.mirror.apply(update!)
    #expect(window.mirror.flattened == Array(Array(board.content.joined())[4..<9]))
  }

  @Test func aWindowMirrorRefusesWhatDoesNotFit() throws {
    let board = RandomBoard(sections: 1, cards: 10)
    let windows = WindowedStream(following: board.stream)
    let window = FollowedWindow(windows, StreamWindow(start: 0, length: 4))
    try window.catchUp()
    board.sections[0].remove(at: 0)
    windows.pump()
    guard case .changeset(var clipped) = window.subscription.poll() else {
      Issue.record("expected a changeset")
      return
    }
    let before = window.mirror
    clipped.elements = [:]
    #expect(throws: StreamMirrorError.self) { try window.mirror.apply(.changeset(clipped)) }
    #expect(window.mirror == before)
    clipped.sequence += 1
    #expect(throws: StreamMirrorError.self) { try window.mirror.apply(.changeset(clipped)) }
    #expect(window.mirror == before)
  }
}

@Suite("Windows on the wire")
struct WindowLineTests {
  /// Every update of the randomized windows, encoded and decoded, equals itself; and a mirror fed
  /// by the lines equals one fed by the values.
  @Test(arguments: streamSeeds(base: 9_300, count: 20))
  func linesRoundTrip(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let board = RandomBoard(sections: Int.random(in: 1...5, using: &random), cards: 12)
    let windows = WindowedStream(following: board.stream)
    let subscription = windows.subscribe(
      window: StreamWindow(start: Int.random(in: 0...20, using: &random), length: 7))
    var decoder = WindowLineDecoder<Card>()
    var mirror = WindowMirror<Card>()
    var lineMirror = WindowMirror<Card>()
    for step in 0..<60 {
      if step % 9 == 8 {
        subscription.move(to: Int.random(in: 0...40, using: &random))
      } else {
        board.randomBatch(maximum: 6, using: &random)
        windows.pump()
      }
      while let update = subscription.poll() {
        let line = try WindowLineEncoder<Card>().encode(update)
        #expect(line.last == UInt8(ascii: "\n"))
        let decoded = try decoder.decode(line: line.dropLast())
        #expect(decoded == update, "seed \(seed), step \(step)")
        try mirror.apply(update)
        try lineMirror.apply(decoded)
      }
      #expect(lineMirror == mirror)
    }
  }

  /// What is not a window line is refused, naming the line and the field.
  @Test func refusesWhatIsNotAWindowLine() throws {
    var decoder = WindowLineDecoder<String>(maximumLineLength: 200)
    let cases: [(String, StreamLineError.Kind, String)] = [
      ("not json", .malformed, "JSON"),
      (
        #"{"v":2,"type":"windowMoved","seq":1,"start":0,"length":1,"changes":{}}"#,
        .unsupportedVersion, "version 2"
      ),
      (#"{"v":1,"type":"window","seq":1,"start":0,"length":1,"changes":{}}"#, .malformed, "type"),
      (
        #"{"v":1,"type":"windowMoved","seq":1,"start":-1,"length":1,"changes":{}}"#, .malformed,
        "start"
      ),
      (
        #"{"v":1,"type":"windowMoved","seq":1,"start":0,"length":1,"anchor":1,"changes":{}}"#,
        .malformed, "anchor"
      ),
      (
        #"{"v":1,"type":"windowChangeset","seq":1,"start":0,"length":1,"changes":{},"counts":[[0]]}"#,
        .malformed, "counts"
      ),
      (
        #"{"v":1,"type":"windowChangeset","seq":1,"start":0,"length":1,"changes":{},"elements":[[[0,0],"a"],[[0,0],"b"]]}"#,
        .malformed, "twice"
      ),
      (
        #"{"v":1,"type":"windowSnapshot","stream":"s","seq":1,"start":0,"length":1,"counts":[1],"firstSection":1,"rows":[["a"]]}"#,
        .malformed, "rows"
      ),
      (String(repeating: " ", count: 201), .tooLong, "201 bytes"),
    ]
    for (number, (line, kind, detail)) in cases.enumerated() {
      #expect {
        _ = try decoder.decode(line: Data(line.utf8))
      } throws: { error in
        guard let error = error as? StreamLineError else { return false }
        return error.line == number + 1 && error.kind == kind && error.description.contains(detail)
      }
    }
  }
}
