import Foundation

/// A request to measure a view whose layout size has an estimated dimension.
///
/// The caller's measuring closure returns the view's size; only the estimated axes of the
/// answer are used. The default (no closure) treats every estimate as final.
///
/// ```swift
/// layout.frames(itemCounts: [3], container: container) { request in
///   Size(width: request.proposedSize.width, height: heights[request.indexPath.item])
/// }
/// ```
public struct MeasurementRequest: Sendable, Hashable {
  /// What is being measured.
  public enum Category: Sendable, Hashable {
    /// An element (cell).
    case element
    /// A supplementary view of the given kind.
    case supplementary(kind: String)
  }

  /// What is being measured.
  public var category: Category
  /// The view's index path.
  public var indexPath: IndexPath
  /// The size the layout proposes: resolved sizes on fixed axes, estimates on estimated ones.
  public var proposedSize: Size
  /// Whether the width is estimated (free to change).
  public var estimatesWidth: Bool
  /// Whether the height is estimated (free to change).
  public var estimatesHeight: Bool

  /// Creates a request.
  public init(
    category: Category, indexPath: IndexPath, proposedSize: Size, estimatesWidth: Bool,
    estimatesHeight: Bool
  ) {
    self.category = category
    self.indexPath = indexPath
    self.proposedSize = proposedSize
    self.estimatesWidth = estimatesWidth
    self.estimatesHeight = estimatesHeight
  }
}

extension MeasurementRequest {
  /// The proposed size with its estimated axes replaced by `measure`'s answer.
  ///
  /// The measuring closure is the caller's code: an answer that is NaN, infinite or negative on
  /// an estimated axis is a programming error and traps, naming the index path.
  func measured(by measure: (MeasurementRequest) -> Size) -> Size {
    let answer = measure(self)
    var size = proposedSize
    if estimatesWidth {
      precondition(
        answer.width.isLegalLength,
        "CompositionalLayout: measured width \(answer.width) for \(indexPath) must be finite and not negative"
      )
      size.width = answer.width
    }
    if estimatesHeight {
      precondition(
        answer.height.isLegalLength,
        "CompositionalLayout: measured height \(answer.height) for \(indexPath) must be finite and not negative"
      )
      size.height = answer.height
    }
    return size
  }
}
