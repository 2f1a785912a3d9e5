import Foundation
import SectionKit

/// Where each section of a changeset goes, as the window code needs it: the old section of each
/// new one, and which sections keep their rows in place.
///
/// A section that is neither deleted nor moved keeps its relative order among the others (the
/// batch rules), so the survivors fill, in order, the new indexes that are neither inserted nor
/// a move's destination.
struct SectionRoutes {
  /// For each new section, the old one it continues (a survivor, a reloaded or a moved section),
  /// or `nil` for an inserted one.
  var newToOld: [Int?]
  /// For each old section, its new index, or `nil` when it is deleted.
  var oldToNew: [Int?]
  /// The old indexes of the reloaded sections.
  var reloaded: IndexSet
  /// The moved sections, old index → new index.
  var moved: [Int: Int]

  /// The routes of `changeset` from `oldCount` sections to `newCount`; `nil` when the section
  /// parts do not fit those counts.
  init?(_ changeset: Changeset, oldCount: Int, newCount: Int) {
    if changeset.deletedSectionRanges.isEmpty && changeset.insertedSectionRanges.isEmpty
      && changeset.reloadedSectionRanges.isEmpty && changeset.movedSections.isEmpty
    {
      // No section changes: every section stays where it is.
      guard oldCount == newCount else { return nil }
      newToOld = Array(0..<newCount)
      oldToNew = Array(0..<oldCount)
      reloaded = IndexSet()
      moved = [:]
      return
    }
    let deleted = changeset.deletedSections
    let inserted = changeset.insertedSections
    var moved: [Int: Int] = [:]
    var destinations = IndexSet()
    for move in changeset.movedSections {
      guard (0..<oldCount).contains(move.from), (0..<newCount).contains(move.to) else {
        return nil
      }
      moved[move.from] = move.to
      destinations.insert(move.to)
    }
    guard deleted.allSatisfy({ $0 < oldCount }), inserted.allSatisfy({ $0 < newCount }) else {
      return nil
    }
    var newToOld = [Int?](repeating: nil, count: newCount)
    var oldToNew = [Int?](repeating: nil, count: oldCount)
    var next = 0
    for old in 0..<oldCount where !deleted.contains(old) {
      if let new = moved[old] {
        newToOld[new] = old
        oldToNew[old] = new
        continue
      }
      while next < newCount && (inserted.contains(next) || destinations.contains(next)) {
        next += 1
      }
      guard next < newCount else { return nil }
      newToOld[next] = old
      oldToNew[old] = next
      next += 1
    }
    while next < newCount && (inserted.contains(next) || destinations.contains(next)) { next += 1 }
    guard next == newCount else { return nil }
    self.newToOld = newToOld
    self.oldToNew = oldToNew
    self.reloaded = changeset.reloadedSections
    self.moved = moved
  }

  /// Whether the rows of old section `old` stay where they are, up to element changes: it is
  /// neither deleted, reloaded nor moved.
  func keepsRows(old: Int) -> Bool {
    oldToNew[old] != nil && moved[old] == nil && !reloaded.contains(old)
  }
}

/// Follows the rows of the whole list, counted globally across sections, through one changeset:
/// where an old row went, and where a new one came from.
///
/// A row *stays* when its section keeps its rows (``SectionRoutes/keepsRows(old:)``) and it is
/// neither deleted nor a move's source; the rows that stay keep their relative order. Every
/// other new row arrived (inserted, a move's destination, or in an inserted, reloaded or moved
/// section). Reloaded rows stay.
///
/// - Complexity: building it O(s + c log c) for s sections and c changes; each question
///   O(log s + log c).
struct RowFollower {
  let sections: SectionRoutes
  /// The section parts of the changeset, read once for every window.
  let sectionParts: SectionParts

  struct SectionParts {
    var deleted: IndexSet
    var inserted: IndexSet
    var reloaded: IndexSet
    var moved: [Changeset.SectionMove]
    /// Whether any of them is not empty.
    var any: Bool { !(deleted.isEmpty && inserted.isEmpty && reloaded.isEmpty && moved.isEmpty) }
  }
  /// `offsets[k]` is the global row of section `k`'s first element; one more entry, the total.
  let oldOffsets: [Int]
  let newOffsets: [Int]
  /// The sorted element indexes removed from each old section that keeps its rows.
  private var removed: [Int: [Int]] = [:]
  /// The sorted element indexes arriving in each new section whose old one keeps its rows.
  private var arrived: [Int: [Int]] = [:]
  /// The sorted element indexes of the reloaded elements of each old section.
  private var reloaded: [Int: [Int]] = [:]
  /// The old sections with an element change: every other section that keeps its rows keeps
  /// them all, at the same indexes.
  private(set) var touched: Set<Int> = []

  /// A follower for `changeset` from sections of `oldCounts` elements to `newCounts`; `nil`
  /// when it does not fit them.
  init?(_ changeset: Changeset, oldCounts: [Int], newCounts: [Int]) {
    guard
      let sections = SectionRoutes(
        changeset, oldCount: oldCounts.count, newCount: newCounts.count)
    else { return nil }
    self.sections = sections
    sectionParts = SectionParts(
      deleted: changeset.deletedSections, inserted: changeset.insertedSections,
      reloaded: changeset.reloadedSections, moved: changeset.movedSections)
    oldOffsets = Self.offsets(oldCounts)
    newOffsets = Self.offsets(newCounts)
    for path in changeset.deletedElements where path.count == 2 {
      removed[path[0], default: []].append(path[1])
    }
    for path in changeset.insertedElements where path.count == 2 {
      arrived[path[0], default: []].append(path[1])
    }
    for move in changeset.movedElements where move.from.count == 2 && move.to.count == 2 {
      removed[move.from[0], default: []].append(move.from[1])
      arrived[move.to[0], default: []].append(move.to[1])
    }
    for path in changeset.reloadedElements where path.count == 2 {
      reloaded[path[0], default: []].append(path[1])
    }
    for key in removed.keys { removed[key]!.sort() }
    for key in arrived.keys { arrived[key]!.sort() }
    for key in reloaded.keys { reloaded[key]!.sort() }
    touched = Set(removed.keys).union(reloaded.keys)
    for new in arrived.keys {
      if let old = sections.newToOld[new] { touched.insert(old) }
    }
  }

