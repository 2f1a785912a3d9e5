import Foundation

/// What the coordinator keeps for the opt-in handlers: the selection and the editing mode (values
/// of their own), an adapter-initiated move in flight, and the calls owed to handlers and to the
/// adapter.
struct HandlerState {
  /// A handler call owed to a section.
  enum Notification {
    /// A deselection a changeset or reload made: the index the element had before it.
    case deselect(any SelectionHandler, Int)
    case editing(any EditingHandler, Bool)
    /// Selections or deselections made while the adapter was applying, each index kept current.
    case selection(any SelectionHandler, TrackedIndexes, selected: Bool)
  }

  /// The selection.
  var selection = SelectionState()
  /// The editing mode.
  var editing = EditingState()
  /// The move the adapter already performed, expected as the batch's first event (two events
  /// for a move across sections).
  var expectedMove: ExpectedMove?
  /// Whether the last adapter-initiated move was performed as reported.
  var lastMoveAccepted = false
  /// Handler calls owed, delivered when the adapter is not applying.
  var notifications: [Notification] = []
  /// Whether the notifications are being delivered (they are not re-entered).
  var isDelivering = false
  /// Selection changes the adapter is owed, told between changesets (never inside `apply`).
  var adapterNotifications: [AdapterNotification] = []
  /// Whether the adapter notifications are being delivered (they are not re-entered).
  var isDeliveringToAdapter = false
  /// At most one element selected in the whole list (`Coordinator.allowsMultipleSelection`
  /// `false`).
  var isSingleSelection = false
  /// The most recently selected element, followed through changesets.
  var lastSelected: TrackedIndexes?
  /// Selected elements of the changeset being committed that went to another section, where
  /// their selection cannot follow, by new path: the adapter is told they are not selected.
  var lostSelections: [IndexPath] = []
}

/// A move the adapter already performed, by global section index: the element at `from` of
/// section `section` went to `to` of section `toSection` (the same section for a move inside
/// one).
struct ExpectedMove {
  var section: Int
  var from: Int
  var toSection: Int
  var to: Int
  /// For a move across sections: whether its removal and its insertion were seen.
  var removed = false
  var inserted = false

  /// Whether the move stays in its section.
  var isWithinSection: Bool { section == toSection }
}

/// A selection change the adapter is owed.
struct AdapterNotification {
  var selected: Bool
  var elements: TrackedIndexes
}

/// The coordinator presenting `section`, found by following the links up to the mapping; `nil`
/// when the tree has no coordinator. A custom provider on the way (a delegate that is not a link)
/// is climbed through its own delegate.
///
/// - Complexity: O(depth).
func owningCoordinator(of section: any Section) -> Coordinator? {
  // A built-in section reporting to its parent is its own link (its delegate is a view of it).
  var next: AnyObject? = reportingLink(of: section)
  if next == nil { next = section.updateDelegate }
  while let object = next {
    if let link = object as? TreeLink ?? link(behind: object) {
      guard let owner = link.owner else { return nil }
      if let coordinator = owner.presentingCoordinator { return coordinator }
      next = owner.delegateObject
    } else {
      next = (object as? any SectionProvider)?.updateDelegate
    }
  }
  return nil
}
