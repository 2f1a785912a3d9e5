import Foundation
import SectionKit

/// The hash of a version 3 digest (``StreamDigest/Kind/pairs``): per section, the sum modulo
/// 2⁶⁴ of a hash of each pair of neighbours, the section read from a boundary mark to a boundary
/// mark. A change touches only the pairs around it, so a changeset of c changes updates the hash
/// of a section in O(c), whatever its length (``PairEdits``); and since the pairs chain the
/// elements, the order counts as well as the identities (with distinct identities, one list of
/// pairs makes one order).
///
/// `Docs/Streaming.md` gives the exact definition and a JavaScript function.
enum PairHash {
  /// The hash standing for the boundary before the first element and after the last.
  static let boundary: UInt64 = 0
  static let offset: UInt64 = 0xcbf2_9ce4_8422_2325
  static let prime: UInt64 = 0x100_0000_01b3

  /// FNV-1a 64 of the identity's UTF-8 bytes, read in place where the string holds them
  /// contiguously (a native or small string: no copy of the string); another is made so first.
  @inline(__always)
  static func element(_ identity: String) -> UInt64 {
    if let hash = identity.utf8.withContiguousStorageIfAvailable({ bytes($0) }) { return hash }
    var identity = identity
    return identity.withUTF8 { bytes($0) }
  }

  /// FNV-1a 64 of `bytes` from `hash`: eight at a time while eight are left (one load,
  /// ``word(_:after:)``), then one by one. The same hash as byte by byte.
  @inline(__always)
  static func bytes(_ bytes: UnsafeBufferPointer<UInt8>, after hash: UInt64 = offset) -> UInt64 {
    var hash = hash
    guard let base = bytes.baseAddress else { return hash }
    let count = bytes.count
    var index = 0
    while index &+ 8 <= count {
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      hash = Self.word(UInt64(littleEndian: word), after: hash)
      index &+= 8
    }
    while index < count {
      hash = (hash ^ UInt64(base[index])) &* prime
      index &+= 1
    }
    return hash
  }

  /// FNV-1a 64 of the 16 bytes of `first` then `second`, each least significant byte first
  /// (unrolled: 16 rounds, no loop).
  @inline(__always)
  static func pair(_ first: UInt64, _ second: UInt64) -> UInt64 {
    word(second, after: word(first, after: offset))
  }

  /// FNV-1a 64 of the 8 bytes of `value`, least significant first, from `hash`.
  @inline(__always)
  static func word(_ value: UInt64, after hash: UInt64) -> UInt64 {
    var hash = (hash ^ (value & 0xFF)) &* prime
    hash = (hash ^ (value >> 8 & 0xFF)) &* prime
    hash = (hash ^ (value >> 16 & 0xFF)) &* prime
    hash = (hash ^ (value >> 24 & 0xFF)) &* prime
    hash = (hash ^ (value >> 32 & 0xFF)) &* prime
    hash = (hash ^ (value >> 40 & 0xFF)) &* prime
    hash = (hash ^ (value >> 48 & 0xFF)) &* prime
    return (hash ^ (value >> 56)) &* prime
  }

  /// The hash of a section of `elements`.
  ///
  /// - Complexity: O(b) for b bytes of identities.
  @_specialize(where Value == String)
  static func section<Value>(_ elements: [Value], hash hasher: ElementHasher<Value>) -> UInt64 {
    var sum: UInt64 = 0
    var previous = boundary
    for value in elements {
      let hash = hasher(value)
      sum &+= pair(previous, hash)
      previous = hash
    }
    return sum &+ pair(previous, boundary)
  }
}

/// Hashes an element for a ``PairHash``: FNV-1a 64 of its identity (``PairHash/element(_:)``).
/// A string that is its own identity (the default for strings) is hashed as it is: no call
/// through the identity closure and, in code specialized for strings, no cast.
struct ElementHasher<Value> {
  /// The identity of an element.
  let identity: (Value) -> String
  /// Whether the elements are strings that are their own identities.
  let valueIsIdentity: Bool

