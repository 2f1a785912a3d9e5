import Foundation

/// Listens to a whole tree of sections and providers, folds every change made inside a batch into
/// one ``Changeset`` that is valid under UIKit's `performBatchUpdates` rules, and hands it to a
/// ``ViewAdapter``.
///
/// ```swift
/// let contacts = ComposedSectionProvider()
/// let family: ArraySection<String> = ["Mum", "Dad"]
/// contacts.append(family)
///
/// let coordinator = Coordinator(sectionProvider: contacts)
/// coordinator.adapter = myAdapter            // myAdapter.reloadData(from:)
///
/// contacts.performBatchUpdates {
///     family.append("Gran")
///     family.remove(at: 0)
/// }                                          // myAdapter.apply(one changeset, …)
/// ```
///
/// **Batches.** One changeset per outermost batch, whatever happens inside it, at any depth, through
/// any number of nested `performBatchUpdates`. A change made outside any batch is a batch of one.
/// An invalidate-all inside a batch turns the whole batch into a reload.
///
/// **Data source.** The coordinator answers ``numberOfSections``, ``numberOfElements(inSection:)``,
/// ``section(at:)`` and ``sectionAndIndex(for:)`` for the state the adapter was last told about —
/// never ahead of a changeset it has not applied. Inside ``ViewAdapter/apply(_:from:updateData:)``
/// the answers switch from old to new when the adapter calls `updateData`.
///
/// **Re-entrancy.** A change made while a changeset is being applied (by the adapter or a handler)
/// becomes the next batch, delivered when `apply` returns.
///
/// **No adapter.** Changes made while no adapter is attached are not lost: the next adapter starts
/// with a reload of the current state.
///
/// - Complexity: a batch of k events costs O(k log k) time and memory, whatever the size of the
///   tree (plus moving the flat section list when sections are inserted or removed).
public final class Coordinator {
  /// What the coordinator is doing.
  public enum State: Hashable, Sendable {
    /// Between batches.
    case idle
    /// Inside a batch: the model is changing, the adapter still shows the old state.
    case batching
    /// Handing a changeset (or reload) to the adapter.
    case applying
  }

  /// The root of the tree.
  public private(set) var sectionProvider: any SectionProvider
  /// The mapping that flattens the tree; its delegate is this coordinator.
  // `mapping` and `adapter` skip the exclusivity checks as the properties below (every event and
  // every batch read them).
  @exclusivity(unchecked) public private(set) var mapping: SectionProviderMapping

  /// The adapter shown the tree. Setting one makes it reload; `nil` detaches the current one.
  @exclusivity(unchecked) public var adapter: (any ViewAdapter)? {
    didSet {
      guard adapter !== oldValue else { return }
      if adapter != nil {
        scheduleReload()
      } else if batchHasEvents {
        // What the batch recorded will never be applied: the next adapter reloads.
        detachFromModel()
      }
    }
  }

  /// What the coordinator is doing now: ``State/idle`` between batches (with or without an
  /// adapter), ``State/batching`` while a batch is open, ``State/applying`` while it hands out a
  /// changeset, a reload or the calls owed to handlers and the adapter.
  public var state: State {
    switch phase {
    case .idle, .detached: return .idle
    case .batching: return .batching
    case .delivering: return .applying
    }
  }

  // The stored properties marked `@exclusivity(unchecked)` skip Swift's dynamic exclusivity
  // checks: a single change through the coordinator touches them about fourteen times, and in a
  // build without `@exclusivity(unchecked)` the calls to `swift_beginAccess` from the
  // coordinator's methods cost about 1,070 instructions a change on their own (more in the
  // runtime's access set), where the whole change costs 2,170 with them unchecked (callgrind,
  // release, `sectionkit-bench allocations changes 100000` minus `changes 0`). Every access is
  // from the coordinator's own methods, never overlapping (no inout access spans a call out).

  /// What the coordinator is doing, with what each state holds: one value, so that no illegal
  /// combination can be written (see ``CoordinatorPhase``).
  @exclusivity(unchecked) var phase = CoordinatorPhase.idle

  /// The events of the batch being reduced or applied, for diagnostics (empty between batches).
  public var currentBatchEvents: [SectionProviderMapping.Event] { batchEvents.events }
  /// The events behind ``currentBatchEvents``, kept as the reducer recorded them and turned into
  /// an array only when asked for (most adapters never ask).
  @exclusivity(unchecked) var batchEvents = BatchEvents()

  /// The changeset being applied, with what the adapter will show after it, until the adapter
  /// calls `updateData`: set exactly while ``phase`` is `delivering` inside `apply` with a
  /// follower (``AdapterCall/apply(_:)``). Beside the phase, not in it: see ``CoordinatorPhase``.
  @exclusivity(unchecked) var pendingCommit: PresentedState.Commit?
  /// The moves across sections of ``pendingCommit``'s changeset, old path → new path (empty
  /// unless its follower is the reducer).
  @exclusivity(unchecked) var applyingMovesAcross: [IndexPath: IndexPath] = [:]

  // The buffers below live across batches for their storage, outside ``phase``: a payload that
  // held them would be moved (or copied, when shared) on every change of state.

