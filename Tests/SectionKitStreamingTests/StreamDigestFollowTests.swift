import Foundation
import SectionKit
import SectionKitTesting
import Testing

@testable import SectionKitStreaming

/// The hashes of version 3 digests followed through changes (``PairEdits``,
/// ``FollowedPairHashes``) against the hashes of the whole state, on random edits and on random
/// changesets (raw ones, not a coordinator's: moves across sections, reloads, section changes).
@Suite struct StreamDigestFollowTests {
  /// One section edited at random: some elements leave, some arrive; the rest keep their order.
  /// The delta of the edits, both ways, is the difference of the hashes of the two sides.
  @Test(arguments: streamSeeds(base: 0xF011_0000, count: 40))
  func theDeltaOfRandomEditsIsTheDifferenceOfTheWholeHashes(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    for _ in 0..<50 {
      let count = Int.random(in: 0...12, using: &random)
      let old = (0..<count).map { "e\($0)" }
      // Each leaves with a probability that varies from section to section; the kept ones
      // are then interleaved with new ones.
      let leaveRate = Double.random(in: 0...1, using: &random)
      let leaving = old.indices.filter { _ in Double.random(in: 0..<1, using: &random) < leaveRate }
      var new = old.indices.filter { !leaving.contains($0) }.map { old[$0] }
      var arriving: [Int] = []
      for next in 0..<Int.random(in: 0...6, using: &random) {
        new.insert("n\(next)", at: Int.random(in: 0...new.count, using: &random))
      }
      arriving = new.indices.filter { new[$0].hasPrefix("n") }
      let identity: (String) -> String = { $0 }
      let expected =
        StreamDigest.pairsHash(new, identity: identity)
        &- StreamDigest.pairsHash(old, identity: identity)
      // Through the identity, and with the strings as their own identities.
      let hasher = ElementHasher(identity, valueIsIdentity: Bool.random(using: &random))
      let forward = PairEdits.delta(
        old, hash: hasher,
        leaving: ArraySlice(leaving.map { PairPosition(section: 0, index: $0) }),
        arriving: ArraySlice(
          arriving.map {
            PairArrival(section: 0, index: $0, hash: PairHash.element(new[$0]))
          }))
      #expect(forward == expected, "seed \(seed): \(old) → \(new)")
      let backward = PairEdits.delta(
        new, hash: hasher,
        leaving: ArraySlice(arriving.map { PairPosition(section: 0, index: $0) }),
        arriving: ArraySlice(
          leaving.map {
            PairArrival(section: 0, index: $0, hash: PairHash.element(old[$0]))
          }))
      #expect(backward.map { 0 &- $0 } == expected, "seed \(seed): \(new) → \(old)")
    }
  }

  /// Edits that do not fit (out of range, repeated, unsorted) give no delta, and no trap.
  @Test func editsThatDoNotFitGiveNoDelta() {
    let elements = ["a", "b", "c"]
    func delta(_ leaving: [Int], _ arriving: [Int]) -> UInt64? {
      PairEdits.delta(
        elements, hash: ElementHasher({ $0 }),
        leaving: ArraySlice(leaving.map { PairPosition(section: 0, index: $0) }),
        arriving: ArraySlice(arriving.map { PairArrival(section: 0, index: $0, hash: 1) }))
    }
    #expect(delta([3], []) == nil)
    #expect(delta([-1], []) == nil)
    #expect(delta([1, 1], []) == nil)
    #expect(delta([2, 1], []) == nil)
    #expect(delta([], [4]) == nil)
    #expect(delta([0], [3]) == nil)
    #expect(delta([], [0, 0]) == nil)
    #expect(delta([], [-1]) == nil)
    #expect(delta([0, 1, 2], [0]) != nil)
  }

