import Foundation

/// An element named by what a caller has: the index path the adapter shows, its section and its
/// index there, or its identity.
///
/// The coordinator's methods that take one never trap on it: when it names nothing the adapter
/// shows (input that arrived late, from a client one changeset behind, say), they throw an
/// ``ElementLookupError`` that says why, and change nothing.
///
/// ```swift
/// try coordinator.select(.indexPath([1, 4]))            // a path a client sent
/// try coordinator.select(.element(in: today, at: 0))    // the section object and its index
/// try coordinator.select(.id(task.id, in: today))       // an `Identifiable` element
/// ```
public enum ElementReference {
  /// The element the adapter shows at this global `[section, element]` path.
  case indexPath(IndexPath)
  /// The element at `index` of `section`, as the adapter shows it (between batches: the
  /// section's own index).
  case element(in: any Section, at: Int)
  /// The element whose id is `id` in `section`, which must be an
  /// ``IdentifiableElementsSection`` (an `ArraySection` of `Identifiable` elements is). Resolved
  /// between batches.
  ///
  /// - Complexity: what the section's ``IdentifiableElementsSection/index(ofElementWithID:)``
  ///   costs: O(n) for an `ArraySection` of n elements.
  case id(AnyHashable, in: any Section)
}

/// Why an ``ElementReference`` names no element the adapter shows.
public enum ElementLookupError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The path is not a `[section, element]` path.
  case malformed(IndexPath)
  /// The path's section is out of the range of sections shown.
  case sectionOutOfRange(IndexPath, sectionCount: Int)
  /// The path's element is out of the range of its section's elements.
  case elementOutOfRange(IndexPath, elementCount: Int)
  /// Inside a batch, or inside ``ViewAdapter/apply(_:from:updateData:)`` before `updateData`:
  /// the element shown at this path was deleted by the batch, so its value is no longer in the
  /// model.
  case deletedInBatch(IndexPath)
  /// The section (its type named here) is not shown by the coordinator: removed, in an inactive
  /// segment, or never added.
  case sectionNotShown(String)
  /// The index is out of the range of the section's elements (its type named here).
  case indexOutOfRange(Int, elementCount: Int, section: String)
  /// No element of the section (its type named here) has this id (described here).
  case noElementWithID(String, section: String)
  /// The section (its type named here) cannot find elements by id: it is not an
  /// ``IdentifiableElementsSection``.
  case sectionHasNoIDs(String)
  /// A batch has changed the model and the adapter does not show it yet (inside a batch, or
  /// inside ``ViewAdapter/apply(_:from:updateData:)`` before `updateData`): an element named by
  /// id is looked up, and input that reaches a section's handler is taken, between batches only —
  /// the handler's `self[index]` would name another element than the adapter shows.
  case batchInProgress

  /// What is wrong, naming the coordinator, the value and the valid range.
  public var description: String {
    switch self {
    case .malformed(let path):
      return "Coordinator: \(path) is not a [section, element] path"
    case .sectionOutOfRange(let path, let count):
      return "Coordinator: section \(path[0]) of \(format(path)) is out of range 0..<\(count)"
    case .elementOutOfRange(let path, let count):
      return "Coordinator: element \(path[1]) of \(format(path)) is out of range 0..<\(count) "
        + "(section \(path[0]))"
    case .deletedInBatch(let path):
      return "Coordinator: \(format(path)) was deleted by the changeset being applied"
    case .sectionNotShown(let section):
      return "Coordinator: the section \(section) is not shown"
    case .indexOutOfRange(let index, let count, let section):
      return "Coordinator: index \(index) is out of range 0..<\(count) of \(section)"
    case .noElementWithID(let id, let section):
      return "Coordinator: no element of \(section) has the id \(id)"
    case .sectionHasNoIDs(let section):
      return "Coordinator: \(section) does not find elements by id (IdentifiableElementsSection)"
    case .batchInProgress:
      return "Coordinator: a batch has changed the model and the adapter does not show it yet; "
        + "an element named by id, or input for a section's handler, is taken between batches"
    }
  }
}

