import Foundation
import SectionKit

/// The hash of a version 3 digest (``StreamDigest/Kind/pairs``): per section, the sum modulo
/// 2⁶⁴ of a hash of each pair of neighbours, the section read from a boundary mark to a boundary
/// mark. A change touches only the pairs around it, so a changeset of c changes updates the hash
/// of a section in O(c), whatever its length (``PairDigestPlan``); and since the pairs chain the
/// elements, the order counts as well as the identities (with distinct identities, one list of
/// pairs makes one order).
///
/// `Docs/Streaming.md` gives the exact definition and a JavaScript function.
enum PairHash {
  /// The hash standing for the boundary before the first element and after the last.
  static let boundary: UInt64 = 0
  static let offset: UInt64 = 0xcbf2_9ce4_8422_2325
  static let prime: UInt64 = 0x100_0000_01b3

  /// FNV-1a 64 of the identity's UTF-8 bytes.
  @inline(__always)
  static func element(_ identity: String) -> UInt64 {
    var identity = identity
    return identity.withUTF8 { bytes in
      var hash = offset
      for byte in bytes { hash = (hash ^ UInt64(byte)) &* prime }
      return hash
    }
  }

  /// FNV-1a 64 of the 16 bytes of `first` then `second`, each least significant byte first.
  @inline(__always)
  static func pair(_ first: UInt64, _ second: UInt64) -> UInt64 {
    var hash = offset
    var value = first
    for _ in 0..<8 {
      hash = (hash ^ (value & 0xFF)) &* prime
      value >>= 8
    }
    value = second
    for _ in 0..<8 {
      hash = (hash ^ (value & 0xFF)) &* prime
      value >>= 8
    }
    return hash
  }

  /// The hash of a section of `elements`.
  ///
  /// - Complexity: O(b) for b bytes of identities.
  @_specialize(where Value == String)
  static func section<Value>(_ elements: [Value], identity: (Value) -> String) -> UInt64 {
    var sum: UInt64 = 0
    var previous = boundary
    for value in elements {
      let hash = element(identity(value))
      sum &+= pair(previous, hash)
      previous = hash
    }
    return sum &+ pair(previous, boundary)
  }
}

/// Where a changeset changes each section, for following the ``PairHash`` of every section
/// through it in O(s + c log c) for s sections and c changes, hashing only the elements around
/// the changes: the old indexes each kept section loses (deleted, reloaded, moved away) and the
/// new indexes it gains (inserted, reload destinations, moved in). Every other element keeps its
/// order, so only the pairs around those runs change.
struct PairDigestPlan {
  /// For each new section, the old one it continues; `nil` for one inserted or reloaded.
  let sources: [Int?]
  /// For each old section, the new one it becomes; `nil` for one deleted or reloaded.
  private var targets: [Int?]
  let oldCounts: [Int]
  /// Old indexes each kept old section loses, ascending.
  private var lost: [Int: [Int]] = [:]
  /// New indexes each continued new section gains, ascending.
  private var gained: [Int: [Int]] = [:]
  /// The old path of each element moved, by its new path.
  private(set) var moveSources: [IndexPath: IndexPath] = [:]

  /// The plan's old side, from the changeset alone; `nil` when it does not fit `oldCounts`.
  init?(_ changeset: Changeset, oldCounts: [Int]) {
    let sources = DigestCache.sources(of: changeset, oldCount: oldCounts.count)
    let newCount =
      oldCounts.count - changeset.deletedSections.count + changeset.insertedSections.count
    guard sources.count == newCount else { return nil }
    self.sources = sources
    self.oldCounts = oldCounts
    var targets = [Int?](repeating: nil, count: oldCounts.count)
    for (new, old) in sources.enumerated() {
      guard let old else { continue }
      guard oldCounts.indices.contains(old), targets[old] == nil else { return nil }
      targets[old] = new
    }
    self.targets = targets
    func lose(_ path: IndexPath) -> Bool {
      guard path.count == 2, oldCounts.indices.contains(path[0]),
        (0..<oldCounts[path[0]]).contains(path[1])
      else { return false }
      if targets[path[0]] != nil { lost[path[0], default: []].append(path[1]) }
      return true
    }
    for path in changeset.deletedElements { guard lose(path) else { return nil } }
    for path in changeset.reloadedElements { guard lose(path) else { return nil } }
    for move in changeset.movedElements {
      guard lose(move.from) else { return nil }
      moveSources[move.to] = move.from
    }
    for key in lost.keys { lost[key] = Self.sortedUnique(lost[key]!) }
  }

