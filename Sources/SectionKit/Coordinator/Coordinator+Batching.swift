import Foundation

/// The coordinator's state machine: `idle` → `batching` (events reduced) → `applying` (the adapter
/// is handed a changeset or a reload) → `idle`.
extension Coordinator {
  func beginBatch() {
    depth += 1
    if depth == 1 && state == .idle { state = .batching }
  }

  func endBatch() {
    precondition(depth > 0, "Coordinator: a batch ended that never began")
    depth -= 1
    if depth == 0 { uncoverElementEvents() }
    guard depth == 0, state == .batching || canFlushWhileApplying else { return }
    flush()
  }

  /// Whether a change made now, while the coordinator is handing changes out, can be delivered
  /// at once: it can unless the adapter is inside `apply` or `reloadData`. (Between those calls the
  /// coordinator tells handlers and the adapter what they are owed; what those calls change is
  /// delivered before the next one, so that each handler call sees the model the adapter shows.)
  var canFlushWhileApplying: Bool { state == .applying && !isCallingAdapter }

  func record(_ event: SectionProviderMapping.Event) {
    guard depth > 0 else {
      // The mapping always brackets; a bare event is a batch of one.
      beginBatch()
      record(event)
      endBatch()
      return
    }
    // The common case, a further event of a batch whose reducer is open: nothing to commit, no
    // move of the adapter's to intercept, no reload owed. Checked at once, then straight to the
    // reducer (the checks below come to the same).
    if reducerRole == .open && pendingCommit == nil && handlers.expectedMove == nil && !needsReload
      && adapter != nil
    {
      if case .invalidateAll = event {
      } else {
        batchReducer.apply(event)
        return
      }
    }
    // A change made while a changeset is being applied starts the next batch from the state the
    // adapter is switching to.
    commitPending()
    if interceptAdapterMove(event) { return }
    if adapter == nil || needsReload {
      needsReload = true
      dropBatchEvents()
      dropSelectionForReload()
      if adapter == nil {
        presented = PresentedState()
        presentedIsStale = true
      }
      return
    }
    if case .invalidateAll = event {
      dropSelectionForReload()
      needsReload = true
      dropBatchEvents()
      return
    }
    if recordSingle(event) { return }
    reduceSingle()
    if reducerRole != .open { startReducer() }
    batchReducer.apply(event)
  }

  /// The open batch's reducer, when a batch has recorded events in one (for tests and
  /// diagnostics: a copy).
  var reducer: BatchReducer? { reducerRole == .open ? batchReducer : nil }

  /// Starts the open batch's reducer, on the arrays of the last batch's when it kept them.
  ///
  /// The reducer is never applying then: a change made while a changeset is applied commits it
  /// first (``commitPending()``).
  func startReducer() {
    precondition(
      reducerRole == .spare, "Coordinator: a batch started while the reducer was \(reducerRole)")
    batchReducer.restart(presented: presented)
    reducerRole = .open
  }

  /// Keeps the reducer, done with, for the next batch: emptied of what it shares with the
  /// presented state, or replaced by an empty one when its arrays grew too large to keep.
  func retireReducer() {
    if batchReducer.isWorthKeeping {
      batchReducer.retire()
    } else {
      batchReducer = BatchReducer(presented: PresentedState())
    }
    reducerRole = .spare
  }

  /// A reload is owed; it is delivered now unless a batch is open or a changeset is being applied
  /// (then when that ends). A batch left open only by a replaced mapping is no longer open.
  func scheduleReload() {
    needsReload = true
    if depth == 0 && (state != .applying || canFlushWhileApplying) { flush() }
  }

  /// Hands the adapter everything owed to it, including batches queued while applying.
  func flush() {
    let nested = state == .applying
    state = .applying
    defer {
      state = nested ? .applying : depth > 0 ? .batching : .idle
      batchEvents = BatchEvents()
      checkInvariants()
    }
    while true {
      deliverHandlerNotifications()
      deliverAdapterNotifications()
      // A bracket opened inside `apply` (a provider's batch that began before, climbing only
      // with its first event) and still open: what it records is delivered when it ends, as one
      // batch. Delivered now, the changes it makes later to a section it inserted would be lost
      // (their events are covered by the insertion until the bracket ends).
      if depth > 0 { break }
      if needsReload {
        dropBatchEvents()
        guard let adapter else { break }
        needsReload = false
        resetPresented()
        isCallingAdapter = true
        adapter.reloadData(from: self)
        isCallingAdapter = false
        reannounceSelection(to: adapter)
        continue
      }
      guard batchHasEvents, let adapter else { break }
      // Read the reducer off and drop it before the presented state changes: it shares the
      // presented counts, and holding them would copy them on the first write.
      let (commit, events) = singleChange != nil ? takeSingle() : takeReducer()
      if commit.changeset.isEmpty {
        applyCommit(commit)
        continue
      }
      let changeset = commit.changeset
      // Moved, not copied: the commit's arrays are neither retained nor released again.
      pendingCommit = consume commit
      batchEvents = events
      isCallingAdapter = true
      callApply(adapter, consume changeset)
      isCallingAdapter = false
      retireKeptCallback()
      commitPending()
      batchEvents = BatchEvents()
    }
  }

  private func takeReducer() -> (PresentedState.Commit, BatchEvents) {
    var commit = batchReducer.finish(mapping: mapping)
    commit.changeset.storeSectionSets()
    if let moves = expectedMovesAcross.take() {
      applyingMovesAcross = pairMovesAcross(moves, in: &commit.changeset)
    }
    // Kept until `updateData` (and retired before the presented state changes): until then the
    // adapter's paths are followed to the model through it.
    let events = batchReducer.events
    if commit.changeset.isEmpty {
      retireReducer()
    } else {
      reducerRole = .applying
    }
    return (commit, events)
  }

  /// Switches the data source to the state after the changeset being applied.
  func commitPending() {
    guard let commit = pendingCommit.take() else { return }
    let survivors = selectedSurvivors(of: commit.changeset)
    // Each cleared only when set: a single change (the most common batch) sets neither, and
    // writing them costs more than reading them.
    if reducerRole == .applying { retireReducer() }
    if !applyingMovesAcross.isEmpty { applyingMovesAcross = [:] }
    applyingSingle = nil
    applyCommit(commit, survivors: survivors)
    // Applied, its list of new counts goes back to the reducer for the next batch.
    if commit.recounted.capacity > 0 && reducerRole == .spare {
      batchReducer.reuseRecounted(of: consume commit)
    }
  }
}

/// What the coordinator's one reducer (``Coordinator/batchReducer``) is doing.
///
/// One reducer serves every batch in turn, in place: it reduces the open batch, then follows the
/// adapter's paths through the changeset being applied until `updateData`, then waits, emptied,
/// with its arrays kept, for the next batch. Never two at once: a change made while a changeset
/// is applied commits it first. Moving a reducer (about 40 words) between slots for each role
/// cost six copies a batch.
enum ReducerRole: UInt8, CustomStringConvertible {
  /// It reduces the open batch's events.
  case open
  /// Its batch's changeset is being applied; it follows the adapter's paths to the model.
  case applying
  /// Emptied, its arrays kept for the next batch (or new).
  case spare

  var description: String {
    switch self {
    case .open: return "open"
    case .applying: return "applying"
    case .spare: return "spare"
    }
  }
}