  /// `valueIsIdentity` is taken only when `Value` is `String`.
  init(_ identity: @escaping (Value) -> String, valueIsIdentity: Bool = false) {
    self.identity = identity
    self.valueIsIdentity = valueIsIdentity && Value.self == String.self
  }

  @inline(__always)
  func callAsFunction(_ value: Value) -> UInt64 {
    // `Value` is `String` (checked by `init`): a reinterpretation, not a dynamic cast, even in
    // code not specialized for strings (the publisher's).
    if valueIsIdentity { return PairHash.element(_identityCast(value, to: String.self)) }
    return PairHash.element(identity(value))
  }
}

/// Where a changeset takes the sections, for following their ``PairHash``: the new index of each
/// old section and the reverse. For a changeset that changes no section (the common case) it
/// holds nothing: every section keeps its index.
struct PairSections {
  /// For each new section, the old one it continues (`nil`: inserted or reloaded); `nil` when
  /// every section keeps its index.
  let sources: [Int?]?
  /// For each old section, the new one it becomes (`nil`: deleted or reloaded); `nil` as
  /// ``sources``.
  private let targets: [Int?]?
  let oldCount: Int
  let newCount: Int

  /// The sections of `changeset` applied to `oldCount` sections; `nil` when it does not fit.
  ///
  /// - Complexity: O(1) for a changeset that changes no section, O(s + r log r) otherwise for s
  ///   sections and r section changes.
  init?(_ changeset: Changeset, oldCount: Int) {
    self.oldCount = oldCount
    if changeset.deletedSectionRanges.isEmpty && changeset.insertedSectionRanges.isEmpty
      && changeset.reloadedSectionRanges.isEmpty && changeset.movedSections.isEmpty
    {
      (sources, targets, newCount) = (nil, nil, oldCount)
      return
    }
    let sources = DigestCache.sources(of: changeset, oldCount: oldCount)
    guard
      sources.count
        == oldCount - changeset.deletedSections.count + changeset.insertedSections.count
    else { return nil }
    var targets = [Int?](repeating: nil, count: oldCount)
    for (new, old) in sources.enumerated() {
      guard let old else { continue }
      guard old >= 0, old < oldCount, targets[old] == nil else { return nil }
      targets[old] = new
    }
    (self.sources, self.targets, newCount) = (sources, targets, sources.count)
  }

  /// Whether section `section` of `sections` (in range) holds an element at `index`: a
  /// comparison with its count, not the generic `indices` of code not specialized for the
  /// element type (the publisher's), which cost over 1,000 instructions a call.
  @inline(__always)
  static func holds<Value>(_ sections: [[Value]], _ section: Int, _ index: Int) -> Bool {
    index >= 0 && index < sections[section].count
  }

  /// The new index of old section `old`, or `nil` when it is out of range, deleted or reloaded.
  @inline(__always)
  func new(ofOld old: Int) -> Int? {
    guard old >= 0, old < oldCount else { return nil }
    return targets == nil ? old : targets![old]
  }

  /// The old section new section `new` continues, or `nil` when it is out of range, inserted or
  /// reloaded.
  @inline(__always)
  func old(ofNew new: Int) -> Int? {
    guard new >= 0, new < newCount else { return nil }
    return sources == nil ? new : sources![new]
  }
}

/// An element's place in a section that one side of a changeset holds and the other does not,
/// the section by its new index.
struct PairPosition {
  var section: Int
  var index: Int
}

/// An element's place in a section that one side of a changeset holds and the other does not,
/// with the hash of the element (``PairHash/element(_:)``).
struct PairArrival {
  var section: Int
  var index: Int
  var hash: UInt64
}

/// What a changeset changes in the sections it continues, for following their ``PairHash``: the
/// positions of the side at hand (``here``, whose elements are there to hash) that the other side
/// does not keep, and the positions of the other side (``there``) that this one does not hold,
/// with their hashes. Every other element is on both sides in the same order.
///
/// Between two elements kept on both sides (or a boundary) that are neighbours once the kept
/// elements are numbered in order, a *gap*, each side has a run of its own elements, possibly
/// empty; only the pairs of those runs differ. So the hash of `there` is the hash of `here`, less
/// the pairs of each gap's run here, plus the pairs of its run there: a few pairs per change,
/// however long the section, and nothing for a section without changes.
struct PairEdits {
  /// Positions of the side at hand that the other does not keep.
  var here: [PairPosition] = []
  /// Positions of the other side that the side at hand does not hold, with their hashes.
  var there: [PairArrival] = []