  private static func sortedUnique(_ indexes: [Int]) -> [Int] {
    var sorted = indexes.sorted()
    var kept = 0
    for index in sorted.indices where kept == 0 || sorted[index] != sorted[kept - 1] {
      sorted[kept] = sorted[index]
      kept += 1
    }
    sorted.removeLast(sorted.count - kept)
    return sorted
  }

  /// The old positions whose elements ``oldPart(hash:)`` hashes: around each run of lost ones.
  func oldWindows(_ body: (_ section: Int, _ index: Int) -> Void) {
    for (section, indexes) in lost {
      for run in Self.runs(indexes) {
        for index in max(run.lowerBound - 1, 0)...min(run.upperBound + 1, oldCounts[section] - 1) {
          body(section, index)
        }
      }
    }
  }

  /// The plan's new side: `valuePaths`, the new paths of the values sent (inserted elements and
  /// reload destinations), with the destinations of the moves. `nil` when they do not fit.
  mutating func finish(valuePaths: some Sequence<IndexPath>) -> Bool {
    func gain(_ path: IndexPath) -> Bool {
      guard path.count == 2, sources.indices.contains(path[0]), path[1] >= 0 else { return false }
      if sources[path[0]] != nil { gained[path[0], default: []].append(path[1]) }
      return true
    }
    for path in valuePaths { guard gain(path) else { return false } }
    for path in moveSources.keys { guard gain(path) else { return false } }
    for key in gained.keys { gained[key] = Self.sortedUnique(gained[key]!) }
    for (new, indexes) in gained where indexes.last! >= newCount(of: new)! { return false }
    return true
  }

  /// The number of elements of continued new section `new`, or `nil` when it does not fit.
  func newCount(of new: Int) -> Int? {
    guard let old = sources[new] else { return nil }
    let count = oldCounts[old] - (lost[old]?.count ?? 0) + (gained[new]?.count ?? 0)
    return count >= 0 ? count : nil
  }

  /// Whether new index `index` of continued section `new` is gained (not kept from the old one).
  func isGained(_ index: Int, inSection new: Int) -> Bool {
    gained[new].map { Self.binarySearch($0, index) } ?? false
  }

