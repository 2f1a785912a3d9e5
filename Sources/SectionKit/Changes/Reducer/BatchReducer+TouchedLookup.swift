/// How the fold finds the edits of a touched old section: a linear search of ``touched`` while at
/// most ``linearSearchLimit`` sections are touched, the `Dictionary` ``touchedIndex`` beyond, and
/// a binary search once the read-off has sorted them.
///
/// The linear search is kept for its measured worth: with the dictionary alone, a batch of 10 at
/// 10² sections costs 3,347 instructions per change instead of 2,864 (+17%; callgrind,
/// `sectionkit-bench allocations batches 100 10 N`, the difference of N = 20,000 and 10,000 over
/// 10,000), as every event hashes its section.
extension BatchReducer {
  /// Up to how many touched sections a linear search finds one.
  static let linearSearchLimit = 16

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
    return touchedIndex[old]
  }

  /// Records the first edit of old section `old`.
  mutating func touch(_ old: Int, _ edits: SectionEdits) {
    if touched.isEmpty { touched.reserveCapacity(Self.linearSearchLimit) }
    touched.append(Touched(old: old, edits: edits))
    guard touched.count > Self.linearSearchLimit else { return }
    if touched.count == Self.linearSearchLimit + 1 {
      for (position, entry) in touched.enumerated() { touchedIndex[entry.old] = position }
    } else {
      touchedIndex[old] = touched.count - 1
    }
  }
}
