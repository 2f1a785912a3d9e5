import Foundation
import SectionKit

/// A digest of a stream's state: per section, its number of elements and a 64-bit hash of its
/// elements' identities in order. A changeset line may carry the digest of the state after it
/// (`"digest":[[3,"af63bd4c8601b7df"],…]`); a ``StreamMirror`` that finds another state throws
/// ``StreamMirrorError/mismatch(sequence:_:)`` naming the field `digest`. On the wire the hash
/// is 16 lowercase hexadecimal digits, most significant first (JavaScript numbers cannot hold 64
/// bits; use `BigInt`).
///
/// Two hashes, one per line version (``Kind``), both built on FNV-1a 64 (start from
/// `0xcbf29ce484222325`; for each byte, xor it in, then multiply by `0x100000001b3` modulo 2⁶⁴):
/// - **Version 3, ``Kind/pairs``** (what ``UpdatePublisher`` writes): see
///   ``pairsHash(_:identity:)``. It is the sum of a hash per pair of neighbours, so a changeset
///   updates it where it changes the section, in O(c log c) for c changes.
/// - **Version 2, ``Kind/sequential``** (still read): for each element of the section in order,
///   the UTF-8 bytes of its identity followed by the byte `0xFF` (which never occurs in UTF-8, so
///   `["ab", "c"]` and `["a", "bc"]` differ), all hashed in one FNV-1a 64. An empty section
///   hashes to `0xcbf29ce484222325`.
///
/// ```js
/// const fnv = (bytes, h = 0xcbf29ce484222325n) => {   // a browser client, version 3
///   for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
///   return h;
/// };
/// const le = (h) => Array.from({ length: 8 }, (_, i) => Number((h >> BigInt(8 * i)) & 0xffn));
/// function sectionHash(ids) {
///   const hs = [0n, ...ids.map((id) => fnv(new TextEncoder().encode(id))), 0n];
///   let sum = 0n;
///   for (let i = 1; i < hs.length; i++) sum += fnv([...le(hs[i - 1]), ...le(hs[i])]);
///   return (sum & 0xffffffffffffffffn).toString(16).padStart(16, "0");
/// }
/// ```
public struct StreamDigest: Hashable, Sendable {
  /// One section's part of a digest.
  public struct Section: Hashable, Sendable {
    /// The number of elements.
    public var count: Int
    /// The FNV-1a hash of the elements' identities (see ``StreamDigest``).
    public var hash: UInt64

    /// Creates a section digest.
    public init(count: Int, hash: UInt64) {
      self.count = count
      self.hash = hash
    }
  }

  /// Which hash a digest's sections carry; each is the digest of one line version.
  public enum Kind: Hashable, Sendable {
    /// Version 2: FNV-1a 64 over every identity of the section in order (``hash(_:identity:)``).
    /// Checking one costs O(e) for the e elements of each section a changeset changes. Still
    /// read and checked; no longer written by ``UpdatePublisher``.
    case sequential
    /// Version 3: the sum of a hash of each pair of neighbours (``pairsHash(_:identity:)``),
    /// which a publisher and a mirror follow through a changeset of c changes in O(c log c),
    /// whatever the length of the sections.
    case pairs
  }

  /// Each section's count and hash, in order.
  public var sections: [Section]
  /// Which hash ``Section/hash`` is.
  public var kind: Kind

  /// Creates a digest.
  public init(sections: [Section], kind: Kind = .pairs) {
    self.sections = sections
    self.kind = kind
  }

  /// The digest of `sections`, each element identified by `identity`.
  ///
  /// - Complexity: O(b) for b bytes of identities.
  public init<Value>(_ sections: [[Value]], kind: Kind = .pairs, identity: (Value) -> String) {
    self.kind = kind
    self.sections = sections.map {
      Section(
        count: $0.count,
        hash: kind == .pairs
          ? Self.pairsHash($0, identity: identity) : Self.hash($0, identity: identity))
    }
  }

