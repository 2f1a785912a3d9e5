import Foundation

/// Folds the events of one batch into one canonical ``Changeset``: tracking identities, not index
/// arithmetic.
///
/// When the batch opens, every section and every element is an *old slot* that remembers its old
/// index. Each event edits a ``RunPool`` tree: the section list, or the element list of the old
/// section it touches (created on first touch). Inserted slots are new; a move carries its slot
/// to the new position; an update marks an old slot. At the end the trees are read off:
/// - old slots that vanished are deletes (old coordinates), inserted slots are inserts (new);
/// - old elements whose relative order changed are moves: the longest increasing run of old
///   indexes stays, only the rest move;
/// - updated old elements are reloads where UIKit's own reload arithmetic (delete at the old
///   path, insert at a path computed from the explicit deletes and inserts only) lands them at
///   their true new path, and delete + insert otherwise;
/// - anything inside an inserted or removed section is covered by the section change;
/// - surviving sections read off the same way: those outside a longest increasing run of old
///   indexes move, except that a moved section whose elements changed is deleted and inserted
///   (no element change touches a section that moves), and a reloaded section is a reload, or a
///   delete and an insert in a batch with section moves.
///
/// - Complexity: O(k log k) time and O(k) memory for k events (plus the size of the output),
///   whatever the size of the tree.
struct BatchReducer {
  /// The batch's events; a batch of one event is read off directly, without trees.
  private(set) var events = BatchEvents()
  var first: SectionProviderMapping.Event? { events.first }
  /// Element counts per old section.
  var oldCounts: PresentedCounts
  var pool = RunPool()
  /// The run-tree nodes visited so far in this batch (see ``RunPool/visits``).
  var work: Int { pool.visits }
  /// The section list; `none` until the batch has a section event (and a second event).
  var sectionTree = RunPool.none
  var hasTrees = false
  /// Whether a section event edited the section list. Until one does, every section is where it
  /// was (an element event's section is its old section) and ``sectionTree`` is not built.
  var sectionsTouched = false
  /// The last section an element event named, and the old section there (`nil`: inserted in the
  /// batch), until the section list changes: the events of one section, often consecutive
  /// (building a section inserted in the batch), locate it once.
  var located: (section: Int, old: Int?) = (-1, nil)
  /// The edits of each touched old section, in the order first touched.
  var touched: [Touched] = []
  /// The position in ``touched`` of each old section, once more than
  /// ``linearSearchLimit`` are touched (see `BatchReducer+TouchedLookup.swift`); emptied, its
  /// capacity kept, for the next batch.
  var touchedIndex: [Int: Int] = [:]
  /// The position in ``touched`` of each old section, as a sparse set in a tree of at most
  /// ``sparseIndexLimit`` sections: an entry counts only where ``touched`` holds that section at
  /// that position, so it is never cleared, and a lookup is a read and a comparison.
  var positionOfOld: [Int32] = []
  /// Whether ``touched`` is sorted by old section (by the read-off), and ``touchedIndex`` stale.
  var touchedIsSorted = false
  /// Old paths only reconfigured so far: folded as updates, their reloads are reconfigures.
  var reconfigured: Set<IndexPath> = []

  /// Arrays the read-off fills and empties, kept with the reducer (see ``restart(presented:)``).
  var buffers = ReadOffBuffers()
  /// Empty lists with room, taken back from an applied changeset (``reuseLists(of:)``): the
  /// read-off writes the next changeset into them.
  /// (`nil` only while a read-off holds them: taken and given back, never made and destroyed
  /// empty.)
  var spareLists: ChangesetDraft? = ChangesetDraft()
  /// The box of the last applied changeset, nobody else holding it, for the next changeset of
  /// several parts: a batch then allocates (and frees) no box.
  var spareBox: Changeset.Parts?
  /// Whether this reducer holds the box of the last applied changeset for the next one.
  var holdsSpareBox: Bool { spareBox != nil }
  /// The list of new counts of the last applied commit, emptied, for the next batch's.
  var spareRecounted: [PresentedState.Recount] = []

  /// What happened to the elements of one old section: plain values, so that the arrays of them
  /// copy and free without a value witness per entry.
  enum SectionEdits {
    /// One change: read off directly, without a tree (the common case).
    case single(ElementChange)
    /// Several changes: the section's runs.
    case runs(RunPool.Slots)
    /// A diff, the section's only change so far, by its position in ``BatchEvents/diffs``: read
    /// off directly, without a tree.
    case elements(Int)
  }

