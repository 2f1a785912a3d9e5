import Foundation
import SectionKitStreaming
import Testing

@testable import LiveBoard

/// Writes `Tests/Corpus/changesets.json`: changesets of random command batches, each with the
/// mirror before it and the mirror `StreamMirror` leaves after it — or `null` where it refuses
/// (a changeset applied to the wrong mirror, a value missing). `Tests/mirror.test.mjs` runs
/// `mirror.js` on every entry and expects the same: the JavaScript and the Swift appliers agree.
@Suite struct CorpusTests {
  static let corpusURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Corpus/changesets.json")

  struct Entry {
    var name: String
    var before: [[BoardItem]]
    var line: Data
    var after: [[BoardItem]]?
  }

  /// The mirror `before` at `sequence - 1` after `update`, or `nil` when it refuses.
  func applied(_ update: StreamChangeset<BoardItem>, to before: [[BoardItem]]) -> [[BoardItem]]? {
    var mirror = StreamMirror(
      sections: before, position: StreamPosition(stream: "corpus", sequence: update.sequence - 1))
    do {
      try mirror.apply(.changeset(update))
      return mirror.sections
    } catch {
      return nil
    }
  }

  @Test func writeTheCorpus() async throws {
    var random = SplitMix(state: 33)
    let board = Board(data: .sample(cards: 9))
    let subscription = board.stream.subscribe()
    var mirror = StreamMirror<BoardItem>()
    let encoder = StreamLineEncoder<BoardItem>()
    var entries: [Entry] = []
    var history: [[[BoardItem]]] = []
    var refusals = 0
    var fits = 0
    for step in 0..<70 {
      let commands = randomCommands(for: await board.current, using: &random)
      try await board.perform(CommandBatch(commands: commands))
      while let update = subscription.poll() {
        let before = mirror.sections
        try mirror.apply(update)
        guard case .changeset(let changeset) = update else { continue }
        #expect(mirror.sections == board.stream.snapshot.sections)
        entries.append(
          Entry(
            name: "step \(step) (\(commands.map(\.kind.rawValue).joined(separator: ", ")))",
            before: before, line: try encoder.encode(update), after: mirror.sections))
        // The same changeset on the mirror of two updates earlier, as a client that missed one
        // would hold: refused, or — when it happens to fit — the same result in both languages.
        if let older = history.last {
          let result = applied(changeset, to: older)
          if result == nil { refusals += 1 } else { fits += 1 }
          entries.append(
            Entry(
              name: "step \(step) on the mirror before the previous update", before: older,
              line: try encoder.encode(update), after: result))
        }
        // A value missing: always refused.
        if let path = changeset.elements.keys.min() {
          var broken = changeset
          broken.elements[path] = nil
          #expect(applied(broken, to: before) == nil)
          entries.append(
            Entry(
              name: "step \(step) without the value of [\(path[0]), \(path[1])]", before: before,
              line: try encoder.encode(.changeset(broken)), after: nil))
        }
        history.append(before)
      }
    }
    #expect(refusals > 10)
    #expect(entries.count > 120)

    let json = JSONEncoder()
    json.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var text = "[\n"
    for (index, entry) in entries.enumerated() {
      text += "{\"name\":" + String(decoding: try json.encode(entry.name), as: UTF8.self)
      text += ",\"before\":" + String(decoding: try json.encode(entry.before), as: UTF8.self)
      text += ",\"line\":" + String(decoding: entry.line.dropLast(), as: UTF8.self)
      text +=
        ",\"after\":"
        + (entry.after.map { String(decoding: try! json.encode($0), as: UTF8.self) } ?? "null")
      text += index == entries.count - 1 ? "}\n" : "},\n"
    }
    text += "]\n"
    try FileManager.default.createDirectory(
      at: Self.corpusURL.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: Self.corpusURL)
    _ = fits
  }
}
