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
    func old(_ path: IndexPath) -> Path? {
      guard path.count == 2 else { return nil }
      let (section, item) = (path[0], path[1])
      guard section >= 0, section < sections, item >= 0, item < oldCounts[section] else {
        return nil
      }
      return Path(section: section, item: item)
    }
    func new(_ path: IndexPath) -> Path? {
      guard path.count == 2 else { return nil }
      let (section, item) = (path[0], path[1])
      guard section >= 0, section < sections, item >= 0 else { return nil }
      return Path(section: section, item: item)
    }

    // Each kind of change read and sorted on its own (a changeset's lists are sorted already: the
    // check is one pass), then merged: no sort of the whole.
    var deletes: [Path] = []
    deletes.reserveCapacity(changeset.deletedElements.count)
    for path in changeset.deletedElements {
      guard let path = old(path) else { return nil }
      deletes.append(path)
    }
    var inserts: [Path] = []
    inserts.reserveCapacity(changeset.insertedElements.count)
    for path in changeset.insertedElements {
      guard let path = new(path) else { return nil }
      inserts.append(path)
    }
    var reloads: [Path] = []
    reloads.reserveCapacity(changeset.reloadedElements.count)
    for path in changeset.reloadedElements {
      guard let path = old(path) else { return nil }
      reloads.append(path)
    }
    Self.sortIfNeeded(&deletes, by: <)
    Self.sortIfNeeded(&inserts, by: <)
    Self.sortIfNeeded(&reloads, by: <)
    // Reloads land where the deletes and inserts of their section put them (rule B3).
    let destinations = Self.destinations(of: reloads, deletes: deletes, inserts: inserts)
    removed = Self.merged(deletes, reloads, by: <)
    arrivals = Self.merged(
      inserts.map { Arrival(path: $0) }, destinations.map { Arrival(path: $0) },
      by: { $0.path < $1.path })
    let moves = changeset.movedElements
    if !moves.isEmpty {
      var departures: [Path] = []
      var landings: [Arrival] = []
      departures.reserveCapacity(moves.count)
      landings.reserveCapacity(moves.count)
      for move in moves {
        guard let from = old(move.from), let to = new(move.to) else { return nil }
        departures.append(from)
        landings.append(Arrival(path: to, from: from))
      }
      Self.sortIfNeeded(&departures, by: <)
      Self.sortIfNeeded(&landings, by: { $0.path < $1.path })
      removed = Self.merged(removed, departures, by: <)
      arrivals = Self.merged(arrivals, landings, by: { $0.path < $1.path })
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

  /// Applies the plan to `mirror`, the sections it was planned on: the values are gathered
  /// first (a throwing `newElement` leaves `mirror` as it was), then each section that changes is
  /// edited in one pass.
  ///
  /// - Complexity: O(c + m) for c changes and m elements an array must move.
  func apply<Element>(
    to mirror: inout [[Element]], newElement: (IndexPath) throws -> Element
  ) rethrows {
    var values: [Element] = []
    values.reserveCapacity(arrivals.count)
    for arrival in arrivals {
      if let from = arrival.from {
        values.append(mirror[from.section][from.item])
      } else {
        let path = arrival.path
        values.append(try newElement(IndexPath(item: path.item, section: path.section)))
      }
    }
    edit(&mirror, values: values)
  }

  /// The value of each arrival, in order: a moved element's from `mirror`, a new one's from
  /// `newValues`; `nil` when a new value is missing or one is given for no insert or reload
  /// destination.
  ///
  /// - Complexity: O(c log c) for c changes, and no hashing: each value given finds its arrival
  ///   by a binary search of the sorted arrivals.
  func values<Element>(in mirror: [[Element]], newValues: [IndexPath: Element]) -> [Element]? {
    // For each arrival, where its new value is in `given`.
    var slots = [Int](repeating: -1, count: arrivals.count)
    var given: [Element] = []
    given.reserveCapacity(newValues.count)
    for (path, value) in newValues {
      guard path.count == 2 else { return nil }
      let target = Path(section: path[0], item: path[1])
      var (low, high) = (0, arrivals.count)
      while low < high {
        let middle = (low + high) / 2
        if arrivals[middle].path < target { low = middle + 1 } else { high = middle }
      }
      guard low < arrivals.count, arrivals[low].path == target, arrivals[low].from == nil else {
        return nil
      }
      slots[low] = given.count
      given.append(value)
    }
    var values: [Element] = []
    values.reserveCapacity(arrivals.count)
    for (arrival, slot) in zip(arrivals, slots) {
      if let from = arrival.from {
        values.append(mirror[from.section][from.item])
      } else {
        guard slot >= 0 else { return nil }
        values.append(given[slot])
      }
    }
    return values
  }

  /// Edits each section of `mirror` that the plan changes, in one pass
  /// (``Changeset/edit(_:removing:arriving:values:runs:)``), with `values`, one per arrival.
  func edit<Element>(_ mirror: inout [[Element]], values: [Element]) {
    var runs: [Changeset.Run] = []
    runs.reserveCapacity(removed.count + arrivals.count + 1)
    var (nextRemoved, nextArrival) = (0, 0)
    while nextRemoved < removed.count || nextArrival < arrivals.count {
      let section = Swift.min(
        nextRemoved < removed.count ? removed[nextRemoved].section : Int.max,
        nextArrival < arrivals.count ? arrivals[nextArrival].path.section : Int.max)
      let (removedStart, arrivalStart) = (nextRemoved, nextArrival)
      while nextRemoved < removed.count && removed[nextRemoved].section == section {
        nextRemoved += 1
      }
      while nextArrival < arrivals.count && arrivals[nextArrival].path.section == section {
        nextArrival += 1
      }
      Changeset.edit(
        &mirror[section], removing: removed[removedStart..<nextRemoved].lazy.map { $0.item },
        arriving: arrivals[arrivalStart..<nextArrival].lazy.map { $0.path.item },
        values: values[arrivalStart..<nextArrival], runs: &runs)
    }
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

  /// Where each of the sorted `reloads` lands (rule B3: a reload is a delete at its old path and
  /// an insert at the slot the section's explicit deletes and inserts leave it), ascending: the
  /// `rank`-th surviving element is at the `rank`-th index no insert takes. Read in step with the
  /// sorted `deletes` and `inserts`: the ranks only grow.
  private static func destinations(of reloads: [Path], deletes: [Path], inserts: [Path])
    -> [Path]
  {
    var result: [Path] = []
    result.reserveCapacity(reloads.count)
    var (nextDelete, nextInsert) = (0, 0)
    var (section, firstDelete, firstInsert) = (-1, 0, 0)
    for path in reloads {
      if path.section != section {
        section = path.section
        while nextDelete < deletes.count && deletes[nextDelete].section < section {
          nextDelete += 1
        }
        while nextInsert < inserts.count && inserts[nextInsert].section < section {
          nextInsert += 1
        }
        (firstDelete, firstInsert) = (nextDelete, nextInsert)
      }
      while nextDelete < deletes.count && deletes[nextDelete].section == section
        && deletes[nextDelete].item < path.item
      {
        nextDelete += 1
      }
      let rank = path.item - (nextDelete - firstDelete)
      // Before the j-th insert of the section there are `item - j` free indexes: the slot skips
      // the inserts with at most `rank` of them.
      while nextInsert < inserts.count && inserts[nextInsert].section == section
        && inserts[nextInsert].item - (nextInsert - firstInsert) <= rank
      {
        nextInsert += 1
      }
      result.append(Path(section: section, item: rank + (nextInsert - firstInsert)))
    }
    return result
  }
}

extension Changeset {
  /// Applies this changeset to `mirror` when it changes elements only, the new values given by
  /// path (as a stream's changeset carries them), without a lookup per value; `false`, with
  /// `mirror` unchanged, when it changes sections or reconfigures elements, does not fit, or
  /// `newValues` is not exactly one value per insert and reload destination.
  /// ``apply(to:insertedSection:newElement:newSectionCount:)`` then applies it or says why not.
  ///
  /// - Complexity: O(c log c + s + m) for c changes, s sections, and m elements an array must
  ///   move.
  @_specialize(where Element == String)
  package func applyElementChanges<Element>(
    to mirror: inout [[Element]], newValues: [IndexPath: Element]
  ) -> Bool {
    guard let plan = ElementMirrorPlan(self, oldCounts: mirror.map { $0.count }),
      let values = plan.values(in: mirror, newValues: newValues)
    else { return false }
    plan.edit(&mirror, values: values)
    return true
  }
}
