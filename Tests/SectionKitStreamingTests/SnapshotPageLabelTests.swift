import Foundation
import SectionKit
import SectionKitStreaming
import SectionKitTesting
import Testing

/// Labels of a snapshot written in pages: each page carries the labels of the sections that
/// start on it, and the pages read back give exactly the labels of the whole snapshot; labels
/// that do not fit the pages are refused naming the line.
///
/// Replay a seed with `SECTIONKIT_SEED=<seed>`.
@Suite struct SnapshotPageLabelTests {
  /// A random label: an identity and a header each present or not, some long, with escapes.
  static func randomLabel(using random: inout SeededGenerator) -> StreamSectionLabel {
    let alphabet = Array("aé\"\\\n/😀 7\u{1}")
    func text() -> String {
      let length = Int.random(in: 0..<10, using: &random) == 0 ? 100 : 12
      return String(
        (0..<Int.random(in: 0...length, using: &random)).map { _ in
          alphabet.randomElement(using: &random)!
        })
    }
    return StreamSectionLabel(
      id: Bool.random(using: &random) || Bool.random(using: &random) ? text() : nil,
      header: Bool.random(using: &random) ? text() : nil)
  }

  /// A random snapshot: 0 to 60 sections of 0 to 120 strings (empty sections among them), with
  /// labels or without.
  static func randomSnapshot(sequence: Int, labelled: Bool, using random: inout SeededGenerator)
    -> StreamSnapshot<String>
  {
    let count = Int.random(in: 0...60, using: &random)
    let sections = (0..<count).map { section in
      (0..<(Int.random(in: 0..<4, using: &random) == 0
        ? 0 : Int.random(in: 1...120, using: &random))).map { "\(section)-\($0)" }
    }
    let labels = labelled ? sections.map { _ in randomLabel(using: &random) } : []
    return StreamSnapshot(
      stream: "stream-\(sequence % 3)", sequence: sequence, sections: sections, labels: labels)
  }

  @Test(arguments: streamSeeds(base: 0x1AB3_0001, count: 24))
  func pagesCarryingLabelsReassembleToTheWholeSnapshotsLabels(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let limit = Int.random(in: 2_048...4_000, using: &random)
    let encoder = StreamLineEncoder<String>(maximumLineLength: limit)
    var snapshots: [StreamSnapshot<String>] = []
    var bytes = Data()
    var paged = (labelled: 0, unlabelled: 0)
    for sequence in 1...12 {
      let snapshot = Self.randomSnapshot(
        sequence: sequence, labelled: Bool.random(using: &random), using: &random)
      snapshots.append(snapshot)
      let lines = try encoder.encodeLines(.snapshot(snapshot))
      #expect(lines.allSatisfy { $0.count - 1 <= limit }, "seed \(seed): a page over \(limit)")
      if lines.count > 1 {
        if snapshot.labels.isEmpty { paged.unlabelled += 1 } else { paged.labelled += 1 }
        // A labelled snapshot's pages all carry labels; an unlabelled one's none.
        for line in lines {
          #expect(
            line.starts(with: Data(#"{"first":["#.utf8))
              && (String(decoding: line, as: UTF8.self).contains(#"],"labels":["#)
                == !snapshot.labels.isEmpty),
            "seed \(seed) update \(sequence)")
        }
      }
      bytes += lines.reduce(Data(), +)
    }
    // Read back from chunks cut at random, and as whole lines: the same snapshots, labels
    // included, as those sent and as a whole line of each gives.
    var decoder = StreamLineDecoder<String>(maximumLineLength: limit)
    var mirror = StreamMirror<String>()
    var next = 0
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + Int.random(in: 1...900, using: &random))
      decoder.append(bytes[offset..<end])
      offset = end
      while let update = try decoder.next() {
        let sent = snapshots[next]
        next += 1
        guard case .snapshot(let read) = update else {
          Issue.record("seed \(seed): a changeset read")
          continue
        }
        #expect(read == sent, "seed \(seed) line \(decoder.lineNumber)")
        #expect(read.labels == sent.labels, "seed \(seed) update \(sent.sequence)")
        var whole = StreamLineDecoder<String>()
        let line = try StreamLineEncoder<String>().encode(.snapshot(sent))
        #expect(try whole.decode(line: line.dropLast()) == update, "seed \(seed)")
        try mirror.apply(update, line: decoder.lineNumber)
        #expect(mirror.labels == sent.labels, "seed \(seed) update \(sent.sequence)")
      }
    }
    try decoder.finish()
    #expect(next == snapshots.count, "seed \(seed)")
    #expect(paged.labelled + paged.unlabelled > 0, "seed \(seed): nothing was paged")
  }

