import Foundation

/// The one-event path: a batch whose only event is an element change is read off directly,
/// without a ``BatchReducer``, and handed out without allocating anything but the changeset's
/// own array.
///
/// The first element event of a batch is kept as a ``SingleChange``; a second event of any kind
/// starts the reducer with both, so every rule of the reducer (and every check it makes on the
/// first event) holds unchanged. `CoordinatorSingleChangeTests` checks the read-off against the reducer.
struct SingleChange {
  var change: ElementChange
  /// The global section index, which is the same before and after the batch.
  var section: Int

  /// The event this change was recorded from.
  var event: SectionProviderMapping.Event { .element(change, inSection: section) }

  /// Where the element the adapter shows at `old` is after this change; `nil` when it was
  /// removed (``BatchReducer/newPath(ofOld:)`` for a batch of this one event).
  func newPath(ofOld old: IndexPath) -> IndexPath? {
    guard old[0] == section else { return old }
    return BatchReducer.newIndex(of: old[1], after: change).map {
      IndexPath(item: $0, section: section)
    }
  }

  /// The changeset of this change and what the adapter shows after it, as
  /// ``BatchReducer/finish(mapping:)`` reads it off for a batch of this one event; `oldCount`
  /// is the count of the section before the batch. The new count follows from the change, as
  /// the reducer reads it for a section whose only event it is, without asking the section.
  ///
  /// The changeset's array is `spare`'s when it has room (taken from it): a changeset handed
  /// out earlier whose array nobody kept (see ``Coordinator/keepSpareArray(of:)``).
  func commit(oldCount: Int, spare: inout SpareArrays) -> PresentedState.Commit {
    // Built as `BatchReducer.readOff(_:oldSection:newSection:into:)` reads the change off, in
    // the changeset's storage of one part directly.
    func one(_ index: Int, _ part: Changeset.ElementPart) -> Changeset {
      var paths = spare.takePaths()
      paths.append(IndexPath(item: index, section: section))
      return Changeset(elements: paths, part)
    }
    let changeset: Changeset
    var recount: PresentedState.Recount?
    switch change {
    case .insert(let index):
      changeset = one(index, .inserted)
      recount = .init(index: section, count: oldCount + 1)
    case .remove(let index):
      changeset = one(index, .deleted)
      recount = .init(index: section, count: oldCount - 1)
    case .update(let index): changeset = one(index, .reloaded)
    case .reconfigure(let index): changeset = one(index, .reconfigured)
    case .move(let from, let to):
      guard from != to else {
        changeset = Changeset()
        break
      }
      var moves = spare.takeMoves()
      moves.append(
        .init(
          from: IndexPath(item: from, section: section), to: IndexPath(item: to, section: section)))
      changeset = Changeset(moves: moves)
    }
    return PresentedState.Commit(changeset: changeset, deleted: [], recount: recount)
  }
}

/// Empty arrays with room, left by changesets of single changes that nobody kept after they
/// were applied: the next single change's changeset is built in one of them, so that a batch of
/// one change allocates nothing while the adapter keeps no changeset.
struct SpareArrays {
  /// At most this many elements of room are kept (a single change needs one).
  static let maximumCapacity = 4

  var paths: [IndexPath] = []
  var moves: [Changeset.Move] = []

  /// The spare array of index paths, leaving none.
  mutating func takePaths() -> [IndexPath] {
    var taken: [IndexPath] = []
    swap(&taken, &paths)
    return taken
  }

  /// The spare array of moves, leaving none.
  mutating func takeMoves() -> [Changeset.Move] {
    var taken: [Changeset.Move] = []
    swap(&taken, &moves)
    return taken
  }
}

/// What the `updateData` closure handed to the adapter calls. The closure captures only this
/// object, which Swift then uses as the closure's context: making the closure allocates nothing.
/// The coordinator keeps one and hands it out again while no adapter kept a closure from an
/// earlier batch (it is then uniquely referenced once `apply` returns); a kept one is cut off
/// (``coordinator`` set to `nil`), so that a late call does nothing, and a new one is made.
final class UpdateDataCallback {
  /// The coordinator while this callback is current; `nil` once cut off. Not `weak`: a callback
  /// is cut off before its coordinator can go away (when `apply` returns), and a weak reference
  /// would make every later retain of the coordinator take the slow path.
  unowned(unsafe) var coordinator: Coordinator?

  init(_ coordinator: Coordinator) {
    self.coordinator = coordinator
  }
}

extension Coordinator {
  /// Whether a batch of one element change, bracketed by the mapping alone, can be handed to the
  /// adapter at once by ``applyOwnBatch(_:inSection:)``: the coordinator is `idle` (so no event
  /// is recorded and no changeset is pending: `flush()` ran to its end), an adapter is attached,
  /// and nothing is owed (no handler or adapter notification, no move of the adapter's awaited).
  var appliesOwnBatchAtOnce: Bool {
    guard case .idle = phase else { return false }
    return adapter != nil && handlers.expectedMove == nil && handlers.notifications.isEmpty
      && handlers.adapterNotifications.isEmpty && coveredLinks.isEmpty
  }

