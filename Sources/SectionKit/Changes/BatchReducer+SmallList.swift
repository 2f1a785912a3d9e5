import Foundation

extension BatchReducer {
  /// Reads the runs of a section kept in a small list (see ``RunPool/Slots``) off into
  /// `changeset`, in place, when no reading has to be chosen: the old runs are in old order (every
  /// updated element is a reload that lands, every other survivor stays), or some moved and none
  /// is updated (the runs outside the heaviest increasing chain move). Returns `false`, having
  /// written nothing, when runs moved and some are updated: the general read-off weighs its
  /// readings then.
  ///
  /// The changes are those of the general read-off (`RunListTests` compare the two), each list
  /// ascending, with no array filled on the way: the runs are read where the pool keeps them,
  /// and the chain's scratch space is on the stack.
  ///
  /// - Complexity: O(r log r + c) for r runs and c changes read off.
  static func readOffSmallList(
    _ runs: UnsafeBufferPointer<Run>, oldSection: Int, oldCount: Int, newSection: Int,
    into changeset: inout ChangesetDraft
  ) -> Bool {
    var (oldRuns, increasing, updated, lastStart) = (0, true, false, -1)
    for run in runs where run.isOld {
      oldRuns += 1
      increasing = increasing && run.start > lastStart
      updated = updated || run.kind == .updated
      lastStart = run.start
    }
    guard increasing || !updated else { return false }
    // Inserts, in new order.
    var position = 0
    for run in runs {
      if !run.isOld {
        for new in position..<position + run.count {
          changeset.insertedElements.append(IndexPath(item: new, section: newSection))
        }
      }
      position += run.count
    }
    guard !increasing else {
      // Every old run stays: the gaps between them are deleted, the updated ones reloaded.
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
    // Old runs in new order: index (in `runs`), new start, rank by old start, whether it stays;
    // then the chain's scratch space.
    withUnsafeTemporaryAllocation(
      of: Int.self, capacity: 4 * oldRuns + heaviestChainScratch(oldRuns)
    ) { scratch in
      let base = scratch.baseAddress!
      let (index, newStart, rank, stays) = (
        base, base + oldRuns, base + 2 * oldRuns, base + 3 * oldRuns
      )
      var (old, position) = (0, 0)
      for (at, run) in runs.enumerated() {
        if run.isOld {
          index[old] = at
          newStart[old] = position
          stays[old] = 0
          old += 1
        }
        position += run.count
      }
      // Ranks by old start: an insertion sort of the few runs into `rank` (as an order first).
      let order = rank
      for next in 0..<oldRuns {
        var hole = next
        while hole > 0 && runs[index[order[hole - 1]]].start > runs[index[next]].start {
          order[hole] = order[hole - 1]
          hole -= 1
        }
        order[hole] = next
      }
      // The deletes: the gaps between the old runs in old order.
      var nextOld = 0
      for position in 0..<oldRuns {
        let run = runs[index[order[position]]]
        appendDeletes(nextOld..<run.start, section: oldSection, to: &changeset)
        nextOld = run.start + run.count
      }
      appendDeletes(nextOld..<oldCount, section: oldSection, to: &changeset)
      // Invert the order into ranks (from 1), through the `stays` column, cleared after.
      for position in 0..<oldRuns { stays[order[position]] = position + 1 }
      for old in 0..<oldRuns { (rank[old], stays[old]) = (stays[old], 0) }
      heaviestIncreasingChain(
        count: oldRuns, scratch: base + 4 * oldRuns, rank: { rank[$0] },
        weight: { runs[index[$0]].count }, stay: { stays[$0] = 1 })
      // The runs outside the chain move, element by element, in new order.
      for old in 0..<oldRuns where stays[old] == 0 {
        let run = runs[index[old]]
        for offset in 0..<run.count {
          changeset.movedElements.append(
            .init(
              from: IndexPath(item: run.start + offset, section: oldSection),
              to: IndexPath(item: newStart[old] + offset, section: newSection)))
        }
      }
    }
    return true
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
