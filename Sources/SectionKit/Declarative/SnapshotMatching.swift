import Foundation

/// Which old element each element of a new snapshot continues, by identity across the whole
/// snapshot, and the per-section matchings that ``ArraySection`` turns into events.
///
/// The provider builds it through a closure made at its creation, where the element and identity
/// types are known; everything after the match works on indexes only.
struct SnapshotMatching {
  /// For each new section that continues an old one, the matching of its elements with that
  /// section's; `nil` for a new section.
  var sections: [IdentityMatching?]
  /// The elements that changed section between two sections that both stay.
  var crossSection = 0
  /// Those of them whose content is not updated: old section and index (current sections) → new
  /// section and index (the snapshot's), which the coordinator may report as moves.
  var movesAcross: [(from: Int, fromIndex: Int, to: Int, toIndex: Int)] = []

  /// Matches `new` (the elements of each new section) with `old` (those of each current
  /// section); `previous[t]` is the old section that new section `t` continues, or `nil`.
  ///
  /// - Throws: ``SnapshotError/duplicateElement(id:contents:positions:)`` when an identity occurs
  ///   twice in `old` or in `new`, anywhere.
  /// - Complexity: O(n + m) expected for n old and m new elements (each identity hashed once).
  init<Element, ID: Hashable>(
    old: [[Element]], new: [[Element]], previous: [Int?], id: (Element) -> ID,
    isUpdated: (Element, Element) -> Bool
  ) throws(SnapshotError) {
    let oldStart = Self.starts(old)
    let newStart = Self.starts(new)
    let oldTotal = oldStart[old.count]
    let newTotal = newStart[new.count]
    // One table: an old identity maps to its flat old index (≥ 0), a new-only identity to
    // ~(flat new index).
    var table: [ID: Int] = [:]
    table.reserveCapacity(oldTotal + newTotal / 4)
    var flat = 0
    for section in old.indices {
      for element in old[section] {
        let key = id(element)
        if let first = table.updateValue(flat, forKey: key) {
          throw .duplicateElement(
            id: String(describing: key), contents: .old,
            positions: [Self.path(first, oldStart), Self.path(flat, oldStart)])
        }
        flat += 1
      }
    }
    var newOfOld = [Int](repeating: -1, count: oldTotal)
    var oldOfNew = [Int](repeating: -1, count: newTotal)
    flat = 0
    for section in new.indices {
      for element in new[section] {
        let key = id(element)
        if let entry = table[key] {
          guard entry >= 0, newOfOld[entry] < 0 else {
            let first = entry >= 0 ? newOfOld[entry] : ~entry
            throw .duplicateElement(
              id: String(describing: key), contents: .new,
              positions: [Self.path(first, newStart), Self.path(flat, newStart)])
          }
          newOfOld[entry] = flat
          oldOfNew[flat] = entry
        } else {
          table[key] = ~flat
        }
        flat += 1
      }
    }
    // Per surviving section: the elements matched within it; the others are deleted and
    // inserted (an element that changed section leaves one and enters the other).
    var surviving = [Bool](repeating: false, count: old.count)
    for case let was? in previous { surviving[was] = true }
    sections = []
    sections.reserveCapacity(new.count)
    for (target, was) in previous.enumerated() {
      guard let source = was else {
        sections.append(nil)
        continue
      }
      let newRange = newStart[target]..<newStart[target + 1]
      let oldRange = oldStart[source]..<oldStart[source + 1]
      var matching = IdentityMatching(
        newOfOld: [Int](repeating: -1, count: oldRange.count),
        oldOfNew: [Int](repeating: -1, count: newRange.count))
      for oldIndex in oldRange {
        let newIndex = newOfOld[oldIndex]
        guard newRange.contains(newIndex) else { continue }
        let (o, n) = (oldIndex - oldRange.lowerBound, newIndex - newRange.lowerBound)
        matching.newOfOld[o] = n
        matching.oldOfNew[n] = o
        if isUpdated(old[source][o], new[target][n]) { matching.updated.append(o) }
      }
      for newIndex in newRange {
        let oldIndex = oldOfNew[newIndex]
        guard oldIndex >= 0 && !oldRange.contains(oldIndex) else { continue }
        let from = Self.section(of: oldIndex, oldStart)
        guard surviving[from] else { continue }
        crossSection += 1
        let (o, n) = (oldIndex - oldStart[from], newIndex - newRange.lowerBound)
        if !isUpdated(old[from][o], new[target][n]) {
          movesAcross.append((from, o, target, n))
        }
      }
      sections.append(matching)
    }
  }

  /// The flat index of each section's first element, and the total at the end.
  private static func starts<Element>(_ sections: [[Element]]) -> [Int] {
    var starts = [0]
    starts.reserveCapacity(sections.count + 1)
    for section in sections { starts.append(starts[starts.count - 1] + section.count) }
    return starts
  }

  /// The section holding flat index `flat`, given the sections' `starts`.
  private static func section(of flat: Int, _ starts: [Int]) -> Int {
    // The last section starting at or before `flat` that is not empty.
    var low = 0
    var high = starts.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if starts[mid] <= flat { low = mid } else { high = mid - 1 }
    }
    return low
  }

  /// `[section, element]` of flat index `flat`.
  private static func path(_ flat: Int, _ starts: [Int]) -> IndexPath {
    let section = section(of: flat, starts)
    return IndexPath(item: flat - starts[section], section: section)
  }
}

extension IdentityMatching {
  /// A matching read off a whole-snapshot match (no hashing of its own).
  init(newOfOld: [Int], oldOfNew: [Int]) {
    self.newOfOld = newOfOld
    self.oldOfNew = oldOfNew
  }
}
