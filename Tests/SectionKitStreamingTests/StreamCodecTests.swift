import Foundation
import SectionKit
@_spi(Reference) import SectionKitStreaming
import SectionKitTesting
import Testing

/// The codec of our own against the `JSONEncoder`/`JSONDecoder` path it replaced, the in-place
/// mirror against a rebuilt reference, and the digests.
///
/// Replay a seed with `SECTIONKIT_SEED=<seed>`; run longer with `SECTIONKIT_FUZZ_ITERATIONS=<n>`.
@Suite struct StreamCodecTests {
  /// The digest's hash on vectors computed from its documented definition, which the JavaScript
  /// client (`Examples/LiveBoard/Public/mirror.js`, `fnv1a`) is tested against too.
  @Test func theDigestHashesTheVectorsTheJavaScriptClientHashes() {
    let vectors: [([String], UInt64)] = [
      ([], 0xcbf2_9ce4_8422_2325), (["a", "b"], 0xd2b3_7181_9297_f98a),
      (["ab", "c"], 0x20ba_9b30_25a8_b421), (["Zoë", "7"], 0xf40d_1808_729f_062f),
    ]
    for (ids, expected) in vectors {
      #expect(StreamDigest.hash(ids, identity: { $0 }) == expected, "\(ids)")
    }
  }

  static let iterations = fuzzIterations(default: 300)

  /// A random board's stream: every update, with the model's content after each.
  static func updates(seed: UInt64, batches: Int, digests: StreamDigestPolicy = .never)
    -> [(update: StreamUpdate<Card>, content: [[Card]])]
  {
    var random = SeededGenerator(seed: seed)
    let board = RandomBoard(digests: digests, sections: Int.random(in: 1...4, using: &random))
    let subscription = board.stream.subscribe()
    var result = drain(subscription).map { ($0, board.content) }
    for _ in 0..<batches {
      board.randomBatch(maximum: Int.random(in: 1...8, using: &random), using: &random)
      result += drain(subscription).map { ($0, board.content) }
    }
    return result
  }

  // MARK: The encoder