/// A section that finds its elements by identity, so that input can name an element by id
/// (``ElementReference/id(_:in:)``) instead of by a position that may have changed.
public protocol IdentifiableElementsSection: Section {
  /// The index of the element whose id is `id`, or `nil` when there is none (or `id` is not of
  /// the section's id type).
  func index(ofElementWithID id: AnyHashable) -> Int?
}

extension ArraySection: IdentifiableElementsSection where Element: Identifiable {
  /// The index of the first element whose `id` is `id`.
  ///
  /// - Complexity: O(n).
  public func index(ofElementWithID id: AnyHashable) -> Int? {
    guard let id = id as? Element.ID else { return nil }
    return elements.firstIndex { $0.id == id }
  }
}

extension Coordinator {
  /// The section and index of the element `reference` names, as the adapter shows them, or
  /// the reason it names none; never traps.
  ///
  /// For ``ElementReference/indexPath(_:)``, the index is where the element is in the section
  /// now, as ``sectionAndIndex(for:)`` answers (inside a batch, or inside `apply` before
  /// `updateData`, a deleted element throws ``ElementLookupError/deletedInBatch(_:)``); for the
  /// other references, its index as the adapter shows it.
  ///
  /// - Complexity: O(1) between batches for a path; O(d) for a section d levels deep; plus the
  ///   id lookup.
  public func element(_ reference: ElementReference) throws(ElementLookupError) -> (
    section: any Section, index: Int
  ) {
    guard case .indexPath(let path) = reference else { return try shown(reference) }
    let located = try shown(reference)
    guard isFollowingChanges else { return located }
    guard let found = followedToModel(path) else { throw .deletedInBatch(path) }
    return found
  }

  /// The global index path at which the adapter shows element `index` of `section`, or `nil`
  /// when it does not show it.
  ///
  /// - Complexity: O(d) for a section d levels deep.
  public func indexPath(for index: Int, in section: any Section) -> IndexPath? {
    // What `shownPath(.element(in:at:))` answers, without wrapping the section in a reference.
    guard let shown = presentedIndex(of: section), index >= 0, index < presented.counts[shown]
    else { return nil }
    return IndexPath(item: index, section: shown)
  }

  /// The global index path at which the adapter shows the element `reference` names, or the
  /// reason it shows none; never traps.
  public func indexPath(for reference: ElementReference) throws(ElementLookupError) -> IndexPath {
    try shownPath(reference)
  }

  // MARK: Resolving

  /// `reference` as the adapter shows it.
  func shown(_ reference: ElementReference) throws(ElementLookupError) -> (
    section: any Section, index: Int
  ) {
    let path = try shownPath(reference)
    return (current.sections[path[0]], path[1])
  }

  /// The global path of `reference` as the adapter shows it.
  func shownPath(_ reference: ElementReference) throws(ElementLookupError) -> IndexPath {
    let state = current
    switch reference {
    case .indexPath(let path):
      guard path.count == 2 else { throw .malformed(path) }
      guard path[0] >= 0 && path[0] < state.counts.count else {
        throw .sectionOutOfRange(path, sectionCount: state.counts.count)
      }
      let count = state.counts[path[0]]
      guard path[1] >= 0 && path[1] < count else {
        throw .elementOutOfRange(path, elementCount: count)
      }
      return path
    case .element(let section, let index):
      guard let shown = presentedIndex(of: section) else {
        throw .sectionNotShown("\(type(of: section))")
      }
      let count = state.counts[shown]
      guard index >= 0 && index < count else {
        throw .indexOutOfRange(index, elementCount: count, section: "\(type(of: section))")
      }
      return IndexPath(item: index, section: shown)
    case .id(let id, let section):
      guard !isFollowingChanges && !hasPendingCommit else {
        throw .batchInProgress
      }
      guard let identifying = section as? any IdentifiableElementsSection else {
        throw .sectionHasNoIDs("\(type(of: section))")
      }
      guard let shown = presentedIndex(of: section) else {
        throw .sectionNotShown("\(type(of: section))")
      }
      guard let index = identifying.index(ofElementWithID: id), index < state.counts[shown] else {
        throw .noElementWithID("\(id.base)", section: "\(type(of: section))")
      }
      return IndexPath(item: index, section: shown)
    }
  }

