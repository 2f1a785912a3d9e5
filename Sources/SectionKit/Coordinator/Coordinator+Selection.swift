import Foundation

/// Selection: the adapter's input, the sections' own calls, and remapping through changesets.
extension Coordinator {
  // MARK: Reading

  /// Every selected element, by global index path as the adapter shows it, sorted.
  ///
  /// - Complexity: O(s·d + s log s) for s selected elements in sections d levels deep.
  public var selectedIndexPaths: [IndexPath] {
    var paths: [IndexPath] = []
    for entry in handlers.selection.values {
      guard let section = presentedIndex(of: entry.section) else { continue }
      paths.append(contentsOf: entry.indexes.map { IndexPath(item: $0, section: section) })
    }
    return paths.sorted { $0.lexicographicallyPrecedes($1) }
  }

  /// Whether the element at `indexPath` is selected; traps when the path is out of range.
  public func isSelected(_ indexPath: IndexPath) -> Bool {
    let (section, index) = current.locate(indexPath)
    return handlers.selection[ObjectIdentifier(section)]?.indexes.contains(index) ?? false
  }

  /// The selected local indexes of `section`, ascending.
  func selectedIndexes(of section: any Section) -> [Int] {
    handlers.selection[ObjectIdentifier(section)]?.indexes ?? []
  }

  // MARK: The adapter's input

  /// Whether the element may be highlighted: its section is a ``SelectionHandler`` and says so.
  public func shouldHighlight(_ indexPath: IndexPath) -> Bool {
    let (section, index) = current.locate(indexPath)
    return (section as? any SelectionHandler)?.shouldHighlight(at: index) ?? false
  }

  /// Whether the element may be selected: its section is a ``SelectionHandler`` and says so.
  public func shouldSelect(_ indexPath: IndexPath) -> Bool {
    let (section, index) = current.locate(indexPath)
    return (section as? any SelectionHandler)?.shouldSelect(at: index) ?? false
  }

  /// Whether the element may be deselected: it is selected and its section says so.
  public func shouldDeselect(_ indexPath: IndexPath) -> Bool {
    let (section, index) = current.locate(indexPath)
    guard let handler = section as? any SelectionHandler, isSelected(indexPath) else {
      return false
    }
    return handler.shouldDeselect(at: index)
  }

  /// The user selected the element at `indexPath` in the adapter's view.
  ///
  /// Asks the section (``SelectionHandler/shouldSelect(at:)``); when it agrees, the element is
  /// selected and the section hears ``SelectionHandler/didSelect(at:)``. In a single-selection
  /// section the previous element is deselected first: the section hears `didDeselect` and the
  /// adapter `coordinator(_:didDeselect:)` (it did not initiate that). The adapter is not told of
  /// the selection it reported itself.
  ///
  /// Each handler call gets the element's index as it is at the time of that call: when an
  /// earlier call changed the model (a `didDeselect` that removes its element, say), later ones
  /// are remapped, and an element deleted before its turn is not announced.
  ///
  /// - Returns: whether the selection was accepted. When `false` (a section that does not
  ///   conform, or refuses) the adapter must not show the element selected. When `true`, what the
  ///   handlers do next (delete the element, deselect it) reaches the adapter like any other
  ///   change: as a changeset, or through ``ViewAdapter/coordinator(_:didDeselect:)``.
  /// - Complexity: O(s) for s elements selected in the section (plus what the handlers do).
  @discardableResult
  public func select(_ indexPath: IndexPath) -> Bool {
    let (section, index) = current.locate(indexPath)
    guard let handler = section as? any SelectionHandler else { return false }
    if handlers.selection[ObjectIdentifier(section)]?.indexes.contains(index) == true {
      return true
    }
    guard handler.shouldSelect(at: index) else { return false }
    insertSelection(handler, index: index, reportSelection: false)
    return true
  }