  @Test(arguments: streamSeeds(base: 0xC0DE_0001, count: 20))
  func theEncoderWritesTheBytesJSONEncoderWrote(seed: UInt64) throws {
    let encoder = StreamLineEncoder<Card>()
    for (update, _) in Self.updates(seed: seed, batches: 60) {
      #expect(try encoder.encode(update) == encoder.encodeWithFoundation(update), "seed \(seed)")
    }
    // Strings and integers are written directly: every escape, as JSONEncoder writes it.
    let strings = StreamLineEncoder<String>()
    let odd = String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self) + "é\u{2028}/\"\\😀"
    let update = StreamUpdate<String>.changeset(
      StreamChangeset(
        sequence: 7, changeset: Changeset(insertedSections: [0], insertedElements: [[1, 0]]),
        sections: [0: [odd, ""]], elements: [[1, 0]: "x\ny"]))
    #expect(try strings.encode(update) == strings.encodeWithFoundation(update))
    let snapshot = StreamUpdate<Int>.snapshot(
      StreamSnapshot(stream: "s", sequence: 3, sections: [[0, -1, .max, .min], []]))
    let integers = StreamLineEncoder<Int>()
    #expect(try integers.encode(snapshot) == integers.encodeWithFoundation(snapshot))
  }

  // MARK: The decoder against the reference

  /// Reads `lines` with both decoders; returns the lines on which they disagree.
  static func disagreements<Value: Codable & Sendable & Equatable>(
    _ lines: [[UInt8]], as: Value.Type
  ) -> [String] {
    var fast = StreamLineDecoder<Value>(maximumLineLength: 1 << 16)
    var reference = StreamLineDecoder<Value>(maximumLineLength: 1 << 16)
    reference.usesFoundationReference = true
    var problems: [String] = []
    for line in lines {
      let a = Result { () throws(StreamLineError) in try fast.decode(line: line) }
      let b = Result { () throws(StreamLineError) in try reference.decode(line: line) }
      switch (a, b) {
      case (.success(let x), .success(let y)) where x == y: continue
      case (.failure(let x), .failure(let y)) where x.kind == y.kind && x.line == y.line: continue
      case (_, .failure(let y))
      where y.kind == .unsupportedVersion
        && (y.detail.hasPrefix("version 2") || y.detail.hasPrefix("version 3")):
        // A line of version 2 or 3: the reference reads version 1 only.
        continue
      default:
        problems.append(
          "line \(fast.lineNumber): \(String(decoding: line, as: UTF8.self))\n  new: \(a)\n  old: \(b)"
        )
      }
    }
    return problems
  }

  @Test func theDecoderAgreesWithTheReferenceOnValidAndCorruptedLines() throws {
    var random = SeededGenerator(
      seed: SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0xC0DE_0002))
    let encoder = StreamLineEncoder<Card>()
    let valid = try Self.updates(seed: random.seed, batches: 60).map {
      [UInt8](try encoder.encode($0.update).dropLast())
    }
    #expect(Self.disagreements(valid, as: Card.self).isEmpty)
    let fuzz = StreamLineFuzzTests()
    var corrupted = 0
    for iteration in 0..<Self.iterations {
      var lines = valid.map { Data($0) }
      for _ in 0..<Int.random(in: 1...3, using: &random) { fuzz.mutate(&lines, using: &random) }
      Self.corrupt(&lines, using: &random)
      let problems = Self.disagreements(lines.map { [UInt8]($0) }, as: Card.self)
      #expect(problems.isEmpty, "seed \(random.seed) iteration \(iteration): \(problems.prefix(3))")
      corrupted += lines.map { [UInt8]($0) } == valid ? 0 : 1
    }
    #expect(corrupted > Self.iterations / 2)
  }

  @Test func theDecoderAgreesWithTheReferenceOnStringsAndHandWrittenLines() {
    let lines = [
      #"{"sections":[["a","b\"c","\u00e9\ud83d\ude00"]],"seq":1,"stream":"s","type":"snapshot","v":1}"#,
      #"{"sections":[["a",1]],"seq":1,"stream":"s","type":"snapshot","v":1}"#,
      #"{"sections":[["\ud800"]],"seq":1,"stream":"s","type":"snapshot","v":1}"#,
      #"{"sections":[[null]],"seq":1,"stream":"s","type":"snapshot","v":1}"#,
      #"{"sections":[],"seq":1.0,"stream":"s","type":"snapshot","v":1e0}"#,
      #"{"sections":[],"seq":-1,"stream":"s","type":"snapshot","v":1}"#,
      #"{"sections":[],"seq":1,"stream":"s","type":"snapshot","v":1,"v":4}"#,
      #"{"v":4,"v":1,"sections":[],"seq":1,"stream":"s","type":"snapshot"}"#,
      #"{"sections":[],"seq":01,"stream":"s","type":"snapshot","v":1}"#,
      #"{"sections":[],"seq":1,"stream":"","type":"snapshot","v":1}"#,
      #"{"changeset":{"insertedElements":[[0,0]]},"newElements":[{"path":[0,0],"value":"x"}],"seq":2,"type":"changeset","v":1}"#,
      #"{"changeset":{"insertedElements":[[0,0]]},"newElements":[{"path":[0],"value":"x"}],"seq":3,"type":"changeset","v":1}"#,
      #"{"changeset":{"deletedSectionRanges":[[2,1]]},"seq":3,"type":"changeset","v":1}"#,
      #"{"changeset":{"deletedSectionRanges":[[0,1,2]]},"seq":3,"type":"changeset","v":1}"#,
      #"{"changeset":{"movedSections":[{"from":0}]},"seq":3,"type":"changeset","v":1}"#,
      #"{"changeset":{"movedSections":[{"from":0,"to":null}]},"seq":3,"type":"changeset","v":1}"#,
      #"{"changeset":null,"seq":3,"type":"changeset","v":1}"#,
      #"{"changeset":{},"seq":3,"type":"changeset","v":1,"extra":[1,{"a":1,"a":2}]}"#,
      #"{"changeset":{},"digest":[[0,"cbf29ce484222325"]],"seq":3,"type":"changeset","v":1}"#,
      #"{"changeset":{},"seq":3,"type":"changeset","v":1} x"#,
      #"  {"changeset":{},"seq":3,"type":"changeset","v":1}  "#,
      "\u{FEFF}" + #"{"changeset":{},"seq":3,"type":"changeset","v":1}"#,
      #"[1]"#, "", #"{"#, #"{"v":1"#, #"{"seq":3,"type":"changeset","v":1e400}"#,
      #"{"changeset":{"deletedElements":[[0,1.5]]},"seq":3,"type":"changeset","v":1}"#,
      #"{"changeset":{"deletedElements":[[0,1e30]]},"seq":3,"type":"changeset","v":1}"#,
      #"{"changeset":{"deletedElements":[[0,1],[0,0]]},"seq":3,"type":"changeset","v":1}"#,
      #"{"changeset":{},"newSections":[{"elements":["a"],"index":-1}],"seq":3,"type":"changeset","v":1}"#,
      #"{"changeset":{},"seq":3,"type":"snapshot","v":1}"#,
      #"{"changeset":{},"seq":3,"type":"other","v":1}"#,
    ]
    let problems = Self.disagreements(lines.map { Array($0.utf8) }, as: String.self)
    #expect(problems.isEmpty, "\(problems)")
  }

  /// More corruptions: a byte flipped to anything (not only printable), a value's quote lost,
  /// a key renamed, `null` put in place of a value.
  static func corrupt(_ lines: inout [Data], using random: inout SeededGenerator) {
    guard !lines.isEmpty, Bool.random(using: &random) else { return }
    let index = Int.random(in: 0..<lines.count, using: &random)
    var line = [UInt8](lines[index])
    guard !line.isEmpty else { return }
    let at = Int.random(in: 0..<line.count, using: &random)
    switch Int.random(in: 0..<4, using: &random) {
    case 0: line[at] = UInt8.random(in: 0...255, using: &random)
    case 1: if let quote = line[at...].firstIndex(of: UInt8(ascii: "\"")) { line.remove(at: quote) }
    case 2: line.replaceSubrange(at..<min(line.count, at + 4), with: Array("null".utf8))
    default: line.insert(contentsOf: Array(#""v":2,"#.utf8), at: at)
    }
    lines[index] = Data(line)
  }

  // MARK: End to end

  @Test(arguments: streamSeeds(base: 0xC0DE_0100, count: 12))
  func everyUpdateChunkedDecodedAndAppliedInPlaceEqualsTheModel(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let digests: StreamDigestPolicy = [.never, .everyUpdate, .every(3)][Int(seed % 3)]
    let updates = Self.updates(seed: seed, batches: 150, digests: digests)
    let encoder = StreamLineEncoder<Card>()
    var decoder = StreamLineDecoder<Card>()
    var mirror = StreamMirror<Card>(identity: Card.identity)
    var reference: [[Card]] = []
    var pending = Data()
    var next = 0
    for (update, _) in updates { pending += try encoder.encode(update) }
    // Chunks cut at random bytes; after each, the updates read so far are applied.
    var offset = 0
    while offset < pending.count {
      let end = min(pending.count, offset + Int.random(in: 1...300, using: &random))
      decoder.append(pending[offset..<end])
      offset = end
      while let decoded = try decoder.next() {
        let (sent, content) = updates[next]
        next += 1
        #expect(decoded == sent, "seed \(seed) line \(decoder.lineNumber)")
        try mirror.apply(decoded, line: decoder.lineNumber)
        switch decoded {
        case .snapshot(let snapshot): reference = snapshot.sections
        case .changeset(let changeset):
          try changeset.changeset.applyByRebuilding(
            to: &reference, insertedSection: { changeset.sections[$0]! },
            newElement: { changeset.elements[$0]! })
        }
        #expect(mirror.sections == content, "seed \(seed) update \(decoded.sequence)")
        #expect(reference == content, "seed \(seed) update \(decoded.sequence)")
      }
    }
    try decoder.finish()
    #expect(next == updates.count)
  }

  @Test(arguments: streamSeeds(base: 0xC0DE_0200, count: 12))
  func theInPlaceApplierEqualsTheRebuildingOneOnRandomSectionsAndChangesets(seed: UInt64) throws {
    // Through a coordinator: every changeset a model can make, applied to sections of up to
    // a few hundred elements.
    var random = SeededGenerator(seed: seed)
    let board = RandomBoard(sections: 3, cards: Int.random(in: 0...300, using: &random))
    let subscription = board.stream.subscribe()
    guard case .snapshot(let first) = drain(subscription).last else {
      Issue.record("no snapshot")
      return
    }
    var inPlace = first.sections
    var rebuilt = first.sections
    for _ in 0..<200 {
      board.randomBatch(maximum: Int.random(in: 1...12, using: &random), using: &random)
      for case .changeset(let update) in drain(subscription) {
        let shared = inPlace  // a second reference: copy on write must keep it intact
        try update.changeset.apply(
          to: &inPlace, insertedSection: { update.sections[$0]! },
          newElement: { update.elements[$0]! })
        try update.changeset.applyByRebuilding(
          to: &rebuilt, insertedSection: { update.sections[$0]! },
          newElement: { update.elements[$0]! })
        #expect(inPlace == rebuilt, "seed \(seed) update \(update.sequence)")
        #expect(inPlace == board.content, "seed \(seed) update \(update.sequence)")
        _ = shared
      }
    }
  }

  // MARK: Digests

  /// A mirror given `updates`, each with the model's content after it when it was published:
  /// the sequence number of the update it refuses and the field, if any. Every update it
  /// accepts leaves it with the identities of that content — a dropped, swapped or altered
  /// update never leaves a wrong state accepted — and a refusal leaves it unchanged.
  static func digestRefusal(_ updates: [(update: StreamUpdate<Card>, content: [[Card]])])
    -> (Int, String)?
  {
    var mirror = StreamMirror<Card>(identity: Card.identity)
    for (update, content) in updates {
      let before = mirror
      do {
        try mirror.apply(update)
        #expect(mirror.sections.map { $0.map(\.id) } == content.map { $0.map(\.id) })
      } catch {
        #expect(mirror == before)
        if case .mismatch(let sequence, let mismatch) = error {
          return (sequence, mismatch.field)
        }
        return (update.sequence, "\(error)")
      }
    }
    return nil
  }

  /// The updates with their sequence numbers made consecutive again (as a relay that lost
  /// count would send them): only the digest can tell.
  static func renumbered(_ updates: [(update: StreamUpdate<Card>, content: [[Card]])])
    -> [(update: StreamUpdate<Card>, content: [[Card]])]
  {
    var next = updates[0].update.sequence
    return updates.map { update, content in
      defer { next += 1 }
      switch update {
      case .snapshot(var snapshot):
        snapshot.sequence = next
        return (.snapshot(snapshot), content)
      case .changeset(var changeset):
        changeset.sequence = next
        return (.changeset(changeset), content)
      }
    }
  }

  @Test(arguments: streamSeeds(base: 0xC0DE_0300, count: 20))
  func aFlippedIdADroppedChangesetOrTwoSwappedAreCaughtWithinOneUpdate(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let updates = Self.updates(seed: seed, batches: 40, digests: .everyUpdate)
    #expect(Self.digestRefusal(updates) == nil)
    // Flip one id: a value the changeset inserts.
    let candidates = updates.indices.filter { index in
      if case .changeset(let changeset) = updates[index].update {
        return !changeset.changeset.insertedElements.isEmpty
      }
      return false
    }
    if let index = candidates.randomElement(using: &random),
      case .changeset(var changeset) = updates[index].update
    {
      let path = changeset.changeset.insertedElements[0]
      changeset.elements[path]!.id += 1_000
      var flipped = updates
      flipped[index].update = .changeset(changeset)
      #expect(
        Self.digestRefusal(flipped).map { $0 == (changeset.sequence, "digest") } == true,
        "seed \(seed): flipped")
    }
    // Drop one changeset: refused at the next update, unless that update makes the states
    // equal again (it deletes the section the dropped one changed, say): then the mirror is
    // right, which `digestRefusal` checks.
    let dropped = Int.random(in: 1..<updates.count - 1, using: &random)
    var withoutOne = updates
    withoutOne.remove(at: dropped)
    if let refusal = Self.digestRefusal(Self.renumbered(withoutOne)) {
      #expect(refusal.0 == updates[dropped].update.sequence, "seed \(seed): dropped")
    }
    // Swap two consecutive changesets: refused at the first or the second, unless the states
    // agree.
    let swapped = Int.random(in: 1..<updates.count - 2, using: &random)
    var reordered = updates
    reordered.swapAt(swapped, swapped + 1)
    if let refusal = Self.digestRefusal(Self.renumbered(reordered)) {
      #expect(refusal.0 <= updates[swapped + 1].update.sequence, "seed \(seed): swapped")
    }
  }

  @Test func theDigestHashesTheDocumentedBytes() {
    // FNV-1a 64 of "a" 0xFF "bc" 0xFF, computed by hand from the definition.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in [0x61, 0xFF, 0x62, 0x63, 0xFF] as [UInt8] {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    #expect(StreamDigest.hash(["a", "bc"], identity: { $0 }) == hash)
    #expect(StreamDigest.hash(["ab", "c"], identity: { $0 }) != hash)
    #expect(StreamDigest.hash([String](), identity: { $0 }) == StreamDigest.emptyHash)
    // On the wire: version 2, the hash in 16 hexadecimal digits.
    let update = StreamUpdate<String>.changeset(
      StreamChangeset(
        sequence: 2, changeset: Changeset(),
        digest: StreamDigest([["a", "bc"], []], kind: .sequential, identity: { $0 })))
    let line = String(decoding: try! StreamLineEncoder<String>().encode(update), as: UTF8.self)
    #expect(line.contains(#""digest":[[2,"\#(String(hash, radix: 16))"],[0,"cbf29ce484222325"]]"#))
    #expect(line.hasSuffix(#""v":2}"# + "\n"))
  }

  // MARK: Fuzz

  @Test func randomBytesAndMutatedLinesWithDigestsNeverTrap() throws {
    var random = SeededGenerator(
      seed: SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0xC0DE_0400))
    let encoder = StreamLineEncoder<Card>()
    let valid = try Self.updates(seed: random.seed, batches: 40, digests: .everyUpdate).map {
      try encoder.encode($0.update).dropLast()
    }
    let fuzz = StreamLineFuzzTests()
    for iteration in 0..<Self.iterations {
      var lines = valid
      for _ in 0..<Int.random(in: 1...3, using: &random) { fuzz.mutate(&lines, using: &random) }
      Self.corrupt(&lines, using: &random)
      if Int.random(in: 0..<4, using: &random) == 0 {
        lines.append(
          Data(
            (0..<Int.random(in: 0..<300, using: &random)).map { _ in
              UInt8.random(in: 0...255, using: &random)
            }.filter { $0 != 10 }))
      }
      var decoder = StreamLineDecoder<Card>(maximumLineLength: 1 << 16)
      var mirror = StreamMirror<Card>(identity: Card.identity)
      for line in lines { decoder.append(line + [10]) }
      while true {
        let before = mirror
        do {
          guard let update = try decoder.next() else { break }
          try mirror.apply(update, line: decoder.lineNumber)
        } catch {
          #expect(mirror == before, "seed \(random.seed) iteration \(iteration): half-applied")
          #expect((1...lines.count).contains(error.line), "seed \(random.seed): \(error)")
        }
      }
    }
  }
}
