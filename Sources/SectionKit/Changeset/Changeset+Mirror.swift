import Foundation

/// A changeset that does not fit the mirror or the counts it is applied to: an index out of range,
/// a path listed twice, an element change inside a deleted or inserted section, an arrival that
/// does not fit the section's new count.
///
/// ``Changeset/apply(to:insertedSection:newElement:newSectionCount:)`` and ``Changeset/newCounts(from:insertedSectionCounts:)``
/// throw it and change nothing.
public struct ChangesetMismatch: Error, Hashable, Sendable, CustomStringConvertible {
  /// The changeset's field at fault: `deletedSections`, `movedElements`, ….
  public var field: String
  /// The offending value, as text: `[2, 7]`, `3 → 5`, ….
  public var value: String
  /// What is wrong with it.
  public var reason: String

  /// Creates a mismatch.
  public init(field: String, value: String, reason: String) {
    self.field = field
    self.value = value
    self.reason = reason
  }

  /// `deletedElements [2, 7]: element 7 is out of range 0..<3 of section 2`.
  public var description: String { "\(field) \(value): \(reason)" }
}

extension Changeset {
  /// Applies this changeset to `mirror` — the elements of each section, as a view or a client
  /// shows them before the batch — exactly as UIKit applies a batch: deletes and reloads in old
  /// coordinates, inserts and reload destinations in new ones, moves from old to new, and every
  /// other element keeping its relative order.
  ///
  /// ```swift
  /// var shown = [["a", "b", "c"]]
  /// let changeset = Changeset(
  ///   insertedElements: [[0, 0]], movedElements: [.init(from: [0, 0], to: [0, 3])])
  /// try changeset.apply(to: &shown, newElement: { _ in "x" })
  /// // shown == [["x", "b", "c", "a"]]
  /// ```
  ///
  /// The changeset is checked against the mirror first; when it does not fit, a
  /// ``ChangesetMismatch`` names the field and the value, and `mirror` is left as it was. A
  /// changeset that fits is applied whole.
  ///
  /// - Parameters:
  ///   - mirror: The elements of each section before the batch; after it on return.
  ///   - insertedSection: The elements of an inserted (or reloaded) section, given its new index.
  ///     By default, empty: the section's elements then come as inserted elements of later
  ///     batches, or name them with ``insertedElements`` only where the section already existed.
  ///   - newElement: The value of an inserted element, or the new value of a reloaded one, given
  ///     its new index path.
  ///   - newSectionCount: When given, the number of sections the changeset must leave: give it for
  ///     a changeset from outside, so that one claiming to insert billions of sections is rejected
  ///     before anything is allocated.
  /// - Throws: ``ChangesetMismatch`` when the changeset does not fit `mirror`; whatever the two
  ///   closures throw. Either way `mirror` is unchanged.
  /// The changeset is applied in place: in each section it changes, the elements that stay are
  /// moved in runs to their new places (as `memmove` moves bytes, never copied), the others are
  /// not touched, and the sections are rearranged only when sections are inserted, deleted,
  /// reloaded or moved. Everything the closures give and every moved value is gathered first,
  /// so that a changeset that does not fit, or a closure that throws, leaves `mirror` as it was.
  ///
  /// - Complexity: O(c log c + s + m) for c changes, s sections, and m elements an array must
  ///   move: those after the first change of each section it changes whose place changes (one
  ///   element inserted at the end of a long section moves none, at the front all of them, once
  ///   each); never more than the changeset and the mirror hold, whatever the numbers inside the
  ///   changeset. `mirror` is copied only where its storage is shared (copy on write).
  @_specialize(where Element == String)
  public func apply<Element>(
    to mirror: inout [[Element]],
    insertedSection: (Int) throws -> [Element] = { _ in [] },
    newElement: (IndexPath) throws -> Element,
    newSectionCount: Int? = nil
  ) throws {
    // A closure, not `\.count`: a key path literal here is instantiated on every call
    // (`swift_getKeyPath`, about 12,000 instructions, 6% of applying a changeset of 10 changes).
    let oldCounts = mirror.map { $0.count }
    // The common case (element changes only) in one merge pass; anything else, and every error,
    // the general plan's.
    if let plan = ElementMirrorPlan(self, oldCounts: oldCounts, newSectionCount: newSectionCount) {
      try plan.apply(to: &mirror, newElement: newElement)
      return
    }
    let plan = try MirrorPlan(self, oldCounts: oldCounts, newSectionCount: newSectionCount)
    // Gather: nothing changes until everything is known.
    var inserted: [Int: [Element]] = [:]
    var edits: [(old: Int, arrivals: MirrorPlan.Arrivals, values: [Element])] = []
    for (new, source) in plan.newToOld.enumerated() {
      guard let old = source else {
        inserted[new] = try insertedSection(new)
        continue
      }
      guard let arrivals = plan.elements[old], !arrivals.removed.isEmpty || !arrivals.fixed.isEmpty
      else { continue }
      var values: [Element] = []
      values.reserveCapacity(arrivals.fixed.count)
      for arrival in arrivals.fixed {
        switch arrival.source {
        case .new: values.append(try newElement(IndexPath(item: arrival.index, section: new)))
        case .moved(let from): values.append(mirror[from[0]][from[1]])
        }
      }
      edits.append((old, arrivals, values))
    }
    // Apply: each section edited where it changes, its survivors moved (not copied).
    var runs: [Run] = []
    for edit in edits {
      Self.edit(
        &mirror[edit.old], removing: edit.arrivals.removed,
        arriving: edit.arrivals.fixed.lazy.map { $0.index }, values: edit.values[...], runs: &runs)
    }
    let unchangedSections =
      plan.newToOld.count == mirror.count
      && plan.newToOld.enumerated().allSatisfy { $0.element == $0.offset }
    guard !unchangedSections else { return }
    let old = mirror
    mirror = plan.newToOld.enumerated().map { new, source in
      source.map { old[$0] } ?? inserted[new] ?? []
    }
  }

