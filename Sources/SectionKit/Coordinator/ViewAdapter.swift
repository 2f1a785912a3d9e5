import Foundation

/// A view — real or simulated — that shows what a ``Coordinator`` presents.
///
/// The coordinator is the adapter's data source (``Coordinator/numberOfSections``,
/// ``Coordinator/numberOfElements(inSection:)``, ``Coordinator/section(at:)``,
/// ``Coordinator/sectionAndIndex(for:)``) and tells it what changed: a whole reload, or one
/// ``Changeset`` per batch. `SectionKitTesting`'s `TestAdapter` and `SectionKitConsole`'s
/// `ConsoleAdapter` conform; `Docs/Adapters.md` sketches a `UICollectionView` adapter.
///
/// The adapter must not keep the coordinator alive (hold it weakly or not at all): the coordinator
/// holds its adapter strongly.
///
/// **Isolation.** The coordinator calls its adapter synchronously, in the isolation domain of its
/// tree. An adapter isolated to the main actor, as a UIKit adapter is, conforms with an isolated
/// conformance, `@MainActor ViewAdapter`: the compiler then keeps the coordinator on the main
/// actor.
public protocol ViewAdapter: AnyObject {
  /// Forget everything shown and read the coordinator's state afresh.
  ///
  /// Called when the adapter is attached, when the root provider is replaced, and after an
  /// invalidate-all.
  func reloadData(from coordinator: Coordinator)

  /// Apply one batch of changes.
  ///
  /// Until `updateData` is called the coordinator answers with the old state (what the adapter
  /// showed before the batch); after, with the new state. A UIKit adapter calls it first thing
  /// inside its `performBatchUpdates` closure, then issues the changeset's parts. If the adapter
  /// never calls it, the coordinator switches when `apply` returns; calling it more than once, or
  /// after `apply` returned, does nothing.
  ///
  /// Changes the adapter makes to the model while applying are queued into the next batch.
  ///
  /// ``Changeset/reconfiguredElements`` are placed as reloads: an adapter that does not tell them
  /// apart reloads `reloadedElements + reconfiguredElements` inside the batch; one that keeps the
  /// cells (UIKit's `reconfigureItems(at:)`) refreshes
  /// ``Changeset/reconfiguredElementDestinations`` once the batch is applied
  /// (`Docs/Adapters.md`, "Reloads and reconfigures").
  func apply(
    _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void)

  /// The coordinator selected these elements, in the coordinates the adapter shows now.
  ///
  /// **What the adapter is told.** An adapter's view keeps its own selection and follows every
  /// changeset by itself, as a `UICollectionView` does: selected elements follow inserts,
  /// deletes and moves, a deleted element leaves the selection, a reloaded one stays, and
  /// ``reloadData(from:)`` clears it. The coordinator keeps the same selection by the same rules
  /// and tells the adapter only of the changes it did not initiate and that no changeset or
  /// reload implies:
  /// - selections and deselections the sections make themselves (`select(index:)`,
  ///   `deselect(index:)`, `selectAll()`, `deselectAll()`, also from inside their handlers);
  /// - the previous element of a single-selection section, deselected when the adapter selects
  ///   another (``Coordinator/userDidSelect(_:)``);
  /// - after a reload that followed no model change (attaching the adapter), everything still
  ///   selected (a reload after a change clears the coordinator's selection too).
  ///
  /// These calls are made between changesets, never inside ``apply(_:from:updateData:)``, with
  /// index paths in the current coordinates (what ``Coordinator/numberOfElements(inSection:)``
  /// answers at the time of the call). The adapter is never told of the selections and
  /// deselections it reported itself through ``Coordinator/userDidSelect(_:)`` and
  /// ``Coordinator/userDidDeselect(_:)`` when they succeed (they return `true`); it is told of
  /// program code's ``Coordinator/selectElement(at:)`` and ``Coordinator/deselectElement(at:)``
  /// unless it says its view already shows the change.
  func coordinator(_ coordinator: Coordinator, didSelect indexPaths: [IndexPath])

  /// The coordinator deselected these elements, in the coordinates the adapter shows now. See
  /// ``coordinator(_:didSelect:)`` for when the adapter is told.
  func coordinator(_ coordinator: Coordinator, didDeselect indexPaths: [IndexPath])

  /// Whether the adapter's view shows the element at `indexPath` selected, or `nil` when the
  /// adapter does not say (the default).
  ///
  /// The coordinator asks when program code selects or deselects
  /// (``Coordinator/selectElement(at:)``, ``Coordinator/deselectElement(at:)``): the adapter is
  /// told of the change (``coordinator(_:didSelect:)``, ``coordinator(_:didDeselect:)``) unless
  /// its view already shows it. The deprecated ``Coordinator/select(_:)`` and
  /// ``Coordinator/deselect(_:)``, which do not say who calls, tell it only when it
  /// answers that its view does not show the change yet (`nil`: never). `indexPath` is an element
  /// the coordinator presents.
  func showsSelected(_ indexPath: IndexPath) -> Bool?
}

extension ViewAdapter {
  /// Does nothing.
  public func coordinator(_ coordinator: Coordinator, didSelect indexPaths: [IndexPath]) {}
  /// Does nothing.
  public func coordinator(_ coordinator: Coordinator, didDeselect indexPaths: [IndexPath]) {}
  /// `nil`: the adapter does not say.
  public func showsSelected(_ indexPath: IndexPath) -> Bool? { nil }
}
