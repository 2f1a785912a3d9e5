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
  func apply(
    _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void)

  /// The coordinator selected these elements (by a handler or through a changeset), new coordinates.
  func coordinator(_ coordinator: Coordinator, didSelect indexPaths: [IndexPath])

  /// The coordinator deselected these elements (by a handler, or because they were deleted).
  func coordinator(_ coordinator: Coordinator, didDeselect indexPaths: [IndexPath])
}

extension ViewAdapter {
  /// Does nothing.
  public func coordinator(_ coordinator: Coordinator, didSelect indexPaths: [IndexPath]) {}
  /// Does nothing.
  public func coordinator(_ coordinator: Coordinator, didDeselect indexPaths: [IndexPath]) {}
}