  /// The hash of one section's elements in a digest of kind ``Kind/pairs`` (version 3): with
  /// `h(x)` FNV-1a 64 of the UTF-8 bytes of identity `x`, `h(boundary) = 0`, and `p(a, b)`
  /// FNV-1a 64 of the 16 bytes of `a` then `b` (each least significant byte first), the sum
  /// modulo 2⁶⁴ of `p(h(x₀), h(x₁))` over each pair of neighbours of `boundary, e₀, …, eₙ₋₁,
  /// boundary`. An empty section hashes to `p(0, 0)`.
  ///
  /// - Complexity: O(b) for b bytes of identities.
  public static func pairsHash<Value>(_ elements: [Value], identity: (Value) -> String) -> UInt64 {
    withoutActuallyEscaping(identity) { PairHash.section(elements, hash: ElementHasher($0)) }
  }

  /// The FNV-1a offset basis: the hash of an empty section.
  public static let emptyHash: UInt64 = 0xcbf2_9ce4_8422_2325

  /// The hash of one section's elements in a digest of kind ``Kind/sequential`` (version 2; see
  /// ``StreamDigest`` for the bytes hashed).
  ///
  /// - Complexity: O(b) for b bytes of identities.
  @_specialize(where Value == String)
  public static func hash<Value>(_ elements: [Value], identity: (Value) -> String) -> UInt64 {
    var hash = emptyHash
    for element in elements {
      var id = identity(element)
      hash = id.withUTF8 { PairHash.bytes($0, after: hash) }
      hash = (hash ^ 0xFF) &* PairHash.prime
    }
    return hash
  }

  /// 16 lowercase hexadecimal digits.
  static func hex(_ hash: UInt64) -> String {
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// Appends `hash` as a JSON string of 16 lowercase hexadecimal digits (what ``hex(_:)``
  /// gives, without building a string).
  static func appendHex(_ hash: UInt64, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    for shift in stride(from: 60, through: 0, by: -4) {
      let digit = UInt8(truncatingIfNeeded: hash >> UInt64(shift)) & 0xF
      bytes.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") - 10 + digit)
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// The hash written as 16 lowercase hexadecimal digits, or `nil`.
  static func hash(hex text: String) -> UInt64? {
    var text = text
    return text.withUTF8 { hash(hex: $0) }
  }

  /// The hash written as the UTF-8 bytes of 16 lowercase hexadecimal digits, or `nil`: what the
  /// line reader reads in place.
  @inline(__always)
  static func hash(hex bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
    guard bytes.count == 16 else { return nil }
    var hash: UInt64 = 0
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): hash = hash << 4 | UInt64(byte &- 48)
      case UInt8(ascii: "a")...UInt8(ascii: "f"): hash = hash << 4 | UInt64(byte &- 87)
      default: return nil
      }
    }
    return hash
  }
}

/// How often a publisher sends a digest of the state with a changeset.
///
/// | policy | the server pays, per changeset | each client pays, per digest |
/// |---|---|---|
/// | `.never` | nothing | nothing |
/// | `.everyUpdate` | O(c log c) to follow each section's hash (``StreamDigest/Kind/pairs``), hashing the identities of the elements that leave or arrive and of their neighbours; O(s) to write the digest | the same following, and O(s) to compare the digest (no hashing); the mirror checks before it changes anything, without a copy |
/// | `.every(k)` | the same following on every changeset, the digest written on every k-th | the following on every changeset once it checked a digest, the comparison on every k-th |
///
/// for s sections and c changes; nothing per section the changeset does not change, except
/// when it inserts, deletes, reloads or moves sections (O(s), as applying it costs), and a
/// section inserted or reloaded is hashed whole; a mirror's first digest hashes every section
/// once. The line grows by about 24 bytes per section. `Docs/Streaming.md` gives the figures.
public enum StreamDigestPolicy: Hashable, Sendable {
  /// No digests.
  case never
  /// A digest with every changeset: a mirror that diverged finds out at the next update.
  case everyUpdate
  /// A digest with every k-th changeset (by sequence number): a divergence is found within k
  /// updates. `every(1)` is ``everyUpdate``; a k below 1 is ``never``.
  case every(Int)

