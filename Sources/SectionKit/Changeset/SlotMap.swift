/// UIKit's index arithmetic for one list (the sections, or the elements of one section): the
/// positions in `removed` (old coordinates) leave, the positions in `fixed` (new coordinates) are
/// taken by arrivals, and every other old position keeps its relative order and goes to the k-th
/// new position no arrival takes, k being its rank among the positions that stay.
///
/// It is how a collection view lays out what survives a batch, and how it computes where a
/// reload lands (`Docs/Batching.md`, rule B3: `removed` = the explicit deletes,
/// `fixed` = the explicit inserts). Run backwards (`removed` = the inserts, `fixed` = the
/// deletes) it maps a new position back to the old one. It is the arithmetic under
/// ``ChangesetPositions`` (which follows a whole changeset) and under the batch reducer's reload
/// destinations.
///
/// Positions are kept as sorted ranges, so a changeset's section sets cost their number of ranges,
/// never their width; arithmetic wraps instead of trapping, so garbage in gives garbage out, not a
/// crash.
struct SlotMap {
  /// Old positions that leave, sorted disjoint ranges.
  private let removed: [Range<Int>]
  /// How many positions the ranges of ``removed`` before each one hold.
  private let removedBefore: [Int]
  /// New positions taken by arrivals, sorted disjoint ranges.
  private let fixed: [Range<Int>]
  /// How many positions the ranges of ``fixed`` before each one hold.
  private let fixedBefore: [Int]

  /// - Parameters:
  ///   - removed: old positions that leave, as sorted disjoint ranges.
  ///   - fixed: new positions taken by arrivals, as sorted disjoint ranges.
  init(removedRanges removed: [Range<Int>], fixedRanges fixed: [Range<Int>]) {
    func prefix(_ ranges: [Range<Int>]) -> [Int] {
      var total = 0
      return ranges.map { range in
        defer { total = total &+ (range.upperBound &- range.lowerBound) }
        return total
      }
    }
    self.removed = removed
    self.fixed = fixed
    self.removedBefore = prefix(removed)
    self.fixedBefore = prefix(fixed)
  }

  /// - Parameters:
  ///   - removed: old positions that leave, ascending (duplicates are ignored).
  ///   - fixed: new positions taken by arrivals, ascending (duplicates are ignored).
  init(removed: [Int], fixed: [Int]) {
    self.init(
      removedRanges: SlotMap.merged(removed.compactMap(SlotMap.unit)),
      fixedRanges: SlotMap.merged(fixed.compactMap(SlotMap.unit)))
  }

  /// `position..<position + 1`, or `nil` for `Int.max`, which no range can hold.
  static func unit(_ position: Int) -> Range<Int>? {
    position < Int.max ? position..<position + 1 : nil
  }

  /// `ranges` sorted and merged where they overlap or touch.
  static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
    var result: [Range<Int>] = []
    for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
      if let last = result.last, range.lowerBound <= last.upperBound {
        result[result.count - 1] = last.lowerBound..<Swift.max(last.upperBound, range.upperBound)
      } else {
        result.append(range)
      }
    }
    return result
  }

  /// The new position of the old position `old`, which must not be in `removed`.
  ///
  /// - Complexity: O(log r + log f) for r and f ranges.
  func destination(of old: Int) -> Int {
    // Removed positions below `old`: the ranges ending at or before it, whole, plus the part of
    // the one containing it.
    var low = 0
    var high = removed.count
    while low < high {
      let mid = (low + high) / 2
      if removed[mid].lowerBound < old { low = mid + 1 } else { high = mid }
    }
    var below = 0
    if low > 0 {
      let range = removed[low - 1]
      below = removedBefore[low - 1] &+ (Swift.min(range.upperBound, old) &- range.lowerBound)
    }
    return slot(rank: old &- below)
  }

  /// The `rank`-th (0-based) new position that no arrival takes.
  ///
  /// - Complexity: O(log f) for f ranges.
  func slot(rank: Int) -> Int {
    // The first fixed range with more than `rank` free positions before it.
    var low = 0
    var high = fixed.count
    while low < high {
      let mid = (low + high) / 2
      if fixed[mid].lowerBound &- fixedBefore[mid] <= rank { low = mid + 1 } else { high = mid }
    }
    guard low > 0 else { return rank }
    return rank &+ fixedBefore[low - 1] &+ (fixed[low - 1].upperBound &- fixed[low - 1].lowerBound)
  }
}
