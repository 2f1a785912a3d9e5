import Foundation

/// The bulk path: a section's whole diff reaches the coordinator as one event (an
/// ``ElementDiff``) instead of one event per step, and the reducer reads it off directly when it
/// is the only change of its section in the batch (``BatchReducer/apply(_:inSection:)``).
extension Coordinator {
  /// Records `diff`, the whole change of the elements of the section at global index `section`.
  ///
  /// Where the coordinator would not reduce it (no adapter, a reload owed, a move the adapter
  /// made and the coordinator waits for), its steps are recorded one by one, as events always
  /// were: the same outcome by the same code.
  func record(_ diff: ElementDiff, inSection section: Int) {
    guard depth > 0 else {
      // The mapping always brackets; a bare event is a batch of one.
      beginBatch()
      record(diff, inSection: section)
      endBatch()
      return
    }
    // A change made while a changeset is being applied starts the next batch from the state the
    // adapter is switching to.
    commitPending()
    guard adapter != nil, !needsReload, handlers.expectedMove == nil else {
      for change in diff.steps { record(.element(change, inSection: section)) }
      return
    }
    reduceSingle()
    if case .empty = batchDraft { startReducer() }
    batchReducer.apply(diff, inSection: section)
  }
}
