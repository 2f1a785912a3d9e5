import Foundation

/// A section whose elements the user can reorder.
///
/// The adapter moves the element in its view (as a collection view does during an interactive
/// move), then reports it with ``Coordinator/moveElement(from:to:)``. The coordinator asks
/// ``canMove(at:)`` and ``targetIndex(sourceIndex:proposedIndex:)``, then calls
/// ``didMove(from:to:)``, where the section moves its element (emitting one move event). That
/// move is **not** echoed back to the adapter as a changeset — the view already shows it — but
/// the selection follows it, and anything else the section changes in `didMove` reaches the
/// adapter as a normal changeset.
///
/// Moves stay inside one section. A subclass of ``ArraySection`` gets ``didMove(from:to:)`` for
/// free (it calls ``ArraySection/move(from:to:)``):
///
/// ```swift
/// final class Playlist: ArraySection<String>, MoveHandler {
///   func canMove(at index: Int) -> Bool { index > 0 }          // the first track is pinned
///   func targetIndex(sourceIndex: Int, proposedIndex: Int) -> Int { max(1, proposedIndex) }
/// }
/// ```
public protocol MoveHandler: Section {
  /// Whether the element at `index` can be moved. Default `true`.
  func canMove(at index: Int) -> Bool
  /// Where an element dragged from `sourceIndex` towards `proposedIndex` may go (clamped to the
  /// section's range). Default: `proposedIndex`.
  func targetIndex(sourceIndex: Int, proposedIndex: Int) -> Int
  /// Moves the element at `from` to `to` (remove, then insert) in the model, emitting exactly one
  /// move event `from → to` before any other event.
  func didMove(from: Int, to: Int)
}

extension MoveHandler {
  /// `true`.
  public func canMove(at index: Int) -> Bool { true }
  /// `proposedIndex`.
  public func targetIndex(sourceIndex: Int, proposedIndex: Int) -> Int { proposedIndex }
}

/// A section that can move one of its elements, emitting one move event: ``ArraySection``.
public protocol ElementMovingSection: Section {
  /// Moves the element at `index` to `newIndex`, emitting one move event.
  func move(from index: Int, to newIndex: Int)
}

extension ArraySection: ElementMovingSection {}

extension MoveHandler where Self: ElementMovingSection {
  /// Calls `move(from:to:)`.
  public func didMove(from: Int, to: Int) { move(from: from, to: to) }
}