  /// Labelled random boards whose snapshots take pages: a mirror fed the pages has the board's
  /// labels after every update.
  @Test(arguments: streamSeeds(base: 0x1AB3_0100, count: 8))
  func aMirrorFedPagesHasTheBoardsLabels(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let board = RandomBoard(
      sections: Int.random(in: 3...8, using: &random),
      cards: Int.random(in: 50...80, using: &random),
      labelled: true)
    let encoder = StreamLineEncoder<Card>(maximumLineLength: 2_048)
    var decoder = StreamLineDecoder<Card>(maximumLineLength: 1 << 16)
    var mirror = StreamMirror<Card>(identity: Card.identity)
    var pages = 0
    var subscription = board.stream.subscribe()
    for batch in 0..<30 {
      if batch % 10 == 9 {
        // A new subscriber: a snapshot, in pages.
        subscription.cancel()
        subscription = board.stream.subscribe()
        decoder = StreamLineDecoder<Card>(maximumLineLength: 1 << 16)
      } else {
        board.randomBatch(maximum: 8, using: &random)
      }
      for update in drain(subscription) {
        let lines = try encoder.encodeLines(update)
        if case .snapshot = update { pages += lines.count }
        for line in lines { decoder.append(line) }
        while let read = try decoder.next() {
          #expect(read == update, "seed \(seed) line \(decoder.lineNumber)")
          try mirror.apply(read, line: decoder.lineNumber)
        }
      }
      #expect(mirror.sections == board.content, "seed \(seed) batch \(batch)")
      #expect(mirror.labels == board.labels, "seed \(seed) batch \(batch)")
    }
    #expect(pages > 3, "seed \(seed): the snapshots were not paged")
  }

  /// The pages of a labelled snapshot, spoilt one way each: every one refused as `malformed` at
  /// the page's line, and the mirror fed by the decoder unchanged.
  @Test func malformedLabelsInPagesAreRefusedNamingTheLineAndTheMirrorIsUnchanged() throws {
    let sections = (0..<6).map { section in (0..<150).map { "\(section)-\($0)" } }
    let labels = sections.indices.map { StreamSectionLabel(id: "s\($0)", header: "Column \($0)") }
    let encoder = StreamLineEncoder<String>(maximumLineLength: 2_048)
    let first = try encoder.encode(
      .snapshot(StreamSnapshot(stream: "s", sequence: 1, sections: [["a"]], labels: [.init()])))
    let pages = try encoder.encodeLines(
      .snapshot(StreamSnapshot(stream: "s", sequence: 2, sections: sections, labels: labels))
    ).map { String(decoding: $0.dropLast(), as: UTF8.self) }
    #expect(pages.count >= 4)
    // The index of a page that starts sections of its own, after page 0.
    let k = try #require(
      pages.indices.dropFirst().first { !pages[$0].contains(#""labels":[]"#) })
    func replacingLabels(of page: String, with text: String?) -> String {
      let start = page.range(of: #","labels":["#)!.lowerBound
      let end = page.range(of: #"],"page":"#)!.lowerBound
      return page.replacingCharacters(in: start...end, with: text.map { #","labels":"# + $0 } ?? "")
    }
    /// The pages, page `page`'s labels replaced with `text` (left out for `nil`).
    func spoiling(_ page: Int, with text: String?) -> [String] {
      var spoilt = pages
      spoilt[page] = replacingLabels(of: pages[page], with: text)
      return spoilt
    }
    let cases: [(String, [String], Int, String)] = [
      ("labels missing on a later page", spoiling(k, with: nil), k, "labels: page \(k) has none"),
      (
        "labels on a later page only",
        pages.indices.map { $0 == k ? pages[$0] : replacingLabels(of: pages[$0], with: nil) }, k,
        "labels: page \(k) has labels"
      ),
      ("a label too few", spoiling(k, with: "[]"), k, "labels: 0 labels for the"),
      (
        "an identity that is not a string", spoiling(0, with: #"[{"id":1}]"#), 0,
        "labels[0].id: expected a string"
      ),
      (
        "a field a label does not define", spoiling(k, with: #"[{"name":"x"}]"#), k,
        "labels[0].name: no such field"
      ),
      ("labels that are not an array", spoiling(k, with: "{}"), k, "labels: expected an array"),
      ("null labels", spoiling(k, with: "null"), k, "labels: null"),
    ]
    for (name, spoilt, page, detail) in cases {
      var decoder = StreamLineDecoder<String>(maximumLineLength: 2_048)
      var mirror = StreamMirror<String>()
      decoder.append(first)
      while let update = try decoder.next() { try mirror.apply(update, line: decoder.lineNumber) }
      let before = mirror
      var errors: [StreamLineError] = []
      for line in spoilt {
        decoder.append(Data((line + "\n").utf8))
        do {
          while let update = try decoder.next() {
            try mirror.apply(update, line: decoder.lineNumber)
          }
        } catch {
          errors.append(error)
        }
      }
      let error = try #require(errors.first, "\(name): nothing refused")
      #expect(error.line == page + 2, "\(name): \(error)")
      #expect(error.kind == .malformed, "\(name): \(error)")
      #expect(error.detail.hasPrefix(detail), "\(name): \(error)")
      #expect(mirror == before, "\(name): the mirror changed")
    }
  }

  @Test func aLabelLongerThanAPageIsAnEncodingError() {
    let update = StreamUpdate<String>.snapshot(
      StreamSnapshot(
        stream: "s", sequence: 1, sections: [Array(repeating: "a", count: 1_000), []],
        labels: [
          StreamSectionLabel(), StreamSectionLabel(header: String(repeating: "x", count: 3_000)),
        ]))
    #expect(throws: EncodingError.self) {
      try StreamLineEncoder<String>(maximumLineLength: 2_048).encode(update)
    }
  }
}