  /// The user deselected the element at `indexPath` in the adapter's view.
  ///
  /// Asks the section (``SelectionHandler/shouldDeselect(at:)``); when it agrees, the element
  /// leaves the selection and the section hears ``SelectionHandler/didDeselect(at:)``.
  ///
  /// - Returns: whether the element is deselected afterwards. When `false` the adapter must keep
  ///   showing it selected.
  @discardableResult
  public func deselect(_ indexPath: IndexPath) -> Bool {
    let (section, index) = current.locate(indexPath)
    guard let handler = section as? any SelectionHandler,
      let entry = handlers.selection[ObjectIdentifier(section)], entry.indexes.contains(index)
    else { return true }
    guard handler.shouldDeselect(at: index) else { return false }
    removeSelection(handler, indexes: [index], report: false)
    return true
  }

  // MARK: The section's calls

  func sectionSelect(_ handler: any SelectionHandler, index: Int) {
    guard let section = presentedIndex(of: handler) else { return }
    let count = current.counts[section]
    precondition(
      index >= 0 && index < count,
      "\(type(of: handler)).select(index:): index \(index) is out of range 0..<\(count)"
        + (state == .idle
          ? ""
          : "; inside a batch, indexes are the ones the adapter shows (an element inserted in "
            + "the open batch can be selected once the batch ends)"))
    if handlers.selection[ObjectIdentifier(handler)]?.indexes.contains(index) == true { return }
    insertSelection(handler, index: index, reportSelection: true)
  }

  func sectionSelectAll(_ handler: any SelectionHandler) {
    guard let section = presentedIndex(of: handler) else { return }
    let already = Set(selectedIndexes(of: handler))
    let added = (0..<current.counts[section]).filter { !already.contains($0) }
    guard !added.isEmpty else { return }
    handlers.selection[ObjectIdentifier(handler), default: .init(section: handler, indexes: [])]
      .indexes = Array(0..<current.counts[section])
    notifyAdapter(selected: true, handler, added)
    tell(handler, track(handler, added), selected: true)
  }

  func sectionDeselect(_ handler: any SelectionHandler, indexes: [Int]) {
    guard presentedIndex(of: handler) != nil else { return }
    removeSelection(handler, indexes: indexes, report: true)
  }

  // MARK: Core

  /// Selects `index` of `handler`, deselecting the previous element of a single-selection
  /// section. The adapter hears the deselection, and the selection when `reportSelection`.
  private func insertSelection(
    _ handler: any SelectionHandler, index: Int, reportSelection: Bool
  ) {
    let key = ObjectIdentifier(handler)
    var previous: [Int] = []
    var entry = handlers.selection[key] ?? .init(section: handler, indexes: [])
    if !handler.allowsMultipleSelection {
      previous = entry.indexes
      entry.indexes = [index]
    } else {
      let position = entry.indexes.partitioningIndex { $0 >= index }
      entry.indexes.insert(index, at: position)
    }
    handlers.selection[key] = entry
    let selected = track(handler, [index])
    if !previous.isEmpty { notifyAdapter(selected: false, handler, previous) }
    if reportSelection { notifyAdapter(selected: true, handler, [index]) }
    tell(handler, track(handler, previous), selected: false)
    tell(handler, selected, selected: true)
  }

  /// Deselects those of `indexes` that are selected; the adapter hears it when `report`.
  private func removeSelection(_ handler: any SelectionHandler, indexes: [Int], report: Bool) {
    let key = ObjectIdentifier(handler)
    guard var entry = handlers.selection[key] else { return }
    let removing = Set(indexes)
    let removed = entry.indexes.filter { removing.contains($0) }
    guard !removed.isEmpty else { return }
    entry.indexes.removeAll { removing.contains($0) }
    handlers.selection[key] = entry.indexes.isEmpty ? nil : entry
    if report { notifyAdapter(selected: false, handler, removed) }
    tell(handler, track(handler, removed), selected: false)
  }

