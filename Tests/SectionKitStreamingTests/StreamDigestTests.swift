import Foundation
import SectionKit
import SectionKitStreaming
import SectionKitTesting
import Testing

/// Digests of version 3 (``StreamDigest/Kind/pairs``): the documented hash, and the hashes the
/// publisher and the mirror follow through each changeset equal to those of the whole state.
@Suite struct StreamDigestTests {
  /// Computed from the documented definition by an independent implementation; the JavaScript
  /// client (`Examples/LiveBoard/Public/mirror.js`, `sectionHash`) is tested on the same.
  static let vectors: [([String], UInt64)] = [
    ([], 0x8820_1fb9_60ff_6465), (["a", "b"], 0xcd19_1be4_d27f_2c41),
    (["b", "a"], 0x252c_d7dd_ac42_a815), (["ab", "c"], 0xb1f3_b017_0ed1_f749),
    (["Zoë", "7"], 0xb9fd_4d72_c60a_cfc1),
  ]

  @Test func thePairsHashHashesTheVectorsTheJavaScriptClientHashes() {
    for (ids, expected) in Self.vectors {
      #expect(StreamDigest.pairsHash(ids, identity: { $0 }) == expected, "\(ids)")
    }
  }

  @Test func aChangesetLineWithAPairsDigestIsVersion3AndReadsBack() throws {
    let digest = StreamDigest([["a", "b"], []], identity: { $0 })
    #expect(digest.kind == .pairs)
    let update = StreamUpdate<String>.changeset(
      StreamChangeset(sequence: 2, changeset: Changeset(), digest: digest))
    let line = try StreamLineEncoder<String>().encode(update)
    let text = String(decoding: line, as: UTF8.self)
    #expect(text.contains(#""digest":[[2,"cd191be4d27f2c41"],[0,"88201fb960ff6465"]]"#))
    #expect(text.hasSuffix(#""v":3}"# + "\n"))
    var decoder = StreamLineDecoder<String>(after: StreamPosition(stream: "s", sequence: 1))
    #expect(try decoder.decode(line: line.dropLast()) == update)
  }

  /// Lines of version 2 (``StreamDigest/Kind/sequential``) are still read and checked, before
  /// and after digests of version 3.
  @Test func aSequentialDigestOfVersion2IsStillChecked() throws {
    var mirror = StreamMirror<String>()
    try mirror.apply(.snapshot(StreamSnapshot(stream: "s", sequence: 1, sections: [["a", "b"]])))
    let insert = Changeset(insertedElements: [IndexPath(item: 0, section: 0)])
    func line(_ sequence: Int, _ value: String, _ digest: StreamDigest) -> StreamUpdate<String> {
      .changeset(
        StreamChangeset(
          sequence: sequence, changeset: insert, elements: [IndexPath(item: 0, section: 0): value],
          digest: digest))
    }
    let after = [["x", "a", "b"]]
    let wrong = line(2, "x", StreamDigest([["x", "b", "a"]], kind: .sequential, identity: { $0 }))
    #expect(throws: StreamMirrorError.self) { try mirror.apply(wrong) }
    try mirror.apply(line(2, "x", StreamDigest(after, kind: .sequential, identity: { $0 })))
    try mirror.apply(line(3, "y", StreamDigest([["y"] + after[0]], identity: { $0 })))
    let before = mirror
    let wrongPairs = line(4, "z", StreamDigest([["z", "y", "x", "b", "a"]], identity: { $0 }))
    #expect(throws: StreamMirrorError.self) { try mirror.apply(wrongPairs) }
    #expect(mirror == before)
    try mirror.apply(
      line(4, "z", StreamDigest([["z", "y", "x", "a", "b"]], kind: .sequential, identity: { $0 })))
    #expect(mirror.sections == [["z", "y", "x", "a", "b"]])
  }

  @Test func theOrderOfASectionChangesItsHash() {
    let ids = (0..<50).map { "card \($0)" }
    let hash = StreamDigest.pairsHash(ids, identity: { $0 })
    for index in 0..<49 {
      var swapped = ids
      swapped.swapAt(index, index + 1)
      #expect(StreamDigest.pairsHash(swapped, identity: { $0 }) != hash, "\(index)")
    }
    var moved = ids
    moved.insert(moved.removeFirst(), at: 30)
    #expect(StreamDigest.pairsHash(moved, identity: { $0 }) != hash)
  }

  /// Every digest the publisher sends, which it follows through the changesets, equals the
  /// digest of the whole state; a mirror given digests on every third update only (following
  /// the hashes between them) accepts every update and holds the model.
  @Test(arguments: streamSeeds(base: 0xD16E_0001, count: 20))
  func theFollowedHashesEqualTheHashesOfTheWholeState(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    for policy in [StreamDigestPolicy.everyUpdate, .every(3)] {
      let board = RandomBoard(
        digests: policy, sections: Int.random(in: 1...4, using: &random),
        cards: Int.random(in: 0...30, using: &random))
      let subscription = board.stream.subscribe()
      var mirror = StreamMirror<Card>(identity: Card.identity)
      var digests = 0
      for _ in 0..<60 {
        for update in drain(subscription) {
          if case .changeset(let changeset) = update, let digest = changeset.digest {
            #expect(
              digest == StreamDigest(board.content, identity: Card.identity),
              "seed \(seed) update \(update.sequence)")
            digests += 1
          }
          try mirror.apply(update)
          #expect(mirror.sections == board.content, "seed \(seed) update \(update.sequence)")
        }
        board.randomBatch(maximum: Int.random(in: 1...10, using: &random), using: &random)
      }
      #expect(digests > 0)
    }
  }

  /// A mirror whose state differs from the stream's by the order of two elements refuses the
  /// next changeset's digest, whatever the changeset (unless it undoes the difference), and
  /// stays as it was.
  @Test(arguments: streamSeeds(base: 0xD16E_0100, count: 10))
  func aMirrorWithTwoElementsSwappedRefusesTheNextDigest(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let board = RandomBoard(digests: .everyUpdate, sections: 2, cards: 12)
    let subscription = board.stream.subscribe()
    guard case .snapshot(var snapshot) = drain(subscription).last else {
      Issue.record("no snapshot")
      return
    }
    let section = snapshot.sections.indices.first { snapshot.sections[$0].count >= 2 }!
    let index = Int.random(in: 0..<snapshot.sections[section].count - 1, using: &random)
    snapshot.sections[section].swapAt(index, index + 1)
    var mirror = StreamMirror<Card>(identity: Card.identity)
    try mirror.apply(.snapshot(snapshot))
    board.randomBatch(maximum: Int.random(in: 1...4, using: &random), using: &random)
    for update in drain(subscription) {
      guard case .changeset = update else { continue }
      // Unless the changeset happens to undo the difference (it deletes one of the two, say).
      var unchecked = StreamMirror<Card>(sections: mirror.sections, position: mirror.position!)
      try unchecked.apply(update)
      guard unchecked.sections != board.content else { continue }
      let before = mirror
      #expect(throws: StreamMirrorError.self, "seed \(seed)") { try mirror.apply(update) }
      #expect(mirror == before)
      #expect(mirror.sections != board.content)
    }
  }
}