  /// A run of survivors: from an old index to a new one, so many elements.
  typealias Run = (from: Int, to: Int, count: Int)

  /// Edits `elements` in place: the old indexes `removed` (ascending) leave, `values` arrive at
  /// the new indexes `arriving` (ascending), copied, and the other elements keep their order
  /// (``edit(_:removing:arriving:placeholder:runs:initializingArrivals:)``).
  static func edit<Element, Removed, Arriving>(
    _ elements: inout [Element], removing removed: Removed, arriving: Arriving,
    values: ArraySlice<Element>, runs: inout [Run]
  )
  where
    Removed: RandomAccessCollection<Int>, Removed.Index == Int,
    Arriving: RandomAccessCollection<Int>, Arriving.Index == Int
  {
    edit(
      &elements, removing: removed, arriving: arriving, placeholder: values.first, runs: &runs
    ) { base in
      for (index, value) in zip(arriving, values) { (base + index).initialize(to: value) }
    }
  }

  /// Edits `elements` in place: the old indexes `removed` (ascending) leave, and the other
  /// elements keep their order around the new indexes `arriving` (ascending), which
  /// `initializingArrivals` fills, given the base of the new elements with those indexes
  /// uninitialized. The survivors are moved in runs, as `memmove` moves bytes: O(c) runs for c
  /// changes, and the elements between and after the changes moved once each, never copied; the
  /// elements removed are released in one pass. `placeholder`, a value to hold the room the
  /// section grows by until the arrivals fill it, is needed only when more arrive than leave.
  /// `runs` is scratch space, kept between calls so that its storage is allocated once. Inlined
  /// in its two callers, so that the indexes and the arrivals are read without a call each.
  @inline(__always)
  static func edit<Element, Removed, Arriving>(
    _ elements: inout [Element], removing removed: Removed, arriving: Arriving,
    placeholder: Element?, runs: inout [Run],
    initializingArrivals: (UnsafeMutablePointer<Element>) -> Void
  )
  where
    Removed: RandomAccessCollection<Int>, Removed.Index == Int,
    Arriving: RandomAccessCollection<Int>, Arriving.Index == Int
  {
    let oldCount = elements.count
    let newCount = oldCount - removed.count + arriving.count
    if newCount == 0 {
      elements.removeAll()
      return
    }
    runs.removeAll(keepingCapacity: true)
    var (old, new, nextRemoved, nextArrival) = (0, 0, removed.startIndex, arriving.startIndex)
    while old < oldCount || new < newCount {
      if nextArrival < arriving.endIndex && arriving[nextArrival] == new {
        new += 1
        nextArrival += 1
      } else if nextRemoved < removed.endIndex && removed[nextRemoved] == old {
        old += 1
        nextRemoved += 1
      } else {
        let end = Swift.min(
          nextRemoved < removed.endIndex ? removed[nextRemoved] : oldCount,
          nextArrival < arriving.endIndex ? arriving[nextArrival] - new + old : oldCount)
        let count = end - old
        guard count > 0 else { break }  // unreachable for a plan that checked out
        runs.append((old, new, count))
        old += count
        new += count
      }
    }
    // Room for the arrivals: placeholders, released below.
    if newCount > oldCount {
      guard let placeholder else {
        preconditionFailure(
          "Changeset.edit: \(newCount - oldCount) more elements arrive than leave, no placeholder")
      }
      elements.append(contentsOf: repeatElement(placeholder, count: newCount - oldCount))
    }
    elements.withUnsafeMutableBufferPointer { buffer in
      let base = buffer.baseAddress!
      for index in removed { (base + index).deinitialize(count: 1) }
      if newCount > oldCount { (base + oldCount).deinitialize(count: newCount - oldCount) }
      // Runs that move towards the front, front first; then those that move back, back first:
      // no run lands on a survivor not yet moved.
      for run in runs where run.to < run.from {
        (base + run.to).moveInitialize(from: base + run.from, count: run.count)
      }
      for run in runs.reversed() where run.to > run.from {
        (base + run.to).moveInitialize(from: base + run.from, count: run.count)
      }
      initializingArrivals(base)
      // What the section no longer holds, filled with a copy to be removed below.
      if newCount < oldCount {
        (base + newCount).initialize(repeating: base[0], count: oldCount - newCount)
      }
    }
    if newCount < oldCount { elements.removeLast(oldCount - newCount) }
  }

