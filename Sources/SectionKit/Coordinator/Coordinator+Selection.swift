import Foundation

/// Selection: the adapter's input, the sections' own calls, and remapping through changesets.
extension Coordinator {
  // MARK: Reading

  /// Every selected element, by global index path as the adapter shows it, sorted.
  ///
  /// - Complexity: O(s·d + s log s) for s selected elements in sections d levels deep.
  public var selectedIndexPaths: [IndexPath] {
    var paths: [IndexPath] = []
    for entry in handlers.selection.entries.values {
      guard let section = presentedIndex(of: entry.section) else { continue }
      paths.append(contentsOf: entry.indexes.map { IndexPath(item: $0, section: section) })
    }
    return paths.sorted { $0.lexicographicallyPrecedes($1) }
  }

  /// The most recently selected element, if it is still selected: by the adapter
  /// (``userDidSelect(_:)``), by program code (``selectElement(at:)``) or by its section (``SelectionHandler/select(index:)``; the last
  /// index of ``SelectionHandler/selectAll()``). It follows the element through changesets;
  /// `nil` once that element is deselected or deleted, even if others stay selected.
  ///
  /// With ``allowsMultipleSelection`` `false` it is the one selected element.
  ///
  /// - Complexity: O(d + log s) for a section d levels deep with s selected elements.
  public var lastSelectedIndexPath: IndexPath? {
    guard let last = handlers.lastSelected, let index = last.indexes.first ?? nil,
      handlers.selection.contains(last.section, index),
      let section = presentedIndex(of: last.section)
    else { return nil }
    return IndexPath(item: index, section: section)
  }

  /// Whether elements can be selected in several places at once, as
  /// `UICollectionView.allowsMultipleSelection`. Default `true`: each section decides for itself
  /// (``SelectionHandler/allowsMultipleSelection``).
  ///
  /// When `false`, at most one element of the whole list is selected: selecting one (from the
  /// adapter or from a section) first deselects every other, in every section — their sections
  /// hear `didDeselect` and the adapter `coordinator(_:didDeselect:)` — and
  /// ``SelectionHandler/selectAll()`` does nothing. Setting it to `false` keeps only the most
  /// recent selection (``lastSelectedIndexPath``), or none when that is unknown.
  public var allowsMultipleSelection: Bool {
    get { !handlers.isSingleSelection }
    set {
      guard newValue == handlers.isSingleSelection else { return }
      handlers.isSingleSelection = !newValue
      if !newValue { deselectAll(except: lastSelectedIndexPath.map { current.locate($0) }) }
    }
  }

  /// Whether the element at `indexPath` is selected; traps when the path is out of range.
  public func isSelected(_ indexPath: IndexPath) -> Bool {
    let (section, index) = current.locate(indexPath)
    return handlers.selection.contains(section, index)
  }