  /// A touched old section and its edits.
  struct Touched {
    var old: Int
    var edits: SectionEdits
  }

  /// An edited old section that stays, its new index, and its edits.
  struct Edited {
    var old: Int
    var new: Int
    var edits: SectionEdits
  }

  init(presented: PresentedState) {
    oldCounts = presented.counts
  }

  /// A reducer whose sections' runs are kept in lists of up to `listCapacity` runs (0: always in
  /// treaps), for tests that compare the two.
  init(presented: PresentedState, listCapacity: Int) {
    oldCounts = presented.counts
    pool = RunPool(listCapacity: listCapacity)
  }

  /// Empties this reducer for the next batch, which starts from `presented`, keeping the capacity
  /// of its arrays (a coordinator keeps the reducer of its last batch for this): a batch then
  /// allocates none of them again.
  mutating func restart(presented: PresentedState) {
    // The events' array keeps its capacity: the copy the coordinator showed while the last
    // changeset was applied is gone by now, so emptying it allocates nothing.
    events.first = nil
    events.rest.removeAllKeepingBuffer()
    if !events.diffs.isEmpty { events.diffs = [] }
    oldCounts = presented.counts
    pool.removeAll()
    sectionTree = RunPool.none
    hasTrees = false
    sectionsTouched = false
    located = (-1, nil)
    touched.removeAllKeepingBuffer()
    if !touchedIndex.isEmpty { touchedIndex.removeAll(keepingCapacity: true) }
    touchedIsSorted = false
    if !reconfigured.isEmpty { reconfigured.removeAll(keepingCapacity: true) }
  }

  /// Whether this reducer's arrays are small enough to keep for the next batch (one huge batch
  /// does not hold its memory for good).
  ///
  /// Inlined, as every small helper of the reducer called where it is being changed: a call to a
  /// non-mutating method that is not inlined passes a copy of the whole reducer (some 60 words,
  /// copied with `memcpy`), and private helpers that could be non-mutating are `mutating` for the
  /// same reason (see `Docs/Performance.md`).
  @inline(__always)
  var isWorthKeeping: Bool {
    pool.isWorthKeeping && touched.capacity <= RunPool.retainedCapacity
      && touchedIndex.capacity <= 2 * RunPool.retainedCapacity
      && buffers.capacity <= RunPool.retainedCapacity
      && events.rest.capacity <= RunPool.retainedCapacity
      && positionOfOld.capacity <= Self.sparseIndexLimit
      && reconfigured.capacity <= RunPool.retainedCapacity
  }

  /// Keeps `parts`, the box of an applied changeset that nobody else holds, and its lists for the
  /// next batch's changeset.
  mutating func reuseLists(of parts: Changeset.Parts) {
    spareLists?.reuseLists(of: parts)
    spareBox = parts
  }

  /// Keeps the list of new counts of `commit`, an applied commit nobody else holds, for the next
  /// batch's commit.
  mutating func reuseRecounted(of commit: consuming PresentedState.Commit) {
    guard spareRecounted.capacity == 0, commit.recounted.capacity <= RunPool.retainedCapacity
    else { return }
    swap(&spareRecounted, &commit.recounted)
    spareRecounted.removeAllKeepingBuffer()
  }

  /// Lets go of what this reducer shares with the presented state and the batch's events, before
  /// it is kept for the next batch.
  mutating func retire() {
    oldCounts = PresentedCounts()
    // The diffs, which can be large, go; the other events stay until the next batch empties
    // them in place (``restart(presented:)``): emptying them now, while the coordinator still
    // shows a copy, would allocate their array again.
    events.first = nil
    events.diffs = []
  }

  mutating func apply(_ event: SectionProviderMapping.Event) {
    guard let first else {
      events.first = event
      if hasTrees {
        // A diff came first.
        edit(with: event)
        return
      }
      switch event {
      case .moveSection, .reloadSections:
        // Read off through the trees even alone: the section list decides what stays.
        startTrees(with: event)
      default:
        checkAlone(event)
      }
      return
    }
    if !hasTrees { startTrees(with: first) }
    // Room for a typical batch at once, instead of growing 1, 2, 4, 8, 16.
    if events.rest.capacity == 0 { events.rest.reserveCapacity(15) }
    events.rest.append(event)
    edit(with: event)
  }