  /// A batch of one element change, bracketed by the mapping alone, while
  /// ``appliesOwnBatchAtOnce`` holds: what `mappingBatchBegan()`, `record(_:)` and
  /// `mappingBatchEnded()` do then (the checks of ``recordSingle(_:inSection:)``, then `flush()`
  /// of a ``SingleChange``), without recording the change first. What the adapter changes while
  /// it applies the changeset is delivered by `flush()` after it, as `flush()` would.
  func applyOwnBatch(_ change: ElementChange, inSection section: Int) {
    let event = SectionProviderMapping.Event.element(change, inSection: section)
    BatchReducer.checkSectionPosition(
      section, inclusive: false, count: presented.counts.count, event)
    BatchReducer.check(change, count: presented.counts[section], event: event)
    phase = .delivering(Delivery(batch: OpenBatch()))
    let single = SingleChange(change: change, section: section)
    let commit = single.commit(oldCount: presented.counts[section], spare: &spareArrays)
    if commit.changeset.isEmpty {
      applyCommit(commit)
    } else {
      batchEvents = BatchEvents(first: event)
      deliver(consume commit, following: .single(single), to: adapter!)
      batchEvents = BatchEvents()
    }
    // Owed now: what the adapter (or a late handler) changed while it applied.
    let owed =
      batchHasEvents || needsReload || !handlers.notifications.isEmpty
      || !handlers.adapterNotifications.isEmpty
    endDelivery()
    if owed { flush() } else { checkInvariants() }
  }

  /// Records the first event of a batch, an element change, as a ``SingleChange``, with the
  /// checks the reducer makes on a first event.
  func recordSingle(_ change: ElementChange, inSection section: Int) {
    let counts = presented.counts
    let event = SectionProviderMapping.Event.element(change, inSection: section)
    BatchReducer.checkSectionPosition(section, inclusive: false, count: counts.count, event)
    BatchReducer.check(change, count: counts[section], event: event)
    setDraft(.single(SingleChange(change: change, section: section)))
  }

  /// Starts the reducer with the recorded single change, when there is one: a second event
  /// arrived.
  func reduceSingle() {
    guard let single = singleChange else { return }
    setDraft(.empty)
    startReducer()
    batchReducer.apply(single.event)
  }

  /// Whether the open batch has recorded an event (in a reducer or as a single change).
  var batchHasEvents: Bool {
    switch batchDraft {
    case .single, .reducing: return true
    case .empty, .reload: return false
    }
  }

  /// Whether the adapter's paths must be followed to the model: a batch is open with events, or
  /// a changeset is being applied and the adapter has not called `updateData`.
  var isFollowingChanges: Bool {
    if batchHasEvents { return true }
    switch pendingFollower {
    case .reducer, .single: return true
    case .dropped, nil: return false
    }
  }

  /// Drops the events of the open batch (a reload supersedes them).
  func dropBatchEvents() {
    switch batchDraft {
    case .reducing:
      retireReducer()
      setDraft(.empty)
    case .single: setDraft(.empty)
    case .empty, .reload: break
    }
    expectedMovesAcross = nil
  }

  /// Hands `changeset` to the adapter with an `updateData` closure that allocates nothing (see
  /// ``UpdateDataCallback``). A function of its own, so that the closure is released when it
  /// returns and the callback's uniqueness can be checked.
  @inline(never)
  func callApply(_ adapter: any ViewAdapter, _ changeset: consuming Changeset) {
    if updateDataCallback == nil { updateDataCallback = UpdateDataCallback(self) }
    let callback = updateDataCallback!
    adapter.apply(changeset, from: self) { [callback] in callback.coordinator?.commitPending() }
    keepSpareArray(of: consume changeset)
  }

  /// Keeps the array of `changeset`, applied and handed back by the adapter, as a spare for the
  /// next single change (``SpareArrays``), when it is the one element part of a small changeset
  /// and the commit no longer holds it; the lists of a changeset of several parts go to the spare
  /// reducer, for the next batch's changeset. Emptying it keeps its buffer when nobody else holds the
  /// array; when the adapter kept the changeset, it allocates the buffer the next single change
  /// would have allocated.
  func keepSpareArray(of changeset: consuming Changeset) {
    guard !hasPendingCommit else { return }
    var paths: [IndexPath] = []
    var moves: [Changeset.Move] = []
    switch changeset.storage {
    case .elements(let held, _): paths = held
    case .moves(let held): moves = held
    case .parts(var parts):
      // A batch's changeset: its lists go to the next batch's reducer, unless the adapter kept it.
      changeset = Changeset()
      if reducerRole == .spare && isKnownUniquelyReferenced(&parts) {
        batchReducer.reuseLists(of: parts)
      }
      return
    case .empty: return
    }
    // The changeset's reference dropped, the array holds the only one unless the adapter kept it.
    changeset = Changeset()
    if paths.capacity > 0 && paths.capacity <= SpareArrays.maximumCapacity {
      paths.removeAllKeepingBuffer()
      spareArrays.paths = paths
    }
    if moves.capacity > 0 && moves.capacity <= SpareArrays.maximumCapacity {
      moves.removeAllKeepingBuffer()
      spareArrays.moves = moves
    }
  }

  /// After `apply` returned: a callback the adapter kept is cut off, so that a late call does
  /// nothing; the next batch makes a new one.
  func retireKeptCallback() {
    guard !isKnownUniquelyReferenced(&updateDataCallback) else { return }
    updateDataCallback?.coordinator = nil
    updateDataCallback = nil
  }
}