  /// The selected local indexes of `section`, ascending.
  func selectedIndexes(of section: any Section) -> [Int] {
    handlers.selection.indexes(of: section)
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

  /// The user selected the element at `indexPath` in the adapter's view: what an adapter calls
  /// from its view's selection callback, once the view shows the element selected.
  ///
  /// Asks the section (``SelectionHandler/shouldSelect(at:)``); when it agrees, the element is
  /// selected and the section hears ``SelectionHandler/didSelect(at:)``. In a single-selection
  /// section the previous element is deselected first: the section hears `didDeselect` and the
  /// adapter `coordinator(_:didDeselect:)` (it did not initiate that). The adapter is not told of
  /// the selection it reported itself. Program code selects with ``selectElement(at:)``.
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
  public func userDidSelect(_ indexPath: IndexPath) -> Bool {
    select(indexPath, tellingAdapter: false, #function)
  }

  /// The user deselected the element at `indexPath` in the adapter's view: what an adapter
  /// calls from its view's deselection callback.
  ///
  /// Asks the section (``SelectionHandler/shouldDeselect(at:)``); when it agrees, the element
  /// leaves the selection and the section hears ``SelectionHandler/didDeselect(at:)``. The
  /// adapter is not told. Program code deselects with ``deselectElement(at:)``.
  ///
  /// - Returns: whether the element is deselected afterwards. When `false` the adapter must keep
  ///   showing it selected.
  @discardableResult
  public func userDidDeselect(_ indexPath: IndexPath) -> Bool {
    deselect(indexPath, tellingAdapter: false, #function)
  }

  /// Program code selects the element at `indexPath`, as the user would: the section is asked
  /// and told as in ``userDidSelect(_:)``, and the adapter hears it
  /// (``ViewAdapter/coordinator(_:didSelect:)``) unless its view already shows the element
  /// selected (``ViewAdapter/showsSelected(_:)`` answers `true`).
  ///
  /// - Returns: whether the selection was accepted (see ``userDidSelect(_:)``).
  /// - Complexity: O(s) for s elements selected in the section (plus what the handlers do).
  @discardableResult
  public func selectElement(at indexPath: IndexPath) -> Bool {
    select(indexPath, tellingAdapter: adapter?.showsSelected(indexPath) != true, #function)
  }

  /// Program code deselects the element at `indexPath`: the section is asked and told as in
  /// ``userDidDeselect(_:)``, and the adapter hears it
  /// (``ViewAdapter/coordinator(_:didDeselect:)``) unless its view already shows the element
  /// deselected (``ViewAdapter/showsSelected(_:)`` answers `false`).
  ///
  /// - Returns: whether the element is deselected afterwards.
  @discardableResult
  public func deselectElement(at indexPath: IndexPath) -> Bool {
    deselect(indexPath, tellingAdapter: adapter?.showsSelected(indexPath) != false, #function)
  }

  /// Selects the element at `indexPath`, for the adapter's view or for program code: the
  /// adapter is told when its view does not show the element selected yet
  /// (``ViewAdapter/showsSelected(_:)`` answers `false`).
  ///
  /// - Returns: whether the selection was accepted.
  @available(
    *, deprecated,
    message:
      "say who acts: userDidSelect(_:) for the view's report, selectElement(at:) for program code"
  )
  @discardableResult
  public func select(_ indexPath: IndexPath) -> Bool {
    select(indexPath, tellingAdapter: adapter?.showsSelected(indexPath) == false, #function)
  }

  /// Deselects the element at `indexPath`, for the adapter's view or for program code: the
  /// adapter is told when its view still shows the element selected.
  ///
  /// - Returns: whether the element is deselected afterwards.
  @available(
    *, deprecated,
    message:
      "say who acts: userDidDeselect(_:) for the view's report, deselectElement(at:) for program code"
  )
  @discardableResult
  public func deselect(_ indexPath: IndexPath) -> Bool {
    deselect(indexPath, tellingAdapter: adapter?.showsSelected(indexPath) == true, #function)
  }

  /// Selects the element at `indexPath`; the adapter hears it when `tellingAdapter`. A path out
  /// of range traps, naming `operation`.
  func select(_ indexPath: IndexPath, tellingAdapter: Bool, _ operation: String) -> Bool {
    let (section, index) = current.locate(indexPath, operation)
    guard let handler = section as? any SelectionHandler else { return false }
    if handlers.selection.contains(section, index) { return true }
    guard handler.shouldSelect(at: index) else { return false }
    insertSelection(handler, index: index, reportSelection: tellingAdapter)
    return true
  }

  /// Deselects the element at `indexPath`; the adapter hears it when `tellingAdapter`. A path out
  /// of range traps, naming `operation`.
  func deselect(_ indexPath: IndexPath, tellingAdapter: Bool, _ operation: String) -> Bool {
    let (section, index) = current.locate(indexPath, operation)
    guard let handler = section as? any SelectionHandler,
      handlers.selection.contains(section, index)
    else { return true }
    guard handler.shouldDeselect(at: index) else { return false }
    removeSelection(handler, indexes: [index], report: tellingAdapter)
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
    if handlers.selection.contains(handler, index) { return }
    insertSelection(handler, index: index, reportSelection: true)
  }

  func sectionSelectAll(_ handler: any SelectionHandler) {
    guard !handlers.isSingleSelection, let section = presentedIndex(of: handler) else { return }
    let added = handlers.selection.selectAll(of: handler, count: current.counts[section])
    guard !added.isEmpty else { return }
    remember(handler, added.last!)
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
    // Every state change first, then the calls (which may change the model: each index they
    // hand out is tracked).
    let others = handlers.isSingleSelection ? removeAll(except: (handler, index)) : []
    remember(handler, index)
    let previous = handlers.selection.insert(index, of: handler)
    let selected = track(handler, [index])
    let previouslySelected = track(handler, previous)
    for (section, removed, _) in others { notifyAdapter(selected: false, section, removed) }
    if !previous.isEmpty { notifyAdapter(selected: false, handler, previous) }
    if reportSelection { notifyAdapter(selected: true, handler, [index]) }
    for (section, _, pending) in others { tell(section, pending, selected: false) }
    tell(handler, previouslySelected, selected: false)
    tell(handler, selected, selected: true)
  }

  /// Deselects those of `indexes` that are selected; the adapter hears it when `report`.
  private func removeSelection(_ handler: any SelectionHandler, indexes: [Int], report: Bool) {
    let removed = handlers.selection.remove(indexes, of: handler)
    guard !removed.isEmpty else { return }
    if report { notifyAdapter(selected: false, handler, removed) }
    tell(handler, track(handler, removed), selected: false)
  }

  /// Deselects every selected element but `kept`, in every section (the list-wide single
  /// selection); sections and the adapter are told.
  private func deselectAll(except kept: (section: any Section, index: Int)?) {
    let removed = removeAll(except: kept)
    for (section, indexes, _) in removed { notifyAdapter(selected: false, section, indexes) }
    for (section, _, pending) in removed { tell(section, pending, selected: false) }
  }

  /// Removes every selected element but `kept` from the selection, telling no one; returns what
  /// left, by section, with the indexes tracked for the calls to come.
  private func removeAll(except kept: (section: any Section, index: Int)?) -> [(
    section: any SelectionHandler, indexes: [Int], pending: TrackedIndexes
  )] {
    var result: [(section: any SelectionHandler, indexes: [Int], pending: TrackedIndexes)] = []
    for entry in handlers.selection.entries.values {
      let others = entry.indexes.filter { entry.section !== kept?.section || $0 != kept?.index }
      let removed = handlers.selection.remove(others, of: entry.section)
      if !removed.isEmpty { result.append((entry.section, removed, track(entry.section, removed))) }
    }
    return result
  }

  /// Records element `index` of `section` as the most recent selection, followed through
  /// changesets (``lastSelectedIndexPath``).
  private func remember(_ section: any SelectionHandler, _ index: Int) {
    if let last = handlers.lastSelected { untrack(last) }
    handlers.lastSelected = track(section, [index])
  }

  private func isSelected(_ handler: any SelectionHandler, _ index: Int) -> Bool {
    handlers.selection.contains(handler, index)
  }

  /// Tells `handler` that the `pending` indexes were selected or deselected, one call each, every
  /// index remapped through whatever the calls before it changed; an element deleted meanwhile,
  /// or whose selection changed back meanwhile, is skipped. While the adapter is applying a
  /// changeset the calls wait until it returns. A section that left the tree while a reload is
  /// owed is told no more (as in ``tellEditing(_:_:)``). Takes over `pending`'s tracking.
  private func tell(_ handler: any SelectionHandler, _ pending: TrackedIndexes, selected: Bool) {
    if pending.tells == nil {
      pending.tells = selected
      cancelUntold(pending)
    }
    guard pending.indexes.contains(where: { $0 != nil }) else { return untrack(pending) }
    if isCallingAdapter {
      handlers.notifications.append(.selection(handler, pending, selected: selected))
      return
    }
    defer { untrack(pending) }
    for position in pending.indexes.indices {
      if hasLeftWhileReloadIsOwed(handler) { return }
      guard let index = pending.indexes[position] else { continue }
      pending.indexes[position] = nil  // told now: no later change cancels it
      guard isSelected(handler, index) == selected else { continue }
      if selected { handler.didSelect(at: index) } else { handler.didDeselect(at: index) }
    }
  }

  /// A change of selection that undoes one its section has not been told yet (a select, then a
  /// deselect of the same element before the select's turn came): neither is told, so that the
  /// section hears a balanced sequence — never a deselect of an element it did not hear
  /// selected, nor a select of one it heard selected.
  ///
  /// - Complexity: O(t·n) for t tracked index lists of the section and n indexes in `pending`.
  private func cancelUntold(_ pending: TrackedIndexes) {
    guard let selected = pending.tells else { return }
    for other in handlers.selection.tracked
    where other !== pending && other.tells == !selected && other.section === pending.section {
      for position in pending.indexes.indices {
        guard let index = pending.indexes[position],
          let match = other.indexes.firstIndex(of: index)
        else { continue }
        other.indexes[match] = nil
        pending.indexes[position] = nil
      }
    }
  }

  /// Registers `indexes` of `section` to be kept current through changesets until
  /// ``untrack(_:)``.
  func track(_ section: any Section, _ indexes: [Int]) -> TrackedIndexes {
    handlers.selection.track(section, indexes)
  }

  func untrack(_ tracked: TrackedIndexes) {
    handlers.selection.untrack(tracked)
  }

  // MARK: Telling the adapter

  /// Owes the adapter a selection change of `indexes` of `handler`, and tells it now unless a
  /// changeset or reload is being applied (then once `apply` returns, in the coordinates of that
  /// time).
  ///
  /// A change that undoes one the adapter is still owed (a select, then a deselect of the same
  /// element, inside `apply`) cancels it: the adapter hears the net change, balanced.
  private func notifyAdapter(selected: Bool, _ handler: any Section, _ indexes: [Int]) {
    guard adapter != nil, !indexes.isEmpty else { return }
    var indexes = indexes
    for notification in handlers.adapterNotifications
    where notification.selected != selected && notification.elements.section === handler {
      let owed = notification.elements
      indexes.removeAll { index in
        guard let match = owed.indexes.firstIndex(of: index) else { return false }
        owed.indexes[match] = nil
        return true
      }
    }
    guard !indexes.isEmpty else { return }
    handlers.adapterNotifications.append(
      AdapterNotification(selected: selected, elements: track(handler, indexes)))
    deliverAdapterNotifications()
  }

  /// Tells the adapter the selection changes it is owed, unless a changeset or reload is being
  /// applied; each in the coordinates of the time it is told, and only where the element's
  /// selection still is what the news says.
  func deliverAdapterNotifications() {
    guard !handlers.adapterNotifications.isEmpty, !isCallingAdapter,
      !handlers.isDeliveringToAdapter
    else { return }
    handlers.isDeliveringToAdapter = true
    defer { handlers.isDeliveringToAdapter = false }
    while !handlers.adapterNotifications.isEmpty {
      let notification = handlers.adapterNotifications.removeFirst()
      untrack(notification.elements)
      guard let adapter, let shown = presentedIndex(of: notification.elements.section) else {
        continue
      }
      // The net change only: an element whose selection changed back meanwhile (a handler, or
      // the adapter's own report, re-selected it) is not announced.
      let section = notification.elements.section
      let paths = notification.elements.indexes.compactMap { $0 }
        .filter { handlers.selection.contains(section, $0) == notification.selected }
        .sorted().map { IndexPath(item: $0, section: shown) }
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
    if presentsModel {
      guard let index = mapping.sectionOffset(for: section), current.presents(section, at: index)
      else { return nil }
      return index
    }
    return current.sections.firstIndex { $0 === section }
  }

  // MARK: Following changesets

  /// Remaps the selection (and the tracked indexes) through a changeset, before the presented
  /// state applies it. Deselected elements are owed a `didDeselect` (delivered after the
  /// changeset). See ``SelectionState/remap(through:survivors:sectionAt:)``.
  func remapSelection(through changeset: Changeset, survivors: [IndexPath: IndexPath] = [:]) {
    if handlers.selection.isEmpty, let last = handlers.lastSelected {
      // Nothing is selected: the most recent selection is gone, and nothing is left to follow.
      untrack(last)
      handlers.lastSelected = nil
    }
    guard !handlers.selection.isEmpty || !handlers.selection.tracked.isEmpty else { return }
    let deselected = handlers.selection.remap(through: changeset, survivors: survivors) {
      self.presented.sections[$0]
    }
    for (section, index) in deselected {
      handlers.notifications.append(.deselect(section, index))
    }
    let across = handlers.selection.takeMovedAcross()
    for (section, index) in across.followed {
      handlers.notifications.append(.selection(section, track(section, [index]), selected: true))
    }
    handlers.lostSelections.append(contentsOf: across.lost)
  }

  /// The selected elements `changeset` deletes although they survived the batch (an element
  /// updated and moved is a delete plus an insert; a section moved and changed is a delete and
  /// an insert of the section): old path → new path, from the reducer of the changeset being
  /// applied. Only those that stay in their section are kept.
  ///
  /// - Complexity: O(k log s) for k deleted elements and s selected ones, plus O(r) for each
  ///   survivor and each selected element of a deleted section (r runs in its section).
  func selectedSurvivors(of changeset: Changeset) -> [IndexPath: IndexPath] {
    guard !handlers.selection.isEmpty,
      !changeset.deletedElements.isEmpty || !changeset.deletedSectionRanges.isEmpty,
      reducerRole == .applying
      // `Dictionary()`, not `[:]`: the literal calls `init(dictionaryLiteral:)` (42 instructions
      // for nothing, on every changeset).
    else { return Dictionary() }
    var survivors: [IndexPath: IndexPath] = [:]
    // A section deleted and inserted because it moved and changed (B11) that is still shown: its
    // selected elements that survived follow by identity. A section reloaded in the batch
    // (`reloadChild`, a delete and an insert beside section moves) drops its selection, as a
    // section reload does.
    for range in changeset.deletedSectionRanges where !batchReloadsSections {
      for old in range {
        let section = presented.sections[old]
        for index in handlers.selection.indexes(of: section) {
          let path = IndexPath(item: index, section: old)
          if let new = batchReducer.newPath(ofOld: path), mapping.section(at: new[0]) === section {
            survivors[path] = new
          }
        }
      }
    }
    for path in changeset.deletedElements {
      let section = presented.sections[path[0]]
      guard handlers.selection.contains(section, path[1]),
        let new = batchReducer.newPath(ofOld: path)
      else { continue }
      if mapping.section(at: new[0]) === section {
        survivors[path] = new
      } else {
        // In another section: its selection does not follow. The section hears didDeselect,
        // and the adapter, whose view may keep it selected, hears that it is not.
        handlers.lostSelections.append(new)
      }
    }
    return survivors
  }

  /// Whether the batch being applied reloads sections (`reloadChild`).
  private var batchReloadsSections: Bool {
    func reloads(_ event: SectionProviderMapping.Event) -> Bool {
      if case .reloadSections = event { return true }
      return false
    }
    return batchEvents.first.map(reloads) == true || batchEvents.rest.contains(where: reloads)
  }

  /// After a changeset: the view dropped the selection of elements it deleted and inserted
  /// again, which the coordinator kept (`survivors`, old path → new path): it hears them
  /// selected at their new paths. Elements whose selection could not follow them are announced
  /// deselected.
  func announceKeptSelection(_ survivors: [IndexPath: IndexPath]) {
    guard !survivors.isEmpty || !handlers.lostSelections.isEmpty else { return }
    for new in survivors.values {
      notifyAdapter(selected: true, presented.sections[new[0]], [new[1]])
    }
    let lost = handlers.lostSelections
    handlers.lostSelections = []
    for path in lost { notifyAdapter(selected: false, presented.sections[path[0]], [path[1]]) }
  }

  /// Moves the selection of the section shown at `section` through a move the adapter made.
  func remapSelection(section: Int, from: Int, to: Int) {
    handlers.selection.remapMove(in: presented.sections[section], from: from, to: to)
  }

  /// The model changed in a way no changeset describes (a reload is owed): the selection is
  /// cleared, each section hearing `didDeselect` at the index it had.
  func dropSelectionForReload() {
    for (section, index) in handlers.selection.removeAll() {
      handlers.notifications.append(.deselect(section, index))
    }
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
    guard !handlers.notifications.isEmpty, !handlers.isDelivering, !isCallingAdapter else {
      return
    }
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

extension Array {
  /// The first index whose element satisfies `belongsInSecondPartition` (the array is
  /// partitioned by it).
  ///
  /// - Complexity: O(log n).
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