  /// A follower of no change: every row stays.
  init(counts: [Int]) {
    self.init(Changeset(), oldCounts: counts, newCounts: counts)!
  }

  static func offsets(_ counts: [Int]) -> [Int] {
    var offsets = [0]
    offsets.reserveCapacity(counts.count + 1)
    for count in counts { offsets.append(offsets.last! + count) }
    return offsets
  }

  var oldTotal: Int { oldOffsets.last! }
  var newTotal: Int { newOffsets.last! }

  /// The section holding global row `row` of `offsets` (the last one starting at or before it,
  /// skipping empty sections).
  static func section(ofRow row: Int, in offsets: [Int]) -> Int {
    // The last k with offsets[k] <= row, among 0..<count.
    var (low, high) = (0, offsets.count - 1)
    while high - low > 1 {
      let middle = (low + high) / 2
      if offsets[middle] <= row { low = middle } else { high = middle }
    }
    return low
  }

  /// The number of entries of `sorted` below `value`.
  private static func countBelow(_ value: Int, in sorted: [Int]) -> Int {
    var (low, high) = (0, sorted.count)
    while low < high {
      let middle = (low + high) / 2
      if sorted[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The index among `0...` of the `rank`-th value (from 0) that is not in `sorted`: for the
  /// sorted marks m₀ < m₁ < …, the values left when they are removed, read in order.
  private static func unmarked(rank: Int, skipping sorted: [Int]) -> Int {
    // Mark k has (m_k - k) unmarked values before it, non-decreasing in k: count the marks whose
    // unmarked-before count is at most `rank`.
    var (low, high) = (0, sorted.count)
    while low < high {
      let middle = (low + high) / 2
      if sorted[middle] - middle <= rank { low = middle + 1 } else { high = middle }
    }
    return rank + low
  }

  /// Whether old element `item` of old section `section` is reloaded.
  func isReloaded(section: Int, item: Int) -> Bool {
    guard let items = reloaded[section] else { return false }
    let below = Self.countBelow(item, in: items)
    return below < items.count && items[below] == item
  }

  /// Where old row `(section, item)` went, as a new `(section, item)`, when it stays.
  func newPosition(ofOld section: Int, item: Int) -> (section: Int, item: Int)? {
    guard sections.keepsRows(old: section), let new = sections.oldToNew[section] else {
      return nil
    }
    let removed = self.removed[section] ?? []
    let below = Self.countBelow(item, in: removed)
    if below < removed.count && removed[below] == item { return nil }
    let rank = item - below
    return (new, Self.unmarked(rank: rank, skipping: arrived[new] ?? []))
  }

  /// Where new row `(section, item)` came from, as an old `(section, item)`, when it stayed.
  func oldPosition(ofNew section: Int, item: Int) -> (section: Int, item: Int)? {
    guard let old = sections.newToOld[section], sections.keepsRows(old: old) else { return nil }
    let arrived = self.arrived[section] ?? []
    let below = Self.countBelow(item, in: arrived)
    if below < arrived.count && arrived[below] == item { return nil }
    return (old, Self.unmarked(rank: item - below, skipping: removed[old] ?? []))
  }

  /// Where old global row `row` went, as a new global row, when it stays.
  func newRow(ofOld row: Int) -> Int? {
    let section = Self.section(ofRow: row, in: oldOffsets)
    guard let new = newPosition(ofOld: section, item: row - oldOffsets[section]) else {
      return nil
    }
    return newOffsets[new.section] + new.item
  }

  /// Where new global row `row` came from, as an old global row, when it stayed.
  func oldRow(ofNew row: Int) -> Int? {
    let section = Self.section(ofRow: row, in: newOffsets)
    guard let old = oldPosition(ofNew: section, item: row - newOffsets[section]) else {
      return nil
    }
    return oldOffsets[old.section] + old.item
  }

  /// The new global row of the first old row at `row` or after it that stays; the new total
  /// when none does.
  ///
  /// - Complexity: O(log c) per old section and per run of removed rows it passes.
  func firstStaying(atOrAfter row: Int) -> Int {
    guard row < oldTotal else { return newTotal }
    var section = Self.section(ofRow: row, in: oldOffsets)
    var item = row - oldOffsets[section]
    while section < oldOffsets.count - 1 {
      let count = oldOffsets[section + 1] - oldOffsets[section]
      if sections.keepsRows(old: section) {
        let removed = self.removed[section] ?? []
        var next = Self.countBelow(item, in: removed)
        // Skip the run of removed rows starting at `item`.
        while item < count && next < removed.count && removed[next] == item {
          item += 1
          next += 1
        }
        if item < count, let new = newPosition(ofOld: section, item: item) {
          return newOffsets[new.section] + new.item
        }
      }
      section += 1
      item = 0
    }
    return newTotal
  }
}