  /// For each section with changes, in ascending order of (new) section, calls `body` with it,
  /// the change to its hash from `here` to `there`, and the number of elements `there` holds
  /// (no array built); `false` when the changes do not fit the sections (a position out of range
  /// or given twice) or `body` returns `false`. `section(new)` gives the elements `here` holds of
  /// new section `new`.
  ///
  /// - Complexity: O(c log c) for c changes, plus hashing the elements that leave here and their
  ///   neighbours.
  mutating func forEachDelta<Value>(
    section: (Int) -> [Value]?, hash hasher: ElementHasher<Value>,
    _ body: (_ section: Int, _ delta: UInt64, _ count: Int) -> Bool
  ) -> Bool {
    here.sort { $0.section < $1.section || ($0.section == $1.section && $0.index < $1.index) }
    there.sort { $0.section < $1.section || ($0.section == $1.section && $0.index < $1.index) }
    var (h, t) = (0, 0)
    while h < here.count || t < there.count {
      let number = min(
        h < here.count ? here[h].section : Int.max, t < there.count ? there[t].section : Int.max)
      var (hEnd, tEnd) = (h, t)
      while hEnd < here.count && here[hEnd].section == number { hEnd += 1 }
      while tEnd < there.count && there[tEnd].section == number { tEnd += 1 }
      guard let elements = section(number),
        let delta = Self.delta(
          elements, hash: hasher, leaving: here[h..<hEnd], arriving: there[t..<tEnd]),
        body(number, delta, elements.count - (hEnd - h) + (tEnd - t))
      else { return false }
      (h, t) = (hEnd, tEnd)
    }
    return true
  }

  /// The hash of one section `there` less that of `elements`, the section here: the old indexes
  /// `leaving` (here) and the new ones `arriving` (there, with their hashes), each ascending.
  /// `nil` when they are out of range or repeated.
  @_specialize(where Value == String)
  static func delta<Value>(
    _ elements: [Value], hash hasher: ElementHasher<Value>, leaving: ArraySlice<PairPosition>,
    arriving: ArraySlice<PairArrival>
  ) -> UInt64? {
    let count = elements.count
    var last = -1
    for position in leaving {
      guard position.index > last, position.index < count else { return nil }
      last = position.index
    }
    let thereCount = count - leaving.count + arriving.count
    last = -1
    for arrival in arriving {
      guard arrival.index > last, arrival.index < thereCount else { return nil }
      last = arrival.index
    }
    // The last kept element hashed: the one after a gap is often the one before the next.
    var cached = (index: -1, hash: PairHash.boundary)
    func kept(_ index: Int) -> UInt64 {
      guard index >= 0, index < count else { return PairHash.boundary }
      if index != cached.index { cached = (index, hasher(elements[index])) }
      return cached.hash
    }
    var delta: UInt64 = 0
    var (l, a) = (leaving.startIndex, arriving.startIndex)
    // How many elements left and arrived in the gaps before: the k-th kept element is at
    // `k + left` here.
    var (left, arrived) = (0, 0)
    while l < leaving.endIndex || a < arriving.endIndex {
      // The gap: the number of kept elements before it, on either side.
      let gap = min(
        l < leaving.endIndex ? leaving[l].index - left : Int.max,
        a < arriving.endIndex ? arriving[a].index - arrived : Int.max)
      // Both runs start with a pair whose first element is `before`: its 8 bytes are hashed
      // once (FNV-1a reads the pair's bytes in order, so the state after them can be shared).
      let before = PairHash.word(kept(gap - 1 + left), after: PairHash.offset)
      var previous = before
      var lost: UInt64 = 0
      var lEnd = l
      while lEnd < leaving.endIndex && leaving[lEnd].index == gap + left + (lEnd - l) {
        let hash = hasher(elements[leaving[lEnd].index])
        lost &+= PairHash.word(hash, after: previous)
        previous = PairHash.word(hash, after: PairHash.offset)
        lEnd += 1
      }
      let after = kept(gap + left + (lEnd - l))
      lost &+= PairHash.word(after, after: previous)
      previous = before
      var made: UInt64 = 0
      var aEnd = a
      while aEnd < arriving.endIndex && arriving[aEnd].index == gap + arrived + (aEnd - a) {
        let hash = arriving[aEnd].hash
        made &+= PairHash.word(hash, after: previous)
        previous = PairHash.word(hash, after: PairHash.offset)
        aEnd += 1
      }
      made &+= PairHash.word(after, after: previous)
      delta = delta &+ made &- lost
      left += lEnd - l
      arrived += aEnd - a
      (l, a) = (lEnd, aEnd)
    }
    return delta
  }
}

