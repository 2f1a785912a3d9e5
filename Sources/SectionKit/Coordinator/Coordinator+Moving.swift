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
  /// move.
  ///
  /// A proposal in another section goes there when both sections agree: the source's
  /// ``MoveHandler/canMoveOut(at:to:)`` gives the element up and the destination's
  /// ``MoveHandler/targetIndex(forMoveInFrom:at:proposedIndex:)`` accepts it (the proposed index
  /// clamped to `0...count` of the destination first, the answer clamped to it after). Otherwise
  /// the proposal is clamped to the nearest end of the source's section, then the section's
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
    if proposed[0] != source[0], let target = targetAcross(from: source, proposed: proposed) {
      return target
    }
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

  /// Where the element at `source` lands in `proposed`'s section (another one) when both
  /// sections agree to the move, or `nil`.
  private func targetAcross(from source: IndexPath, proposed: IndexPath) -> IndexPath? {
    guard current.counts.indices.contains(proposed[0]),
      let handler = current.sections[source[0]] as? any MoveHandler,
      let destination = current.sections[proposed[0]] as? any MoveHandler,
      handler.canMoveOut(at: source[1], to: destination)
    else { return nil }
    let count = current.counts[proposed[0]]
    guard
      let target = destination.targetIndex(
        forMoveInFrom: handler, at: source[1],
        proposedIndex: Swift.max(0, Swift.min(proposed[1], count)))
    else { return nil }
    return IndexPath(item: Swift.max(0, Swift.min(target, count)), section: proposed[0])
  }

  /// The adapter moved the element at `from` to `to` in its view (an interactive move the user
  /// finished); the sections update their model.
  ///
  /// When `to` is in the same section, that section is a ``MoveHandler`` that
  /// ``MoveHandler/canMove(at:)`` the element, and ``targetIndexPath(forMoveFrom:proposed:)`` for
  /// `to` is `to` itself, the coordinator calls ``MoveHandler/didMove(from:to:)``. When `to` is in
  /// another section (`to.item` in `0...count` of that section: the element's index there after
  /// the move) and both sections agree to the move (``targetIndexPath(forMoveFrom:proposed:)`` is
  /// `to`), it calls the destination's ``MoveHandler/didMoveIn(from:at:to:)``.
  ///
  /// The sections' events for the move are **not** echoed back as a changeset — the view
  /// already shows the move — but the selection follows it (into another section as it follows
  /// an element a snapshot moves there: the destination hears `didSelect` where it can hold the
  /// selection, the adapter `didDeselect` where it cannot); anything else the sections change in
  /// the same call reaches the adapter as a normal changeset, relative to the moved state.
  ///
  /// When the move is refused or redirected, or the sections do not emit exactly that move as
  /// their first events, the view and the model disagree in a way no changeset can describe: the
  /// adapter gets a reload, which restores its view (ask ``targetIndexPath(forMoveFrom:proposed:)``
  /// while dragging so that this does not happen).
  ///
  /// Call it between batches (not while a batch is open or a changeset is being applied).
  ///
  /// Traps when `from`, or `to` as described, is out of the range the adapter shows.
  ///
  /// - Returns: whether the sections performed the move (`true` for a move to the same place).
  @discardableResult
  public func moveElement(from: IndexPath, to: IndexPath) -> Bool {
    precondition(
      state == .idle,
      "Coordinator.moveElement(from:to:): called while a batch is open or a changeset is being "
        + "applied; report adapter moves between batches")
    _ = current.locate(from)
    if to.count == 2, from[0] != to[0] {
      current.checkSection(to[0], "moveElement(from:to:)")
      let count = current.counts[to[0]]
      precondition(
        to[1] >= 0 && to[1] <= count,
        "Coordinator.moveElement(from:to:): element index \(to[1]) of \(format(to)) is out of "
          + "range 0...\(count) (section \(to[0]), a move into it)")
    } else {
      _ = current.locate(to)
    }
    guard from != to else { return true }
    guard let target = targetIndexPath(forMoveFrom: from, proposed: to), target == to,
      let handler = current.sections[from[0]] as? any MoveHandler,
      let destination = current.sections[to[0]] as? any MoveHandler
    else {
      scheduleReload()
      return false
    }
    handlers.expectedMove = ExpectedMove(
      section: from[0], from: from[1], toSection: to[0], to: to[1])
    performBatchUpdates {
      if from[0] == to[0] {
        handler.didMove(from: from[1], to: to[1])
      } else {
        destination.didMoveIn(from: handler, at: from[1], to: to[1])
      }
    }
    guard handlers.expectedMove == nil else {
      // The sections emitted nothing, or half a move across: the view shows a move the model did
      // not make.
      handlers.expectedMove = nil
      dropSelectionForReload()
      scheduleReload()
      deliverHandlerNotifications()
      return false
    }
    return handlers.lastMoveAccepted
  }

  /// Consumes the first event of an adapter-initiated move's batch (the first two of a move
  /// across sections). Returns whether the event was handled here (the expected move, or a
  /// mismatch that forces a reload).
  func interceptAdapterMove(_ event: SectionProviderMapping.Event) -> Bool {
    guard var expected = handlers.expectedMove else { return false }
    handlers.expectedMove = nil
    guard !batchHasEvents, !needsReload else { return refuseAdapterMove() }
    if expected.isWithinSection {
      guard
        event == .element(.move(from: expected.from, to: expected.to), inSection: expected.section)
      else { return refuseAdapterMove() }
      remapSelection(section: expected.section, from: expected.from, to: expected.to)
      handlers.lastMoveAccepted = true
      return true
    }
    if !expected.removed, event == .element(.remove(expected.from), inSection: expected.section) {
      expected.removed = true
    } else if !expected.inserted,
      event == .element(.insert(expected.to), inSection: expected.toSection)
    {
      expected.inserted = true
    } else {
      return refuseAdapterMove()
    }
    guard expected.removed && expected.inserted else {
      handlers.expectedMove = expected
      return true
    }
    commitMoveAcross(expected)
    handlers.lastMoveAccepted = true
    return true
  }

  /// At the end of a batch: an adapter's move across sections of which only one half happened
  /// (the removal or the insertion) is refused, before the batch is delivered — the model holds
  /// a change the presented state does not, and the adapter is reloaded.
  func settleAdapterMove() {
    guard let expected = handlers.expectedMove, expected.removed || expected.inserted else {
      return
    }
    handlers.expectedMove = nil
    _ = refuseAdapterMove()
  }

  /// The adapter's move did not happen as reported: a reload is owed.
  private func refuseAdapterMove() -> Bool {
    handlers.lastMoveAccepted = false
    dropSelectionForReload()
    oweReload()
    return true
  }

  /// Commits an adapter's move across sections, which its view already shows, to the presented
  /// state as if a changeset holding only that move had been applied: the counts of both sections
  /// change, and the selection follows the element as it follows a snapshot's move across.
  private func commitMoveAcross(_ move: ExpectedMove) {
    let changeset = Changeset(movedElements: [
      Changeset.Move(
        from: IndexPath(item: move.from, section: move.section),
        to: IndexPath(item: move.to, section: move.toSection))
    ])
    var commit = PresentedState.Commit(changeset: changeset, deleted: [])
    commit.recounted = [
      .init(index: move.section, count: presented.counts[move.section] - 1),
      .init(index: move.toSection, count: presented.counts[move.toSection] + 1),
    ]
    applyCommit(commit)
  }
}
