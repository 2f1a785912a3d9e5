import Foundation

/// A section told when its elements and its header come into the adapter's view and leave it —
/// `willDisplay` / `didEndDisplaying`, as a collection view tells its delegate — and what to show
/// instead of its elements when it has none.
///
/// ```swift
/// final class Avatars: ArraySection<URL>, DisplayHandler {
///   func willDisplay(at index: Int) { loader.start(self[index]) }
///   func didEndDisplaying(at index: Int) { loader.cancel(self[index]) }
///   var emptyStateText: String? { "No pictures yet" }
/// }
/// ```
///
/// The adapter drives it from its viewport through the coordinator
/// (``Coordinator/willDisplay(_:)``, ``Coordinator/didEndDisplaying(_:)``,
/// ``Coordinator/willDisplayHeader(inSection:)``, ``Coordinator/didEndDisplayingHeader(inSection:)``),
/// by global index path; the section hears its own local index, as with the other handlers.
/// An adapter keeps the calls paired: every element told `willDisplay` is told
/// `didEndDisplaying` once before it is told `willDisplay` again — also when it is deleted while
/// shown (told with the index it had before the batch). The console's list view does so.
///
/// Every requirement has a default, so adopt only what you need.
public protocol DisplayHandler: Section {
  /// The element at `index` is about to be shown.
  func willDisplay(at index: Int)
  /// The element at `index` is no longer shown (scrolled away, or deleted: then `index` is the
  /// one it had before the batch).
  func didEndDisplaying(at index: Int)
  /// The section's header is about to be shown.
  func willDisplayHeader()
  /// The section's header is no longer shown.
  func didEndDisplayingHeader()
  /// What to show instead of the elements while the section has none, or `nil` for nothing.
  var emptyStateText: String? { get }
}

extension DisplayHandler {
  /// Does nothing.
  public func willDisplay(at index: Int) {}
  /// Does nothing.
  public func didEndDisplaying(at index: Int) {}
  /// Does nothing.
  public func willDisplayHeader() {}
  /// Does nothing.
  public func didEndDisplayingHeader() {}
  /// `nil`: nothing is shown for an empty section.
  public var emptyStateText: String? { nil }
}

extension Coordinator {
  /// The adapter is about to show the element at `indexPath` (in the coordinates it shows now):
  /// its section hears ``DisplayHandler/willDisplay(at:)`` with the local index. Traps when the
  /// path is not an element the adapter shows.
  ///
  /// - Complexity: O(1).
  public func willDisplay(_ indexPath: IndexPath) {
    let (section, index) = current.locate(indexPath)
    (section as? any DisplayHandler)?.willDisplay(at: index)
  }

  /// The adapter no longer shows the element at `indexPath`: its section hears
  /// ``DisplayHandler/didEndDisplaying(at:)``. For an element a changeset deletes, call it inside
  /// ``ViewAdapter/apply(_:from:updateData:)`` before `updateData`, with its old path.
  ///
  /// - Complexity: O(1).
  public func didEndDisplaying(_ indexPath: IndexPath) {
    let (section, index) = current.locate(indexPath)
    (section as? any DisplayHandler)?.didEndDisplaying(at: index)
  }

  /// The adapter is about to show the header of `section`.
  ///
  /// - Complexity: O(1).
  public func willDisplayHeader(inSection section: Int) {
    (self.section(at: section) as? any DisplayHandler)?.willDisplayHeader()
  }

  /// The adapter no longer shows the header of `section` (for a section a changeset deletes,
  /// call it before `updateData`, with its old index).
  ///
  /// - Complexity: O(1).
  public func didEndDisplayingHeader(inSection section: Int) {
    (self.section(at: section) as? any DisplayHandler)?.didEndDisplayingHeader()
  }

  /// What to show instead of the elements of `section` while it has none: its
  /// ``DisplayHandler/emptyStateText``, or `nil`.
  ///
  /// - Complexity: O(1).
  public func emptyStateText(inSection section: Int) -> String? {
    (self.section(at: section) as? any DisplayHandler)?.emptyStateText
  }
}