/// The ``PairHash`` and count of each section after a changeset, as the changes to those
/// before it: what a publisher and a mirror follow, each section's hash kept between updates.
struct FollowedPairHashes {
  /// Where the changeset takes the sections.
  let sections: PairSections
  /// The sections the changeset changes (those it inserts or reloads among them), ascending by
  /// new index: new index, count and hash.
  let changed: [(section: Int, count: Int, hash: UInt64)]

  /// The count and hash of each new section, from `counts` and `hashes`, those of the sections
  /// before (by old index), where the changeset does not change them.
  func forEachSection(
    counts: (Int) -> Int, hashes: [UInt64], _ body: (_ section: Int, Int, UInt64) -> Bool
  ) -> Bool {
    var next = 0
    for new in 0..<sections.newCount {
      if next < changed.count && changed[next].section == new {
        guard body(new, changed[next].count, changed[next].hash) else { return false }
        next += 1
      } else {
        let old = sections.old(ofNew: new)!
        guard body(new, counts(old), hashes[old]) else { return false }
      }
    }
    return true
  }

  /// The digest of the state after the changeset.
  func digest(counts: (Int) -> Int, hashes: [UInt64]) -> StreamDigest {
    var result = StreamDigest(sections: [], kind: .pairs)
    result.sections.reserveCapacity(sections.newCount)
    _ = forEachSection(counts: counts, hashes: hashes) { _, count, hash in
      result.sections.append(StreamDigest.Section(count: count, hash: hash))
      return true
    }
    return result
  }

  /// Whether `digest` is the digest of the state after the changeset.
  func matches(_ digest: StreamDigest, counts: (Int) -> Int, hashes: [UInt64]) -> Bool {
    guard digest.sections.count == sections.newCount else { return false }
    return forEachSection(counts: counts, hashes: hashes) { new, count, hash in
      digest.sections[new].count == count && digest.sections[new].hash == hash
    }
  }

  /// Turns `hashes`, the hashes before the changeset, into those after it: in place when the
  /// sections keep their indexes.
  ///
  /// - Complexity: O(c) for c sections changed when the sections keep their indexes, O(s)
  ///   otherwise.
  func apply(to hashes: inout [UInt64]) {
    if let sources = sections.sources {
      var next = 0
      hashes = sources.enumerated().map { new, old in
        if next < changed.count && changed[next].section == new {
          next += 1
          return changed[next - 1].hash
        }
        return hashes[old!]
      }
    } else {
      for section in changed { hashes[section.section] = section.hash }
    }
  }

