import Foundation
import SectionKit
import SectionKitStreaming
import SectionKitTesting
import Testing

/// Snapshots longer than a line: written in pages of bounded lines, read back whole, and refused
/// with the line named when a page is missing, repeated, out of order or cut short.
///
/// Replay a seed with `SECTIONKIT_SEED=<seed>`.
@Suite struct SnapshotPageTests {
  /// A board's stream with a snapshot in the middle too (a second subscriber's first update), the
  /// content after each update.
  static func updates(seed: UInt64, using random: inout SeededGenerator)
    -> [(update: StreamUpdate<Card>, content: [[Card]])]
  {
    let board = RandomBoard(
      sections: Int.random(in: 3...8, using: &random),
      cards: Int.random(in: 50...80, using: &random))
    let subscription = board.stream.subscribe()
    var result = drain(subscription).map { ($0, board.content) }
    for batch in 0..<40 {
      board.randomBatch(maximum: 8, using: &random)
      result += drain(subscription).map { ($0, board.content) }
      if batch == 20 {
        let late = board.stream.subscribe()
        result += drain(late).map { ($0, board.content) }
        late.cancel()
      }
    }
    return result
  }

  /// Every line of `data` (without its newline).
  static func lines(_ data: Data) -> [Data] {
    data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast().map {
      Data($0)
    }
  }

  @Test(arguments: streamSeeds(base: 0x9A6E_0001, count: 16))
  func largeSnapshotsArePagedAndReadBackWholeFromChunksCutAtRandom(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let limit = Int.random(in: 2_048...2_600, using: &random)
    let updates = Self.updates(seed: seed, using: &random)
    let encoder = StreamLineEncoder<Card>(maximumLineLength: limit)
    // Changeset lines are not paged: one that moves a section and changes it carries the
    // section whole. The bound on snapshot lines is checked as they are written.
    var decoder = StreamLineDecoder<Card>(maximumLineLength: 1 << 16)
    var mirror = StreamMirror<Card>(identity: Card.identity)
    var pending = Data()
    var pages = 0
    for (update, _) in updates {
      let encoded = try encoder.encode(update)
      let lines = Self.lines(encoded)
      if case .snapshot = update {
        #expect(lines.allSatisfy { $0.count <= limit }, "seed \(seed): a page over \(limit) bytes")
      }
      #expect(try encoder.encodeLines(update).reduce(Data(), +) == encoded, "seed \(seed)")
      if case .snapshot = update {
        let whole = try StreamLineEncoder<Card>().encode(update)
        #expect((lines.count > 1) == (whole.count - 1 > limit), "seed \(seed)")
        if lines.count > 1 { pages += lines.count }
      } else {
        #expect(lines.count == 1, "seed \(seed)")
      }
      pending += encoded
    }
    var next = 0
    var offset = 0
    while offset < pending.count {
      let end = min(pending.count, offset + Int.random(in: 1...700, using: &random))
      decoder.append(pending[offset..<end])
      offset = end
      while let decoded = try decoder.next() {
        let (sent, content) = updates[next]
        next += 1
        #expect(decoded == sent, "seed \(seed) line \(decoder.lineNumber)")
        try mirror.apply(decoded, line: decoder.lineNumber)
        #expect(mirror.sections == content, "seed \(seed) update \(decoded.sequence)")
      }
    }
    try decoder.finish()
    #expect(next == updates.count, "seed \(seed)")
    #expect(pages > 0, "seed \(seed): no snapshot was paged")
  }

  @Test(arguments: streamSeeds(base: 0x9A6E_0100, count: 16))
  func stringsWithEveryEscapeArePagedByTheirBytes(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let alphabet = Array("aé\"\\\n\u{2028}/😀 7\u{1}")
    let sections = (0..<Int.random(in: 0...6, using: &random)).map { _ in
      (0..<Int.random(in: 0...200, using: &random)).map { _ in
        String(
          (0..<Int.random(in: 0...40, using: &random)).map { _ in
            alphabet.randomElement(using: &random)!
          })
      }
    }
    let update = StreamUpdate<String>.snapshot(
      StreamSnapshot(stream: "s\u{e9}\"", sequence: 5, sections: sections))
    let limit = Int.random(in: 2_048...3_000, using: &random)
    let lines = try StreamLineEncoder<String>(maximumLineLength: limit).encodeLines(update)
    #expect(lines.allSatisfy { $0.count - 1 <= limit }, "seed \(seed)")
    var decoder = StreamLineDecoder<String>(maximumLineLength: limit)
    var decoded: [StreamUpdate<String>] = []
    for line in lines {
      if let update = try decoder.read(line: line.dropLast()) { decoded.append(update) }
    }
    try decoder.finish()
    #expect(decoded == [update], "seed \(seed): \(lines.count) lines")
  }

  /// How a stream of pages is spoilt, and where the decoder must see it.
  enum Spoil: CaseIterable {
    case drop, repeatPage, swap, interrupt, cut, otherUpdate
  }