  private func isSelected(_ handler: any SelectionHandler, _ index: Int) -> Bool {
    handlers.selection[ObjectIdentifier(handler)]?.indexes.contains(index) ?? false
  }

  /// Tells `handler` that the `pending` indexes were selected or deselected, one call each, every
  /// index remapped through whatever the calls before it changed; an element deleted meanwhile,
  /// or whose selection changed back meanwhile, is skipped. While the adapter is applying a
  /// changeset the calls wait until it returns. Takes over `pending`'s tracking.
  private func tell(_ handler: any SelectionHandler, _ pending: TrackedIndexes, selected: Bool) {
    guard !pending.indexes.isEmpty else { return untrack(pending) }
    if isCallingAdapter {
      handlers.notifications.append(.selection(handler, pending, selected: selected))
      return
    }
    defer { untrack(pending) }
    for position in pending.indexes.indices {
      guard let index = pending.indexes[position], isSelected(handler, index) == selected else {
        continue
      }
      if selected { handler.didSelect(at: index) } else { handler.didDeselect(at: index) }
    }
  }

  /// Registers `indexes` of `handler` to be kept current through changesets until ``untrack(_:)``.
  func track(_ handler: any Section, _ indexes: [Int]) -> TrackedIndexes {
    let tracked = TrackedIndexes(section: handler, indexes: indexes)
    handlers.tracked.append(tracked)
    return tracked
  }

  func untrack(_ tracked: TrackedIndexes) {
    handlers.tracked.removeAll { $0 === tracked }
  }

  // MARK: Telling the adapter

  /// Owes the adapter a selection change of `indexes` of `handler`, and tells it now unless a
  /// changeset or reload is being applied (then once `apply` returns, in the coordinates of that
  /// time).
  private func notifyAdapter(selected: Bool, _ handler: any SelectionHandler, _ indexes: [Int]) {
    guard adapter != nil, !indexes.isEmpty else { return }
    handlers.adapterNotifications.append(
      AdapterNotification(selected: selected, elements: track(handler, indexes)))
    deliverAdapterNotifications()
  }

  /// Tells the adapter the selection changes it is owed, unless a changeset or reload is being
  /// applied; each in the coordinates of the time it is told, and only where the element's
  /// selection still is what the news says.
  func deliverAdapterNotifications() {
    guard !isCallingAdapter, !handlers.isDeliveringToAdapter else { return }
    handlers.isDeliveringToAdapter = true
    defer { handlers.isDeliveringToAdapter = false }
    while !handlers.adapterNotifications.isEmpty {
      let notification = handlers.adapterNotifications.removeFirst()
      untrack(notification.elements)
      guard let adapter, let section = presentedIndex(of: notification.elements.section) else {
        continue
      }
      // The net change only: an element whose selection changed back meanwhile (a handler, or
      // the adapter's own report, re-selected it) is not announced.
      let handler = notification.elements.section as! any SelectionHandler
      let paths = notification.elements.indexes.compactMap { $0 }
        .filter { isSelected(handler, $0) == notification.selected }
        .sorted().map { IndexPath(item: $0, section: section) }
      guard !paths.isEmpty else { continue }
      if notification.selected {
        adapter.coordinator(self, didSelect: paths)
      } else {
        adapter.coordinator(self, didDeselect: paths)
      }
    }
  }

  /// Forgets the selection changes the adapter is owed: a reload supersedes them.
  func dropAdapterNotifications() {
    for notification in handlers.adapterNotifications { untrack(notification.elements) }
    handlers.adapterNotifications = []
  }

  /// The global index at which the adapter shows `section`, or `nil`.
  ///
  /// - Complexity: O(depth) when the model and the adapter agree (between batches); O(n) for n
  ///   sections inside a batch.
  func presentedIndex(of section: any Section) -> Int? {
    let state = current
    if reducer == nil && !needsReload && pendingCommit == nil {
      guard let index = mapping.sectionOffset(of: section),
        index < state.sections.count, state.sections[index] === section
      else { return nil }
      return index
    }
    return state.sections.firstIndex { $0 === section }
  }