  /// Whether changeset `sequence` carries a digest.
  func includes(_ sequence: Int) -> Bool {
    switch self {
    case .never: false
    case .everyUpdate: true
    case .every(let k): k >= 1 && sequence % k == 0
    }
  }
}

/// The hash of each section, kept from one state to the next: a changeset re-hashes only the
/// sections it inserts, reloads or changes the elements of.
struct DigestCache: Sendable {
  /// The hash of each section, `nil` when it must be computed.
  var hashes: [UInt64?] = []

  /// Follows `changeset` (which fits a state of `hashes.count` sections): the hashes of the
  /// sections it keeps move with them; the others are forgotten.
  ///
  /// - Complexity: O(s + c) for s sections and c changes.
  mutating func follow(_ changeset: Changeset) {
    let sources = Self.sources(of: changeset, oldCount: hashes.count)
    var touchedOld = Set<Int>()
    var touchedNew = Set<Int>()
    for path in changeset.deletedElements where path.count == 2 { touchedOld.insert(path[0]) }
    for path in changeset.reloadedElements where path.count == 2 { touchedOld.insert(path[0]) }
    for path in changeset.insertedElements where path.count == 2 { touchedNew.insert(path[0]) }
    for move in changeset.movedElements where move.from.count == 2 && move.to.count == 2 {
      touchedOld.insert(move.from[0])
      touchedNew.insert(move.to[0])
    }
    hashes = sources.enumerated().map { new, old in
      guard let old, !touchedOld.contains(old), !touchedNew.contains(new) else { return nil }
      return hashes[old]
    }
  }

  /// The digest of `sections`, computing the hashes not kept.
  mutating func digest<Value>(of sections: [[Value]], identity: (Value) -> String) -> StreamDigest {
    if hashes.count != sections.count { hashes = Array(repeating: nil, count: sections.count) }
    var result: [StreamDigest.Section] = []
    result.reserveCapacity(sections.count)
    for (index, section) in sections.enumerated() {
      let hash = hashes[index] ?? StreamDigest.hash(section, identity: identity)
      hashes[index] = hash
      result.append(StreamDigest.Section(count: section.count, hash: hash))
    }
    return StreamDigest(sections: result, kind: .sequential)
  }

  /// For each section after `changeset`, the old section it continues (`nil` for one inserted
  /// or reloaded), for a changeset that fits `oldCount` sections.
  static func sources(of changeset: Changeset, oldCount: Int) -> [Int?] {
    // The common case, a changeset that changes no section: every section keeps its index.
    if changeset.deletedSectionRanges.isEmpty && changeset.insertedSectionRanges.isEmpty
      && changeset.reloadedSectionRanges.isEmpty && changeset.movedSections.isEmpty
    {
      return Array(0..<oldCount)
    }
    let deleted = changeset.deletedSections
    let inserted = changeset.insertedSections
    let reloaded = changeset.reloadedSections
    let newCount = oldCount - deleted.count + inserted.count
    guard newCount >= 0 else { return [] }
    var sources = [Int?](repeating: nil, count: newCount)
    var leaving = deleted.union(reloaded)
    var arriving = inserted
    for move in changeset.movedSections where move.to < newCount && move.to >= 0 {
      sources[move.to] = move.from
      leaving.insert(move.from)
      arriving.insert(move.to)
    }
    // A reloaded section lands where the deletes and inserts of sections put it.
    if !reloaded.isEmpty {
      var new = 0
      for old in 0..<oldCount where !deleted.contains(old) {
        while inserted.contains(new) { new += 1 }
        if reloaded.contains(old), new < newCount { arriving.insert(new) }
        new += 1
      }
    }
    var new = 0
    for old in 0..<oldCount where !leaving.contains(old) {
      while new < newCount && arriving.contains(new) { new += 1 }
      guard new < newCount else { break }
      sources[new] = old
      new += 1
    }
    return sources
  }
}