  @Test(arguments: streamSeeds(base: 0x9A6E_0200, count: 24))
  func pagesMissingRepeatedSwappedInterruptedOrCutAreRefusedNamingTheLine(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let sections = (0..<Int.random(in: 1...4, using: &random)).map { section in
      (0..<Int.random(in: 200...400, using: &random)).map { "\(section)-\($0)-\(seed)" }
    }
    let snapshot = StreamUpdate<String>.snapshot(
      StreamSnapshot(stream: "s", sequence: 3, sections: sections))
    let encoder = StreamLineEncoder<String>(maximumLineLength: 2_048)
    let pages = try encoder.encodeLines(snapshot).map { $0.dropLast() }
    #expect(pages.count >= 3, "seed \(seed)")
    let later = try encoder.encodeLines(
      .snapshot(StreamSnapshot(stream: "s", sequence: 4, sections: sections))
    ).map { $0.dropLast() }
    let changeset = Data(#"{"changeset":{},"seq":4,"type":"changeset","v":1}"#.utf8)
    let spoil = Spoil.allCases.randomElement(using: &random)!
    let k = Int.random(in: 1..<pages.count, using: &random)  // a page after the first
    var lines = Array(pages)
    // The 1-based line where the decoder must refuse; `nil`: at `finish()`.
    var refusedAt: Int?
    switch spoil {
    case .drop:
      lines.remove(at: k)
      refusedAt = k < lines.count ? k + 1 : nil
    case .repeatPage:
      lines.insert(pages[k - 1], at: k)
      refusedAt = k + 1
    case .swap:
      lines.swapAt(k - 1, k)
      refusedAt = k  // page k where page k - 1 was expected (or without page 0)
    case .interrupt:
      lines.insert(changeset, at: k)
      refusedAt = k + 1
    case .cut:
      lines.removeSubrange(k...)
    case .otherUpdate:
      lines.insert(later[min(k, later.count - 1)], at: k)
      refusedAt = k + 1
    }
    var decoder = StreamLineDecoder<String>(maximumLineLength: 2_048)
    var errors: [StreamLineError] = []
    for line in lines {
      do {
        if let update = try decoder.read(line: line) {
          #expect(update == snapshot, "seed \(seed) \(spoil): another snapshot was read")
        }
      } catch {
        errors.append(error)
      }
    }
    if let refusedAt {
      let first = try #require(errors.first, "seed \(seed) \(spoil): nothing refused")
      #expect(first.line == refusedAt, "seed \(seed) \(spoil) k \(k): \(first)")
      #expect(first.kind == .outOfOrder, "seed \(seed) \(spoil): \(first)")
    } else {
      #expect(errors.isEmpty, "seed \(seed) \(spoil): \(errors)")
      do {
        try decoder.finish()
        Issue.record("seed \(seed) \(spoil): finish() accepted a snapshot without its last page")
      } catch {
        #expect(error.kind == .truncated && error.line == lines.count, "seed \(seed): \(error)")
      }
    }
  }

  @Test func aPageWithItsKeysInAnotherOrderIsReadAndOneThatDoesNotFollowIsRefused() throws {
    let page0 =
      #"{"v":5,"type":"snapshotPage","stream":"s","seq":2,"pages":2,"page":0,"first":[0,0],"sections":[["a","b"]]}"#
    let page1 =
      #"{"sections":[["c"],[]],"v":5,"type":"snapshotPage","stream":"s","seq":2,"pages":2,"page":1,"first":[0,2]}"#
    var decoder = StreamLineDecoder<String>()
    #expect(try decoder.read(line: Data(page0.utf8)) == nil)
    #expect(
      try decoder.read(line: Data(page1.utf8))
        == .snapshot(StreamSnapshot(stream: "s", sequence: 2, sections: [["a", "b", "c"], []])))
    // A page that starts elsewhere than where the last section stopped or at the next one.
    var gap = StreamLineDecoder<String>()
    _ = try gap.read(line: Data(page0.utf8))
    #expect {
      try gap.read(line: Data(page1.replacingOccurrences(of: "[0,2]", with: "[0,1]").utf8))
    } throws: { error in
      (error as? StreamLineError).map { $0.line == 2 && $0.kind == .malformed } ?? false
    }
    // A field a page does not define, a page of another version.
    var other = StreamLineDecoder<String>()
    #expect {
      try other.read(
        line: Data(page0.replacingOccurrences(of: "\"page\":0", with: "\"page\":0,\"x\":1").utf8))
    } throws: { error in
      (error as? StreamLineError).map { $0.kind == .malformed && $0.detail.contains("x:") } ?? false
    }
    #expect {
      try other.read(line: Data(page0.replacingOccurrences(of: "\"v\":5", with: "\"v\":6").utf8))
    } throws: { error in
      (error as? StreamLineError).map { $0.kind == .unsupportedVersion && $0.line == 2 } ?? false
    }
  }

  @Test func anElementLongerThanAPageIsAnEncodingError() {
    let update = StreamUpdate<String>.snapshot(
      StreamSnapshot(
        stream: "s", sequence: 1, sections: [["a", String(repeating: "x", count: 3_000)]]))
    #expect(throws: EncodingError.self) {
      try StreamLineEncoder<String>(maximumLineLength: 2_048).encode(update)
    }
  }
}
