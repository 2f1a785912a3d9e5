import Foundation

/// The short way of ``MirrorPlan`` for a changeset that changes no section (no section deleted,
/// inserted, reloaded or moved): every section keeps its index, so no ``ChangesetPositions`` is
/// built, and a reloaded element lands where the deletes and inserts of its own section put it.
/// The result is the long way's, to the error (`MirrorPlanTests` checks both on random
/// changesets).
extension MirrorPlan {
  /// Whether `changeset` changes no section.
  static func keepsSections(_ changeset: Changeset) -> Bool {
    changeset.deletedSectionRanges.isEmpty && changeset.insertedSectionRanges.isEmpty
      && changeset.reloadedSectionRanges.isEmpty && changeset.movedSections.isEmpty
  }

  /// The checks of the number of sections a changeset that changes no section leaves: the old
  /// number, which must be within the limit and the number expected.
  static func checkSectionCount(
    _ sections: Int, of changeset: Changeset, newSectionCount: Int?
  ) throws {
    guard sections <= Changeset.sectionLimit else {
      throw ChangesetMismatch(
        field: "insertedSections", value: describe(changeset.insertedSections),
        reason: "the changeset leaves \(sections) sections, more than the limit of "
          + "\(Changeset.sectionLimit)")
    }
    if let expected = newSectionCount, expected != sections {
      throw ChangesetMismatch(
        field: "insertedSections", value: describe(changeset.insertedSections),
        reason: "the changeset leaves \(sections) sections, \(expected) were expected")
    }
  }

  /// ``Changeset/reloadedElementDestinations`` of a changeset that changes no section: each
  /// reloaded element stays in its section, at the slot the section's explicit deletes and
  /// inserts give it (rule B3).
  ///
  /// - Complexity: O(c log c) for c changes.
  static func reloadDestinationsWithinSections(_ changeset: Changeset) -> [IndexPath] {
    let reloaded = changeset.reloadedElements
    guard !reloaded.isEmpty else { return [] }
    let deletes = SortedPaths(changeset.deletedElements)
    let inserts = SortedPaths(changeset.insertedElements)
    return reloaded.map { path in
      guard path.count == 2 else { return path }
      let (section, item) = (path[0], path[1])
      let rank = item &- deletes.count(below: item, in: deletes.items(of: section))
      return IndexPath(
        item: inserts.slot(rank: rank, in: inserts.items(of: section)), section: section)
    }
  }
}

/// The two-component paths of a list, sorted by section then element, without duplicates: the
/// elements of each section as a run, searched in O(log n).
struct SortedPaths {
  private var sections: [Int] = []
  private var items: [Int] = []

  init(_ paths: [IndexPath]) {
    var pairs: [(section: Int, item: Int)] = []
    pairs.reserveCapacity(paths.count)
    for path in paths where path.count == 2 { pairs.append((path[0], path[1])) }
    pairs.sort { $0.section != $1.section ? $0.section < $1.section : $0.item < $1.item }
    sections.reserveCapacity(pairs.count)
    items.reserveCapacity(pairs.count)
    for pair in pairs where sections.last != pair.section || items.last != pair.item {
      sections.append(pair.section)
      items.append(pair.item)
    }
  }

  /// Where the elements of `section` are in the list.
  func items(of section: Int) -> Range<Int> {
    func first(_ predicate: (Int) -> Bool) -> Int {
      var (low, high) = (0, sections.count)
      while low < high {
        let middle = (low + high) / 2
        if predicate(sections[middle]) { low = middle + 1 } else { high = middle }
      }
      return low
    }
    return first { $0 < section }..<first { $0 <= section }
  }

  /// How many of the elements in `run` are below `item`.
  func count(below item: Int, in run: Range<Int>) -> Int {
    var (low, high) = (run.lowerBound, run.upperBound)
    while low < high {
      let middle = (low + high) / 2
      if items[middle] < item { low = middle + 1 } else { high = middle }
    }
    return low - run.lowerBound
  }

  /// The `rank`-th index (from 0) that none of the elements in `run` takes; the arithmetic of
  /// ``SlotMap/slot(rank:)``, wrapping as it does.
  func slot(rank: Int, in run: Range<Int>) -> Int {
    // Before the j-th element of the run there are `items[j] - j` free indexes: the first with
    // more than `rank` of them is how many the slot skips.
    var (low, high) = (run.lowerBound, run.upperBound)
    while low < high {
      let middle = (low + high) / 2
      if items[middle] &- (middle - run.lowerBound) <= rank {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return rank &+ (low - run.lowerBound)
  }
}
