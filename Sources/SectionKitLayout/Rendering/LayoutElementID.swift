import Foundation

/// Names one view of a ``LayoutResult``, for labels in ``LayoutTextRenderer``.
public enum LayoutElementID: Sendable, Hashable {
  /// An element (cell) at `[section, item]`.
  case element(IndexPath)
  /// A supplementary view.
  case supplementary(kind: String, indexPath: IndexPath)
  /// A decoration view.
  case decoration(kind: String, indexPath: IndexPath)
}
