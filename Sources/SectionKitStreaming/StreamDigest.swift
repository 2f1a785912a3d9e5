import Foundation
import SectionKit

/// A digest of a stream's state: per section, its number of elements and a 64-bit FNV-1a hash
/// of its elements' identities. A changeset line may carry the digest of the state after it
/// (`"digest":[[3,"af63bd4c8601b7df"],…]`, a line of version 2); a ``StreamMirror`` that finds
/// another state throws ``StreamMirrorError/mismatch(sequence:_:)`` naming the field `digest`.
///
/// **The bytes hashed**, so that a client in any language computes the same: for each element
/// of the section in order, the UTF-8 bytes of its identity followed by the byte `0xFF` (which
/// never occurs in UTF-8, so `["ab", "c"]` and `["a", "bc"]` differ). FNV-1a 64: start from
/// `0xcbf29ce484222325`; for each byte, xor it in, then multiply by `0x100000001b3` modulo 2⁶⁴.
/// An empty section hashes to `0xcbf29ce484222325`. On the wire the hash is 16 lowercase
/// hexadecimal digits, most significant first (JavaScript numbers cannot hold 64 bits; use
/// `BigInt`).
///
/// ```js
/// function fnv1a(ids) {                        // a browser client
///   let h = 0xcbf29ce484222325n;
///   const bytes = [];
///   for (const id of ids) bytes.push(...new TextEncoder().encode(id), 0xff);
///   for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
///   return h.toString(16).padStart(16, "0");
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

  /// Each section's count and hash, in order.
  public var sections: [Section]

  /// Creates a digest.
  public init(sections: [Section]) {
    self.sections = sections
  }

  /// The digest of `sections`, each element identified by `identity`.
  ///
  /// - Complexity: O(b) for b bytes of identities.
  public init<Value>(_ sections: [[Value]], identity: (Value) -> String) {
    self.sections = sections.map {
      Section(count: $0.count, hash: Self.hash($0, identity: identity))
    }
  }

  /// The FNV-1a offset basis: the hash of an empty section.
  public static let emptyHash: UInt64 = 0xcbf2_9ce4_8422_2325

  /// The hash of one section's elements (see ``StreamDigest`` for the bytes hashed).
  ///
  /// - Complexity: O(b) for b bytes of identities.
  @_specialize(where Value == String)
  public static func hash<Value>(_ elements: [Value], identity: (Value) -> String) -> UInt64 {
    var hash = emptyHash
    for element in elements {
      var id = identity(element)
      id.withUTF8 { bytes in
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
      }
      hash = (hash ^ 0xFF) &* 0x100_0000_01b3
    }
    return hash
  }

  /// 16 lowercase hexadecimal digits.
  static func hex(_ hash: UInt64) -> String {
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// The hash written as 16 lowercase hexadecimal digits, or `nil`.
  static func hash(hex text: String) -> UInt64? {
    guard text.utf8.count == 16,
      text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
    else { return nil }
    return UInt64(text, radix: 16)
  }
}

/// How often a publisher sends a digest of the state with a changeset.
///
/// | policy | the server pays, per changeset | each client pays, per digest |
/// |---|---|---|
/// | `.never` | nothing | nothing |
/// | `.everyUpdate` | hashing the sections the changeset touched, O(s) for the rest | the same, plus a copy of the touched sections (so that a mismatch leaves the mirror unchanged) |
/// | `.every(k)` | O(s + c) to follow the cached hashes, the hashing on every k-th | the same on every k-th |
///
/// for s sections and c changes; hashing costs O(b) for the b bytes of the identities of the
/// touched sections. The line grows by about 24 bytes per section.
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
    return StreamDigest(sections: result)
  }

  /// For each section after `changeset`, the old section it continues (`nil` for one inserted
  /// or reloaded), for a changeset that fits `oldCount` sections.
  static func sources(of changeset: Changeset, oldCount: Int) -> [Int?] {
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