  // MARK: Following changesets

  /// Remaps the selection (and the tracked indexes) through `commit`'s changeset, before the
  /// presented state applies it. Deselected elements are owed a `didDeselect` (delivered after the
  /// changeset).
  ///
  /// - Complexity: O(k log k + s) for k operations in the changeset and s selected or tracked
  ///   elements in the sections it touches.
  func remapSelection(through changeset: Changeset) {
    guard !handlers.selection.isEmpty || !handlers.tracked.isEmpty else { return }
    var trackedBySection: [ObjectIdentifier: [TrackedIndexes]] = [:]
    for tracked in handlers.tracked {
      trackedBySection[ObjectIdentifier(tracked.section), default: []].append(tracked)
    }
    // Deleted sections leave the selection whole.
    for range in changeset.deletedSectionRanges {
      for old in range {
        let key = ObjectIdentifier(presented.sections[old])
        if let entry = handlers.selection.removeValue(forKey: key) {
          for index in entry.indexes {
            handlers.notifications.append(.deselect(entry.section, index))
          }
        }
        for tracked in trackedBySection[key] ?? [] {
          tracked.indexes = tracked.indexes.map { _ in nil }
        }
      }
    }
    guard
      !(changeset.deletedElements.isEmpty && changeset.insertedElements.isEmpty
        && changeset.movedElements.isEmpty)
    else { return }

    // Element operations of sections that have a selection, by old section index.
    var touched: [Int: ElementOperations] = [:]
    func isWatched(_ old: Int) -> Bool {
      let key = ObjectIdentifier(presented.sections[old])
      return handlers.selection[key] != nil || trackedBySection[key] != nil
    }
    for path in changeset.deletedElements where isWatched(path[0]) {
      touched[path[0], default: .init()].removed.append(path[1])
      touched[path[0], default: .init()].deleted.insert(path[1])
    }
    for move in changeset.movedElements where isWatched(move.from[0]) {
      touched[move.from[0], default: .init()].removed.append(move.from[1])
      touched[move.from[0], default: .init()].moved[move.from[1]] = move.to[1]
      touched[move.from[0], default: .init()].fixed.append(move.to[1])
    }
    if !changeset.insertedElements.isEmpty {
      let deletedSections = RankedRanges(changeset.deletedSectionRanges)
      let insertedSections = RankedRanges(changeset.insertedSectionRanges)
      for path in changeset.insertedElements {
        let old = deletedSections.free(path[0] - insertedSections.count(below: path[0]))
        if isWatched(old) { touched[old, default: .init()].fixed.append(path[1]) }
      }
    }

    for (old, operations) in touched {
      let key = ObjectIdentifier(presented.sections[old])
      let mapping = operations.sorted()
      if var entry = handlers.selection[key] {
        var remapped: [Int] = []
        remapped.reserveCapacity(entry.indexes.count)
        for (index, destination) in zip(entry.indexes, mapping.remap(ascending: entry.indexes)) {
          if let destination {
            remapped.append(destination)
          } else {
            handlers.notifications.append(.deselect(entry.section, index))
          }
        }
        remapped.sort()
        entry.indexes = remapped
        handlers.selection[key] = remapped.isEmpty ? nil : entry
      }
      for tracked in trackedBySection[key] ?? [] {
        let live = tracked.indexes.indices.filter { tracked.indexes[$0] != nil }
          .sorted { tracked.indexes[$0]! < tracked.indexes[$1]! }
        let destinations = mapping.remap(ascending: live.map { tracked.indexes[$0]! })
        for (position, destination) in zip(live, destinations) {
          tracked.indexes[position] = destination
        }
      }
    }
  }

