import Foundation

/// A section that lets its elements be selected.
///
/// The ``Coordinator`` keeps the selection — per section, a set of local element indexes — and
/// routes the adapter's input to the section by global index path. Every change of a section's
/// selection, whoever caused it, reaches the section through ``didSelect(at:)`` or
/// ``didDeselect(at:)``: the adapter (``Coordinator/userDidSelect(_:)``), program code
/// (``Coordinator/selectElement(at:)``), the section itself (``select(index:)``,
/// ``deselectAll()``, …), the single-selection rule, or a changeset that deletes a selected
/// element or its section.
///
/// ```swift
/// final class Family: ArraySection<String>, SelectionHandler {
///   var allowsMultipleSelection: Bool { true }
///   func didSelect(at index: Int) { print("picked", self[index]) }
/// }
/// ```
///
/// **Coordinates.** Indexes are the ones the adapter shows. Between batches they are the model's;
/// a selection made inside a batch is remapped by that batch's changeset like every other one.
///
/// **Changesets.** The selection follows every changeset as a collection view's does: selected
/// elements follow inserts, deletes and moves before them, a reloaded element stays selected
/// where UIKit lands it (``Changeset/reloadedElementDestinations``), and
/// a deleted element — or an element of a deleted section, including a segment switched away —
/// leaves the selection (its section hears ``didDeselect(at:)`` once the changeset is applied, at
/// the index it had before the batch). A reload (invalidate-all, a replaced root, changes made with
/// no adapter attached) clears the selection the same way. A section that leaves the tree while a
/// reload is owed (its root replaced in an open batch) hears no more selection news: its own
/// changes reach no coordinator, so no index of it could be kept current.
///
/// Sections that do not conform ignore selection input.
public protocol SelectionHandler: Section {
  /// Whether several elements of this section can be selected at once. Default `false`:
  /// selecting an element deselects the section's previous one.
  var allowsMultipleSelection: Bool { get }
  /// Whether the adapter may highlight the element at `index` (as a touch begins). Default `true`.
  func shouldHighlight(at index: Int) -> Bool
  /// Whether the adapter may select the element at `index`. Default `true`.
  func shouldSelect(at index: Int) -> Bool
  /// The element at `index` was selected. Default: nothing.
  func didSelect(at index: Int)
  /// Whether the adapter may deselect the element at `index`. Default `true`.
  func shouldDeselect(at index: Int) -> Bool
  /// The element at `index` was deselected (for a deleted element: its index before the batch).
  /// Default: nothing.
  func didDeselect(at index: Int)
}

extension SelectionHandler {
  /// `false`: one element at a time.
  public var allowsMultipleSelection: Bool { false }
  /// `true`.
  public func shouldHighlight(at index: Int) -> Bool { true }
  /// `true`.
  public func shouldSelect(at index: Int) -> Bool { true }
  /// Does nothing.
  public func didSelect(at index: Int) {}
  /// `true`.
  public func shouldDeselect(at index: Int) -> Bool { true }
  /// Does nothing.
  public func didDeselect(at index: Int) {}
}

// MARK: - The section's side

extension SelectionHandler {
  /// The selected elements of this section, ascending; empty when no coordinator presents it.
  ///
  /// - Complexity: O(d + s log s) for a section d levels deep with s selected elements.
  public var selectedIndexes: [Int] {
    owningCoordinator(of: self)?.selectedIndexes(of: self) ?? []
  }

  /// Selects the element at `index` (the adapter is told; ``shouldSelect(at:)`` is not asked). In
  /// a single-selection section the previous element is deselected first. Does nothing when no
  /// coordinator presents the section; traps when `index` is out of range.
  public func select(index: Int) {
    owningCoordinator(of: self)?.sectionSelect(self, index: index)
  }

  /// Deselects the element at `index` when it is selected (the adapter is told;
  /// ``shouldDeselect(at:)`` is not asked). Does nothing when no coordinator presents the section.
  public func deselect(index: Int) {
    owningCoordinator(of: self)?.sectionDeselect(self, indexes: [index])
  }

  /// Selects every element when ``allowsMultipleSelection`` is `true`; does nothing otherwise.
  ///
  /// - Complexity: O(n) for n elements.
  public func selectAll() {
    guard allowsMultipleSelection, let coordinator = owningCoordinator(of: self) else { return }
    coordinator.sectionSelectAll(self)
  }

  /// Deselects every selected element of this section.
  public func deselectAll() {
    guard let coordinator = owningCoordinator(of: self) else { return }
    coordinator.sectionDeselect(self, indexes: coordinator.selectedIndexes(of: self))
  }
}