  /// A changeset that claims to insert a billion sections without sending them is refused
  /// before the follower sizes anything by that number.
  @Test func aChangesetInsertingSectionsItDoesNotSendIsNotFollowed() throws {
    var mirror = StreamMirror<String>()
    try mirror.apply(.snapshot(StreamSnapshot(stream: "s", sequence: 1, sections: [["a"]])))
    let update = StreamChangeset<String>(
      sequence: 2, changeset: Changeset(insertedSections: IndexSet(integersIn: 0..<1_000_000_000)),
      digest: StreamDigest([["a"]], identity: { $0 }))
    #expect(
      FollowedPairHashes(
        mirroring: update, from: [["a"]], hashes: [0], hash: ElementHasher({ $0 })) == nil)
    let before = mirror
    #expect(throws: StreamMirrorError.self) { try mirror.apply(.changeset(update)) }
    #expect(mirror == before)
  }

  /// The hash on the wire: 16 lowercase hexadecimal digits, written without a string and read
  /// back; anything else is refused.
  @Test func theHexadecimalHashIsWrittenAndReadBack() {
    var random = SeededGenerator(seed: 0xF011_0200)
    for hash in [0, 1, 0xF, UInt64.max, 0x0123_4567_89ab_cdef]
      + (0..<200).map({ _ in UInt64.random(in: 0...UInt64.max, using: &random) })
    {
      var bytes: [UInt8] = []
      StreamDigest.appendHex(hash, to: &bytes)
      #expect(String(decoding: bytes, as: UTF8.self) == "\"" + StreamDigest.hex(hash) + "\"")
      #expect(StreamDigest.hash(hex: StreamDigest.hex(hash)) == hash)
    }
    for text in [
      "", "0", "0123456789ABCDEF", "0123456789abcdeg", "0123456789abcdef0", "-123456789abcdef",
    ] {
      #expect(StreamDigest.hash(hex: text) == nil, "\(text)")
    }
  }

  /// A random changeset of random parts on random sections: element deletes, reloads, moves
  /// (across sections too) and inserts, and now and then section deletes, inserts and moves.
  /// `nil` when it does not fit (the applier says so); otherwise the update with its values,
  /// and the state after it.
  static func randomUpdate(
    _ sections: [[String]], sequence: Int, next: inout Int, using random: inout SeededGenerator
  ) -> (StreamChangeset<String>, [[String]])? {
    func some(_ range: Range<Int>, _ rate: Double) -> [Int] {
      range.filter { _ in Double.random(in: 0..<1, using: &random) < rate }
    }
    var changeset = Changeset()
    let changesSections = Int.random(in: 0..<4, using: &random) == 0
    if changesSections {
      changeset.deletedSections = IndexSet(some(0..<sections.count, 0.2))
      let newCount = sections.count - changeset.deletedSections.count
      changeset.insertedSections = IndexSet(some(0..<newCount + 1, 0.2))
      if Bool.random(using: &random), let from = sections.indices.randomElement(using: &random),
        !changeset.deletedSections.contains(from)
      {
        let newTotal = newCount + changeset.insertedSections.count
        if newTotal > 0 {
          changeset.movedSections = [
            .init(from: from, to: Int.random(in: 0..<newTotal, using: &random))
          ]
        }
      }
    }
    var paths: (deleted: [IndexPath], reloaded: [IndexPath], moves: [Changeset.Move]) = ([], [], [])
    for (section, elements) in sections.enumerated() {
      for index in elements.indices {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: paths.deleted.append([section, index])
        case 1: paths.reloaded.append([section, index])
        case 2:
          let to = sections.indices.randomElement(using: &random)!
          paths.moves.append(
            .init(
              from: [section, index],
              to: [to, Int.random(in: 0...sections[to].count, using: &random)]))
        default: break
        }
      }
    }
    changeset.deletedElements = paths.deleted
    changeset.reloadedElements = paths.reloaded
    changeset.movedElements = paths.moves.sorted { ($0.to[0], $0.to[1]) < ($1.to[0], $1.to[1]) }
    var inserted: [IndexPath] = []
    for (section, elements) in sections.enumerated() where Bool.random(using: &random) {
      for _ in 0..<Int.random(in: 0...3, using: &random) {
        inserted.append([section, Int.random(in: 0...elements.count + 2, using: &random)])
      }
    }
    changeset.insertedElements = Array(Set(inserted)).sorted()
    var values: [IndexPath: String] = [:]
    var newSections: [Int: [String]] = [:]
    var after = sections
    do {
      try changeset.applyByRebuilding(
        to: &after,
        insertedSection: { index in
          let elements = (0..<Int.random(in: 0...3, using: &random)).map { "s\(next + $0)" }
          next += elements.count
          newSections[index] = elements
          return elements
        },
        newElement: { path in
          next += 1
          values[path] = "v\(next)"
          return "v\(next)"
        })
    } catch {
      return nil
    }
    return (
      StreamChangeset(
        sequence: sequence, changeset: changeset, sections: newSections, elements: values,
        digest: StreamDigest(after, identity: { $0 })),
      after
    )
  }

  /// Random changesets, one after the other, followed by a mirror that checks a digest on each:
  /// the hashes it follows are those of the whole state after every update; the same update
  /// with one section's hash or count changed is refused, and the mirror stays as it was.
  @Test(arguments: streamSeeds(base: 0xF011_0100, count: 30))
  func aMirrorFollowsRandomChangesetsAsTheWholeStateHashes(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    var next = 0
    var state = (0..<Int.random(in: 1...4, using: &random)).map { section in
      (0..<Int.random(in: 0...8, using: &random)).map { "\(section).\($0)" }
    }
    var mirror = StreamMirror<String>()
    try mirror.apply(.snapshot(StreamSnapshot(stream: "s", sequence: 1, sections: state)))
    var applied = 0
    var sequence = 1
    for _ in 0..<300 {
      guard
        let (update, after) = Self.randomUpdate(
          state, sequence: sequence + 1, next: &next, using: &random)
      else { continue }
      // The follower alone, from the state before, against the whole state after.
      let hashes = state.map { StreamDigest.pairsHash($0, identity: { $0 }) }
      let followed = try #require(
        FollowedPairHashes(
          mirroring: update, from: state, hashes: hashes, hash: ElementHasher({ $0 })),
        "seed \(seed): \(update.changeset)")
      var followedHashes = hashes
      followed.apply(to: &followedHashes)
      #expect(
        followedHashes == after.map { StreamDigest.pairsHash($0, identity: { $0 }) },
        "seed \(seed): \(update.changeset)")
      #expect(
        followed.digest(counts: { state[$0].count }, hashes: hashes) == update.digest,
        "seed \(seed): \(update.changeset)")
      // A wrong digest is refused, and changes nothing.
      if !after.isEmpty {
        var wrong = update
        let section = Int.random(in: 0..<after.count, using: &random)
        if Bool.random(using: &random) {
          wrong.digest!.sections[section].hash &+= 1
        } else {
          wrong.digest!.sections[section].count += 1
        }
        let before = mirror
        #expect(throws: StreamMirrorError.self, "seed \(seed)") {
          try mirror.apply(.changeset(wrong))
        }
        #expect(mirror == before)
      }
      try mirror.apply(.changeset(update))
      #expect(mirror.sections == after, "seed \(seed)")
      state = after
      sequence += 1
      applied += 1
    }
    #expect(applied > 30, "seed \(seed): only \(applied) random changesets fitted")
  }
}
