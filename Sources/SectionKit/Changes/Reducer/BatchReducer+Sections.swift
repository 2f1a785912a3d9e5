import Foundation

/// The read-off of the section list: section deletes, inserts, reloads and moves.
extension BatchReducer {
  /// Reads the section list off into `changeset` (section deletes, inserts, reloads and moves),
  /// and finds the edited old sections that stay (`edited`, by old index), neither deleted nor
  /// reloaded as a whole; a section that moved and changed is deleted and inserted instead (rule
  /// B11: no element change touches a section that moves).
  mutating func readSections(
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
        } else if entry.run.kind == .updated {
          UIKitConversions.sectionReloadedAndMoved(
            old: old, new: new, deletes: &deleted, inserts: &inserted)
        } else if replaced.contains(old) {
          UIKitConversions.sectionMovedWithElementChanges(
            old: old, new: new, deletes: &deleted, inserts: &inserted)
        } else {
          moves.append(.init(from: old, to: new))
        }
      }
    }
    if !UIKitConversions.sectionReloadsLand(besideSectionMoves: moves.count) {
      for reload in reloads {
        UIKitConversions.sectionReloadBesideSectionMoves(
          old: reload.old, new: reload.new, deletes: &deleted, inserts: &inserted)
      }
      reloads = []
    }
    changeset.deletedSectionRanges = SlotMap.merged(deleted)
    changeset.insertedSectionRanges = SlotMap.merged(inserted)
    changeset.reloadedSectionRanges = SlotMap.merged(reloads.map { $0.old..<$0.old + 1 })
    moves.sort { $0.to < $1.to }
    changeset.movedSections = moves
  }
}
