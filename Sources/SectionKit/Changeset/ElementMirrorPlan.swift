import Foundation

/// The plan of a changeset that changes no section and reconfigures nothing (the common one on
/// the wire), in flat arrays sorted by path: what leaves each section and what arrives, checked
/// with sorts and one walk instead of a set and a dictionary, and with no allocation per change
/// or per section.
///
/// It plans only what fits: any changeset it cannot plan (one that changes sections, or that
/// does not fit the counts) gives `nil`, and ``MirrorPlan`` then plans it or throws its error, so
/// every error is the general plan's. `MirrorPlanTests` checks both on random changesets: the
/// same plan, and `nil` exactly where the general plan throws.
struct ElementMirrorPlan {
  /// An element path as two integers.
  struct Path: Comparable {
    var section: Int
    var item: Int

    /// Sorted by section, then item.
    static func < (lhs: Path, rhs: Path) -> Bool {
      lhs.section != rhs.section ? lhs.section < rhs.section : lhs.item < rhs.item
    }
  }

  /// A value arriving at a new path.
  struct Arrival {
    /// Where it arrives.
    var path: Path
    /// Where a moved element comes from; `nil` for a new value (an insert or a reload).
    var from: Path?
  }

  /// The old paths that leave (deletes, reloads, moves out), ascending.
  var removed: [Path] = []
  /// The new paths that arrive (inserts, reload destinations, moves in), ascending.
  var arrivals: [Arrival] = []
  /// How many of ``arrivals`` are new values (inserts and reload destinations), not moves.
  var newArrivals = 0

  /// The plan of `changeset` on sections of `oldCounts` elements; `nil` when the changeset changes
  /// sections or reconfigures elements, or does not fit (``MirrorPlan`` then says why).
  ///
  /// - Complexity: O(c log c + s) for c changes and s sections (s only to check the number of
  ///   sections); O(c + s) when each kind of change is listed in order, as a changeset keeps
  ///   them.
  init?(_ changeset: Changeset, oldCounts: [Int], newSectionCount: Int? = nil) {
    let sections = oldCounts.count
    guard MirrorPlan.keepsSections(changeset), changeset.reconfiguredElements.isEmpty,
      sections <= Changeset.sectionLimit, newSectionCount == nil || newSectionCount == sections
    else { return nil }
    // Each kind of change read once (a path's indexes cost a call into Foundation each) and
    // sorted unless it is (a changeset keeps them sorted: the check is one pass); then one walk
    // merges them, placing each reload where rule B3 lands it.
    guard let deletes = Self.read(changeset.deletedElements, counts: oldCounts, old: true),
      let inserts = Self.read(changeset.insertedElements, counts: oldCounts, old: false),
      let reloads = Self.read(changeset.reloadedElements, counts: oldCounts, old: true)
    else { return nil }
    merge(deletes: deletes, inserts: inserts, reloads: reloads)
    let moves = changeset.movedElements
    if !moves.isEmpty {
      var departures: [Path] = []
      var landings: [Arrival] = []
      departures.reserveCapacity(moves.count)
      landings.reserveCapacity(moves.count)
      for move in moves {
        guard let from = Self.path(move.from, counts: oldCounts, old: true),
          let to = Self.path(move.to, counts: oldCounts, old: false)
        else { return nil }
        departures.append(from)
        landings.append(Arrival(path: to, from: from))
      }
      Self.sortIfNeeded(&departures, by: <)
      Self.sortIfNeeded(&landings, by: { $0.path < $1.path })
      removed = Self.merged(removed, departures, by: <)
      arrivals = Self.merged(arrivals, landings, by: { $0.path < $1.path })
      newArrivals = arrivals.count - moves.count
    }

    // Nothing leaves or arrives twice, and every arrival is within its section's new count.
    for index in removed.indices.dropFirst() {
      let (previous, path) = (removed[index - 1], removed[index])
      guard previous.section != path.section || previous.item != path.item else { return nil }
    }
    var nextRemoved = 0
    var first = 0
    while first < arrivals.count {
      let section = arrivals[first].path.section
      var end = first + 1
      while end < arrivals.count && arrivals[end].path.section == section {
        guard arrivals[end].path.item != arrivals[end - 1].path.item else { return nil }
        end += 1
      }
      while nextRemoved < removed.count && removed[nextRemoved].section < section {
        nextRemoved += 1
      }
      var leaving = 0
      while nextRemoved < removed.count && removed[nextRemoved].section == section {
        leaving += 1
        nextRemoved += 1
      }
      guard arrivals[end - 1].path.item < oldCounts[section] - leaving + (end - first) else {
        return nil
      }
      first = end
    }
  }

