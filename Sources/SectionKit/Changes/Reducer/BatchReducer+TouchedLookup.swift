/// How the fold finds the edits of a touched old section: a linear search of ``touched`` while at
/// most ``linearSearchLimit`` sections are touched; beyond, the sparse set ``positionOfOld`` in a
/// tree of at most ``sparseIndexLimit`` sections, the `Dictionary` ``touchedIndex`` in a larger
/// one; a binary search once the read-off has sorted them.
///
/// The linear search is kept for its measured worth: with the dictionary alone, a batch of 10 at
/// 10² sections costs 3,347 instructions per change instead of 2,864 (+17%; callgrind,
/// `sectionkit-bench allocations batches 100 10 N`, the difference of N = 20,000 and 10,000 over
/// 10,000), as every event hashes its section. The sparse set is kept for the same reason: with
/// the dictionary alone past 16, a batch of 100 costs 3,174 instructions per change at 10² sections,
/// 2,814 at 10³ and 2,781 at 10⁴; with the sparse set 2,940, 2,520 and 2,479 (-7%, -10%, -11%).
extension BatchReducer {
  /// Up to how many touched sections a linear search finds one.
  static let linearSearchLimit = 16
  /// Up to how many old sections ``positionOfOld`` indexes the touched ones (4 bytes each).
  static let sparseIndexLimit = 16 * RunPool.retainedCapacity

  /// The position in ``touched`` of old section `old`.
  @inline(__always)
  func touchedPosition(of old: Int) -> Int? {
    if touchedIsSorted {
      // After the read-off: a binary search.
      var (low, high) = (0, touched.count)
      while low < high {
        let mid = (low + high) / 2
        if touched[mid].old < old { low = mid + 1 } else { high = mid }
      }
      return low < touched.count && touched[low].old == old ? low : nil
    }
    if touched.count <= Self.linearSearchLimit {
      return touched.firstIndex { $0.old == old }
    }
    guard oldCounts.count <= Self.sparseIndexLimit else { return touchedIndex[old] }
    let position = Int(positionOfOld[old])
    return position < touched.count && touched[position].old == old ? position : nil
  }

  /// Records the first edit of old section `old`.
  mutating func touch(_ old: Int, _ edits: SectionEdits) {
    if touched.isEmpty { touched.reserveCapacity(Self.linearSearchLimit) }
    touched.append(Touched(old: old, edits: edits))
    guard touched.count > Self.linearSearchLimit else { return }
    let sparse = oldCounts.count <= Self.sparseIndexLimit
    // Entries of earlier batches stay in the sparse set: they count only where `touched` agrees.
    if sparse { while positionOfOld.count < oldCounts.count { positionOfOld.append(0) } }
    let first = touched.count == Self.linearSearchLimit + 1 ? 0 : touched.count - 1
    for position in first..<touched.count {
      if sparse {
        positionOfOld[touched[position].old] = Int32(truncatingIfNeeded: position)
      } else {
        touchedIndex[touched[position].old] = position
      }
    }
  }
}
