import Foundation

/// Where the positions of one changeset go, as UIKit applies it: "where does old position p go"
/// and "where did new position q come from", for sections and for elements.
///
/// The one place the library follows a changeset (see `Docs/Architecture.md`, "Following a
/// changeset"): the selection remap, the changeset applier
/// (``Changeset/apply(to:insertedSection:newElement:newSectionCount:)``), the streaming
/// resolver and the console's list view ask it. Its arithmetic is UIKit's (`Docs/Batching.md`):
///
/// - a section or element that is deleted goes nowhere; one that is inserted comes from nowhere;
/// - a moved one goes to the move's destination;
/// - a reloaded one goes where rule B3 lands it (``Changeset/reloadedElementDestinations``, and
///   the same arithmetic for a reloaded section: the explicit deletes and inserts only). A
///   reloaded element is the same element with new content; the elements of a reloaded section
///   go nowhere (the section's content is replaced whole);
/// - a reconfigured one goes where a reload would (``Changeset/reconfiguredElementDestinations``):
///   the same element, the same cell, new content;
/// - every other one keeps its relative order: it goes to the k-th new position that no insert,
///   move or reload destination takes, k being its rank among the old positions that no delete,
///   move or reload source leaves (``SlotMap``). A section that moves takes its elements along.
///
/// The changeset is taken as it is: one that does not fit the state it is asked about gives
/// wrong answers, never a crash; check it first (``Changeset/newCounts(from:insertedSectionCounts:)``
/// throws for one that does not fit).
///
/// Built once per changeset, each answer costs O(log k) for the k parts of the changeset (the
/// element maps are built for the sections the changeset touches only).
///
/// - Complexity: building, O(k log k + r) for k element changes and r section ranges.
package struct ChangesetPositions {
  /// Old sections that leave their slot (deleted, reloaded, moved away) → new sections that
  /// are taken (inserted, reload destinations, moved to).
  private let sections: SlotMap
  /// The same, backwards: new sections to old ones.
  private let sectionsBack: SlotMap
  private let deletedSections: [Range<Int>]
  private let insertedSections: [Range<Int>]
  /// Old section → new section, for moves and reloads, and backwards.
  private let sectionDestinations: [Int: Int]
  private let sectionSources: [Int: Int]
  /// The reloaded sections, old coordinates.
  private let reloadedSections: [Range<Int>]
  /// Per old section: the element indexes that leave it (deleted, reloaded, reconfigured, moved
  /// away), sorted.
  private var leaving: [Int: [Int]] = [:]
  /// Per new section: the element indexes taken (inserted, reload, reconfigure and move
  /// destinations), sorted.
  private var arriving: [Int: [Int]] = [:]
  /// Old element → new element, for moves and reloads; and backwards.
  private var destinations: [IndexPath: IndexPath] = [:]
  private var sources: [IndexPath: IndexPath] = [:]
  /// The reloaded elements, old coordinates.
  private var reloaded: Set<IndexPath> = []

  /// Prepares the answers for `changeset`.
  package init(_ changeset: Changeset) {
    self.init(sectionsOf: changeset)
    for path in changeset.deletedElements where path.count == 2 {
      leaving[path[0], default: []].append(path[1])
    }
    if !changeset.reloadedElements.isEmpty {
      for (from, to) in zip(changeset.reloadedElements, changeset.reloadedElementDestinations)
      where from.count == 2 && to.count == 2 {
        follow(from, to)
        reloaded.insert(from)
      }
    }
    if !changeset.reconfiguredElements.isEmpty {
      let destinations = changeset.reconfiguredElementDestinations
      for (from, to) in zip(changeset.reconfiguredElements, destinations)
      where from.count == 2 && to.count == 2 {
        follow(from, to)
      }
    }
    for move in changeset.movedElements where move.from.count == 2 && move.to.count == 2 {
      follow(move.from, move.to)
    }
    for path in changeset.insertedElements where path.count == 2 {
      arriving[path[0], default: []].append(path[1])
    }
    for key in leaving.keys { leaving[key]!.sort() }
    for key in arriving.keys { arriving[key]!.sort() }
  }

  /// Prepares the answers about sections only — ``newSection(ofOld:)``,
  /// ``oldSection(ofNew:)``, ``isReloaded(section:)`` — for a caller that follows no element
  /// (the element answers of such a follower take every element as untouched).
  ///
  /// - Complexity: O(r log r) for r section ranges and moves.
  package init(sectionsOf changeset: Changeset) {
    deletedSections = changeset.deletedSectionRanges
    insertedSections = changeset.insertedSectionRanges
    reloadedSections = changeset.reloadedSectionRanges
    var sectionDestinations: [Int: Int] = [:]
    var leavingSections = deletedSections + reloadedSections
    var arrivingSections = insertedSections
    if !reloadedSections.isEmpty {
      // Rule B3 for a section: its slot among the explicit deletes and inserts.
      let reloadSlots = SlotMap(removedRanges: deletedSections, fixedRanges: insertedSections)
      for range in reloadedSections {
        for old in range {
          let new = reloadSlots.destination(of: old)
          sectionDestinations[old] = new
          arrivingSections.append(new..<new &+ 1)
        }
      }
    }
    for move in changeset.movedSections {
      sectionDestinations[move.from] = move.to
      leavingSections.append(move.from..<move.from &+ 1)
      arrivingSections.append(move.to..<move.to &+ 1)
    }
    let leavingRanges = SlotMap.merged(leavingSections)
    let arrivingRanges = SlotMap.merged(arrivingSections)
    sections = SlotMap(removedRanges: leavingRanges, fixedRanges: arrivingRanges)
    sectionsBack = SlotMap(removedRanges: arrivingRanges, fixedRanges: leavingRanges)
    self.sectionDestinations = sectionDestinations
    sectionSources = Dictionary(
      sectionDestinations.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
  }

  /// Records an element that leaves `from` and arrives at `to`.
  private mutating func follow(_ from: IndexPath, _ to: IndexPath) {
    leaving[from[0], default: []].append(from[1])
    arriving[to[0], default: []].append(to[1])
    destinations[from] = to
    sources[to] = from
  }

  // MARK: Sections

  /// The new index of old section `old`; `nil` when it is deleted. A reloaded section is at its
  /// reload destination.
  ///
  /// - Complexity: O(log r) for r section ranges.
  package func newSection(ofOld old: Int) -> Int? {
    if let destination = sectionDestinations[old] { return destination }
    guard !Self.contains(old, in: deletedSections) else { return nil }
    return sections.destination(of: old)
  }

  /// The old index of new section `new`; `nil` when it is inserted. A reloaded section comes
  /// from its old index.
  ///
  /// - Complexity: O(log r) for r section ranges.
  package func oldSection(ofNew new: Int) -> Int? {
    if let source = sectionSources[new] { return source }
    guard !Self.contains(new, in: insertedSections) else { return nil }
    return sectionsBack.destination(of: new)
  }

  /// Whether the changeset reloads old section `old` whole.
  package func isReloaded(section old: Int) -> Bool {
    Self.contains(old, in: reloadedSections)
  }

  // MARK: Elements

  /// The new path of the element at old path `old`: a move's or a reload's destination, or the
  /// slot of a survivor; `nil` when it is deleted, or its section is deleted or reloaded.
  ///
  /// - Complexity: O(log k + log r) for k element changes and r section ranges.
  package func newPath(ofOld old: IndexPath) -> IndexPath? {
    if let destination = destinations[old] { return destination }
    let section = old[0]
    guard !isReloaded(section: section), let newSection = newSection(ofOld: section) else {
      return nil
    }
    return Self.slot(of: old[1], leaving: leaving[section], skipping: arriving[newSection])
      .map { IndexPath(item: $0, section: newSection) }
  }

  /// The old path of the element at new path `new`: a move's or a reload's source, or the old
  /// place of a survivor; `nil` when it is inserted, or its section is inserted or reloaded.
  ///
  /// - Complexity: O(log k + log r) for k element changes and r section ranges.
  package func oldPath(ofNew new: IndexPath) -> IndexPath? {
    if let source = sources[new] { return source }
    let section = new[0]
    guard let oldSection = oldSection(ofNew: section), !isReloaded(section: oldSection) else {
      return nil
    }
    // Backwards: the arrivals leave, the departures arrive.
    return Self.slot(of: new[1], leaving: arriving[section], skipping: leaving[oldSection])
      .map { IndexPath(item: $0, section: oldSection) }
  }

  /// Whether the changeset reloads the element at old path `old` (it stays the same element,
  /// with new content, at ``newPath(ofOld:)``, in a new cell). A reconfigured element is not
  /// reloaded: it keeps its cell.
  package func isReloaded(element old: IndexPath) -> Bool {
    reloaded.contains(old)
  }

  /// How many elements leave old section `old` one by one (deleted, reloaded, moved away).
  package func leavingCount(inOld old: Int) -> Int {
    leaving[old]?.count ?? 0
  }

  // MARK: Arithmetic

  /// Whether `value` is in `ranges` (sorted, disjoint).
  private static func contains(_ value: Int, in ranges: [Range<Int>]) -> Bool {
    guard !ranges.isEmpty else { return false }
    var low = 0
    var high = ranges.count
    while low < high {
      let middle = (low + high) / 2
      if ranges[middle].upperBound <= value { low = middle + 1 } else { high = middle }
    }
    return low < ranges.count && ranges[low].contains(value)
  }

  /// How many of `sorted` are below `value`.
  private static func count(below value: Int, in sorted: [Int]) -> Int {
    var low = 0
    var high = sorted.count
    while low < high {
      let middle = (low + high) / 2
      if sorted[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Where `index` of one list goes when the indexes `gone` (ascending) leave it and the
  /// indexes `taken` (ascending) of the new list are taken by arrivals: `nil` when it is gone,
  /// else the k-th index not taken, k being its rank among those that stay.
  private static func slot(of index: Int, leaving gone: [Int]?, skipping taken: [Int]?) -> Int? {
    let gone = gone ?? []
    let below = count(below: index, in: gone)
    if below < gone.count && gone[below] == index { return nil }
    return slot(rank: index &- below, skipping: taken ?? [])
  }

  /// The `rank`-th index (from 0) not in `taken` (ascending, no duplicates).
  private static func slot(rank: Int, skipping taken: [Int]) -> Int {
    // Before `taken[j]` there are `taken[j] - j` free indexes: the first j with more than `rank`
    // of them is how many taken indexes the slot skips.
    var low = 0
    var high = taken.count
    while low < high {
      let middle = (low + high) / 2
      if taken[middle] &- middle <= rank { low = middle + 1 } else { high = middle }
    }
    return rank &+ low
  }
}