  /// `path` as two integers: `nil` unless it has two components, its section is one of
  /// `counts`, and its element is not negative and, for an `old` path, within the section.
  private static func path(_ path: IndexPath, counts: [Int], old: Bool) -> Path? {
    guard path.count == 2 else { return nil }
    let (section, item) = (path[0], path[1])
    guard section >= 0, section < counts.count, item >= 0, !old || item < counts[section] else {
      return nil
    }
    return Path(section: section, item: item)
  }

  /// The paths of `list` (``path(_:counts:old:)`` each), sorted; `nil` when one does not fit.
  private static func read(_ list: [IndexPath], counts: [Int], old: Bool) -> [Path]? {
    // Not through `unsafeUninitializedCapacity` when empty: that writes the count of the
    // shared empty array, a race the thread sanitizer reports.
    if list.isEmpty { return [] }
    var sorted = true
    var fits = true
    var result = [Path](unsafeUninitializedCapacity: list.count) { buffer, count in
      var last = Path(section: Int.min, item: Int.min)
      for indexPath in list {
        guard let path = path(indexPath, counts: counts, old: old) else {
          fits = false
          return
        }
        if path < last { sorted = false }
        buffer.initializeElement(at: count, to: path)
        count += 1
        last = path
      }
    }
    guard fits else { return nil }
    if !sorted { result.sort() }
    return result
  }

  /// Fills ``removed`` with the sorted `deletes` and `reloads`, and ``arrivals`` with the sorted
  /// `inserts` and the reload destinations, in one walk: rule B3 lands a reload at the slot its
  /// section's explicit deletes and inserts leave it (a delete at its old path, an insert there):
  /// the `rank`-th surviving element is at the `rank`-th index no insert takes. Equal paths stay
  /// side by side (the checks after find them).
  private mutating func merge(deletes: [Path], inserts: [Path], reloads: [Path]) {
    removed.reserveCapacity(deletes.count + reloads.count)
    arrivals.reserveCapacity(inserts.count + reloads.count)
    newArrivals = inserts.count + reloads.count
    var (nextDelete, nextInsert) = (0, 0)
    var (section, firstDelete, firstInsert) = (-1, 0, 0)
    for path in reloads {
      if path.section != section {
        section = path.section
        while nextDelete < deletes.count && deletes[nextDelete].section < section {
          removed.append(deletes[nextDelete])
          nextDelete += 1
        }
        while nextInsert < inserts.count && inserts[nextInsert].section < section {
          arrivals.append(Arrival(path: inserts[nextInsert]))
          nextInsert += 1
        }
        (firstDelete, firstInsert) = (nextDelete, nextInsert)
      }
      while nextDelete < deletes.count && deletes[nextDelete] < path {
        removed.append(deletes[nextDelete])
        nextDelete += 1
      }
      removed.append(path)
      let rank = path.item - (nextDelete - firstDelete)
      // Before the j-th insert of the section there are `item - j` free indexes: the slot skips
      // the inserts with at most `rank` of them, which arrive before it.
      while nextInsert < inserts.count && inserts[nextInsert].section == section
        && inserts[nextInsert].item - (nextInsert - firstInsert) <= rank
      {
        arrivals.append(Arrival(path: inserts[nextInsert]))
        nextInsert += 1
      }
      arrivals.append(
        Arrival(path: Path(section: section, item: rank + (nextInsert - firstInsert))))
    }
    removed.append(contentsOf: deletes[nextDelete...])
    for path in inserts[nextInsert...] { arrivals.append(Arrival(path: path)) }
  }

  /// Sorts `values` unless they are sorted already (one pass).
  private static func sortIfNeeded<T>(_ values: inout [T], by less: (T, T) -> Bool) {
    for index in values.indices.dropFirst() where less(values[index], values[index - 1]) {
      values.sort(by: less)
      return
    }
  }

  /// The sorted `first` and `second` in one sorted array; equal values stay side by side.
  private static func merged<T>(_ first: [T], _ second: [T], by less: (T, T) -> Bool) -> [T] {
    if second.isEmpty { return first }
    if first.isEmpty { return second }
    var result: [T] = []
    result.reserveCapacity(first.count + second.count)
    var (a, b) = (0, 0)
    while a < first.count && b < second.count {
      if less(second[b], first[a]) {
        result.append(second[b])
        b += 1
      } else {
        result.append(first[a])
        a += 1
      }
    }
    result.append(contentsOf: first[a...])
    result.append(contentsOf: second[b...])
    return result
  }
}
