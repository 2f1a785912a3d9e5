import Foundation

/// The coordinator's state machine (``CoordinatorPhase``): `idle` → `batching` (events recorded)
/// → `delivering` (the adapter is handed a changeset or a reload) → `idle`, or `detached` when a
/// reload is owed and no adapter is attached.
extension Coordinator {
  // MARK: Reading the phase

  /// The open batch: the one being recorded (`batching`), or the next one (`delivering`).
  var openBatch: OpenBatch? {
    switch phase {
    case .idle, .detached: return nil
    case .batching(let batch): return batch
    case .delivering(let delivery): return delivery.batch
    }
  }

  /// What the open batch has recorded (between batches: nothing, or a reload when detached).
  var batchDraft: BatchDraft {
    switch phase {
    case .idle: return .empty
    case .detached(let stale): return .reload(presentedIsStale: stale)
    case .batching(let batch): return batch.draft
    case .delivering(let delivery): return delivery.batch.draft
    }
  }

  /// The batch depth (see ``OpenBatch/depth``).
  var depth: Int { openBatch?.depth ?? 0 }

  /// A reload is owed to the adapter (invalidate-all, a replaced provider, no adapter attached).
  var needsReload: Bool {
    if case .reload = batchDraft { return true }
    return false
  }

  /// With no adapter attached: the model changed since ``presented`` was read from it, which
  /// holds no section meanwhile (a removed section is released when it is removed).
  var presentedIsStale: Bool {
    if case .reload(let stale) = batchDraft { return stale }
    return false
  }

  /// The open batch's only event so far, when it is an element change.
  var singleChange: SingleChange? {
    if case .single(let single) = batchDraft { return single }
    return nil
  }

  /// The adapter call running while delivering, if any.
  var adapterCall: AdapterCall {
    if case .delivering(let delivery) = phase { return delivery.call }
    return .none
  }

  /// Whether the adapter is inside `apply` or `reloadData` (selection news wait until it returns).
  var isCallingAdapter: Bool {
    if case .none = adapterCall { return false }
    return true
  }

  /// What follows the adapter's paths through the changeset being applied, until the adapter
  /// commits it (``pendingCommit``).
  var pendingFollower: ChangeFollower? {
    if case .apply(let follower) = adapterCall { return follower }
    return nil
  }

  /// Whether a changeset is being applied that the adapter has not committed yet.
  var hasPendingCommit: Bool { pendingFollower != nil }

  /// Whether the sections the adapter shows are the model's, at the same positions: no event
  /// recorded, no reload owed, no changeset waiting for `updateData`.
  var presentsModel: Bool {
    switch phase {
    case .idle: return true
    case .detached: return false
    case .batching(let batch): return batch.draft.isEmpty
    case .delivering(let delivery):
      guard delivery.batch.draft.isEmpty else { return false }
      if case .apply(let follower) = delivery.call { return follower == nil }
      return true
    }
  }

  /// What ``batchReducer`` is doing now.
  var reducerRole: ReducerRole {
    if case .reducing = batchDraft { return .open }
    if case .reducer = pendingFollower { return .applying }
    return .spare
  }

  // MARK: Writing the phase

  /// Changes the open batch (there must be one) with `body`.
  func updateBatch(_ body: (inout OpenBatch) -> Void) {
    switch phase {
    case .idle, .detached:
      preconditionFailure("Coordinator: no batch is open (\(state))")
    case .batching(var batch):
      body(&batch)
      phase = .batching(batch)
    case .delivering(var delivery):
      body(&delivery.batch)
      phase = .delivering(delivery)
    }
  }

  /// Sets what the open batch has recorded; between batches, a reload owed makes the coordinator
  /// `detached`, nothing owed `idle`.
  func setDraft(_ draft: BatchDraft) {
    switch phase {
    case .idle, .detached:
      switch draft {
      case .empty: phase = .idle
      case .reload(let stale): phase = .detached(presentedIsStale: stale)
      case .single, .reducing:
        preconditionFailure("Coordinator: an event was recorded outside a batch")
      }
    case .batching, .delivering: updateBatch { $0.draft = draft }
    }
  }

  /// Sets the adapter call running (only while delivering).
  func setAdapterCall(_ call: AdapterCall) {
    guard case .delivering(var delivery) = phase else {
      preconditionFailure("Coordinator: the adapter was called outside a delivery (\(state))")
    }
    delivery.call = call
    phase = .delivering(delivery)
  }

  // MARK: Transitions

  func beginBatch(ofMapping: Bool = false) {
    switch phase {
    case .idle:
      phase = .batching(OpenBatch(depth: 1, countsMappingBatch: ofMapping))
    case .detached(let stale):
      phase = .batching(
        OpenBatch(depth: 1, countsMappingBatch: ofMapping, draft: .reload(presentedIsStale: stale)))
    case .batching, .delivering:
      updateBatch {
        $0.depth += 1
        if ofMapping { $0.countsMappingBatch = true }
      }
    }
    checkInvariants()
  }

