import Foundation
import SectionKit

/// Clips a batch of the whole list to a window: where the window goes, and the changeset of the
/// rows it holds (`Docs/Streaming.md`, "Windows").
///
/// The clipped changeset keeps the section parts of the batch (so a client's sections are the
/// list's), except that a section move whose section shows rows in the window, before or after,
/// becomes a delete and an insert of the section. Element changes are recomputed from where
/// rows go ( ``RowFollower``): a row of the old window that does not stay, or stays outside the
/// new window, is deleted; a row of the new window that arrived, or stayed but was outside the
/// old window, is inserted; a reloaded row that stays inside is reloaded. Rows that stay keep
/// their order, so the result is valid under the batch rules for a data source that shows only
/// the window, and each reload lands where it belongs.
struct WindowClipper {
  let follower: RowFollower

  /// Where `window` starts after the batch (``StreamWindow``'s rules).
  func newStart(of window: StreamWindow) -> Int {
    let end = min(window.start + window.length, follower.oldTotal)
    if let anchor = window.anchor, window.start + anchor < end,
      let row = follower.newRow(ofOld: window.start + anchor)
    {
      return max(0, row - anchor)
    }
    if window.start == 0 { return 0 }
    return follower.firstStaying(atOrAfter: window.start)
  }

  /// The rows of each section inside `start..<end`: for section `k`, its first row in the window
  /// (an element index of the section) and the number of its rows inside.
  static func rows(ofSection section: Int, offsets: [Int], start: Int, end: Int) -> Range<Int> {
    let lower = max(offsets[section], start)
    let upper = min(offsets[section + 1], end)
    guard lower < upper else { return 0..<0 }
    return (lower - offsets[section])..<(upper - offsets[section])
  }

  /// The window after the batch, and the batch clipped to it; `values(section, item)` is the
  /// value of a row of the new state.
  ///
  /// - Parameter movedTo: a new start for the window (a move by the client), instead of where the
  ///   batch takes it.
  /// - Complexity: O(s + w log c) for s sections, w rows in the window and c changes.
  func clip<Value>(
    _ window: StreamWindow, movedTo: Int? = nil, values: (Int, Int) -> Value
  ) -> (
    window: StreamWindow, changeset: Changeset, sections: [Int: [Value]],
    elements: [IndexPath: Value]
  ) {
    let routes = follower.sections
    let oldStart = window.start
    let oldEnd = min(window.start + window.length, follower.oldTotal)
    var newWindow = window
    newWindow.start = min(movedTo ?? newStart(of: window), follower.newTotal)
    let newStart = newWindow.start
    let newEnd = min(newStart + window.length, follower.newTotal)

    // Section parts: a section move showing rows in the window becomes a delete and an insert.
    var deletedSections = follower.sectionParts.deleted
    var insertedSections = follower.sectionParts.inserted
    var movedSections: [Changeset.SectionMove] = []
    for move in follower.sectionParts.moved {
      let before = Self.rows(
        ofSection: move.from, offsets: follower.oldOffsets, start: oldStart, end: oldEnd)
      let after = Self.rows(
        ofSection: move.to, offsets: follower.newOffsets, start: newStart, end: newEnd)
      if before.isEmpty && after.isEmpty {
        movedSections.append(move)
      } else {
        deletedSections.insert(move.from)
        insertedSections.insert(move.to)
      }
    }

    // Rows of the old window that leave it, or are reloaded in it.
    var deletedElements: [IndexPath] = []
    var reloadedElements: [IndexPath] = []
    var row = oldStart
    while row < oldEnd {
      let section = RowFollower.section(ofRow: row, in: follower.oldOffsets)
      let sectionEnd = min(follower.oldOffsets[section + 1], oldEnd)
      defer { row = sectionEnd }
      guard routes.keepsRows(old: section) else { continue }
      let first = row - follower.oldOffsets[section]
      let items = first..<(sectionEnd - follower.oldOffsets[section])
      if !follower.touched.contains(section), let new = routes.oldToNew[section] {
        // Every row stays at its index: those now outside the new window leave it.
        let base = follower.newOffsets[new]
        for item in items where !(newStart..<newEnd).contains(base + item) {
          deletedElements.append(IndexPath(item: item - first, section: section))
        }
        continue
      }
      for item in items {
        let local = IndexPath(item: item - first, section: section)
        guard let new = follower.newPosition(ofOld: section, item: item) else {
          deletedElements.append(local)
          continue
        }
        let newRow = follower.newOffsets[new.section] + new.item
        if !(newStart..<newEnd).contains(newRow) {
          deletedElements.append(local)
        } else if follower.isReloaded(section: section, item: item) {
          reloadedElements.append(local)
        }
      }
    }

    // Rows of the new window that enter it, and the rows of sections that come whole.
    var insertedElements: [IndexPath] = []
    var elements: [IndexPath: Value] = [:]
    var sections: [Int: [Value]] = [:]
    row = newStart
    while row < newEnd {
      let section = RowFollower.section(ofRow: row, in: follower.newOffsets)
      let sectionEnd = min(follower.newOffsets[section + 1], newEnd)
      defer { row = sectionEnd }
      let first = row - follower.newOffsets[section]
      let items = first..<(sectionEnd - follower.newOffsets[section])
      let old = routes.newToOld[section]
      guard let old, routes.keepsRows(old: old) else {
        if old == nil || insertedSections.contains(section) || routes.reloaded.contains(old!) {
          sections[section] = items.map { values(section, $0) }
        }
        continue
      }
      if !follower.touched.contains(old) {
        // Every row stayed at its index: those that were outside the old window enter it.
        let base = follower.oldOffsets[old]
        for item in items where !(oldStart..<oldEnd).contains(base + item) {
          let local = IndexPath(item: item - first, section: section)
          insertedElements.append(local)
          elements[local] = values(section, item)
        }
        continue
      }
      for item in items {
        let local = IndexPath(item: item - first, section: section)
        guard let origin = follower.oldPosition(ofNew: section, item: item) else {
          insertedElements.append(local)
          elements[local] = values(section, item)
          continue
        }
        let oldRow = follower.oldOffsets[origin.section] + origin.item
        if !(oldStart..<oldEnd).contains(oldRow) {
          insertedElements.append(local)
          elements[local] = values(section, item)
        } else if follower.isReloaded(section: origin.section, item: origin.item) {
          elements[local] = values(section, item)
        }
      }
    }

    // UIKit computes where a reload lands ignoring section moves (rule B3): with a reload, the
    // moves left (of sections with no rows in the window) become deletes and inserts too.
    if !reloadedElements.isEmpty || !follower.sectionParts.reloaded.isEmpty {
      for move in movedSections {
        deletedSections.insert(move.from)
        insertedSections.insert(move.to)
      }
      movedSections = []
    }
    if !follower.sectionParts.any && movedSections.isEmpty && deletedElements.isEmpty
      && insertedElements.isEmpty && reloadedElements.isEmpty
    {
      return (newWindow, Changeset(), sections, elements)
    }
    let clipped = Changeset(
      deletedSections: deletedSections, insertedSections: insertedSections,
      reloadedSections: follower.sectionParts.reloaded, movedSections: movedSections,
      deletedElements: deletedElements, insertedElements: insertedElements,
      reloadedElements: reloadedElements)
    return (newWindow, clipped, sections, elements)
  }