  /// Where the element the adapter shows at `indexPath` (in range) is in the model, followed
  /// through the open batch or the changeset being applied; `nil` when it was deleted.
  func followedToModel(_ indexPath: IndexPath) -> (section: any Section, index: Int)? {
    let followed: IndexPath?
    switch batchDraft {
    case .reducing: followed = batchReducer.newPath(ofOld: indexPath)
    case .single(let single): followed = single.newPath(ofOld: indexPath)
    case .empty, .reload:
      switch pendingFollower {
      case .reducer:
        if let moved = applyingMovesAcross[indexPath] {
          return (mapping.section(at: moved[0]), moved[1])
        }
        followed = batchReducer.newPath(ofOld: indexPath)
      case .single(let single): followed = single.newPath(ofOld: indexPath)
      case .dropped, nil: followed = nil
      }
    }
    guard let found = followed else { return nil }
    return (mapping.section(at: found[0]), found[1])
  }

  // MARK: Input that may be late

  /// The path of `reference` as the adapter shows it, for input that reaches a section's handler:
  /// throws ``ElementLookupError/batchInProgress`` while a batch has changed the model and the
  /// adapter does not show it yet, since the handler would be handed an index of the model
  /// (where `self[index]` may be another element, or none) for an element of the view.
  func inputPath(_ reference: ElementReference) throws(ElementLookupError) -> IndexPath {
    let path = try shownPath(reference)
    guard !isFollowingChanges && !hasPendingCommit else { throw .batchInProgress }
    return path
  }

  /// ``select(_:)-(IndexPath)`` for input from outside: throws instead of trapping when
  /// `reference` names no element the adapter shows, and changes nothing then. Like every form
  /// below that reaches a section's handler, it throws ``ElementLookupError/batchInProgress``
  /// inside a batch that has changed the model (or inside `apply` before `updateData`).
  @discardableResult
  public func select(_ reference: ElementReference) throws(ElementLookupError) -> Bool {
    select(try inputPath(reference))
  }

  /// ``deselect(_:)-(IndexPath)`` for input from outside; throws instead of trapping.
  @discardableResult
  public func deselect(_ reference: ElementReference) throws(ElementLookupError) -> Bool {
    deselect(try inputPath(reference))
  }

  /// ``isSelected(_:)-(IndexPath)`` for input from outside; throws instead of trapping.
  public func isSelected(_ reference: ElementReference) throws(ElementLookupError) -> Bool {
    isSelected(try shownPath(reference))
  }

  /// ``shouldSelect(_:)-(IndexPath)`` for input from outside; throws instead of trapping.
  public func shouldSelect(_ reference: ElementReference) throws(ElementLookupError) -> Bool {
    shouldSelect(try inputPath(reference))
  }

  /// ``shouldHighlight(_:)-(IndexPath)`` for input from outside; throws instead of trapping.
  public func shouldHighlight(_ reference: ElementReference) throws(ElementLookupError) -> Bool {
    shouldHighlight(try inputPath(reference))
  }

  /// ``shouldDeselect(_:)-(IndexPath)`` for input from outside; throws instead of trapping.
  public func shouldDeselect(_ reference: ElementReference) throws(ElementLookupError) -> Bool {
    shouldDeselect(try inputPath(reference))
  }

  /// ``actions(at:)-(IndexPath)`` for input from outside; throws instead of trapping.
  public func actions(at reference: ElementReference) throws(ElementLookupError)
    -> [ElementAction]
  {
    actions(at: try inputPath(reference))
  }

  /// ``performAction(_:at:argument:)-(_,IndexPath,_)`` for input from outside; throws instead of
  /// trapping.
  @discardableResult
  public func performAction(
    _ name: String, at reference: ElementReference, argument: String? = nil
  ) throws(ElementLookupError) -> Bool {
    performAction(name, at: try inputPath(reference), argument: argument)
  }

  /// ``canMove(_:)-(IndexPath)`` for input from outside; throws instead of trapping.
  public func canMove(_ reference: ElementReference) throws(ElementLookupError) -> Bool {
    canMove(try inputPath(reference))
  }

  /// ``allowsEditing(_:)-(IndexPath)`` for input from outside; throws instead of trapping.
  public func allowsEditing(_ reference: ElementReference) throws(ElementLookupError) -> Bool {
    allowsEditing(try inputPath(reference))
  }
}