  mutating func startTrees(with first: SectionProviderMapping.Event) {
    hasTrees = true
    edit(with: first)
  }

  /// Builds the section list on the first section event, and forgets the last located section.
  mutating func touchSections() {
    located = (-1, nil)
    guard !sectionsTouched else { return }
    sectionsTouched = true
    sectionTree = pool.makeTree(.old(0..<oldCounts.count))
  }

  /// The number of sections at this point of the batch.
  var sectionCount: Int { sectionsTouched ? pool.size(sectionTree) : oldCounts.count }

  /// The old section now at `section`, or `nil` when it was inserted in the batch.
  ///
  /// - Complexity: O(1) before any section event and for the section of the previous element
  ///   event; O(log r) for r runs of the section list otherwise.
  mutating func oldSection(at section: Int) -> Int? {
    guard sectionsTouched else { return section }
    if section == located.section { return located.old }
    let (run, offset) = pool.locate(sectionTree, section)
    located = (section, run.isOld ? run.start + offset : nil)
    return located.old
  }

  mutating func edit(with event: SectionProviderMapping.Event) {
    switch event {
    case .willBeginUpdating, .didEndUpdating, .invalidateAll:
      break
    case .moveSection(let from, let to):
      touchSections()
      let count = pool.size(sectionTree)
      Self.checkSectionPosition(from, inclusive: false, count: count, event)
      Self.checkSectionPosition(to, inclusive: false, count: count, event)
      let (rest, piece) = pool.cut(sectionTree, at: from, count: 1)
      sectionTree = pool.insert(piece, into: rest, at: to)
    case .reloadSections(let indexes):
      touchSections()
      for range in indexes.rangeView {
        Self.checkSectionPosition(
          range.upperBound - 1, inclusive: false, count: pool.size(sectionTree), event)
        for index in range { sectionTree = pool.markUpdated(sectionTree, at: index) }
      }
    case .insertSections(let indexes):
      touchSections()
      for range in indexes.rangeView {
        Self.checkSectionPosition(
          range.lowerBound, inclusive: true, count: pool.size(sectionTree), event)
        let piece = pool.makeNode(.inserted(range.count))
        sectionTree = pool.insert(piece, into: sectionTree, at: range.lowerBound)
      }
    case .removeSections(let indexes):
      touchSections()
      for range in indexes.rangeView.reversed() {
        Self.checkSectionPosition(
          range.upperBound - 1, inclusive: false, count: pool.size(sectionTree), event)
        sectionTree = pool.cut(sectionTree, at: range.lowerBound, count: range.count).tree
      }
    case .element(let change, let section):
      Self.checkSectionPosition(section, inclusive: false, count: sectionCount, event)
      // An element of a section inserted in the batch: covered by the section's insertion.
      guard let oldSection = oldSection(at: section) else { return }
      guard let position = touchedPosition(of: oldSection) else {
        Self.check(change, count: oldCounts[oldSection], event: event)
        if case .reconfigure(let index) = change { reconfigured.insert([oldSection, index]) }
        touch(oldSection, .single(change))
        return
      }
      let slots = self.slots(of: touched[position].edits, old: oldSection, section: section)
      touched[position].edits = .runs(apply(change, to: slots, of: oldSection, event: event))
    }
  }

  /// The runs of old section `old` (now at `section`), made from `edits` when they are not
  /// runs yet.
  mutating func slots(of edits: SectionEdits, old: Int, section: Int) -> RunPool.Slots {
    switch edits {
    case .runs(let slots):
      return slots
    case .single(let first):
      let slots = pool.makeSlots(.old(0..<oldCounts[old]))
      return apply(first, to: slots, of: old, event: .element(first, inSection: section))
    case .elements(let diff):
      var slots = pool.makeSlots(.old(0..<oldCounts[old]))
      for step in events.diffs[diff].diff.steps {
        slots = apply(step, to: slots, of: old, event: .element(step, inSection: section))
      }
      return slots
    }
  }

