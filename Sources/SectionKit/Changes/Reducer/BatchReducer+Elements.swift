import Foundation

/// The read-off of one section's elements, from its runs.
extension BatchReducer {
  /// Reads the element changes `edits` of `old`, now at `new`, into `changes`, through the
  /// reducer's buffers (taken `inout`, in place: a nested function capturing them would check
  /// exclusivity dynamically on every call); returns the count they imply.
  ///
  /// `reloadsLand`: whether UIKit lands a reload of this section in it (rule B3); when not, an
  /// updated element is read as a delete and an insert wherever a reading is chosen.
  mutating func readElements(
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
  mutating func readRuns(
    _ slots: RunPool.Slots, of old: Int, at new: Int, reloadsLand: Bool,
    into changes: inout ChangesetDraft
  ) -> Int {
    if reloadsLand && readSmallList(slots, of: old, at: new, into: &changes) {
      return pool.size(slots)
    }
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
  static func reduceElements(
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
    for read in runs {
      let run = UIKitConversions.elementReloadsInDisplacedSection(read, reloadsLand: reloadsLand)
      if run.isOld {
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