  /// ``apply(to:insertedSection:newElement:newSectionCount:)`` as it was before it worked in
  /// place: every section the changeset touches is rebuilt. The reference the in-place applier
  /// is tested against.
  package func applyByRebuilding<Element>(
    to mirror: inout [[Element]],
    insertedSection: (Int) throws -> [Element] = { _ in [] },
    newElement: (IndexPath) throws -> Element,
    newSectionCount: Int? = nil
  ) throws {
    let plan = try MirrorPlan(
      self, oldCounts: mirror.map(\.count), newSectionCount: newSectionCount)
    var result: [[Element]] = []
    result.reserveCapacity(plan.newToOld.count)
    for (new, source) in plan.newToOld.enumerated() {
      guard let old = source else {
        result.append(try insertedSection(new))
        continue
      }
      guard let arrivals = plan.elements[old] else {
        result.append(mirror[old])
        continue
      }
      let survivors = arrivals.survivors(of: mirror[old].count)
      var elements: [Element] = []
      let newCount = survivors.count + arrivals.fixed.count
      elements.reserveCapacity(newCount)
      var nextSurvivor = 0
      var nextFixed = 0
      for index in 0..<newCount {
        if nextFixed < arrivals.fixed.count && arrivals.fixed[nextFixed].index == index {
          switch arrivals.fixed[nextFixed].source {
          case .new: elements.append(try newElement(IndexPath(item: index, section: new)))
          case .moved(let from): elements.append(mirror[from[0]][from[1]])
          }
          nextFixed += 1
        } else {
          elements.append(mirror[old][survivors[nextSurvivor]])
          nextSurvivor += 1
        }
      }
      result.append(elements)
    }
    mirror = result
  }

  /// The number of elements in each section after this changeset, given the counts before it and
  /// the counts of the sections it inserts (or reloads), by new index; throws a
  /// ``ChangesetMismatch`` when the changeset does not fit `oldCounts`.
  ///
  /// ```swift
  /// try Changeset(insertedElements: [[0, 2]]).newCounts(from: [2, 5])   // [3, 5]
  /// ```
  ///
  /// - Complexity: O(c log c + s) for c changes and s sections.
  public func newCounts(from oldCounts: [Int], insertedSectionCounts: [Int: Int] = [:]) throws
    -> [Int]
  {
    let plan = try MirrorPlan(self, oldCounts: oldCounts)
    return plan.newToOld.enumerated().map { new, source in
      guard let old = source else { return insertedSectionCounts[new] ?? 0 }
      guard let arrivals = plan.elements[old] else { return oldCounts[old] }
      return oldCounts[old] - arrivals.removed.count + arrivals.fixed.count
    }
  }