  /// The label of each section `clipped` inserts or reloads that has one, from `labels`, those
  /// of the sections after the batch (empty when the stream labels none).
  ///
  /// - Complexity: O(i) for the i sections `clipped` inserts or reloads.
  func changedLabels(clipped: Changeset, labels: [StreamSectionLabel]) -> [Int: StreamSectionLabel]
  {
    guard !labels.isEmpty else { return [:] }
    var changed: [Int: StreamSectionLabel] = [:]
    func add(_ new: Int) {
      if !labels[new].isEmpty { changed[new] = labels[new] }
    }
    for new in clipped.insertedSections { add(new) }
    for old in clipped.reloadedSections {
      if let new = follower.sections.oldToNew[old] { add(new) }
    }
    return changed
  }

  /// The new number of elements of each section whose count changed, and of each section the
  /// clipped changeset inserts or reloads.
  ///
  /// - Complexity: O(i) for the i sections `clipped` inserts, after
  ///   ``countsChangedByTheBatch`` (O(s), once per batch).
  func changedCounts(clipped: Changeset) -> [Int: Int] {
    var counts = countsChangedByTheBatch
    for new in clipped.insertedSections where counts[new] == nil {
      counts[new] = follower.newOffsets[new + 1] - follower.newOffsets[new]
    }
    return counts
  }

  /// The new number of elements of each section whose count the batch changes, and of each
  /// section it inserts or reloads.
  let countsChangedByTheBatch: [Int: Int]

  init(follower: RowFollower) {
    self.follower = follower
    let routes = follower.sections
    var counts: [Int: Int] = [:]
    for new in 0..<(follower.newOffsets.count - 1) {
      let count = follower.newOffsets[new + 1] - follower.newOffsets[new]
      if let old = routes.newToOld[new], !routes.reloaded.contains(old),
        follower.oldOffsets[old + 1] - follower.oldOffsets[old] == count
      {
        continue
      }
      counts[new] = count
    }
    countsChangedByTheBatch = counts
  }
}
