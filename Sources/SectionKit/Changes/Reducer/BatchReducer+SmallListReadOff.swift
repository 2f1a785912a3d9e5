import Foundation

/// The in-place read-off of a section kept in a small list (`RunPool+SmallLists.swift`).
///
/// Kept for its figure (issue 31; callgrind, as in `RunPool+SmallLists.swift`): a batch of 100 at
/// 10² sections costs 3,385 instructions per change with the lists read off through the general
/// read-off, 2,940 with this one (-13%; five buffers filled and an ``ElementPlan`` settled per
/// section otherwise).
extension BatchReducer {
  /// Reads `slots` off into `changes` when they are a small list whose reading needs no choice;
  /// `false`, having written nothing, otherwise.
  mutating func readSmallList(
    _ slots: RunPool.Slots, of old: Int, at new: Int, into changes: inout ChangesetDraft
  ) -> Bool {
    #if SECTIONKIT_INTERNAL_CHECKS
      let before = changes
    #endif
    let oldCount = oldCounts[old]
    guard
      pool.withListRuns(
        slots,
        {
          Self.readOffSmallList(
            $0, oldSection: old, oldCount: oldCount, newSection: new, into: &changes)
        }) == true
    else { return false }
    #if SECTIONKIT_INTERNAL_CHECKS
      // The general read-off of the same runs writes the same changes.
      var general = before
      Self.reduceElements(
        pool.runs(slots), oldSection: old, oldCount: oldCount, newSection: new,
        buffers: &buffers, into: &general)
      precondition(
        general == changes, "BatchReducer: small-list read-off of section \(old) differs")
    #endif
    return true
  }

