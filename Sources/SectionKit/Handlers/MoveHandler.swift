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
/// A subclass of ``ArraySection`` gets ``didMove(from:to:)`` for free (it calls
/// ``ArraySection/move(from:to:)``):
///
/// ```swift
/// final class Playlist: ArraySection<String>, MoveHandler {
///   func canMove(at index: Int) -> Bool { index > 0 }          // the first track is pinned
///   func targetIndex(sourceIndex: Int, proposedIndex: Int) -> Int { max(1, proposedIndex) }
/// }
/// ```
///
/// **Moves across sections** (a board's card dragged to another column) need both sections to
/// agree: the source gives the element up (``canMoveOut(at:to:)``) and the destination accepts it
/// (``targetIndex(forMoveInFrom:at:proposedIndex:)`` returns where it lands). Both default to
/// refusing, so a section's elements stay in it unless both sides opt in. The destination then
/// performs the move in ``didMoveIn(from:at:to:)``: it removes the element from the source and
/// inserts it into itself — an ``ArraySection`` subclass gets that for free when the source is an
/// ``ArraySection`` of the same element type. Like a move inside a section, it is not echoed back
/// to the adapter, which already shows it:
///
/// ```swift
/// final class Column: ArraySection<Card>, MoveHandler {
///   func canMoveOut(at index: Int, to destination: any MoveHandler) -> Bool {
///     destination is Column
///   }
///   func targetIndex(forMoveInFrom source: any MoveHandler, at sourceIndex: Int,
///                    proposedIndex: Int) -> Int? {
///     count < 10 ? proposedIndex : nil                       // a full column refuses
///   }
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

  /// Source side of a move across sections: whether the element at `index` may leave this
  /// section for `destination`. Default `false`.
  func canMoveOut(at index: Int, to destination: any MoveHandler) -> Bool
  /// Destination side of a move across sections: where the element at `sourceIndex` of `source`,
  /// dragged into this section towards `proposedIndex` (in `0...numberOfElements`, the index it
  /// would have here after the move), may land — clamped to that range — or `nil` to refuse it.
  /// Default `nil`.
  func targetIndex(forMoveInFrom source: any MoveHandler, at sourceIndex: Int, proposedIndex: Int)
    -> Int?
  /// Performs an accepted move across sections: removes the element at `sourceIndex` from
  /// `source` and inserts it here at `index` (its index after the move), emitting exactly one
  /// removal event in `source` and one insertion event here (in either order) before any other
  /// event. The default does nothing (the coordinator then reloads the adapter); an
  /// ``ArraySection`` subclass whose source is an ``ArraySection`` of the same element type gets
  /// it for free.
  func didMoveIn(from source: any MoveHandler, at sourceIndex: Int, to index: Int)
}

extension MoveHandler {
  /// `true`.
  public func canMove(at index: Int) -> Bool { true }
  /// `proposedIndex`.
  public func targetIndex(sourceIndex: Int, proposedIndex: Int) -> Int { proposedIndex }
  /// `false`: elements stay in their section.
  public func canMoveOut(at index: Int, to destination: any MoveHandler) -> Bool { false }
  /// `nil`: no element from another section is accepted.
  public func targetIndex(
    forMoveInFrom source: any MoveHandler, at sourceIndex: Int, proposedIndex: Int
  ) -> Int? { nil }
  /// Does nothing (a move across sections it accepted is then refused, and the adapter reloaded).
  public func didMoveIn(from source: any MoveHandler, at sourceIndex: Int, to index: Int) {}
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

extension MoveHandler where Self: RangeReplaceableCollection, Self.Index == Int {
  /// When `source` is an ``ArraySection`` of the same element type: removes its element at
  /// `sourceIndex` and inserts it here at `index`. Does nothing otherwise (the move
  /// is then refused).
  public func didMoveIn(from source: any MoveHandler, at sourceIndex: Int, to index: Int) {
    guard let source = source as? ArraySection<Element>,
      let destination = self as? ArraySection<Element>
    else { return }
    destination.insert(source.remove(at: sourceIndex), at: index)
  }
}