  /// The changes `edits` make to `hashes`, the old state's: each continued section's hash plus
  /// its `delta` (`section` gives the old elements of a continued section by its new index); the
  /// sections inserted or reloaded hashed by `whole`. `nil` when the changes do not fit.
  init?<Value>(
    _ sections: PairSections, edits: inout PairEdits, hashes: [UInt64],
    here section: (Int) -> [Value]?, hash hasher: ElementHasher<Value>,
    whole: (Int) -> (count: Int, hash: UInt64)?
  ) {
    guard hashes.count == sections.oldCount else { return nil }
    self.sections = sections
    var changed: [(section: Int, count: Int, hash: UInt64)] = []
    // In order of new index: the sections continued, from their deltas; the others (inserted or
    // reloaded, before each continued section and after the last), whole.
    var next = 0
    func wholeSections(before new: Int) -> Bool {
      if let sources = sections.sources {
        for inserted in next..<new where sources[inserted] == nil {
          guard let (count, hash) = whole(inserted) else { return false }
          changed.append((inserted, count, hash))
        }
      }
      return true
    }
    let fits = edits.forEachDelta(section: section, hash: hasher) { new, delta, count in
      guard wholeSections(before: new) else { return false }
      // Deltas are of continued sections only (`section` gives no others).
      let old = sections.old(ofNew: new)!
      changed.append((new, count, hashes[old] &+ delta))
      next = new + 1
      return true
    }
    guard fits, wholeSections(before: sections.newCount) else { return nil }
    self.changed = changed
  }
}

extension PairEdits {
  /// Adds the elements at old `paths` to ``here``, by the new index of their section; `false`
  /// when one is not an element of a section that continues.
  mutating func leave(_ paths: [IndexPath], _ map: PairSections) -> Bool {
    for path in paths {
      guard path.count == 2, let new = map.new(ofOld: path[0]) else { return false }
      here.append(PairPosition(section: new, index: path[1]))
    }
    return true
  }
}

extension FollowedPairHashes {
  /// A mirror's side: the hashes after `update` from `sections` and their `hashes`, the state
  /// before it, without applying it; `nil` when the changeset or its values do not fit (the
  /// applier then says why).
  ///
  /// - Complexity: O(c log c) for c changes, plus hashing the identities of the elements that
  ///   leave, arrive or neighbour them and those of the sections inserted; plus O(s) for s
  ///   sections when the changeset changes sections.
  init?<Value>(
    mirroring update: StreamChangeset<Value>, from sections: [[Value]], hashes: [UInt64],
    hash hasher: ElementHasher<Value>
  ) {
    let changeset = update.changeset
    // Every inserted section comes with its elements: this bounds what following the sections
    // allocates by the size of the update, whatever the numbers in the changeset.
    var inserted = 0
    for range in changeset.insertedSectionRanges {
      inserted += range.count
      guard inserted <= update.sections.count else { return nil }
    }
    guard let map = PairSections(changeset, oldCount: sections.count) else { return nil }
    var edits = PairEdits()
    let moves = changeset.movedElements
    edits.here.reserveCapacity(
      changeset.deletedElements.count + changeset.reloadedElements.count
        + changeset.reconfiguredElements.count + moves.count)
    edits.there.reserveCapacity(update.elementValues.count + moves.count)
    guard edits.leave(changeset.deletedElements, map),
      edits.leave(changeset.reloadedElements, map),
      edits.leave(changeset.reconfiguredElements, map)
    else { return nil }
    for move in moves {
      guard move.from.count == 2, move.to.count == 2, let from = map.new(ofOld: move.from[0]),
        map.old(ofNew: move.to[0]) != nil, PairSections.holds(sections, move.from[0], move.from[1])
      else { return nil }
      edits.here.append(PairPosition(section: from, index: move.from[1]))
      edits.there.append(
        PairArrival(
          section: move.to[0], index: move.to[1],
          hash: hasher(sections[move.from[0]][move.from[1]])))
    }
    // The values sent are the inserted elements and the reloads' destinations (the applier
    // checks that they are exactly those).
    // By index, not `zip`: this generic code is not specialized, and a `Zip2Sequence` iterated
    // generically costs thousands of instructions an element.
    let (paths, values) = (update.elementPaths, update.elementValues)
    for index in 0..<paths.count {
      let path = paths[index]
      guard path.count == 2, map.old(ofNew: path[0]) != nil else { return nil }
      edits.there.append(
        PairArrival(section: path[0], index: path[1], hash: hasher(values[index])))
    }
    self.init(
      map, edits: &edits, hashes: hashes, here: { map.old(ofNew: $0).map { sections[$0] } },
      hash: hasher,
      whole: { new in
        update.sections[new].map { ($0.count, PairHash.section($0, hash: hasher)) }
      })
  }
}
