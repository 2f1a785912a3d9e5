import Foundation

/// Adapter-initiated moves, routed to ``MoveHandler`` sections without echoing them back.
extension Coordinator {
  /// Whether the element at `indexPath` can be moved: its section is a ``MoveHandler`` that says
  /// so.
  public func canMove(_ indexPath: IndexPath) -> Bool {
    let (section, index) = current.locate(indexPath)
    return (section as? any MoveHandler)?.canMove(at: index) ?? false
  }

  /// Where an element dragged from `source` towards `proposed` may go, or `nil` when it cannot
  /// move. Moves stay in the source's section: a proposal in another section is clamped to the
  /// nearest end of the source's section, then the section's
  /// ``MoveHandler/targetIndex(sourceIndex:proposedIndex:)`` decides (clamped to its range).
  ///
  /// A UIKit adapter answers `targetIndexPathForMoveFromItemAt:toProposedIndexPath:` with it.
  public func targetIndexPath(forMoveFrom source: IndexPath, proposed: IndexPath) -> IndexPath? {
    let (section, index) = current.locate(source)
    guard let handler = section as? any MoveHandler, handler.canMove(at: index) else { return nil }
    precondition(
      proposed.count == 2,
      "Coordinator.targetIndexPath(forMoveFrom:proposed:): \(proposed) is not a [section, element] "
        + "path")
    let count = current.counts[source[0]]
    let proposedIndex: Int
    if proposed[0] < source[0] {
      proposedIndex = 0
    } else if proposed[0] > source[0] {
      proposedIndex = count - 1
    } else {
      proposedIndex = Swift.max(0, Swift.min(proposed[1], count - 1))
    }
    let target = handler.targetIndex(sourceIndex: index, proposedIndex: proposedIndex)
    return IndexPath(item: Swift.max(0, Swift.min(target, count - 1)), section: source[0])
  }

  /// The adapter moved the element at `from` to `to` in its view (an interactive move the user
  /// finished); the section updates its model.
  ///
  /// When the section is a ``MoveHandler`` that ``MoveHandler/canMove(at:)`` the element and
  /// whose ``targetIndexPath(forMoveFrom:proposed:)`` for `to` is `to` itself, the coordinator
  /// calls ``MoveHandler/didMove(from:to:)``. The section's move event is **not** echoed back as a
  /// changeset — the view already shows the move — but the selection follows it; anything else
  /// the section changes in the same call reaches the adapter as a normal changeset, relative to
  /// the moved state.
  ///
  /// When the move is refused or redirected, or the section does not emit exactly that move as
  /// its first event, the view and the model disagree in a way no changeset can describe: the
  /// adapter gets a reload (ask ``targetIndexPath(forMoveFrom:proposed:)`` while dragging so that
  /// this does not happen).
  ///
  /// Call it between batches (not while a batch is open or a changeset is being applied).
  ///
  /// Traps when either path is out of the range the adapter shows.
  ///
  /// - Returns: whether the section performed the move (`true` for a move to the same place).
  @discardableResult
  public func moveElement(from: IndexPath, to: IndexPath) -> Bool {
    precondition(
      state == .idle,
      "Coordinator.moveElement(from:to:): called while a batch is open or a changeset is being "
        + "applied; report adapter moves between batches")
    _ = current.locate(from)
    _ = current.locate(to)
    guard from != to else { return true }
    guard let target = targetIndexPath(forMoveFrom: from, proposed: to), target == to,
      let handler = current.sections[from[0]] as? any MoveHandler
    else {
      scheduleReload()
      return false
    }
    handlers.expectedMove = (from[0], from[1], to[1])
    performBatchUpdates { handler.didMove(from: from[1], to: to[1]) }
    guard handlers.expectedMove == nil else {
      // The section emitted nothing: the view shows a move the model did not make.
      handlers.expectedMove = nil
      dropSelectionForReload()
      scheduleReload()
      deliverHandlerNotifications()
      return false
    }
    return handlers.lastMoveAccepted
  }

  /// Consumes the first event of an adapter-initiated move's batch. Returns whether the event
  /// was handled here (the expected move, or a mismatch that forces a reload).
  func interceptAdapterMove(_ event: SectionProviderMapping.Event) -> Bool {
    guard let expected = handlers.expectedMove else { return false }
    handlers.expectedMove = nil
    if event == .element(.move(from: expected.from, to: expected.to), inSection: expected.section),
      !batchHasEvents, !needsReload
    {
      remapSelection(section: expected.section, from: expected.from, to: expected.to)
      handlers.lastMoveAccepted = true
      return true
    }
    handlers.lastMoveAccepted = false
    dropSelectionForReload()
    oweReload()
    return true
  }
}