  /// Moves the selection of the section shown at `section` through a move the adapter made.
  func remapSelection(section: Int, from: Int, to: Int) {
    func moved(_ index: Int) -> Int {
      if index == from { return to }
      if from < index && index <= to { return index - 1 }
      if to <= index && index < from { return index + 1 }
      return index
    }
    let key = ObjectIdentifier(presented.sections[section])
    for tracked in handlers.tracked where ObjectIdentifier(tracked.section) == key {
      tracked.indexes = tracked.indexes.map { $0.map(moved) }
    }
    guard var entry = handlers.selection[key] else { return }
    entry.indexes = entry.indexes.map(moved).sorted()
    handlers.selection[key] = entry
  }

  /// The model changed in a way no changeset describes (a reload is owed): the selection is
  /// cleared, each section hearing `didDeselect` at the index it had.
  func dropSelectionForReload() {
    for tracked in handlers.tracked { tracked.indexes = tracked.indexes.map { _ in nil } }
    guard !handlers.selection.isEmpty else { return }
    for entry in handlers.selection.values {
      for index in entry.indexes { handlers.notifications.append(.deselect(entry.section, index)) }
    }
    handlers.selection = [:]
  }

  /// After a reload: tells the adapter what is still selected (a reload clears a view's
  /// selection; the coordinator's survives one that follows no change, such as attaching).
  func reannounceSelection(to adapter: any ViewAdapter) {
    dropAdapterNotifications()
    let paths = selectedIndexPaths
    if !paths.isEmpty { adapter.coordinator(self, didSelect: paths) }
  }

  /// Delivers the handler calls owed, unless a changeset is being applied.
  func deliverHandlerNotifications() {
    guard !handlers.isDelivering, !isCallingAdapter else { return }
    handlers.isDelivering = true
    defer { handlers.isDelivering = false }
    while !handlers.notifications.isEmpty {
      let notifications = handlers.notifications
      handlers.notifications = []
      for notification in notifications {
        switch notification {
        case .deselect(let section, let index): section.didDeselect(at: index)
        case .editing(let section, let editing): tellEditing(section, editing)
        case .selection(let section, let pending, let selected):
          tell(section, pending, selected: selected)
        }
      }
    }
  }
}

/// The element operations of one section in a changeset, as the selection remap reads them.
struct ElementOperations {
  /// Deletes and moves out, old indexes.
  var removed: [Int] = []
  var deleted: Set<Int> = []
  /// Old → new.
  var moved: [Int: Int] = [:]
  /// Inserts and moves in, new indexes.
  var fixed: [Int] = []

  func sorted() -> ElementOperations {
    var copy = self
    copy.removed.sort()
    copy.fixed.sort()
    return copy
  }

  /// Where each of `indexes` (old, ascending) goes: `nil` when deleted, the move's destination
  /// when moved, otherwise its rank among the staying elements placed in the first slot no
  /// insert or move takes. Call on a ``sorted()`` value.
  ///
  /// - Complexity: O(n + k) for n indexes and k operations.
  func remap(ascending indexes: [Int]) -> [Int?] {
    var result: [Int?] = []
    result.reserveCapacity(indexes.count)
    var removedCursor = 0
    var fixedCursor = 0
    for index in indexes {
      if deleted.contains(index) {
        result.append(nil)
        continue
      }
      if let destination = moved[index] {
        result.append(destination)
        continue
      }
      while removedCursor < removed.count && removed[removedCursor] < index {
        removedCursor += 1
      }
      var destination = index - removedCursor
      while fixedCursor < fixed.count && fixed[fixedCursor] <= destination + fixedCursor {
        fixedCursor += 1
      }
      destination += fixedCursor
      result.append(destination)
    }
    return result
  }
}

extension Array {
  /// The first index whose element satisfies `belongsInSecondPartition` (the array is
  /// partitioned by it). - Complexity: O(log n).
  func partitioningIndex(where belongsInSecondPartition: (Element) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let mid = (low + high) / 2
      if belongsInSecondPartition(self[mid]) { high = mid } else { low = mid + 1 }
    }
    return low
  }
}
