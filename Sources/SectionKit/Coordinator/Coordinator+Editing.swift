import Foundation

/// Editing mode: reaching every shown ``EditingHandler``, and sections that join or leave.
extension Coordinator {
  /// Whether the coordinator is in editing mode.
  public var isEditing: Bool { handlers.editing.isEditing }

  /// Enters or leaves editing mode.
  ///
  /// Every ``EditingHandler`` section the adapter shows hears
  /// ``EditingHandler/didSetEditing(_:)``, then ``EditingHandler/didSetEditing(_:at:)`` for each
  /// element it ``EditingHandler/allowsEditing(at:)``. While editing, a section that starts being
  /// shown hears `didSetEditing(true)` once the changeset that shows it is applied, and one that
  /// stops being shown (removed, or in a segment switched away) hears `didSetEditing(false)`:
  /// sections of inactive segments are never editing.
  ///
  /// - Complexity: O(n) for the n sections shown, plus the elements of the conforming ones.
  public func setEditing(_ editing: Bool) {
    for handler in handlers.editing.set(editing, shown: current.sections) {
      handlers.notifications.append(.editing(handler, editing))
    }
    deliverHandlerNotifications()
  }

  /// Whether the element at `indexPath` can be edited: the coordinator is editing and the
  /// element's section is an ``EditingHandler`` that allows it.
  public func allowsEditing(_ indexPath: IndexPath) -> Bool {
    let (section, index) = current.locate(indexPath)
    guard isEditing, let handler = section as? any EditingHandler else { return false }
    return handler.allowsEditing(at: index)
  }

  func isEditingSection(_ section: any Section) -> Bool {
    handlers.editing.contains(section)
  }

  /// Tells `handler` it starts or stops editing, then each element it allows: every index is
  /// remapped through whatever the calls before it changed (an element deleted meanwhile is
  /// skipped; one inserted meanwhile is not told).
  ///
  /// While a reload is owed (the tree was replaced, or changed with no adapter to tell), a section
  /// the adapter still shows may have left the tree: its changes then reach no coordinator, so no
  /// index of it can be remapped. Such a section is told no more elements once it has left; the
  /// reload tells it it left editing mode.
  func tellEditing(_ handler: any EditingHandler, _ editing: Bool) {
    let pending = track(handler, [])
    defer { untrack(pending) }
    handler.didSetEditing(editing)
    pending.indexes = Array(0..<handler.numberOfElements)
    for position in pending.indexes.indices {
      if hasLeftWhileReloadIsOwed(handler) { return }
      guard let index = pending.indexes[position], handler.allowsEditing(at: index) else {
        continue
      }
      handler.didSetEditing(editing, at: index)
    }
  }

  /// Whether `section`, shown by the adapter while a reload is owed, has left this coordinator's
  /// tree: its changes then reach no coordinator, so an index handed to it can no longer be kept
  /// current, and the handler calls told one element at a time stop.
  func hasLeftWhileReloadIsOwed(_ section: any Section) -> Bool {
    needsReload && owningCoordinator(of: section) !== self
  }

  // MARK: Hooks

  /// Applies `commit` to the presented state, remapping the selection and the editing sections
  /// (their handlers are called later, by ``deliverHandlerNotifications()``). `survivors` are the
  /// selected elements the changeset deletes and inserts although they stayed (old path → new
  /// path): their selection follows them.
  func applyCommit(_ commit: PresentedState.Commit, survivors: [IndexPath: IndexPath] = [:]) {
    remapSelection(through: commit.changeset, survivors: survivors)
    if handlers.editing.isEditing {
      for range in commit.deleted {
        for old in range {
          if let handler = handlers.editing.leave(presented.sections[old]) {
            handlers.notifications.append(.editing(handler, false))
          }
        }
      }
    }
    presented.apply(commit)
    announceKeptSelection(survivors)
    if handlers.editing.isEditing {
      for entry in commit.inserted {
        if let handler = handlers.editing.join(entry.section) {
          handlers.notifications.append(.editing(handler, true))
        }
      }
    }
  }

  /// Reads the presented state afresh from the model (a reload); editing sections that joined
  /// or left are owed their calls.
  func resetPresented() {
    // The counts' storage is taken out first, then filled: no user code (a section's count) runs
    // while the presented state is being written.
    let storage = presented.takeCounts()
    presented = PresentedState(mapping: mapping, countsIn: consume storage)
    if presentedIsStale { setDraft(.reload(presentedIsStale: false)) }
    // What was selected while the reload was owed, in sections that have since left the tree.
    handlers.selection.forgetSections(notIn: presented.sections)
    let (left, joined) = handlers.editing.reset(shown: presented.sections)
    for handler in left { handlers.notifications.append(.editing(handler, false)) }
    for handler in joined { handlers.notifications.append(.editing(handler, true)) }
  }
}
