import Foundation

/// Applying an ``ElementMirrorPlan``: the value of each arrival gathered first (in
/// ``ArrivalValues``, so that nothing changes when one cannot be given), then each section the plan
/// changes edited in one pass, the values moved in.
extension ElementMirrorPlan {
  /// Applies the plan to `mirror`, the sections it was planned on, asking `newElement` for each
  /// new value in the plan's order (a throwing `newElement` leaves `mirror` as it was).
  ///
  /// - Complexity: O(c + m) for c changes and m elements an array must move.
  func apply<Element>(
    to mirror: inout [[Element]], newElement: (IndexPath) throws -> Element
  ) rethrows {
    var values = ArrivalValues<Element>(capacity: arrivals.count)
    for arrival in arrivals {
      if let from = arrival.from {
        values.append(mirror[from.section][from.item])
      } else {
        let path = arrival.path
        values.append(try newElement(IndexPath(item: path.item, section: path.section)))
      }
    }
    edit(&mirror, moving: &values)
  }

  /// Applies the plan to `mirror` with the new values given by path, as a stream's changeset
  /// carries them; `false`, with `mirror` unchanged, when a new value is missing or one is given
  /// for no insert or reload destination.
  ///
  /// - Complexity: O(c log c + m) for c changes and m elements an array must move, and no
  ///   hashing: each value given finds its arrival by a binary search of the sorted arrivals.
  func apply<Element>(to mirror: inout [[Element]], newValues: [IndexPath: Element]) -> Bool {
    guard newValues.count == newArrivals else { return false }
    // For each arrival, where its new value is in `newValues`. The keys are distinct paths, as
    // many as the new arrivals: each one that finds a new arrival finds its own.
    var slots = [Dictionary<IndexPath, Element>.Index?](repeating: nil, count: arrivals.count)
    var index = newValues.startIndex
    while index != newValues.endIndex {
      let path = newValues.keys[index]
      guard path.count == 2 else { return false }
      let target = Path(section: path[0], item: path[1])
      var (low, high) = (0, arrivals.count)
      while low < high {
        let middle = (low + high) / 2
        if arrivals[middle].path < target { low = middle + 1 } else { high = middle }
      }
      guard low < arrivals.count, arrivals[low].path == target, arrivals[low].from == nil else {
        return false
      }
      slots[low] = index
      newValues.formIndex(after: &index)
    }
    var values = ArrivalValues<Element>(capacity: arrivals.count)
    for (arrival, slot) in zip(arrivals, slots) {
      if let from = arrival.from {
        values.append(mirror[from.section][from.item])
      } else {
        values.append(newValues.values[slot!])
      }
    }
    edit(&mirror, moving: &values)
    return true
  }

  /// Applies the plan to `mirror` with the new values in the order of the plan's new arrivals
  /// (inserts and reload destinations, by ascending new path), `paths` the path each was given
  /// at; `false`, with `mirror` unchanged, unless these are exactly the paths of the new
  /// arrivals, in that order.
  ///
  /// - Complexity: O(c + m) for c changes and m elements an array must move: one walk checks
  ///   the paths, no search and no hashing.
  func apply<Element>(
    to mirror: inout [[Element]], newValues: [Element], at paths: [IndexPath]
  ) -> Bool {
    guard newValues.count == newArrivals, paths.count == newArrivals else { return false }
    var next = 0
    for arrival in arrivals where arrival.from == nil {
      let path = paths[next]
      guard path.count == 2, path[0] == arrival.path.section, path[1] == arrival.path.item else {
        return false
      }
      next += 1
    }
    var values = ArrivalValues<Element>(capacity: arrivals.count)
    next = 0
    for arrival in arrivals {
      if let from = arrival.from {
        values.append(mirror[from.section][from.item])
      } else {
        values.append(newValues[next])
        next += 1
      }
    }
    edit(&mirror, moving: &values)
    return true
  }

  /// Edits each section of `mirror` that the plan changes, in one pass
  /// (``Changeset/edit(_:removing:arriving:placeholder:runs:initializingArrivals:)``), moving
  /// the value of each arrival out of `values`, which holds one per arrival.
  func edit<Element>(_ mirror: inout [[Element]], moving values: inout ArrivalValues<Element>) {
    precondition(
      values.count == arrivals.count && values.taken == 0,
      "ElementMirrorPlan.edit(_:moving:): \(values.count) values for \(arrivals.count) arrivals")
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
      let arriving = arrivals[arrivalStart..<nextArrival]
      Changeset.edit(
        &mirror[section], removing: removed[removedStart..<nextRemoved].lazy.map { $0.item },
        arriving: arriving.lazy.map { $0.path.item },
        placeholder: arriving.count > nextRemoved - removedStart ? values.next : nil,
        runs: &runs
      ) { base in
        for arrival in arriving { values.moveNext(to: base + arrival.path.item) }
      }
    }
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
    guard let plan = ElementMirrorPlan(self, oldCounts: mirror.map { $0.count }) else {
      return false
    }
    return plan.apply(to: &mirror, newValues: newValues)
  }

  /// Applies this changeset to `mirror` when it changes elements only, the new values given in
  /// the order of their paths (ascending: by section, then element), `paths` the path of each;
  /// `false`, with `mirror` unchanged, when it changes sections or reconfigures elements, does
  /// not fit, or `paths` are not exactly the changeset's inserts and reload destinations, in
  /// order. ``apply(to:insertedSection:newElement:newSectionCount:)`` then applies it or says why
  /// not.
  ///
  /// - Complexity: O(c + s + m) for c changes, s sections, and m elements an array must move,
  ///   when each kind of change is listed in order, as a changeset keeps them (O(c log c + s + m)
  ///   otherwise); no search and no hashing.
  @_specialize(where Element == String)
  package func applyElementChanges<Element>(
    to mirror: inout [[Element]], newValues: [Element], at paths: [IndexPath]
  ) -> Bool {
    guard let plan = ElementMirrorPlan(self, oldCounts: mirror.map { $0.count }) else {
      return false
    }
    return plan.apply(to: &mirror, newValues: newValues, at: paths)
  }
}
