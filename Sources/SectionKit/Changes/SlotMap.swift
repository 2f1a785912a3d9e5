/// UIKit's index arithmetic for one list (the sections, or the elements of one section): the
/// positions in `removed` (old coordinates) leave, the positions in `fixed` (new coordinates) are
/// taken by arrivals, and every other old position keeps its relative order and goes to the k-th
/// new position no arrival takes, k being its rank among the positions that stay.
///
/// It is how a collection view lays out what survives a batch, and how it computes where a
/// reload lands (`Docs/Batching.md`, "Where a reload lands": `removed` = the explicit deletes,
/// `fixed` = the explicit inserts). The batch reducer, the selection remap and
/// ``Changeset/apply(to:insertedSection:newElement:)`` all use this one implementation.
struct SlotMap {
  /// Old positions that leave, ascending, unique.
  let removed: [Int]
  /// New positions taken by arrivals, ascending, unique.
  let fixed: [Int]

  /// The new position of the old position `old`, which must not be in ``removed``.
  ///
  /// - Complexity: O(log r + log f).
  func destination(of old: Int) -> Int {
    slot(rank: old - removed.partitioningIndex { $0 >= old })
  }

  /// The `rank`-th (0-based) new position that no arrival takes.
  ///
  /// - Complexity: O(log f).
  func slot(rank: Int) -> Int {
    // The number of fixed positions p with p − (their index) ≤ rank sit before the slot.
    var low = 0
    var high = fixed.count
    while low < high {
      let mid = (low + high) / 2
      if fixed[mid] - mid <= rank { low = mid + 1 } else { high = mid }
    }
    return rank + low
  }

  /// The new positions of `olds`, ascending old positions none of which is in ``removed``.
  ///
  /// - Complexity: O(n + r + f), one merge pass.
  func destinations(ofAscending olds: [Int]) -> [Int] {
    var result: [Int] = []
    result.reserveCapacity(olds.count)
    var removedCursor = 0
    var fixedCursor = 0
    for old in olds {
      while removedCursor < removed.count && removed[removedCursor] < old { removedCursor += 1 }
      let rank = old - removedCursor
      while fixedCursor < fixed.count && fixed[fixedCursor] <= rank + fixedCursor {
        fixedCursor += 1
      }
      result.append(rank + fixedCursor)
    }
    return result
  }
}