  func endBatch(ofMapping: Bool = false) {
    precondition(depth > 0, "Coordinator: a batch ended that never began")
    var depth = 0
    updateBatch {
      $0.depth -= 1
      if ofMapping { $0.countsMappingBatch = false }
      depth = $0.depth
    }
    guard depth == 0 else { return checkInvariants() }
    uncoverElementEvents()
    settleAdapterMove()
    switch phase {
    case .batching: flush()
    case .delivering(let delivery):
      if case .none = delivery.call { flush() } else { checkInvariants() }
    case .idle, .detached: break
    }
  }

  /// The old mapping's open batch, if any, will never be closed: it no longer counts. A batch
  /// left open only by it stays recorded, and is delivered by the next flush.
  func forgetMappingBatch() {
    guard openBatch?.countsMappingBatch == true else { return }
    updateBatch {
      $0.countsMappingBatch = false
      $0.depth -= 1
    }
  }

  /// Whether a change made now, while the coordinator is handing changes out, can be delivered
  /// at once: it can unless the adapter is inside `apply` or `reloadData`. (Between those calls the
  /// coordinator tells handlers and the adapter what they are owed; what those calls change is
  /// delivered before the next one, so that each handler call sees the model the adapter shows.)
  var canFlushWhileApplying: Bool {
    guard case .delivering(let delivery) = phase, case .none = delivery.call else { return false }
    return true
  }

  func record(_ event: SectionProviderMapping.Event) {
    guard depth > 0 else {
      // The mapping always brackets; a bare event is a batch of one.
      beginBatch()
      record(event)
      endBatch()
      return
    }
    // A change made while a changeset is being applied starts the next batch from the state the
    // adapter is switching to.
    commitPending()
    if interceptAdapterMove(event) { return }
    guard adapter != nil else { return detachFromModel() }
    let draft = batchDraft
    if case .invalidateAll = event {
      dropSelectionForReload()
      oweReload()
      return
    }
    switch draft {
    case .reducing: batchReducer.apply(event)
    case .reload: dropSelectionForReload()
    case .empty:
      if case .element(let change, let section) = event {
        recordSingle(change, inSection: section)
      } else {
        startReducer()
        batchReducer.apply(event)
      }
    case .single:
      reduceSingle()
      batchReducer.apply(event)
    }
  }

  /// The model changed while no adapter is attached: a reload is owed to the next one, and the
  /// presented state, emptied (it holds no section meanwhile), is read again when asked for.
  func detachFromModel() {
    dropSelectionForReload()
    oweReload(presentedIsStale: true)
    presented = PresentedState()
  }

  /// Makes the open batch (or, between batches, the next adapter's start) a reload, dropping
  /// what it recorded.
  func oweReload(presentedIsStale: Bool = false) {
    dropBatchEvents()
    setDraft(.reload(presentedIsStale: presentedIsStale || self.presentedIsStale))
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
    setDraft(.reducing)
  }

  /// Keeps the reducer, done with, for the next batch: emptied of what it shares with the
  /// presented state, or replaced by an empty one when its arrays grew too large to keep. The
  /// caller takes it out of the phase.
  func retireReducer() {
    if batchReducer.isWorthKeeping {
      batchReducer.retire()
    } else {
      batchReducer = BatchReducer(presented: PresentedState())
    }
  }

  /// A reload is owed; it is delivered now unless a batch is open or a changeset is being applied
  /// (then when that ends). A batch left open only by a replaced mapping is no longer open.
  func scheduleReload() {
    oweReload()
    guard depth == 0 else { return checkInvariants() }
    switch phase {
    case .delivering(let delivery):
      if case .none = delivery.call { flush() } else { checkInvariants() }
    case .idle, .detached, .batching: flush()
    }
  }

