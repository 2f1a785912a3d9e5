import Foundation

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
  static func newPosition(of old: Int, in runs: [Run]) -> Int? {
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
    case .update, .reconfigure: return index
    case .move(let from, let to):
      if index == from { return to }
      if from < index && index <= to { return index - 1 }
      if to <= index && index < from { return index + 1 }
      return index
    }
  }
}