  /// Where each of ``reloadedElements`` is after the batch, in the same order: UIKit's
  /// destination of a reload, computed from the explicit deletes and inserts of sections and
  /// elements (a reload is a delete at its old path and an insert there; see `Docs/Batching.md`).
  /// A reloaded element whose section moves goes with the section.
  ///
  /// ```swift
  /// Changeset(deletedElements: [[0, 0]], reloadedElements: [[0, 2]])
  ///   .reloadedElementDestinations                    // [[0, 1]]
  /// ```
  ///
  /// - Complexity: O(c log c) for c changes.
  public var reloadedElementDestinations: [IndexPath] { destinations(of: reloadedElements) }

  /// Where each of ``reconfiguredElements`` is after the batch, in the same order: the same
  /// arithmetic as ``reloadedElementDestinations`` (a reconfigure is placed as a reload is), which
  /// is the element's true new position. These are the paths to give UIKit's
  /// `reconfigureItems(at:)` after `performBatchUpdates` has applied the batch.
  ///
  /// ```swift
  /// Changeset(insertedElements: [[0, 0]], reconfiguredElements: [[0, 2]])
  ///   .reconfiguredElementDestinations                // [[0, 3]]
  /// ```
  ///
  /// - Complexity: O(c log c) for c changes.
  public var reconfiguredElementDestinations: [IndexPath] {
    destinations(of: reconfiguredElements)
  }

  /// Where rule B3 lands each of `paths` (old coordinates), in the same order.
  private func destinations(of paths: [IndexPath]) -> [IndexPath] {
    guard !paths.isEmpty else { return [] }
    let sections = SlotMap(
      removedRanges: SlotMap.merged(
        deletedSectionRanges + movedSections.compactMap { SlotMap.unit($0.from) }),
      fixedRanges: SlotMap.merged(
        insertedSectionRanges + movedSections.compactMap { SlotMap.unit($0.to) }))
    let movedSections = Dictionary(
      movedSections.map { ($0.from, $0.to) }, uniquingKeysWith: { first, _ in first })
    var deletes: [Int: [Int]] = [:]
    var inserts: [Int: [Int]] = [:]
    for path in deletedElements where path.count == 2 {
      deletes[path[0], default: []].append(path[1])
    }
    for path in insertedElements where path.count == 2 {
      inserts[path[0], default: []].append(path[1])
    }
    var items: [Int: SlotMap] = [:]
    return paths.map { path in
      guard path.count == 2 else { return path }
      let section = movedSections[path[0]] ?? sections.destination(of: path[0])
      let map =
        items[path[0]]
        ?? SlotMap(
          removed: (deletes[path[0]] ?? []).sorted(), fixed: (inserts[section] ?? []).sorted())
      items[path[0]] = map
      return IndexPath(item: map.destination(of: path[1]), section: section)
    }
  }
}

/// A changeset checked against the counts it is applied to, with what each touched section
/// keeps and receives.
struct MirrorPlan {
  /// Where an arrival's value comes from.
  enum Source {
    /// A new value: an insert, or a reload's destination.
    case new
    /// The element at this old path.
    case moved(from: IndexPath)
  }

  /// What one surviving section loses and receives.
  struct Arrivals {
    /// Old indexes that leave (deletes, reloads, moves out), ascending.
    var removed: [Int] = []
    /// New indexes that arrive, ascending, with where their value comes from.
    var fixed: [(index: Int, source: Source)] = []

    /// The old indexes that stay, ascending.
    func survivors(of count: Int) -> [Int] {
      var result: [Int] = []
      result.reserveCapacity(count - removed.count)
      var cursor = 0
      for index in 0..<count {
        if cursor < removed.count && removed[cursor] == index {
          cursor += 1
        } else {
          result.append(index)
        }
      }
      return result
    }
  }

  /// For each new section, the old section it continues, or `nil` when inserted or reloaded.
  var newToOld: [Int?]
  /// The element changes of each touched surviving section, by old index.
  var elements: [Int: Arrivals] = [:]

