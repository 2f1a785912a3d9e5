import Foundation

/// Editing mode: reaching every shown ``EditingHandler``, and sections that join or leave.
extension Coordinator {
  /// Whether the coordinator is in editing mode.
  public var isEditing: Bool { handlers.isEditing }

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
    guard editing != handlers.isEditing else { return }
    handlers.isEditing = editing
    for section in current.sections {
      guard let handler = section as? any EditingHandler else { continue }
      let key = ObjectIdentifier(handler)
      if editing {
        guard handlers.editingSections.updateValue(handler, forKey: key) == nil else { continue }
      } else {
        guard handlers.editingSections.removeValue(forKey: key) != nil else { continue }
      }
      handlers.notifications.append(.editing(handler, editing))
    }
    for handler in handlers.editingSections.values where !editing {
      handlers.notifications.append(.editing(handler, false))
    }
    if !editing { handlers.editingSections = [:] }
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
    handlers.editingSections[ObjectIdentifier(section)] != nil
  }

  /// Tells `handler` it starts or stops editing, then each element it allows: every index is
  /// remapped through whatever the calls before it changed (an element deleted meanwhile is
  /// skipped; one inserted meanwhile is not told).
  func tellEditing(_ handler: any EditingHandler, _ editing: Bool) {
    let pending = track(handler, [])
    defer { untrack(pending) }
    handler.didSetEditing(editing)
    pending.indexes = Array(0..<handler.numberOfElements)
    for position in pending.indexes.indices {
      guard let index = pending.indexes[position], handler.allowsEditing(at: index) else {
        continue
      }
      handler.didSetEditing(editing, at: index)
    }
  }

  // MARK: Hooks

  /// Applies `commit` to the presented state, remapping the selection and the editing sections
  /// (their handlers are called later, by ``deliverHandlerNotifications()``).
  func applyCommit(_ commit: PresentedState.Commit) {
    remapSelection(through: commit.changeset)
    if !handlers.editingSections.isEmpty {
      for range in commit.deleted {
        for old in range {
          if let handler = handlers.editingSections.removeValue(
            forKey: ObjectIdentifier(presented.sections[old]))
          {
            handlers.notifications.append(.editing(handler, false))
          }
        }
      }
    }
    presented.apply(commit)
    if handlers.isEditing {
      for entry in commit.inserted {
        guard let handler = entry.section as? any EditingHandler else { continue }
        handlers.editingSections[ObjectIdentifier(handler)] = handler
        handlers.notifications.append(.editing(handler, true))
      }
    }
  }

  /// Reads the presented state afresh from the model (a reload); editing sections that joined
  /// or left are owed their calls.
  func resetPresented() {
    presented = PresentedState(mapping: mapping)
    presentedIsStale = false
    guard handlers.isEditing else { return }
    var shown: [ObjectIdentifier: any EditingHandler] = [:]
    var joined: [any EditingHandler] = []
    for section in presented.sections {
      guard let handler = section as? any EditingHandler else { continue }
      let key = ObjectIdentifier(handler)
      shown[key] = handler
      if handlers.editingSections[key] == nil { joined.append(handler) }
    }
    for (key, handler) in handlers.editingSections where shown[key] == nil {
      handlers.notifications.append(.editing(handler, false))
    }
    for handler in joined { handlers.notifications.append(.editing(handler, true)) }
    handlers.editingSections = shown
  }
}
