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
  /// - Returns: whether the element is selected afterwards. When `false` (a section that does not
  ///   conform, or refuses) the adapter must not show it selected.
  /// - Complexity: O(s) for s elements selected in the section (plus what the handlers do).
  @discardableResult
  public func select(_ indexPath: IndexPath) -> Bool {
    let (section, index) = current.locate(indexPath)
    guard let handler = section as? any SelectionHandler else { return false }
    if handlers.selection[ObjectIdentifier(section)]?.indexes.contains(index) == true {
      return true
    }
    guard handler.shouldSelect(at: index) else { return false }
    insertSelection(handler, index: index, section: indexPath[0], reportSelection: false)
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
    removeSelection(handler, indexes: [index], section: indexPath[0], report: false)
    return true
  }

  // MARK: The section's calls

  func sectionSelect(_ handler: any SelectionHandler, index: Int) {
    guard let section = presentedIndex(of: handler) else { return }
    let count = current.counts[section]
    precondition(
      index >= 0 && index < count,
      "\(type(of: handler)).select(index:): index \(index) is out of range 0..<\(count)")
    if handlers.selection[ObjectIdentifier(handler)]?.indexes.contains(index) == true { return }
    insertSelection(handler, index: index, section: section, reportSelection: true)
  }

  func sectionSelectAll(_ handler: any SelectionHandler) {
    guard let section = presentedIndex(of: handler) else { return }
    let already = Set(selectedIndexes(of: handler))
    let added = (0..<current.counts[section]).filter { !already.contains($0) }
    guard !added.isEmpty else { return }
    handlers.selection[ObjectIdentifier(handler), default: .init(section: handler, indexes: [])]
      .indexes = Array(0..<current.counts[section])
    adapter?.coordinator(self, didSelect: added.map { IndexPath(item: $0, section: section) })
    for index in added { handler.didSelect(at: index) }
  }

  func sectionDeselect(_ handler: any SelectionHandler, indexes: [Int]) {
    guard let section = presentedIndex(of: handler) else { return }
    removeSelection(handler, indexes: indexes, section: section, report: true)
  }

  // MARK: Core

  /// Selects `index` of `handler` (shown at `section`), deselecting the previous element of a
  /// single-selection section. The adapter hears the deselection, and the selection when
  /// `reportSelection`.
  private func insertSelection(
    _ handler: any SelectionHandler, index: Int, section: Int, reportSelection: Bool
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
    if !previous.isEmpty {
      adapter?.coordinator(
        self, didDeselect: previous.map { IndexPath(item: $0, section: section) })
    }
    if reportSelection {
      adapter?.coordinator(self, didSelect: [IndexPath(item: index, section: section)])
    }
    for old in previous { handler.didDeselect(at: old) }
    handler.didSelect(at: index)
  }

  /// Deselects those of `indexes` that are selected; the adapter hears it when `report`.
  private func removeSelection(
    _ handler: any SelectionHandler, indexes: [Int], section: Int, report: Bool
  ) {
    let key = ObjectIdentifier(handler)
    guard var entry = handlers.selection[key] else { return }
    let removing = Set(indexes)
    let removed = entry.indexes.filter { removing.contains($0) }
    guard !removed.isEmpty else { return }
    entry.indexes.removeAll { removing.contains($0) }
    handlers.selection[key] = entry.indexes.isEmpty ? nil : entry
    if report {
      adapter?.coordinator(self, didDeselect: removed.map { IndexPath(item: $0, section: section) })
    }
    for index in removed { handler.didDeselect(at: index) }
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

  /// Remaps the selection through `commit`'s changeset, before the presented state applies it.
  /// Deselected elements are owed a `didDeselect` (delivered after the changeset).
  ///
  /// - Complexity: O(k log k + s) for k operations in the changeset and s selected elements in
  ///   the sections it touches.
  func remapSelection(through changeset: Changeset) {
    guard !handlers.selection.isEmpty else { return }
    // Deleted sections leave the selection whole.
    for range in changeset.deletedSectionRanges {
      for old in range {
        let key = ObjectIdentifier(presented.sections[old])
        if let entry = handlers.selection.removeValue(forKey: key) {
          for index in entry.indexes {
            handlers.notifications.append(.deselect(entry.section, index))
          }
        }
      }
    }
    guard
      !(changeset.deletedElements.isEmpty && changeset.insertedElements.isEmpty
        && changeset.movedElements.isEmpty)
    else { return }

    // Element operations of sections that have a selection, by old section index.
    struct Operations {
      var removed: [Int] = []  // deletes and moves out, old indexes
      var deleted: Set<Int> = []
      var moved: [Int: Int] = [:]  // old → new
      var fixed: [Int] = []  // inserts and moves in, new indexes
    }
    var touched: [Int: Operations] = [:]
    func hasSelection(_ old: Int) -> Bool {
      handlers.selection[ObjectIdentifier(presented.sections[old])] != nil
    }
    for path in changeset.deletedElements where hasSelection(path[0]) {
      touched[path[0], default: .init()].removed.append(path[1])
      touched[path[0], default: .init()].deleted.insert(path[1])
    }
    for move in changeset.movedElements where hasSelection(move.from[0]) {
      touched[move.from[0], default: .init()].removed.append(move.from[1])
      touched[move.from[0], default: .init()].moved[move.from[1]] = move.to[1]
      touched[move.from[0], default: .init()].fixed.append(move.to[1])
    }
    if !changeset.insertedElements.isEmpty {
      let deletedSections = RankedRanges(changeset.deletedSectionRanges)
      let insertedSections = RankedRanges(changeset.insertedSectionRanges)
      for path in changeset.insertedElements {
        let old = deletedSections.free(path[0] - insertedSections.count(below: path[0]))
        if hasSelection(old) { touched[old, default: .init()].fixed.append(path[1]) }
      }
    }

    for (old, operations) in touched {
      let key = ObjectIdentifier(presented.sections[old])
      guard var entry = handlers.selection[key] else { continue }
      let removed = operations.removed.sorted()
      let fixed = operations.fixed.sorted()
      var remapped: [Int] = []
      remapped.reserveCapacity(entry.indexes.count)
      var removedCursor = 0
      var fixedCursor = 0
      for index in entry.indexes {
        if operations.deleted.contains(index) {
          handlers.notifications.append(.deselect(entry.section, index))
          continue
        }
        if let destination = operations.moved[index] {
          remapped.append(destination)
          continue
        }
        // The rank among staying elements, placed in the k-th slot no insert or move takes.
        while removedCursor < removed.count && removed[removedCursor] < index {
          removedCursor += 1
        }
        var destination = index - removedCursor
        while fixedCursor < fixed.count && fixed[fixedCursor] <= destination + fixedCursor {
          fixedCursor += 1
        }
        destination += fixedCursor
        remapped.append(destination)
      }
      remapped.sort()
      entry.indexes = remapped
      handlers.selection[key] = remapped.isEmpty ? nil : entry
    }
  }

  /// Moves the selection of the section shown at `section` through a move the adapter made.
  func remapSelection(section: Int, from: Int, to: Int) {
    let key = ObjectIdentifier(presented.sections[section])
    guard var entry = handlers.selection[key] else { return }
    entry.indexes = entry.indexes.map { index in
      if index == from { return to }
      if from < index && index <= to { return index - 1 }
      if to <= index && index < from { return index + 1 }
      return index
    }
    .sorted()
    handlers.selection[key] = entry
  }

  /// The model changed in a way no changeset describes (a reload is owed): the selection is
  /// cleared, each section hearing `didDeselect` at the index it had.
  func dropSelectionForReload() {
    guard !handlers.selection.isEmpty else { return }
    for entry in handlers.selection.values {
      for index in entry.indexes { handlers.notifications.append(.deselect(entry.section, index)) }
    }
    handlers.selection = [:]
  }

  /// After a reload: tells the adapter what is still selected (a reload clears a view's
  /// selection; the coordinator's survives one that follows no change, such as attaching).
  func reannounceSelection(to adapter: any ViewAdapter) {
    let paths = selectedIndexPaths
    if !paths.isEmpty { adapter.coordinator(self, didSelect: paths) }
  }

  /// Delivers the handler calls owed, unless a changeset is being applied.
  func deliverHandlerNotifications() {
    guard !handlers.isDelivering, pendingCommit == nil else { return }
    handlers.isDelivering = true
    defer { handlers.isDelivering = false }
    while !handlers.notifications.isEmpty {
      let notifications = handlers.notifications
      handlers.notifications = []
      for notification in notifications {
        switch notification {
        case .deselect(let section, let index): section.didDeselect(at: index)
        case .editing(let section, let editing): tellEditing(section, editing)
        }
      }
    }
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
