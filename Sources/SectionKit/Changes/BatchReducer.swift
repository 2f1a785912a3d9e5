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
  private var first: SectionProviderMapping.Event? { events.first }
  /// Element counts per old section.
  private var oldCounts: [Int]
  private var pool = RunPool()
  /// The run-tree nodes visited so far in this batch (see ``RunPool/visits``).
  var work: Int { pool.visits }
  /// The section list; `none` until the batch has a section event (and a second event).
  private var sectionTree = RunPool.none
  private var hasTrees = false
  /// Whether a section event edited the section list. Until one does, every section is where it
  /// was (an element event's section is its old section) and ``sectionTree`` is not built.
  private var sectionsTouched = false
  /// The last section an element event named, and the old section there (`nil`: inserted in the
  /// batch), until the section list changes: the events of one section, often consecutive
  /// (building a section inserted in the batch), locate it once.
  private var located: (section: Int, old: Int?) = (-1, nil)
  /// The edits of each touched old section, in the order first touched.
  private var touched: [Touched] = []
  /// The position in ``touched`` of each old section, emptied (its capacity kept) for the next
  /// batch.
  private var touchedIndex: [Int: Int] = [:]
  /// Whether ``touched`` is sorted by old section (by the read-off), and ``touchedIndex`` stale.
  private var touchedIsSorted = false

  /// Arrays the read-off fills and empties, kept with the reducer (see ``restart(presented:)``).
  private var buffers = ReadOffBuffers()
  /// Empty lists with room, taken back from an applied changeset (``reuseLists(of:)``): the
  /// read-off writes the next changeset into them.
  /// (`nil` only while a read-off holds them: taken and given back, never made and destroyed
  /// empty.)
  private var spareLists: ChangesetDraft? = ChangesetDraft()
  /// The box of the last applied changeset, nobody else holding it, for the next changeset of
  /// several parts: a batch then allocates (and frees) no box.
  private var spareBox: Changeset.Parts?
  /// Whether this reducer holds the box of the last applied changeset for the next one.
  var holdsSpareBox: Bool { spareBox != nil }
  /// The list of new counts of the last applied commit, emptied, for the next batch's.
  private var spareRecounted: [PresentedState.Recount] = []

  /// What happened to the elements of one old section: plain values, so that the arrays of them
  /// copy and free without a value witness per entry.
  fileprivate enum SectionEdits {
    /// One change: read off directly, without a tree (the common case).
    case single(ElementChange)
    /// Several changes: the section's runs.
    case runs(RunPool.NodeID)
    /// A diff, the section's only change so far, by its position in ``BatchEvents/diffs``: read
    /// off directly, without a tree.
    case elements(Int)
  }

  /// A touched old section and its edits.
  private struct Touched {
    var old: Int
    var edits: SectionEdits
  }

  /// An edited old section that stays, its new index, and its edits.
  fileprivate struct Edited {
    var old: Int
    var new: Int
    var edits: SectionEdits
  }

  init(presented: PresentedState) {
    oldCounts = presented.counts
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
    oldCounts = []
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

  private mutating func startTrees(with first: SectionProviderMapping.Event) {
    hasTrees = true
    edit(with: first)
  }

  /// Builds the section list on the first section event, and forgets the last located section.
  private mutating func touchSections() {
    located = (-1, nil)
    guard !sectionsTouched else { return }
    sectionsTouched = true
    sectionTree = pool.makeTree(.old(0..<oldCounts.count))
  }

  /// The number of sections at this point of the batch.
  private var sectionCount: Int { sectionsTouched ? pool.size(sectionTree) : oldCounts.count }

  /// The old section now at `section`, or `nil` when it was inserted in the batch.
  ///
  /// - Complexity: O(1) before any section event and for the section of the previous element
  ///   event; O(log r) for r runs of the section list otherwise.
  private mutating func oldSection(at section: Int) -> Int? {
    guard sectionsTouched else { return section }
    if section == located.section { return located.old }
    let (run, offset) = pool.locate(sectionTree, section)
    located = (section, run.isOld ? run.start + offset : nil)
    return located.old
  }

  /// The position in ``touched`` of old section `old`.
  @inline(__always)
  private func touchedPosition(of old: Int) -> Int? {
    if touchedIsSorted {
      // After the read-off: a binary search.
      var (low, high) = (0, touched.count)
      while low < high {
        let mid = (low + high) / 2
        if touched[mid].old < old { low = mid + 1 } else { high = mid }
      }
      return low < touched.count && touched[low].old == old ? low : nil
    }
    return touchedIndex[old]
  }

  /// Records the first edit of old section `old`.
  private mutating func touch(_ old: Int, _ edits: SectionEdits) {
    touchedIndex[old] = touched.count
    touched.append(Touched(old: old, edits: edits))
  }

  private mutating func edit(with event: SectionProviderMapping.Event) {
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
        touch(oldSection, .single(change))
        return
      }
      let slots = self.slots(of: touched[position].edits, old: oldSection, section: section)
      touched[position].edits = .runs(apply(change, to: slots, event: event))
    }
  }

  /// The runs of old section `old` (now at `section`), made from `edits` when they are not
  /// runs yet.
  private mutating func slots(of edits: SectionEdits, old: Int, section: Int) -> RunPool.NodeID {
    switch edits {
    case .runs(let slots):
      return slots
    case .single(let first):
      let slots = pool.makeTree(.old(0..<oldCounts[old]))
      return apply(first, to: slots, event: .element(first, inSection: section))
    case .elements(let diff):
      var slots = pool.makeTree(.old(0..<oldCounts[old]))
      for step in events.diffs[diff].diff.steps {
        slots = apply(step, to: slots, event: .element(step, inSection: section))
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
      slots = apply(step, to: slots, event: .element(step, inSection: section))
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
    case .remove(let index), .update(let index): check(index, inclusive: false)
    case .move(let from, let to):
      check(from, inclusive: false)
      check(to, inclusive: false)
    }
  }

  /// Applies one element change to a section's runs.
  private mutating func apply(
    _ change: ElementChange, to slots: RunPool.NodeID, event: SectionProviderMapping.Event
  ) -> RunPool.NodeID {
    Self.check(change, count: pool.size(slots), event: event)
    switch change {
    case .insert(let index): return pool.insert(1, into: slots, at: index)
    case .remove(let index): return pool.remove(from: slots, at: index)
    case .update(let index): return pool.markUpdated(slots, at: index)
    case .move(let from, let to): return pool.move(in: slots, from: from, to: to)
    }
  }

  /// The checks of ``edit(with:)`` for the first event of a batch, which is read off without
  /// trees when it stays alone: a custom section or provider that names an index it does not have
  /// traps the same way in a batch of one event as in a longer one.
  private mutating func checkAlone(_ event: SectionProviderMapping.Event) {
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

  /// Reads the trees off into a changeset, and what the adapter shows after it. `mapping` must
  /// present the model as it is at the end of the batch.
  mutating func finish(mapping: SectionProviderMapping) -> PresentedState.Commit {
    if !hasTrees { return finishSingle(mapping: mapping) }
    var changeset = spareLists.take() ?? ChangesetDraft()
    #if SECTIONKIT_INTERNAL_CHECKS
      precondition(
        changeset.isEmpty, "BatchReducer: the lists kept for a read-off hold an earlier changeset's"
      )
    #endif
    sortTouched()
    let touched = self.touched

    // Edited old sections that stay, neither deleted nor reloaded as a whole, by old index.
    var edited = ReadOffBuffers.take(&buffers.edited)
    defer { buffers.edited = edited }
    // Section moves and reloads (old, new).
    var moves: [Changeset.SectionMove] = []
    var reloads: [(old: Int, new: Int)] = []
    if sectionsTouched {
      readSections(
        touched: touched, edited: &edited, moves: &moves, reloads: &reloads,
        into: &changeset)
    } else {
      // No section event: every section is where it was.
      edited.reserveCapacity(touched.count)
      for entry in touched {
        edited.append(Edited(old: entry.old, new: entry.old, edits: entry.edits))
      }
    }

    // Element reloads land in the section B3 computes from the explicit section deletes and
    // inserts, moves ignored: where that is not the section's new index, they are deleted and
    // inserted.
    let reloadSections =
      moves.isEmpty
      ? nil
      : SlotMap(
        removedRanges: changeset.deletedSectionRanges,
        fixedRanges: changeset.insertedSectionRanges)
    var recounted: [PresentedState.Recount] = []
    swap(&recounted, &spareRecounted)
    recounted.reserveCapacity(edited.count)
    reserveElementCapacity(in: &changeset, for: edited)
    for entry in edited {
      let impliedCount: Int
      if let reloadSections {
        var changes = ChangesetDraft()
        // Where UIKit lands no reload of this section, each update is a delete and an insert:
        // read so from the start, so that the reading weighs it as two changes (it would
        // otherwise turn a move into a delete and an insert to land reloads that cannot land).
        let reloadsLand = reloadSections.destination(of: entry.old) == entry.new
        impliedCount = readElements(
          entry.edits, of: entry.old, at: entry.new, reloadsLand: reloadsLand, into: &changes)
        if !changes.reloadedElements.isEmpty, !reloadsLand {
          Self.replaceReloads(in: &changes, newSection: entry.new)
        }
        changeset.deletedElements += changes.deletedElements
        changeset.insertedElements += changes.insertedElements
        changeset.reloadedElements += changes.reloadedElements
        changeset.movedElements += changes.movedElements
      } else {
        impliedCount = readElements(entry.edits, of: entry.old, at: entry.new, into: &changeset)
      }
      // The count the events imply, as the single-change path derives it: asking each section
      // for its count is a call through an existential, as costly as reading a change off.
      let newCount = impliedCount
      #if SECTIONKIT_INTERNAL_CHECKS
        let modelCount = mapping.section(at: entry.new).numberOfElements
        precondition(
          modelCount == impliedCount,
          "Coordinator: section \(entry.new) holds \(modelCount) elements but its events add up "
            + "to \(impliedCount)")
      #endif
      if newCount != oldCounts[entry.old] {
        recounted.append(.init(index: entry.new, count: newCount))
      }
    }
    if sectionsTouched {
      Self.sortByPath(&changeset.deletedElements)
      Self.sortByPath(&changeset.insertedElements)
      Self.sortByPath(&changeset.reloadedElements)
    } else {
      // Every section is where it was, read off in order, and each one's lists are ascending
      // (``reduceElements(_:oldSection:oldCount:newSection:buffers:into:)``): already sorted.
      #if SECTIONKIT_INTERNAL_CHECKS
        for list in [
          changeset.deletedElements, changeset.insertedElements,
          changeset.reloadedElements,
        ] {
          precondition(
            list.indices.dropFirst().allSatisfy { Self.precedes(list[$0 - 1], list[$0]) },
            "BatchReducer: element paths read off out of order: \(list)")
        }
      #endif
    }
    if !changeset.movedElements.isEmpty
      && !changeset.movedElements.indices.dropFirst().allSatisfy({ index in
        Self.precedes(changeset.movedElements[index - 1].to, changeset.movedElements[index].to)
      })
    {
      changeset.movedElements.sort { Self.precedes($0.to, $1.to) }
    }
    var commit = PresentedState.Commit(
      changeset: Changeset(taking: &changeset, box: spareBox.take()), deleted: [],
      recounted: recounted)
    // The lists taken leave empty ones (the box's, emptied when it was kept) for the next batch.
    spareLists = consume changeset
    guard sectionsTouched else { return commit }

    // What the adapter shows: moved and reloaded sections leave and arrive like the others.
    commit.deleted = SlotMap.merged(
      commit.changeset.deletedSectionRanges + commit.changeset.reloadedSectionRanges
        + moves.map { $0.from..<$0.from + 1 })
    let arriving = SlotMap.merged(
      commit.changeset.insertedSectionRanges + reloads.map { $0.new..<$0.new + 1 }
        + moves.map { $0.to..<$0.to + 1 })
    for range in arriving {
      for index in range {
        let section = mapping.section(at: index)
        commit.inserted.append(
          .init(index: index, section: section, count: section.numberOfElements))
      }
    }
    return commit
  }

  /// Sorts ``touched`` by old section (the positions in ``touchedIndex`` are not needed any
  /// more: the read-off follows). Sorted in place, as plain values.
  private mutating func sortTouched() {
    touchedIsSorted = true
    guard
      !touched.indices.dropFirst().allSatisfy({ touched[$0 - 1].old < touched[$0].old })
    else { return }
    // Old indexes are unique, so an unstable sort gives the same order, with no merge buffer.
    touched.withUnsafeMutableBufferPointer { $0.sortUnstably { $0.old } }
  }

  /// Reserves room in `changeset`'s element lists for what the sections `edited` read off, so
  /// that they grow once: exactly for a section with one change; for one with a tree, at most one
  /// delete and one insert for each event of the batch that is not a section's only change.
  private mutating func reserveElementCapacity(
    in changeset: inout ChangesetDraft, for edited: [Edited]
  ) {
    var (deletes, inserts, reloads, moves, singles) = (0, 0, 0, 0, 0)
    for entry in edited {
      guard case .single(let change) = entry.edits else { continue }
      singles += 1
      switch change {
      case .insert: inserts += 1
      case .remove: deletes += 1
      case .update: reloads += 1
      case .move(let from, let to): if from != to { moves += 1 }
      }
    }
    // Events in trees: every event but the sections' only changes.
    let inTrees = singles == edited.count ? 0 : events.rest.count + 1 - singles
    func reserve<T>(_ list: inout [T], _ count: Int) {
      if count > 0 { list.reserveCapacity(list.count + count) }
    }
    reserve(&changeset.deletedElements, deletes + inTrees)
    reserve(&changeset.insertedElements, inserts + inTrees)
    // Reloads and moves are rarer in trees: room for them only in a list allocated anyway.
    reserve(&changeset.reloadedElements, reloads > 0 ? reloads + inTrees : 0)
    reserve(&changeset.movedElements, moves > 0 ? moves + inTrees : 0)
  }

  /// Whether `a` comes before `b` (section first, then item): what
  /// `lexicographicallyPrecedes` answers for two-index paths, without iterating them.
  private static func precedes(_ a: IndexPath, _ b: IndexPath) -> Bool {
    let (sectionA, sectionB) = (a[0], b[0])
    return sectionA != sectionB ? sectionA < sectionB : a[1] < b[1]
  }

  /// Sorts `list` unless it already is.
  private static func sortIfNeeded(_ list: inout [Int]) {
    if !list.indices.dropFirst().allSatisfy({ list[$0 - 1] < list[$0] }) { list.sort() }
  }

  /// Sorts `paths` by section, then item, unless they already are (the usual case: sections are
  /// read off in order).
  private static func sortByPath(_ paths: inout [IndexPath]) {
    guard paths.count > 1,
      !paths.indices.dropFirst().allSatisfy({ precedes(paths[$0 - 1], paths[$0]) })
    else { return }
    paths.sort(by: precedes)
  }

  /// Reads the section list off into `changeset` (section deletes, inserts, reloads and moves),
  /// and finds the edited old sections that stay (`edited`, by old index), neither deleted nor
  /// reloaded as a whole; a section that moved and changed is deleted and inserted instead (rule
  /// B11: no element change touches a section that moves).
  private mutating func readSections(
    touched: [Touched],
    edited: inout [Edited],
    moves: inout [Changeset.SectionMove], reloads: inout [(old: Int, new: Int)],
    into changeset: inout ChangesetDraft
  ) {
    // Old sections in new order; inserted ones.
    var oldRuns: [(run: Run, newStart: Int)] = []
    var insertedRanges: [Range<Int>] = []
    var position = 0
    for run in pool.runs(sectionTree) {
      if run.isOld {
        oldRuns.append((run, position))
      } else {
        insertedRanges.append(position..<position + run.count)
      }
      position += run.count
    }
    // Sections that keep their relative order stay; the others moved (rule B8: a section that
    // only changed place is one section move).
    let staying = longestIncreasingRuns(oldRuns.map { $0.run })
    let byOld = oldRuns.indices.sorted { oldRuns[$0].run.start < oldRuns[$1].run.start }
    /// The run holding old section `old` (by position in `oldRuns`), and its new index.
    func place(ofOld old: Int) -> (run: Int, new: Int)? {
      var low = 0
      var high = byOld.count
      while low < high {
        let mid = (low + high) / 2
        let run = oldRuns[byOld[mid]].run
        if run.start + run.count <= old { low = mid + 1 } else { high = mid }
      }
      guard low < byOld.count else { return nil }
      let entry = oldRuns[byOld[low]]
      guard entry.run.start <= old else { return nil }
      return (byOld[low], entry.newStart + old - entry.run.start)
    }

    // Deleted old sections: the gaps between the surviving runs.
    var deleted: [Range<Int>] = []
    var nextOld = 0
    for index in byOld {
      let run = oldRuns[index].run
      if run.start > nextOld { deleted.append(nextOld..<run.start) }
      nextOld = run.start + run.count
    }
    if oldCounts.count > nextOld { deleted.append(nextOld..<oldCounts.count) }
    var inserted = insertedRanges

    var replaced = Set<Int>()
    for entry in touched {
      guard let (runIndex, newSection) = place(ofOld: entry.old),
        oldRuns[runIndex].run.kind == .old
      else { continue }
      if staying[runIndex] {
        edited.append(Edited(old: entry.old, new: newSection, edits: entry.edits))
        continue
      }
      var changes = ChangesetDraft()
      _ = readElements(entry.edits, of: entry.old, at: newSection, into: &changes)
      if !changes.hasNoElementChanges { replaced.insert(entry.old) }
    }

    // Moves, reloads, and the sections deleted and inserted in their place.
    for (index, entry) in oldRuns.enumerated() where !staying[index] || entry.run.kind == .updated {
      for offset in 0..<entry.run.count {
        let old = entry.run.start + offset
        let new = entry.newStart + offset
        if staying[index] {
          reloads.append((old, new))
        } else if entry.run.kind == .updated || replaced.contains(old) {
          deleted.append(old..<old + 1)
          inserted.append(new..<new + 1)
        } else {
          moves.append(.init(from: old, to: new))
        }
      }
    }
    // A section reload lands where the explicit deletes and inserts put it (B3), which ignores
    // moves: with section moves in the batch a reload is a delete and an insert.
    if !moves.isEmpty {
      for reload in reloads {
        deleted.append(reload.old..<reload.old + 1)
        inserted.append(reload.new..<reload.new + 1)
      }
      reloads = []
    }
    changeset.deletedSectionRanges = SlotMap.merged(deleted)
    changeset.insertedSectionRanges = SlotMap.merged(inserted)
    changeset.reloadedSectionRanges = SlotMap.merged(reloads.map { $0.old..<$0.old + 1 })
    moves.sort { $0.to < $1.to }
    changeset.movedSections = moves
  }

  /// Turns the element reloads of one section into deletes and inserts at the positions they
  /// land on.
  private static func replaceReloads(in changes: inout ChangesetDraft, newSection: Int) {
    let slots = SlotMap(
      removed: changes.deletedElements.map { $0[1] }.sorted(),
      fixed: changes.insertedElements.map { $0[1] }.sorted())
    for path in changes.reloadedElements {
      changes.deletedElements.append(path)
      changes.insertedElements.append(
        IndexPath(item: slots.destination(of: path[1]), section: newSection))
    }
    changes.reloadedElements = []
  }

  /// The changeset part of the only change to an old section's elements.
  static func readOff<Changes: ChangesetElementLists>(
    _ change: ElementChange, oldSection: Int, newSection: Int, into changeset: inout Changes
  ) {
    switch change {
    case .insert(let index):
      changeset.insertedElements.append(IndexPath(item: index, section: newSection))
    case .remove(let index):
      changeset.deletedElements.append(IndexPath(item: index, section: oldSection))
    case .update(let index):
      changeset.reloadedElements.append(IndexPath(item: index, section: oldSection))
    case .move(let from, let to):
      guard from != to else { return }
      changeset.movedElements.append(
        .init(
          from: IndexPath(item: from, section: oldSection),
          to: IndexPath(item: to, section: newSection)))
    }
  }

  /// How a change alters a section's count.
  static func countDelta(of change: ElementChange) -> Int {
    switch change {
    case .insert: 1
    case .remove: -1
    case .update, .move: 0
    }
  }

  /// A batch of at most one event, read off directly.
  private mutating func finishSingle(mapping: SectionProviderMapping) -> PresentedState.Commit {
    var commit = PresentedState.Commit(changeset: Changeset(), deleted: [])
    guard let event = first else { return commit }
    switch event {
    case .willBeginUpdating, .didEndUpdating, .invalidateAll, .moveSection, .reloadSections:
      break
    case .insertSections(let indexes):
      commit.changeset.insertedSectionRanges = Array(indexes.rangeView)
      for index in indexes {
        let section = mapping.section(at: index)
        commit.inserted.append(
          .init(index: index, section: section, count: section.numberOfElements))
      }
    case .removeSections(let indexes):
      commit.changeset.deletedSectionRanges = Array(indexes.rangeView)
      commit.deleted = commit.changeset.deletedSectionRanges
    case .element(let change, let section):
      Self.readOff(change, oldSection: section, newSection: section, into: &commit.changeset)
      let count = mapping.section(at: section).numberOfElements
      if count != oldCounts[section] { commit.recounted = [.init(index: section, count: count)] }
    }
    return commit
  }

  /// Reads the element changes `edits` of `old`, now at `new`, into `changes`, through the
  /// reducer's buffers (taken `inout`, in place: a nested function capturing them would check
  /// exclusivity dynamically on every call); returns the count they imply.
  ///
  /// `reloadsLand`: whether UIKit lands a reload of this section in it (rule B3); when not, an
  /// updated element is read as a delete and an insert wherever a reading is chosen.
  private mutating func readElements(
    _ edits: SectionEdits, of old: Int, at new: Int, reloadsLand: Bool = true,
    into changes: inout ChangesetDraft
  ) -> Int {
    switch edits {
    case .single(let change):
      Self.readOff(change, oldSection: old, newSection: new, into: &changes)
      return oldCounts[old] + Self.countDelta(of: change)
    case .runs(let slots):
      return readRuns(slots, of: old, at: new, reloadsLand: reloadsLand, into: &changes)
    case .elements(let diff):
      let diff = events.diffs[diff].diff
      Self.reduceElements(
        diff.runs(), oldSection: old, oldCount: oldCounts[old], newSection: new,
        reloadsLand: reloadsLand, buffers: &buffers, into: &changes)
      return diff.newCount
    }
  }

  /// ``readElements(_:of:at:into:)`` for a section with several changes, kept apart so that the
  /// read-off of the sections with one change, the most, stays inlined in ``finish(mapping:)``.
  @inline(never)
  private mutating func readRuns(
    _ slots: RunPool.NodeID, of old: Int, at new: Int, reloadsLand: Bool,
    into changes: inout ChangesetDraft
  ) -> Int {
    var runs = ReadOffBuffers.take(&buffers.runs)
    pool.runs(slots, into: &runs, stack: &buffers.stack)
    Self.reduceElements(
      runs, oldSection: old, oldCount: oldCounts[old], newSection: new, reloadsLand: reloadsLand,
      buffers: &buffers, into: &changes)
    buffers.runs = runs
    return pool.size(slots)
  }

  /// The element changes of one surviving section, from its runs in new order.
  ///
  /// `buffers` lends its arrays (their capacity, not their contents) from one section to the
  /// next, so that reading many sections off allocates them once.
  private static func reduceElements(
    _ runs: [Run], oldSection: Int, oldCount: Int, newSection: Int, reloadsLand: Bool = true,
    buffers: inout ReadOffBuffers, into changeset: inout ChangesetDraft
  ) {
    // New position of each run, and the old runs in new order.
    var oldRuns = ReadOffBuffers.take(&buffers.oldRuns)
    var inserts = ReadOffBuffers.take(&buffers.inserts)
    var deletes = ReadOffBuffers.take(&buffers.deletes)
    var ranks = ReadOffBuffers.take(&buffers.ranks)
    defer {
      buffers.oldRuns = oldRuns
      buffers.inserts = inserts
      buffers.deletes = deletes
      buffers.ranks = ranks
    }
    var position = 0
    for run in runs {
      // An updated run whose reloads cannot land is deleted and inserted like a new one.
      if run.isOld && (reloadsLand || run.kind != .updated) {
        oldRuns.append((run, position))
      } else {
        // One by one: most runs are one element, and a range's `append(contentsOf:)` costs more.
        for new in position..<position + run.count { inserts.append(new) }
      }
      position += run.count
    }

    // Deleted old elements: the complement of the surviving old runs (already in old order
    // unless something moved).
    var nextOld = 0
    func delete(before run: Run) {
      for old in nextOld..<run.start { deletes.append(old) }
      nextOld = run.start + run.count
    }
    // The runs' ranks by old start, sorted once for the deletes and every reading below (empty
    // when the runs are in old order).
    if ElementPlan.isIncreasing(oldRuns) {
      for entry in oldRuns { delete(before: entry.run) }
    } else {
      ElementPlan.byOldStart(oldRuns, oldCount: oldCount, into: &buffers.order)
      for _ in oldRuns.indices { ranks.append(0) }
      for (rank, index) in buffers.order.enumerated() {
        ranks[index] = rank + 1
        delete(before: oldRuns[index].run)
      }
    }
    for old in nextOld..<oldCount { deletes.append(old) }

    // Nothing moved: every old run stays, so the explicit deletes and inserts put every survivor
    // at its new position, and every updated element is a reload that lands there. The reading
    // below comes to the same without converting anything; read off directly.
    if ranks.isEmpty {
      for entry in oldRuns where entry.run.kind == .updated {
        for old in entry.run.start..<entry.run.start + entry.run.count {
          changeset.reloadedElements.append(IndexPath(item: old, section: oldSection))
        }
      }
      for old in deletes {
        changeset.deletedElements.append(IndexPath(item: old, section: oldSection))
      }
      for new in inserts {
        changeset.insertedElements.append(IndexPath(item: new, section: newSection))
      }
      return
    }

    // Two ways to read the survivors off; the smaller changeset wins (see `ElementPlan`). The
    // readings differ in two weightings only, so each subsequence is computed once. Both are
    // read into `buffers`' arrays, in place, which keep their capacity for the next section.
    ElementPlan.staying(
      oldRuns, ranks: ranks, updatedKeepOrder: false, into: &buffers.unchangedFirst)
    buffers.plan.read(oldRuns, staying: buffers.unchangedFirst, deletes: deletes, inserts: inserts)
    // With no reload converted, the first reading is minimal: fewest moves, one change per update.
    if buffers.plan.converted > 0 {
      ElementPlan.staying(oldRuns, ranks: ranks, updatedKeepOrder: true, into: &buffers.lengthFirst)
      for (keepOrder, replaceMoves) in [(true, false), (false, true), (true, true)] {
        let staying = keepOrder ? buffers.lengthFirst : buffers.unchangedFirst
        // A reading that cannot be smaller is not made (see `ElementPlan.leastSize`).
        guard
          ElementPlan.leastSize(
            oldRuns, staying: staying, deletes: deletes.count + inserts.count,
            updatedKeepOrder: keepOrder, movesAsDeleteAndInsert: replaceMoves) < buffers.plan.size
        else { continue }
        buffers.otherPlan.read(
          oldRuns, staying: staying, deletes: deletes, inserts: inserts,
          updatedKeepOrder: keepOrder, movesAsDeleteAndInsert: replaceMoves)
        if buffers.otherPlan.size < buffers.plan.size { swap(&buffers.plan, &buffers.otherPlan) }
      }
    }
    // Each list ascending, as the read-off of the whole batch relies on when no section moved:
    // a reading's conversions and moves read as deletes and inserts are appended after the rest.
    Self.sortIfNeeded(&buffers.plan.deletes)
    Self.sortIfNeeded(&buffers.plan.inserts)
    for move in buffers.plan.moves {
      changeset.movedElements.append(
        .init(
          from: IndexPath(item: move.old, section: oldSection),
          to: IndexPath(item: move.new, section: newSection)))
    }
    for old in buffers.plan.reloads {
      changeset.reloadedElements.append(IndexPath(item: old, section: oldSection))
    }
    for old in buffers.plan.deletes {
      changeset.deletedElements.append(IndexPath(item: old, section: oldSection))
    }
    for new in buffers.plan.inserts {
      changeset.insertedElements.append(IndexPath(item: new, section: newSection))
    }
  }
}

/// Arrays that the read-off of one section fills and empties, lent from section to section with
/// their capacity.
struct ReadOffBuffers {
  fileprivate var edited: [BatchReducer.Edited] = []
  var runs: [Run] = []
  var stack: [RunPool.NodeID] = []
  var oldRuns: [(run: Run, newStart: Int)] = []
  var inserts: [Int] = []
  var deletes: [Int] = []
  var ranks: [Int] = []
  var order: [Int] = []
  /// The two subsequences of ``ElementPlan/staying(_:ranks:updatedKeepOrder:into:)``.
  var unchangedFirst: [Bool] = []
  var lengthFirst: [Bool] = []
  /// The best reading so far and the one tried against it.
  var plan = ElementPlan()
  var otherPlan = ElementPlan()

  /// The largest capacity among the arrays.
  @inline(__always)
  var capacity: Int {
    Swift.max(
      edited.capacity, runs.capacity, stack.capacity, oldRuns.capacity, inserts.capacity,
      deletes.capacity, ranks.capacity, order.capacity, unchangedFirst.capacity,
      lengthFirst.capacity, plan.capacity, otherPlan.capacity)
  }

  /// `array` emptied with its capacity kept, leaving an empty array in its place, so that the
  /// array taken is uniquely referenced while it is filled.
  static func take<T>(_ array: inout [T]) -> [T] {
    var taken: [T] = []
    swap(&taken, &array)
    taken.removeAllKeepingBuffer()
    return taken
  }
}

/// The events of a batch, for diagnostics: the first kept apart so that a batch of one event
/// allocates nothing for them.
struct BatchEvents {
  var first: SectionProviderMapping.Event?
  var rest: [SectionProviderMapping.Event] = []
  /// The diffs of the batch (each one event up the pipe), with the number of other events that
  /// came before each.
  var diffs: [(position: Int, section: Int, diff: ElementDiff)] = []

  /// The events in order.
  var events: [SectionProviderMapping.Event] {
    if !diffs.isEmpty { return expandingDiffs() }
    guard let first else { return [] }
    return [first] + rest
  }
}

/// One reading of a section's surviving old elements: which unchanged ones move, which updated
/// ones are reloaded, and which are deleted and inserted instead.
///
/// Unchanged elements outside a longest increasing subsequence of old indexes move. An updated
/// element is never moved (a moved cell keeps its old content): it is reloaded where UIKit's reload
/// arithmetic (B3: the explicit deletes and inserts only, moves ignored) lands it at its true new
/// position, and deleted and inserted otherwise. Two readings are tried, as neither is always the
/// smaller (the reducer tries the four combinations when a section has updated elements):
/// - `updatedKeepOrder == false`: updated elements weigh nothing in the subsequence, so they never
///   cost an unchanged element its place; each is reloaded wherever it lands right, even out of
///   order (B3 ignores moves);
/// - `updatedKeepOrder == true`: updated elements take part in the subsequence (length first,
///   unchanged elements second); those outside it are deleted and inserted at once, which can let
///   the others land (two updated elements that swapped: one delete + insert, one reload);
/// - `movesAsDeleteAndInsert == true`: unchanged elements outside the subsequence are deleted and
///   inserted instead of moved — one change more each, but B3 counts them no longer, which can
///   let every reload land (`[0, 1, 2, 3, 4]` → `[1, 2', 3', 4', 0]`: 0 deleted and inserted, three
///   reloads, instead of a move and three deletes and inserts).
struct ElementPlan {
  var moves: [(old: Int, new: Int)] = []
  var reloads: [Int] = []
  /// The number of updated elements deleted and inserted because their reload would land wrong.
  var converted = 0
  var deletes: [Int] = []
  var inserts: [Int] = []
  /// Scratch space of ``settle(_:)``: the updated elements that may still be reloaded, and how far
  /// each lands from its true new position. Kept, with the arrays above, from one reading to the
  /// next (see ``read(_:staying:deletes:inserts:updatedKeepOrder:movesAsDeleteAndInsert:)``).
  var candidates: [(old: Int, new: Int)] = []
  var displacement: [Int] = []
  /// The number of changes.
  var size: Int { moves.count + reloads.count + deletes.count + inserts.count }
  /// The largest capacity among the arrays.
  @inline(__always)
  var capacity: Int {
    Swift.max(
      moves.capacity, reloads.capacity, deletes.capacity, inserts.capacity, candidates.capacity,
      displacement.capacity)
  }

  /// An empty reading, whose arrays ``read(_:staying:deletes:inserts:updatedKeepOrder:movesAsDeleteAndInsert:)``
  /// fills.
  init() {}

  /// Which old runs stay in place under the weighting `updatedKeepOrder` selects (see above);
  /// `ranks` are the runs' ranks by old start, empty when the runs are in old order.
  ///
  /// - Complexity: O(r log r) for r runs; O(r) when they are in old order.
  static func staying(
    _ oldRuns: [(run: Run, newStart: Int)], ranks: [Int], updatedKeepOrder: Bool
  ) -> [Bool] {
    var staying: [Bool] = []
    Self.staying(oldRuns, ranks: ranks, updatedKeepOrder: updatedKeepOrder, into: &staying)
    return staying
  }

  /// ``staying(_:ranks:updatedKeepOrder:)`` into `staying`, whose contents it replaces and whose
  /// capacity it keeps.
  static func staying(
    _ oldRuns: [(run: Run, newStart: Int)], ranks: [Int], updatedKeepOrder: Bool,
    into staying: inout [Bool]
  ) {
    // Old runs already in old order all stay, whatever their weights (every unchanged run weighs
    // more than nothing; an updated run that weighs nothing is a candidate either way): no
    // subsequence to compute.
    guard !ranks.isEmpty else {
      staying.removeAllKeepingBuffer()
      for _ in oldRuns.indices { staying.append(true) }
      return
    }
    // A closure, not a key path: a key path is projected through the runtime on every access.
    let runs = oldRuns.lazy.map { $0.run }
    guard updatedKeepOrder else {
      longestIncreasingRuns(runs, ranks: ranks, into: &staying) {
        $0.kind == .updated ? 0 : $0.count
      }
      return
    }
    // Length first, then unchanged elements: length × (total + 1) + unchanged orders them so.
    let scale = runs.reduce(0) { $0 + $1.count } + 1
    longestIncreasingRuns(runs, ranks: ranks, into: &staying) {
      $0.count * scale + ($0.kind == .updated ? 0 : $0.count)
    }
  }

  /// One reading, given which runs stay (``staying(_:ranks:updatedKeepOrder:)`` with the same
  /// `updatedKeepOrder`).
  ///
  /// - Complexity: O(s log s) for s updated and moved elements.
  init(
    _ oldRuns: [(run: Run, newStart: Int)], staying: [Bool], deletes: [Int], inserts: [Int],
    updatedKeepOrder: Bool = false, movesAsDeleteAndInsert: Bool = false
  ) {
    read(
      oldRuns, staying: staying, deletes: deletes, inserts: inserts,
      updatedKeepOrder: updatedKeepOrder, movesAsDeleteAndInsert: movesAsDeleteAndInsert)
  }

  /// Replaces this reading with the one `init(_:staying:deletes:inserts:updatedKeepOrder:movesAsDeleteAndInsert:)`
  /// makes, in the arrays this one grew: reading many sections off with one plan allocates its
  /// arrays once.
  ///
  /// - Complexity: O(s log s + d) for s updated and moved elements and d deletes and inserts.
  mutating func read(
    _ oldRuns: [(run: Run, newStart: Int)], staying: [Bool], deletes: [Int], inserts: [Int],
    updatedKeepOrder: Bool = false, movesAsDeleteAndInsert: Bool = false
  ) {
    moves.removeAllKeepingBuffer()
    reloads.removeAllKeepingBuffer()
    converted = 0
    self.deletes.removeAllKeepingBuffer()
    self.deletes.append(contentsOf: deletes)
    self.inserts.removeAllKeepingBuffer()
    self.inserts.append(contentsOf: inserts)
    candidates.removeAllKeepingBuffer()
    for (index, entry) in oldRuns.enumerated() {
      let run = entry.run
      // An unchanged run that stays yields nothing: skipped whole, so that reading a section off
      // costs its runs, not its elements.
      if staying[index] && run.kind == .old { continue }
      for offset in 0..<run.count {
        let old = run.start + offset
        let new = entry.newStart + offset
        switch (staying[index], run.kind) {
        case (true, .updated):
          candidates.append((old, new))
        case (false, .updated) where updatedKeepOrder:
          self.deletes.append(old)
          self.inserts.append(new)
        case (false, .updated):
          candidates.append((old, new))
        case (true, _):
          break
        case (false, _) where movesAsDeleteAndInsert:
          self.deletes.append(old)
          self.inserts.append(new)
        case (false, _):
          moves.append((old, new))
        }
      }
    }
    settleCandidates()
  }

  /// Whether the old runs `oldRuns` (in new order) are in old order: nothing moved.
  static func isIncreasing(_ oldRuns: [(run: Run, newStart: Int)]) -> Bool {
    oldRuns.indices.dropFirst().allSatisfy { oldRuns[$0 - 1].run.start < oldRuns[$0].run.start }
  }
}

/// Which runs (disjoint ranges of old indexes, in new order) form the longest increasing
/// subsequence of old indexes, each run weighted by its length. Runs are disjoint, so a run is
/// either wholly before or wholly after another: the best subsequence takes whole runs.
///
/// `weight` gives each run's weight (its length by default; see ``ElementPlan``); `ranks`, when
/// given, each run's rank (from 1) by old start, so that callers reading the same runs several
/// times sort them once.
///
/// - Complexity: O(r log r) for r runs.
func longestIncreasingRuns<Runs: RandomAccessCollection<Run>>(
  _ runs: Runs, ranks: [Int]? = nil, weight: (Run) -> Int = \.count
) -> [Bool] where Runs.Index == Int {
  var staying: [Bool] = []
  longestIncreasingRuns(runs, ranks: ranks, into: &staying, weight: weight)
  return staying
}

/// ``longestIncreasingRuns(_:ranks:weight:)`` into `staying`, whose contents it replaces and whose
/// capacity it keeps.
///
/// - Complexity: O(r log r) for r runs.
func longestIncreasingRuns<Runs: RandomAccessCollection<Run>>(
  _ runs: Runs, ranks: [Int]? = nil, into staying: inout [Bool], weight: (Run) -> Int = \.count
) where Runs.Index == Int {
  staying.removeAllKeepingBuffer()
  guard runs.count > 1 else {
    for _ in 0..<runs.count { staying.append(true) }
    return
  }
  // Rank runs by old start.
  let rank =
    ranks
    ?? {
      var rank = [Int](repeating: 0, count: runs.count)
      let order = runs.indices.sorted { runs[$0].start < runs[$1].start }
      for (r, index) in order.enumerated() { rank[index - runs.startIndex] = r + 1 }
      return rank
    }()
  let count = runs.count
  for _ in 0..<count { staying.append(false) }
  // Scratch space on the stack for a few runs, not three arrays on the heap.
  withUnsafeTemporaryAllocation(of: Int.self, capacity: heaviestChainScratch(count)) { scratch in
    staying.withUnsafeMutableBufferPointer { staying in
      heaviestIncreasingChain(
        count: count, scratch: scratch.baseAddress!, rank: { rank[$0] },
        weight: { weight(runs[runs.startIndex + $0]) }, stay: { staying[$0] = true })
    }
  }
}

/// The room ``heaviestIncreasingChain(count:scratch:rank:weight:stay:)`` needs for `count` runs.
@inline(__always)
func heaviestChainScratch(_ count: Int) -> Int { 3 * count + 2 }

/// The heaviest chain of runs `0..<count` (in new order) whose ranks by old start increase: calls
/// `stay` for each run of it, last first. `rank(i)` is run i's rank by old start (from 1), and
/// `scratch` room for ``heaviestChainScratch(_:)`` integers. The one subsequence of
/// ``longestIncreasingRuns(_:ranks:into:weight:)`` and of the read-off of a small run list, so
/// that both choose the same runs where several chains weigh the same.
///
/// - Complexity: O(r log r) for r runs.
@inline(__always)
func heaviestIncreasingChain(
  count: Int, scratch: UnsafeMutablePointer<Int>, rank: (Int) -> Int, weight: (Int) -> Int,
  stay: (Int) -> Void
) {
  // A Fenwick tree over ranks gives the best chain (weight, last run) ending below a rank; and
  // each run's predecessor.
  let treeWeight = scratch
  let treeRun = treeWeight + (count + 1)
  let previous = treeRun + (count + 1)
  treeWeight.initialize(repeating: 0, count: count + 1)
  treeRun.initialize(repeating: -1, count: count + 1)
  previous.initialize(repeating: -1, count: count)
  var best = (weight: 0, run: -1)
  for index in 0..<count {
    // Best chain over ranks < rank(index).
    let runRank = rank(index)
    var query = runRank - 1
    var found = (weight: 0, run: -1)
    while query > 0 {
      if treeWeight[query] > found.weight { found = (treeWeight[query], treeRun[query]) }
      query -= query & -query
    }
    let chain = (weight: found.weight + weight(index), run: index)
    previous[index] = found.run
    if chain.weight > best.weight { best = chain }
    var slot = runRank
    while slot <= count {
      if chain.weight > treeWeight[slot] { (treeWeight[slot], treeRun[slot]) = chain }
      slot += slot & -slot
    }
  }
  var cursor = best.run
  while cursor >= 0 {
    stay(cursor)
    cursor = previous[cursor]
  }
}

// MARK: - Where an element went

extension BatchReducer {
  /// Where the element at `old` (old coordinates: before the batch) is now, followed by identity
  /// through every event so far; `nil` when it or its section was removed. An element updated and
  /// moved is found at its new place even where the changeset lists it as a delete and an insert.
  ///
  /// - Complexity: O(r) for the r runs of the section list and of the element's section (O(1)
  ///   in a batch of one event).
  func newPath(ofOld old: IndexPath) -> IndexPath? {
    let (section, item) = (old[0], old[1])
    guard hasTrees else {
      switch first {
      case nil, .willBeginUpdating?, .didEndUpdating?, .invalidateAll?:
        return old
      case .insertSections(let indexes)?:
        let slots = SlotMap(removedRanges: [], fixedRanges: Array(indexes.rangeView))
        return IndexPath(item: item, section: slots.destination(of: section))
      case .removeSections(let indexes)?:
        guard !indexes.contains(section) else { return nil }
        return IndexPath(item: item, section: section - indexes.count(in: 0..<section))
      case .element(let change, let changed)?:
        guard changed == section else { return old }
        return Self.newIndex(of: item, after: change).map { IndexPath(item: $0, section: section) }
      case .moveSection?, .reloadSections?:
        preconditionFailure("BatchReducer: a section move or reload always starts the trees")
      }
    }
    let newSection =
      sectionsTouched
      ? Self.newPosition(of: section, in: pool.runs(sectionTree))
      : oldCounts.indices.contains(section) ? section : nil
    guard let newSection else { return nil }
    let newItem: Int?
    switch touchedPosition(of: section).map({ touched[$0].edits }) {
    case nil: newItem = item
    case .single(let change)?: newItem = Self.newIndex(of: item, after: change)
    case .runs(let slots)?: newItem = Self.newPosition(of: item, in: pool.runs(slots))
    case .elements(let diff)?: newItem = events.diffs[diff].diff.newIndex(ofOld: item)
    }
    return newItem.map { IndexPath(item: $0, section: newSection) }
  }

  /// The new position of old position `old` in `runs` (new order), or `nil` when no old run
  /// holds it.
  private static func newPosition(of old: Int, in runs: [Run]) -> Int? {
    var position = 0
    for run in runs {
      if run.isOld && run.start <= old && old < run.start + run.count {
        return position + old - run.start
      }
      position += run.count
    }
    return nil
  }

  /// Where index `index` goes through one element change, or `nil` when it is removed.
  static func newIndex(of index: Int, after change: ElementChange) -> Int? {
    switch change {
    case .insert(let at): return index >= at ? index + 1 : index
    case .remove(let at): return index == at ? nil : index > at ? index - 1 : index
    case .update: return index
    case .move(let from, let to):
      if index == from { return to }
      if from < index && index <= to { return index - 1 }
      if to <= index && index < from { return index + 1 }
      return index
    }
  }
}
