import Foundation
import SectionKit
import SectionKitTesting
import Testing

@testable import SectionKitStreaming

/// The digest's fast paths against the plain computation, on random input: FNV-1a 64 eight
/// bytes at a time and the unrolled pair hash against the documented byte-by-byte loop, and a
/// digest section read in place from a line against the same section read by the reader's
/// general path.
///
/// Replay with `SECTIONKIT_SEED=<seed>`; run longer with `SECTIONKIT_FUZZ_ITERATIONS=<n>`.
@Suite struct StreamDigestFastPathTests {
  static let iterations = fuzzIterations(default: 2_000)

  static func makeGenerator(default seed: UInt64) -> SeededGenerator {
    SeededGenerator(seed: SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: seed))
  }

  /// FNV-1a 64 as `Docs/Streaming.md` defines it: one byte at a time.
  static func fnv(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
  }

  /// The 8 bytes of `value`, least significant first.
  static func littleEndian(_ value: UInt64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
  }

  /// Random bytes of every length around the 8-byte steps, and random strings: ASCII and
  /// multi-byte, short enough to be held in place and long enough to be allocated.
  @Test func theHashOfAnIdentityIsTheHashOfItsBytesOneByOne() {
    var random = Self.makeGenerator(default: 0xFA57_0001)
    let pieces = ["a", "Z", "7", " ", "é", "€", "😀", "card ", "\u{0}"]
    for iteration in 0..<Self.iterations {
      let bytes = (0..<Int.random(in: 0...41, using: &random)).map { _ in
        UInt8.random(in: 0...255, using: &random)
      }
      let hash = bytes.withUnsafeBufferPointer { PairHash.bytes($0) }
      #expect(hash == Self.fnv(bytes), "seed \(random.seed) iteration \(iteration): \(bytes)")
      let string = (0..<Int.random(in: 0...12, using: &random)).map { _ in
        pieces.randomElement(using: &random)!
      }.joined()
      #expect(
        PairHash.element(string) == Self.fnv(Array(string.utf8)),
        "seed \(random.seed) iteration \(iteration): \(string)")
      let hasher = ElementHasher<String>({ $0 }, valueIsIdentity: Bool.random(using: &random))
      #expect(hasher(string) == Self.fnv(Array(string.utf8)))
      // Version 2's hash: every identity's bytes and a 0xFF after each, in one FNV-1a.
      let ids = [string, String(decoding: bytes.filter { $0 < 0x80 }, as: UTF8.self), ""]
      #expect(
        StreamDigest.hash(ids, identity: { $0 })
          == Self.fnv(ids.flatMap { Array($0.utf8) + [0xFF] }),
        "seed \(random.seed) iteration \(iteration): \(ids)")
    }
  }

  @Test func thePairHashIsTheHashOfItsSixteenBytesOneByOne() {
    var random = Self.makeGenerator(default: 0xFA57_0002)
    for iteration in 0..<Self.iterations {
      let first = UInt64.random(in: 0...UInt64.max, using: &random)
      let second =
        Bool.random(using: &random)
        ? UInt64.random(in: 0...0xFFFF, using: &random)
        : .random(
          in: 0...UInt64.max, using: &random)
      #expect(
        PairHash.pair(first, second)
          == Self.fnv(Self.littleEndian(first) + Self.littleEndian(second)),
        "seed \(random.seed) iteration \(iteration): \(first), \(second)")
    }
  }

  /// A digest section in the shape this library writes, or in one of the shapes near it
  /// (whitespace before the closing bracket, uppercase or too few or too many digits, an escape,
  /// a negative, fractional or zero-led count): the line read as it is (the fast path where it fits) and the
  /// same line with a space after the section's comma (which the fast path never takes) give the
  /// same digest, or an error of the same kind.
  @Test func aDigestReadInPlaceIsTheDigestTheGeneralPathReads() {
    var random = Self.makeGenerator(default: 0xFA57_0003)
    var fast = 0
    for iteration in 0..<Self.iterations {
      var sections: [(count: String, hash: String, close: String)] = []
      for _ in 0..<Int.random(in: 0...4, using: &random) {
        let count = Int.random(in: 0...100_000, using: &random)
        var hash = StreamDigest.hex(UInt64.random(in: 0...UInt64.max, using: &random))
        var countText = "\(count)"
        switch Int.random(in: 0..<24, using: &random) {
        case 0: hash = hash.uppercased()
        case 1: hash.removeLast()
        case 2: hash += "0"
        case 3: hash = "\\u0030" + hash.dropFirst()
        case 4: hash = String(hash.prefix(15)) + "g"
        case 5: countText = "-\(count)"
        case 6: countText = "\(count).0"
        case 7: countText = "\(count).5"
        case 8: countText = "\(count)e0"
        case 9: countText = "0\(count)"
        default: break
        }
        sections.append((countText, hash, Int.random(in: 0..<12, using: &random) == 0 ? " ]" : "]"))
      }
      func line(spaced: Bool) -> [UInt8] {
        let digest = sections.map { "[\($0.count),\(spaced ? " " : "")\"\($0.hash)\"\($0.close)" }
        return Array(
          (#"{"changeset":{},"digest":[\#(digest.joined(separator: ","))],"#
            + #""seq":2,"type":"changeset","v":3}"#).utf8)
      }
      func read(_ line: [UInt8]) -> Result<StreamUpdate<String>, StreamLineError> {
        var decoder = StreamLineDecoder<String>(after: StreamPosition(stream: "s", sequence: 1))
        return Result { () throws(StreamLineError) in try decoder.decode(line: line) }
      }
      let written = read(line(spaced: false))
      let general = read(line(spaced: true))
      switch (written, general) {
      case (.success(let a), .success(let b)):
        #expect(a == b, "seed \(random.seed) iteration \(iteration)")
        if !sections.isEmpty { fast += 1 }
      case (.failure(let a), .failure(let b)):
        #expect(a.kind == b.kind, "seed \(random.seed) iteration \(iteration): \(a) / \(b)")
      default:
        Issue.record(
          "seed \(random.seed) iteration \(iteration): \(String(decoding: line(spaced: false), as: UTF8.self)): \(written) / \(general)"
        )
      }
    }
    #expect(fast > Self.iterations / 10)
  }
}