  /// Hands the adapter everything owed to it, including batches queued while applying.
  func flush() {
    let nested: Bool
    switch phase {
    case .idle:
      phase = .delivering(Delivery(batch: OpenBatch()))
      nested = false
    case .detached(let stale):
      phase = .delivering(Delivery(batch: OpenBatch(draft: .reload(presentedIsStale: stale))))
      nested = false
    case .batching(let batch):
      phase = .delivering(Delivery(batch: batch))
      nested = false
    case .delivering:
      nested = true
    }
    checkInvariants()
    defer {
      if !nested { endDelivery() }
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
        guard let adapter else { break }
        setDraft(.empty)
        resetPresented()
        setAdapterCall(.reloadData)
        adapter.reloadData(from: self)
        setAdapterCall(.none)
        reannounceSelection(to: adapter)
        continue
      }
      guard batchHasEvents else { break }
      // Events are recorded only while an adapter is attached (detaching drops them).
      guard let adapter else { preconditionFailure("Coordinator: events recorded with no adapter") }
      // Read the reducer off and drop it before the presented state changes: it shares the
      // presented counts, and holding them would copy them on the first write.
      let (commit, follower, events) = takeDraft()
      if commit.changeset.isEmpty {
        applyCommit(commit)
        continue
      }
      batchEvents = events
      deliver(consume commit, following: follower, to: adapter)
      batchEvents = BatchEvents()
    }
  }

  /// Hands `commit`'s changeset to `adapter` and commits it when the adapter has not.
  func deliver(
    _ commit: consuming PresentedState.Commit, following follower: ChangeFollower,
    to adapter: any ViewAdapter
  ) {
    let changeset = commit.changeset
    // Moved, not copied: the commit's arrays are neither retained nor released again.
    pendingCommit = consume commit
    setAdapterCall(.apply(follower))
    callApply(adapter, consume changeset)
    let survivors = pendingSurvivors()
    let pending = takePendingCommit(endingCall: true)
    retireKeptCallback()
    if let (commit, follower) = pending {
      self.commit(consume commit, following: follower, survivors: survivors)
    }
  }

  /// The end of the outermost delivery: a batch still open goes on recording; otherwise the
  /// coordinator is detached when a reload is owed (no adapter is attached), idle when nothing
  /// is, `batching` at depth 0 when a batch recorded meanwhile waits for the flush that follows
  /// (only after ``applyOwnBatch(_:inSection:)``).
  func endDelivery() {
    guard case .delivering(let delivery) = phase else { return }
    let batch = delivery.batch
    if batch.depth > 0 {
      phase = .batching(batch)
      return
    }
    switch batch.draft {
    case .empty: phase = .idle
    case .reload(let stale): phase = .detached(presentedIsStale: stale)
    case .single, .reducing: phase = .batching(batch)
    }
  }

  /// Reads the open batch's events off as a commit, leaving the batch empty: the follower of its
  /// changeset until `updateData`, and its events for diagnostics. The moves across sections
  /// made in the changeset go to ``applyingMovesAcross``.
  private func takeDraft() -> (PresentedState.Commit, ChangeFollower, BatchEvents) {
    if let single = singleChange {
      setDraft(.empty)
      let commit = single.commit(oldCount: presented.counts[single.section], spare: &spareArrays)
      return (commit, .single(single), BatchEvents(first: single.event))
    }
    var commit = batchReducer.finish(mapping: mapping)
    commit.changeset.storeSectionSets()
    if let moves = expectedMovesAcross.take() {
      applyingMovesAcross = pairMovesAcross(moves, in: &commit.changeset)
    }
    // Read off as reloads, placed and converted as reloads are (rule B3): the reloads of elements
    // only reconfigured in the batch are reconfigures.
    commit.changeset.separateReconfigures(batchReducer.reconfigured)
    // Kept until `updateData` (and retired before the presented state changes): until then the
    // adapter's paths are followed to the model through it.
    let events = batchReducer.events
    setDraft(.empty)
    if commit.changeset.isEmpty {
      retireReducer()
      if !applyingMovesAcross.isEmpty { applyingMovesAcross = [:] }
    }
    return (commit, .reducer, events)
  }

  /// The selected elements the pending changeset deletes although they survived (see
  /// ``selectedSurvivors(of:)``), asked while its reducer still follows it.
  private func pendingSurvivors() -> [IndexPath: IndexPath] {
    guard !handlers.selection.isEmpty, hasPendingCommit, let commit = pendingCommit else {
      return Dictionary()
    }
    return selectedSurvivors(of: commit.changeset)
  }

  /// Switches the data source to the state after the changeset being applied.
  func commitPending() {
    guard hasPendingCommit else { return }
    let survivors = pendingSurvivors()
    let (commit, follower) = takePendingCommit(endingCall: false)!
    self.commit(consume commit, following: follower, survivors: survivors)
  }

  /// Takes the changeset being applied out of the phase, the adapter's `apply` then committed
  /// (`endingCall`: returned). Its arrays are then held by the result alone.
  private func takePendingCommit(endingCall: Bool) -> (PresentedState.Commit, ChangeFollower)? {
    guard case .delivering(var delivery) = phase, case .apply(let follower) = delivery.call else {
      return nil
    }
    delivery.call = endingCall ? .none : .apply(nil)
    phase = .delivering(delivery)
    guard let follower, let commit = pendingCommit.take() else { return nil }
    if !applyingMovesAcross.isEmpty { applyingMovesAcross = [:] }
    return (commit, follower)
  }

  /// Applies `commit`, taken out of the phase, to the presented state.
  private func commit(
    _ commit: consuming PresentedState.Commit, following follower: ChangeFollower,
    survivors: [IndexPath: IndexPath]
  ) {
    if case .reducer = follower { retireReducer() }
    applyCommit(commit, survivors: survivors)
    // Applied, its list of new counts goes back to the reducer for the next batch.
    if commit.recounted.capacity > 0 && reducerRole == .spare {
      batchReducer.reuseRecounted(of: consume commit)
    }
  }

  /// Stops following the changeset being applied (the tree was replaced: its paths lead
  /// nowhere); the adapter's `updateData` still commits it.
  func dropFollower() {
    guard let follower = pendingFollower else { return }
    if case .reducer = follower { retireReducer() }
    if !applyingMovesAcross.isEmpty { applyingMovesAcross = [:] }
    setAdapterCall(.apply(.dropped))
  }
}