  /// Checks `changeset` against `oldCounts` and plans it. A changeset that changes no section
  /// (the common case: a few element changes) takes the short way: every section keeps its
  /// index, and no ``ChangesetPositions`` is built; `general` takes the long way for every
  /// changeset (the reference the short way is tested against).
  init(
    _ changeset: Changeset, oldCounts: [Int], newSectionCount: Int? = nil, general: Bool = false
  ) throws {
    let oldSections = oldCounts.count
    func fail(_ field: String, _ value: String, _ reason: String) -> ChangesetMismatch {
      ChangesetMismatch(field: field, value: value, reason: reason)
    }
    func check(_ ranges: [Range<Int>], _ field: String, within count: Int, _ space: String) throws {
      for range in ranges where range.lowerBound < 0 || range.upperBound > count {
        throw fail(
          field, describe(IndexSet(integersIn: range)), "out of the \(space) range 0..<\(count)")
      }
    }

    // Sections.
    let keepsSections = !general && Self.keepsSections(changeset)
    var newSections = oldSections
    var newToOld: [Int?]
    var oldToNew: [Int?]
    if keepsSections {
      try Self.checkSectionCount(oldSections, of: changeset, newSectionCount: newSectionCount)
      newToOld = Array(0..<oldSections)
      oldToNew = newToOld
    } else {
      try check(changeset.deletedSectionRanges, "deletedSections", within: oldSections, "old")
      try check(changeset.reloadedSectionRanges, "reloadedSections", within: oldSections, "old")
      // Deleted sections are within the old ones (checked above); inserted ones could add up past
      // `Int.max`.
      let deletedCount = changeset.deletedSectionRanges.reduce(0) { $0 + $1.count }
      newSections = oldSections - deletedCount
      for range in changeset.insertedSectionRanges {
        let (sum, overflow) = newSections.addingReportingOverflow(range.count)
        guard !overflow else {
          throw fail(
            "insertedSections", describe(changeset.insertedSections),
            "more sections than an Int holds")
        }
        newSections = sum
      }
      guard newSections <= Changeset.sectionLimit else {
        throw fail(
          "insertedSections", describe(changeset.insertedSections),
          "the changeset leaves \(newSections) sections, more than the limit of "
            + "\(Changeset.sectionLimit)")
      }
      if let expected = newSectionCount, expected != newSections {
        throw fail(
          "insertedSections", describe(changeset.insertedSections),
          "the changeset leaves \(newSections) sections, \(expected) were expected")
      }
      try check(changeset.insertedSectionRanges, "insertedSections", within: newSections, "new")
      let deleted = changeset.deletedSections
      let reloaded = changeset.reloadedSections
      if let both = deleted.intersection(reloaded).first {
        throw fail("reloadedSections", "\(both)", "section \(both) is also deleted")
      }
      var leaving = deleted.union(reloaded)
      var arriving = changeset.insertedSections
      for move in changeset.movedSections {
        guard move.from >= 0 && move.from < oldSections else {
          throw fail(
            "movedSections", "\(move)", "\(move.from) is out of the old range 0..<\(oldSections)")
        }
        guard move.to >= 0 && move.to < newSections else {
          throw fail(
            "movedSections", "\(move)", "\(move.to) is out of the new range 0..<\(newSections)")
        }
        guard !leaving.contains(move.from) else {
          throw fail(
            "movedSections", "\(move)", "section \(move.from) is deleted, reloaded or moved twice")
        }
        guard !arriving.contains(move.to) else {
          throw fail(
            "movedSections", "\(move)", "section \(move.to) is inserted or a destination twice")
        }
        leaving.insert(move.from)
        arriving.insert(move.to)
      }
      // Where each section goes is the follower's to say; it takes the changeset as it is, so its
      // reload destinations are checked here.
      let positions = ChangesetPositions(sectionsOf: changeset)
      for section in reloaded {
        let destination = positions.newSection(ofOld: section) ?? -1
        guard destination >= 0, destination < newSections, !arriving.contains(destination) else {
          throw fail(
            "reloadedSections", "\(section)",
            "its destination \(destination) is out of range or taken by an insert or a move")
        }
        arriving.insert(destination)
      }
      newToOld = [Int?](repeating: nil, count: newSections)
      oldToNew = [Int?](repeating: nil, count: oldSections)
      for old in 0..<oldSections where !deleted.contains(old) && !reloaded.contains(old) {
        guard let new = positions.newSection(ofOld: old) else { continue }
        newToOld[new] = old
        oldToNew[old] = new
      }
    }
    self.newToOld = newToOld

    // Elements, in old coordinates.
    /// Two integers, hashed faster than an `IndexPath`.
    struct Path: Hashable {
      var section: Int
      var item: Int
    }
    // Sized once: grown one insert at a time, the set cost more than the rest of a small plan.
    var removedPaths = Set<Path>(
      minimumCapacity: changeset.deletedElements.count + changeset.reloadedElements.count
        + changeset.movedElements.count)
    func leaveOld(_ path: IndexPath, _ field: String) throws -> (section: Int, item: Int) {
      guard path.count == 2 else {
        throw fail(field, "\(path)", "an element path has two components, [section, element]")
      }
      let (section, item) = (path[0], path[1])
      guard section >= 0 && section < oldSections else {
        throw fail(
          field, format(path), "section \(section) is out of the old range 0..<\(oldSections)")
      }
      // A section that continues none (deleted or reloaded whole) has no new index.
      guard oldToNew[section] != nil else {
        throw fail(field, format(path), "section \(section) is deleted or reloaded whole")
      }
      guard item >= 0 && item < oldCounts[section] else {
        throw fail(
          field, format(path),
          "element \(item) is out of range 0..<\(oldCounts[section]) of old section \(section)")
      }
      guard removedPaths.insert(Path(section: section, item: item)).inserted else {
        throw fail(field, format(path), "the element leaves twice (deleted, reloaded or moved)")
      }
      elements[section, default: Arrivals()].removed.append(item)
      return (section, item)
    }
    var arrivals: [(section: Int, item: Int, source: Source)] = []
    arrivals.reserveCapacity(
      changeset.insertedElements.count + changeset.reloadedElements.count
        + changeset.movedElements.count)
    // `text` is formatted only for an error: formatting every path cost more than the rest.
    func arriveNew(
      _ path: IndexPath, _ field: String, _ source: Source, _ text: @autoclosure () -> String
    ) throws {
      guard path.count == 2 else {
        throw fail(field, "\(path)", "an element path has two components, [section, element]")
      }
      let (section, item) = (path[0], path[1])
      guard section >= 0 && section < newSections, let old = newToOld[section] else {
        throw fail(
          field, text(),
          "section \(section) is out of the new range 0..<\(newSections), or inserted or reloaded "
            + "whole")
      }
      guard item >= 0 else { throw fail(field, text(), "element \(item) is negative") }
      arrivals.append((old, item, source))
    }
    for path in changeset.deletedElements { _ = try leaveOld(path, "deletedElements") }
    let destinations =
      keepsSections
      ? Self.reloadDestinationsWithinSections(changeset)
      : changeset.reloadedElementDestinations
    for (path, destination) in zip(changeset.reloadedElements, destinations) {
      _ = try leaveOld(path, "reloadedElements")
      try arriveNew(destination, "reloadedElements", .new, format(path))
    }
    let reconfigured = changeset.reconfiguredElementDestinations
    for (path, destination) in zip(changeset.reconfiguredElements, reconfigured) {
      _ = try leaveOld(path, "reconfiguredElements")
      try arriveNew(destination, "reconfiguredElements", .new, format(path))
    }
    for move in changeset.movedElements {
      _ = try leaveOld(move.from, "movedElements")
      try arriveNew(move.to, "movedElements", .moved(from: move.from), "\(move)")
    }
    for path in changeset.insertedElements {
      try arriveNew(path, "insertedElements", .new, format(path))
    }
    for arrival in arrivals {
      elements[arrival.section, default: Arrivals()].fixed.append((arrival.item, arrival.source))
    }
    for (old, var entry) in elements {
      entry.removed.sort()
      entry.fixed.sort { $0.index < $1.index }
      let newCount = oldCounts[old] - entry.removed.count + entry.fixed.count
      for (position, arrival) in entry.fixed.enumerated() {
        let new = oldToNew[old]!
        if arrival.index >= newCount {
          throw fail(
            "insertedElements, movedElements or reloadedElements", format([new, arrival.index]),
            "element \(arrival.index) is out of range 0..<\(newCount) of new section \(new)")
        }
        if position > 0 && entry.fixed[position - 1].index == arrival.index {
          throw fail(
            "insertedElements, movedElements or reloadedElements", format([new, arrival.index]),
            "two elements arrive at the same path")
        }
      }
      elements[old] = entry
    }
  }
}