  private static func binarySearch(_ sorted: [Int], _ value: Int) -> Bool {
    var (low, high) = (0, sorted.count)
    while low < high {
      let middle = (low + high) / 2
      if sorted[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low < sorted.count && sorted[low] == value
  }

  /// The runs of consecutive indexes of an ascending list, as closed ranges.
  private static func runs(_ indexes: [Int]) -> [ClosedRange<Int>] {
    var result: [ClosedRange<Int>] = []
    var start = 0
    for position in indexes.indices
    where position + 1 == indexes.count || indexes[position + 1] != indexes[position] + 1 {
      result.append(indexes[start]...indexes[position])
      start = position + 1
    }
    return result
  }

  /// Maps the kept positions of one side to the other, in ascending order: the `rank`-th kept
  /// position (0-based) of the other side, whose changed positions are `changed` (ascending).
  private struct Walk {
    let changed: [Int]
    var consumed = 0
    mutating func position(ofRank rank: Int) -> Int {
      var position = rank + consumed
      while consumed < changed.count && changed[consumed] <= position {
        consumed += 1
        position += 1
      }
      return position
    }
  }

  /// The sum of the pairs around each run of `changed` positions of a section of `count`
  /// (`sign` +1 adds them, −1 subtracts them), with, where the two kept positions around a run
  /// are neighbours on the other side, the pair they make there (the other sign): for the old
  /// side, the pairs lost and those the deletes close; for the new side, those made and those
  /// the inserts open.
  private static func part(
    changed: [Int], count: Int, otherChanged: [Int], otherCount: Int, adding: Bool,
    hash: (Int) -> UInt64
  ) -> UInt64 {
    var sum: UInt64 = 0
    var walk = Walk(changed: otherChanged)
    func value(_ index: Int) -> UInt64 {
      index < 0 || index >= count ? PairHash.boundary : hash(index)
    }
    var runStart = 0
    for run in runs(changed) {
      let before = run.lowerBound - 1
      let after = run.upperBound + 1
      var pairs: UInt64 = 0
      var previous = value(before)
      for index in run.lowerBound...after {
        let current = value(index)
        pairs &+= PairHash.pair(previous, current)
        previous = current
      }
      // The kept positions around the run, on the other side.
      let otherBefore = before < 0 ? -1 : walk.position(ofRank: before - runStart)
      let otherAfter =
        after >= count ? otherCount : walk.position(ofRank: before + 1 - runStart)
      let joined: UInt64 =
        otherAfter == otherBefore + 1 ? PairHash.pair(value(before), value(after)) : 0
      sum = adding ? sum &+ pairs &- joined : sum &- pairs &+ joined
      runStart += run.count
    }
    return sum
  }

  /// The change to the hash of each kept old section from its own side: the pairs around what
  /// it loses, less those closed where it loses them. `hash` gives the hash of an old element.
  func oldPart(hash: (_ section: Int, _ index: Int) -> UInt64) -> [Int: UInt64] {
    var result: [Int: UInt64] = [:]
    for (old, indexes) in lost {
      let new = targets[old]!
      result[old] = Self.part(
        changed: indexes, count: oldCounts[old], otherChanged: gained[new] ?? [],
        otherCount: newCount(of: new)!, adding: false, hash: { hash(old, $0) })
    }
    return result
  }

  /// The change to the hash of each continued new section from its new side. `hash` gives the
  /// hash of a new element: gained ones at `index`; a kept one also with its old index.
  func newPart(hash: (_ section: Int, _ index: Int, _ oldIndex: Int?) -> UInt64) -> [Int: UInt64] {
    var result: [Int: UInt64] = [:]
    for (new, indexes) in gained {
      let old = sources[new]!
      let lostHere = lost[old] ?? []
      var walk = Walk(changed: lostHere)
      result[new] = Self.part(
        changed: indexes, count: newCount(of: new)!, otherChanged: lostHere,
        otherCount: oldCounts[old], adding: true,
        hash: { index in
          if Self.binarySearch(indexes, index) { return hash(new, index, nil) }
          // A kept element: its rank among the kept ones is the same on both sides. `part`
          // asks in ascending order, so one walk serves them all.
          let rank = index - Self.countBelow(indexes, index)
          return hash(new, index, walk.position(ofRank: rank))
        })
    }
    return result
  }

  private static func countBelow(_ sorted: [Int], _ value: Int) -> Int {
    var (low, high) = (0, sorted.count)
    while low < high {
      let middle = (low + high) / 2
      if sorted[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The hashes of the sections after the changeset: those of `oldHashes` followed, with
  /// `whole` for each new section that does not continue an old one.
  func follow(
    _ oldHashes: [UInt64], oldPart: [Int: UInt64], newPart: [Int: UInt64],
    whole: (_ section: Int) -> UInt64?
  ) -> [UInt64]? {
    var result: [UInt64] = []
    result.reserveCapacity(sources.count)
    for (new, old) in sources.enumerated() {
      if let old {
        result.append(oldHashes[old] &+ (oldPart[old] ?? 0) &+ (newPart[new] ?? 0))
      } else {
        guard let hash = whole(new) else { return nil }
        result.append(hash)
      }
    }
    return result
  }
}