  /// Records `diff`, the whole change of the elements of the section at `section`, sent up as
  /// one event. When it is the section's only element change in the batch it is read off
  /// directly; otherwise its steps are applied to the section's run tree like any other events.
  ///
  /// - Complexity: O(1) when it is the section's only change (plus the lookup of the section);
  ///   O(k log k) for its k steps otherwise.
  mutating func apply(_ diff: ElementDiff, inSection section: Int) {
    if !hasTrees {
      if let first { startTrees(with: first) } else { hasTrees = true }
    }
    events.diffs.append((events.first == nil ? 0 : 1 + events.rest.count, section, diff))
    precondition(
      section >= 0 && section < sectionCount,
      "Coordinator: a diff names section \(section), but there are \(sectionCount) sections at "
        + "that point of the batch; a provider reported a change it did not make")
    // The elements of a section inserted in the batch: covered by the section's insertion.
    guard let oldSection = oldSection(at: section) else { return }
    guard let position = touchedPosition(of: oldSection) else {
      precondition(
        diff.oldCount == oldCounts[oldSection],
        "Coordinator: a diff of \(diff.oldCount) elements names section \(section), which has "
          + "\(oldCounts[oldSection]) elements at that point of the batch; a section reported a "
          + "change it did not make")
      touch(oldSection, .elements(events.diffs.count - 1))
      return
    }
    var slots = self.slots(of: touched[position].edits, old: oldSection, section: section)
    for step in diff.steps {
      slots = apply(step, to: slots, of: oldSection, event: .element(step, inSection: section))
    }
    touched[position].edits = .runs(slots)
  }

  /// Traps when `change` names an element outside a section of `count` elements.
  static func check(
    _ change: ElementChange, count: Int, event: SectionProviderMapping.Event
  ) {
    func check(_ index: Int, inclusive: Bool) {
      precondition(
        index >= 0 && (inclusive ? index <= count : index < count),
        "Coordinator: \(event) names element \(index) of a section which has \(count) elements at "
          + "that point of the batch; a section reported a change it did not make")
    }
    switch change {
    case .insert(let index): check(index, inclusive: true)
    case .remove(let index), .update(let index), .reconfigure(let index):
      check(index, inclusive: false)
    case .move(let from, let to):
      check(from, inclusive: false)
      check(to, inclusive: false)
    }
  }

  /// Applies one element change to the runs of old section `old`. A reconfigure marks the slot
  /// updated, and records it in ``reconfigured`` when it was unchanged; an update forgets it.
  mutating func apply(
    _ change: ElementChange, to slots: RunPool.Slots, of old: Int,
    event: SectionProviderMapping.Event
  ) -> RunPool.Slots {
    Self.check(change, count: pool.size(slots), event: event)
    switch change {
    case .insert(let index): return pool.insert(1, into: slots, at: index)
    case .remove(let index): return pool.remove(from: slots, at: index)
    case .update(let index), .reconfigure(let index):
      if change == .reconfigure(index) || !reconfigured.isEmpty {
        let (run, offset) = pool.locate(slots, index)
        let path: IndexPath = [old, run.start + offset]
        if change == .update(index) && run.isOld { reconfigured.remove(path) }
        if change == .reconfigure(index) && run.kind == .old { reconfigured.insert(path) }
      }
      return pool.markUpdated(slots, at: index)
    case .move(let from, let to): return pool.move(in: slots, from: from, to: to)
    }
  }

  /// The checks of ``edit(with:)`` for the first event of a batch, which is read off without
  /// trees when it stays alone: a custom section or provider that names an index it does not have
  /// traps the same way in a batch of one event as in a longer one.
  mutating func checkAlone(_ event: SectionProviderMapping.Event) {
    switch event {
    case .willBeginUpdating, .didEndUpdating, .invalidateAll, .moveSection, .reloadSections:
      break
    case .insertSections(let indexes):
      var count = oldCounts.count
      for range in indexes.rangeView {
        Self.checkSectionPosition(range.lowerBound, inclusive: true, count: count, event)
        count += range.count
      }
    case .removeSections(let indexes):
      var count = oldCounts.count
      for range in indexes.rangeView.reversed() {
        Self.checkSectionPosition(range.upperBound - 1, inclusive: false, count: count, event)
        count -= range.count
      }
    case .element(let change, let section):
      Self.checkSectionPosition(section, inclusive: false, count: oldCounts.count, event)
      Self.check(change, count: oldCounts[section], event: event)
    }
  }

  static func checkSectionPosition(
    _ index: Int, inclusive: Bool, count: Int, _ event: SectionProviderMapping.Event
  ) {
    precondition(
      index >= 0 && (inclusive ? index <= count : index < count),
      "Coordinator: \(event) names section \(index), but there are \(count) sections at that point "
        + "of the batch; a provider reported a change it did not make")
  }
}
