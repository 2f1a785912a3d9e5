import Foundation

/// An element named by what a caller has: the index path the adapter shows, its section and its
/// index there, or its identity.
///
/// Input from outside is resolved with ``Coordinator/indexPath(for:)`` (or, for an adapter reading
/// the model, ``Coordinator/element(_:)``), which never trap on it: when it names nothing the
/// adapter shows (input that arrived late, from a client one changeset behind, say), they throw an
/// ``ElementLookupError`` that says why. The path they return goes to the coordinator's index-path
/// API.
///
/// ```swift
/// coordinator.userDidSelect(try coordinator.indexPath(for: .indexPath([1, 4])))          // a client's path
/// coordinator.userDidSelect(try coordinator.indexPath(for: .element(in: today, at: 0)))  // section, index
/// coordinator.userDidSelect(try coordinator.indexPath(for: .id(task.id, in: today)))     // by identity
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
  /// reason it shows none; never traps. The one way to take input from outside (a client, a
  /// script, a command typed while the list changes): resolve it here, then hand the path to the
  /// index-path API (``select(_:)``, ``performAction(_:at:argument:)``, …), which traps on a path
  /// the adapter does not show.
  ///
  /// ```swift
  /// do {
  ///   coordinator.userDidSelect(try coordinator.indexPath(for: .id(message.taskID, in: today)))
  /// } catch {
  ///   reply(.rejected(error.description))   // nothing changed
  /// }
  /// ```
  ///
  /// Inside a batch that has changed the model, or inside ``ViewAdapter/apply(_:from:updateData:)``
  /// before `updateData`, it throws ``ElementLookupError/batchInProgress``: the adapter still
  /// shows the old state, and a section's handler handed the path would read another element
  /// (`self[index]`), or none. Take such input between batches, or after `updateData`; an adapter
  /// that reads inside `apply` uses ``element(_:)`` or ``indexPath(for:in:)``.
  ///
  /// - Complexity: O(1) for a path; O(d) for a section d levels deep; plus the id lookup.
  public func indexPath(for reference: ElementReference) throws(ElementLookupError) -> IndexPath {
    let path = try shownPath(reference)
    guard !isFollowingChanges && !hasPendingCommit else { throw .batchInProgress }
    return path
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
}