  /// Reads the runs of a section kept in a small list (see ``RunPool/Slots``) off into
  /// `changeset`, in place, when one reading is the smallest without trying others: the old runs
  /// are in old order (every updated element is a reload that lands, every other survivor
  /// stays), or some moved and every updated element's reload lands at its new index (rule B3:
  /// the explicit deletes and inserts place it, moves ignored). The runs outside the heaviest
  /// increasing chain of unchanged elements then move. Returns `false`, having written nothing,
  /// when a reload would land wrong: the general read-off weighs its readings then.
  ///
  /// The changes are those of the general read-off, each list ascending
  /// (`RunPoolSmallListTests` compare the two, and `SECTIONKIT_INTERNAL_CHECKS` compares every
  /// read-off), with no array filled on the way: the runs are read where the pool keeps them, and
  /// the scratch space is on the stack.
  ///
  /// - Complexity: O(r log r + c) for r runs and c changes read off.
  static func readOffSmallList(
    _ runs: UnsafeBufferPointer<Run>, oldSection: Int, oldCount: Int, newSection: Int,
    into changeset: inout ChangesetDraft
  ) -> Bool {
    var (oldRuns, increasing, lastStart) = (0, true, -1)
    for run in runs where run.isOld {
      oldRuns += 1
      increasing = increasing && run.start > lastStart
      lastStart = run.start
    }
    guard !increasing else {
      // Every old run stays: the gaps between them are deleted, the updated ones reloaded.
      appendInserts(of: runs, section: newSection, to: &changeset)
      var nextOld = 0
      for run in runs where run.isOld {
        appendDeletes(nextOld..<run.start, section: oldSection, to: &changeset)
        nextOld = run.start + run.count
        guard run.kind == .updated else { continue }
        for old in run.start..<nextOld {
          changeset.reloadedElements.append(IndexPath(item: old, section: oldSection))
        }
      }
      appendDeletes(nextOld..<oldCount, section: oldSection, to: &changeset)
      return true
    }
    // Two allocations of at most 1 KiB each for a list of 16 runs, which stay on the stack.
    let capacity = 5 * oldRuns + 2 * (oldRuns + 1) + 2 * (runs.count - oldRuns)
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: capacity) { scratch in
      // Old runs in new order: index (in `runs`), new start, rank by old start (from 1), whether
      // it stays; their order by old start; the deleted gaps (start, count) in old order; the
      // inserted runs (start, count) in new order.
      let base = scratch.baseAddress!
      let (index, newStart) = (base, base + oldRuns)
      let (rank, stays, order) = (base + 2 * oldRuns, base + 3 * oldRuns, base + 4 * oldRuns)
      let gaps = base + 5 * oldRuns
      let inserted = gaps + 2 * (oldRuns + 1)
      var (old, position, insertedRuns, updated) = (0, 0, 0, false)
      for (at, run) in runs.enumerated() {
        if run.isOld {
          (index[old], newStart[old], stays[old]) = (at, position, 0)
          updated = updated || run.kind == .updated
          old += 1
        } else {
          (inserted[2 * insertedRuns], inserted[2 * insertedRuns + 1]) = (position, run.count)
          insertedRuns += 1
        }
        position += run.count
      }
      // The order by old start: an insertion sort of the few runs.
      for next in 0..<oldRuns {
        var hole = next
        while hole > 0 && runs[index[order[hole - 1]]].start > runs[index[next]].start {
          order[hole] = order[hole - 1]
          hole -= 1
        }
        order[hole] = next
      }
      // The deleted gaps between the old runs in old order.
      var (gapCount, nextOld) = (0, 0)
      func gap(to end: Int) {
        guard end > nextOld else { return }
        (gaps[2 * gapCount], gaps[2 * gapCount + 1]) = (nextOld, end - nextOld)
        gapCount += 1
      }
      for position in 0..<oldRuns {
        let run = runs[index[order[position]]]
        gap(to: run.start)
        nextOld = run.start + run.count
      }
      gap(to: oldCount)
      // Updated elements are reloaded: each must land where B3 puts it, past the deletes below
      // it and the inserts at or below where it lands (ascending old, so both walks go forward).
      if updated {
        var (gap, deletedBelow, insert, insertedBelow) = (0, 0, 0, 0)
        for position in 0..<oldRuns {
          let (run, start) = (runs[index[order[position]]], newStart[order[position]])
          guard run.kind == .updated else { continue }
          for offset in 0..<run.count {
            while gap < gapCount && gaps[2 * gap] < run.start + offset {
              deletedBelow += gaps[2 * gap + 1]
              gap += 1
            }
            let rank = run.start + offset - deletedBelow
            while insert < insertedRuns && inserted[2 * insert] <= rank + insertedBelow {
              insertedBelow += inserted[2 * insert + 1]
              insert += 1
            }
            guard rank + insertedBelow == start + offset else { return false }
          }
        }
      }
      for position in 0..<oldRuns { rank[order[position]] = position + 1 }
      // The chain weighs unchanged elements only: an updated one is reloaded wherever it is.
      withUnsafeTemporaryAllocation(of: Int.self, capacity: heaviestChainScratch(oldRuns)) {
        heaviestIncreasingChain(
          count: oldRuns, scratch: $0.baseAddress!, rank: { rank[$0] },
          weight: { runs[index[$0]].kind == .updated ? 0 : runs[index[$0]].count },
          stay: { stays[$0] = 1 })
      }

      appendInserts(of: runs, section: newSection, to: &changeset)
      for gap in 0..<gapCount {
        let start = gaps[2 * gap]
        appendDeletes(start..<start + gaps[2 * gap + 1], section: oldSection, to: &changeset)
      }
      // The unchanged runs outside the chain move, element by element, in new order.
      for old in 0..<oldRuns where stays[old] == 0 && runs[index[old]].kind == .old {
        let run = runs[index[old]]
        for offset in 0..<run.count {
          changeset.movedElements.append(
            .init(
              from: IndexPath(item: run.start + offset, section: oldSection),
              to: IndexPath(item: newStart[old] + offset, section: newSection)))
        }
      }
      guard updated else { return true }
      // The reloads, in old order.
      for position in 0..<oldRuns {
        let run = runs[index[order[position]]]
        guard run.kind == .updated else { continue }
        for old in run.start..<run.start + run.count {
          changeset.reloadedElements.append(IndexPath(item: old, section: oldSection))
        }
      }
      return true
    }
  }

  /// Appends the inserts of the inserted runs among `runs` (in new order) of section `section`.
  @inline(__always)
  private static func appendInserts(
    of runs: UnsafeBufferPointer<Run>, section: Int, to changeset: inout ChangesetDraft
  ) {
    var position = 0
    for run in runs {
      if !run.isOld {
        for new in position..<position + run.count {
          changeset.insertedElements.append(IndexPath(item: new, section: section))
        }
      }
      position += run.count
    }
  }

  /// Appends the deletes of old elements `range` of section `section`.
  @inline(__always)
  private static func appendDeletes(
    _ range: Range<Int>, section: Int, to changeset: inout ChangesetDraft
  ) {
    for old in range {
      changeset.deletedElements.append(IndexPath(item: old, section: section))
    }
  }
}