  /// What the adapter shows (or will show once it calls `updateData`).
  @exclusivity(unchecked) var presented: PresentedState
  /// The coordinator's one reducer, in place for every batch; ``reducerRole`` says what it is
  /// doing (see ``ReducerRole``).
  @exclusivity(unchecked) var batchReducer = BatchReducer(presented: PresentedState())
  /// Elements the open batch moves between sections (a snapshot apply that is a batch of its
  /// own), noted before the batch opens: read off as moves where UIKit reads them so (see
  /// `Coordinator+MovesAcross.swift`).
  var expectedMovesAcross: [ElementMoveAcross]?
  /// What the `updateData` closures call, reused while no adapter keeps one.
  @exclusivity(unchecked) var updateDataCallback: UpdateDataCallback?
  /// The arrays of applied single changes that nobody kept, for the next ones.
  @exclusivity(unchecked) var spareArrays = SpareArrays()
  /// Selection, editing and moves of the opt-in handlers (see `Coordinator+Selection.swift`).
  @exclusivity(unchecked) var handlers = HandlerState()
  /// The links of the sections inserted in the open batch that drop their element events (see
  /// `Coordinator+InsertedSections.swift`); empty unless a batch is open.
  @exclusivity(unchecked) var coveredLinks: [ChildLink] = []

  /// Creates a coordinator for the tree rooted at `sectionProvider`, which becomes the root of a
  /// new ``SectionProviderMapping`` (so it must not have a parent or another mapping).
  public init(sectionProvider: any SectionProvider) {
    self.sectionProvider = sectionProvider
    self.mapping = SectionProviderMapping(sectionProvider: sectionProvider)
    self.presented = PresentedState(mapping: mapping)
    mapping.delegate = self
  }

  deinit {
    // The mapping holds its coordinator without a weak reference (see
    // `SectionProviderMapping.coordinator`): clear it, for a mapping that outlives this one.
    if mapping.coordinator === self { mapping.delegate = nil }
  }

  /// Replaces the whole tree; the adapter gets a reload, not a changeset.
  ///
  /// It may be called anywhere: between batches, inside a batch of the old tree or of the new one
  /// (what the old tree's batch changed is superseded by the reload), from a handler, or from the
  /// adapter while it applies a changeset. `sectionProvider` may be the current root (a forced
  /// reload). The old ``mapping`` is detached from its root and hears nothing more.
  public func replace(sectionProvider: any SectionProvider) {
    mapping.delegate = nil
    mapping.detach()
    // The old mapping's open batch, if any, will never be closed here: it no longer counts.
    forgetMappingBatch()
    let newMapping = SectionProviderMapping(sectionProvider: sectionProvider)
    self.sectionProvider = sectionProvider
    self.mapping = newMapping
    newMapping.delegate = self
    dropBatchEvents()
    dropFollower()
    batchEvents = BatchEvents()
    dropSelectionForReload()
    scheduleReload()
  }

  /// Groups every change made in `updates`, anywhere in the tree, into one batch.
  public func performBatchUpdates<R>(_ updates: () throws -> R) rethrows -> R {
    beginBatch()
    defer { endBatch() }
    return try updates()
  }

  // MARK: Data source

  /// The number of sections the adapter shows.
  ///
  /// - Complexity: O(1).
  public var numberOfSections: Int { current.counts.count }

  /// The number of elements the adapter shows in `section`; traps when out of range.
  public func numberOfElements(inSection section: Int) -> Int {
    current.checkSection(section, "numberOfElements(inSection:)")
    return current.counts[section]
  }

  /// The section the adapter shows at `index`; traps when out of range.
  public func section(at index: Int) -> any Section {
    current.checkSection(index, "section(at:)")
    return current.sections[index]
  }

  /// The section and local element index behind a global index path the adapter shows; traps
  /// when the path is malformed or out of range.
  ///
  /// The index is where the element is in the section *now*, so that reading the section there
  /// gives that element's value. Between batches it is the path's own; inside a batch, or inside
  /// ``ViewAdapter/apply(_:from:updateData:)`` before `updateData`, where the adapter still shows
  /// the old state while the sections already hold the new one, the element is followed by
  /// identity to where it is now. An element the batch deleted has no value any more: asking for
  /// it traps; ``element(_:)`` answers ``ElementLookupError/deletedInBatch(_:)`` instead.
  public func sectionAndIndex(for indexPath: IndexPath) -> (section: any Section, index: Int) {
    let shown = current.locate(indexPath)
    guard isFollowingChanges else { return shown }
    guard let found = followedToModel(indexPath) else {
      preconditionFailure(
        "Coordinator.sectionAndIndex(for:): \(format(indexPath)) was deleted by the changeset "
          + "being applied (or the open batch), so its value is no longer in the model; read the "
          + "values that left from your own copy, or ask with element(_:), which throws")
    }
    return found
  }

  /// The presented state; with no adapter attached, the model as it is now.
  var current: PresentedState {
    if presentedIsStale && adapter == nil {
      resetPresented()
    }
    return presented
  }
}

/// The coordinator is its mapping's delegate: it reduces the events of each batch.
extension Coordinator: SectionProviderMappingDelegate {
  public func mapping(
    _ mapping: SectionProviderMapping, didReceive event: SectionProviderMapping.Event
  ) {
    guard mapping === self.mapping else { return }
    switch event {
    case .willBeginUpdating: mappingBatchBegan()
    case .didEndUpdating: mappingBatchEnded()
    default: record(event)
    }
  }

  /// The mapping opened its batch (its root's outermost bracket).
  func mappingBatchBegan() {
    beginBatch(ofMapping: true)
  }

  /// The mapping closed its batch.
  func mappingBatchEnded() {
    endBatch(ofMapping: true)
  }
}
