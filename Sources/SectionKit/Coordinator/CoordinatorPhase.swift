import Foundation

/// What the coordinator is doing, as one value: every combination of its parts that can be
/// written is one the coordinator can be in. `Docs/Architecture.md` ("The coordinator's states")
/// draws the transitions; ``Coordinator/checkInvariants()`` checks each state.
///
/// ```
/// idle ──event──► batching ──outermost bracket closes──► delivering ──nothing owed──► idle
///   detached ──event──► batching(reload)      delivering ──reload owed, no adapter──► detached
///                                             delivering ──bracket still open──► batching
/// ```
///
/// What is not here, and why: ``Coordinator/presented``, ``Coordinator/batchReducer``,
/// ``Coordinator/spareArrays`` and the `updateData` callback are buffers kept across batches for
/// their storage; the commit of the changeset being applied (``Coordinator/pendingCommit``, with
/// ``Coordinator/applyingMovesAcross``) is beside the phase, which says whether there is one
/// (``AdapterCall/apply(_:)``), because every value here is plain: with the commit in a payload,
/// each read of the phase retained and released its arrays and copied the enum out of line, some
/// 780 instructions a single change in the outlined copies alone, beside the retains (callgrind,
/// `sectionkit-bench allocations changes`); the selection and
/// editing state (``Coordinator/handlers``) have their own life across batches;
/// ``Coordinator/expectedMovesAcross`` is a hint given before the batch it is for opens.
enum CoordinatorPhase {
  /// Between batches: nothing recorded, nothing owed to an attached adapter (or, with none
  /// attached, the model has not changed since ``Coordinator/presented`` was read from it).
  case idle
  /// Between batches with no adapter attached after the model changed: the next adapter starts
  /// with a reload. `presentedIsStale`: ``Coordinator/presented`` was emptied when the model
  /// changed (no section is held meanwhile) and is read again when asked for.
  case detached(presentedIsStale: Bool)
  /// A batch is open: the model is changing, the adapter still shows the old state.
  case batching(OpenBatch)
  /// Handing out what is owed: changesets, reloads, handler and adapter notifications. Changes
  /// made meanwhile are the next batch (``Delivery/batch``).
  case delivering(Delivery)
}

/// A batch being recorded: its bracket depth and what it has recorded so far.
struct OpenBatch {
  /// The batch depth: the mapping's open batch (at most one) plus the coordinator's own
  /// `performBatchUpdates`. Zero only while delivering (a batch of one recorded while the adapter
  /// is called waits there), or for the moment between the outermost end and the flush.
  var depth = 0
  /// Whether ``depth`` counts a batch the current mapping opened (and will close).
  var countsMappingBatch = false
  /// What the batch has recorded.
  var draft = BatchDraft.empty
}

/// What the open batch has recorded.
enum BatchDraft {
  /// Nothing yet.
  case empty
  /// One element change, read off without a reducer (see `Coordinator+SingleChange.swift`).
  case single(SingleChange)
  /// Events in ``Coordinator/batchReducer``.
  case reducing
  /// The batch is a reload (invalidate-all, a replaced provider, an adapter attached or none
  /// attached, a move of the adapter's that the model did not make): its events are dropped.
  /// `presentedIsStale` as in ``CoordinatorPhase/detached(presentedIsStale:)``.
  case reload(presentedIsStale: Bool)

  /// Whether nothing is recorded and no reload owed.
  var isEmpty: Bool {
    if case .empty = self { return true }
    return false
  }
}

/// The coordinator while it hands out what is owed.
struct Delivery {
  /// The next batch: what is recorded meanwhile, with the brackets opened meanwhile.
  var batch: OpenBatch
  /// The adapter call running, if any.
  var call = AdapterCall.none
}

/// The adapter call the coordinator is inside while delivering.
enum AdapterCall {
  /// None: handlers and the adapter are told what they are owed; a change made now is
  /// delivered at once.
  case none
  /// `reloadData(from:)`.
  case reloadData
  /// `apply(_:from:updateData:)`, with what follows the adapter's paths through the changeset
  /// until the adapter calls `updateData` (`nil` after): while it is set, the changeset's commit
  /// is ``Coordinator/pendingCommit``.
  case apply(ChangeFollower?)
}

/// What follows the adapter's paths through a changeset being applied.
enum ChangeFollower {
  /// The reducer (``Coordinator/batchReducer``) that read the changeset off, with the moves
  /// across sections made in it (``Coordinator/applyingMovesAcross``), which the reducer, which
  /// saw a removal and an insertion, does not know.
  case reducer
  /// The single change it was read off from.
  case single(SingleChange)
  /// None: the tree was replaced meanwhile, its old paths lead nowhere.
  case dropped
}

/// What the coordinator's one reducer (``Coordinator/batchReducer``) is doing, read off the
/// coordinator's phase.
///
/// One reducer serves every batch in turn, in place: it reduces the open batch, then follows the
/// adapter's paths through the changeset being applied until `updateData`, then waits, emptied,
/// with its arrays kept, for the next batch. Never two at once: a change made while a changeset
/// is applied commits it first.
enum ReducerRole: UInt8, CustomStringConvertible {
  /// It reduces the open batch's events (``BatchDraft/reducing``).
  case open
  /// Its batch's changeset is being applied (``ChangeFollower/reducer``).
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
