/// One axis of a layout size, as in UIKit's `NSCollectionLayoutDimension`.
///
/// Fractional dimensions are relative to the container *after* the container's content
/// insets: the section's content area for a section's group, the group's inset area for
/// its subitems, the item's frame for an item's supplementary items.
///
/// ```swift
/// Item().width(.fractionalWidth(0.5)).height(.absolute(44))
/// ```
public enum LayoutDimension: Sendable, Hashable, Codable {
  /// A fraction of the container's width.
  case fractionalWidth(Double)
  /// A fraction of the container's height.
  case fractionalHeight(Double)
  /// A fixed number of points.
  case absolute(Double)
  /// A first guess that the caller's measuring closure may replace
  /// (see ``MeasurementRequest``). Content insets are ignored along an estimated axis.
  case estimated(Double)

  /// Whether this is ``estimated(_:)``.
  public var isEstimated: Bool {
    if case .estimated = self { return true }
    return false
  }

  /// The length this dimension has in `container`.
  ///
  /// - Complexity: O(1).
  public func resolved(in container: Size) -> Double {
    switch self {
    case .fractionalWidth(let fraction): return fraction * container.width
    case .fractionalHeight(let fraction): return fraction * container.height
    case .absolute(let value), .estimated(let value): return value
    }
  }
}

/// A width and a height dimension, as in UIKit's `NSCollectionLayoutSize`.
///
/// ```swift
/// let size = LayoutSize(width: .fractionalWidth(1), height: .estimated(44))
/// ```
public struct LayoutSize: Sendable, Hashable, Codable {
  /// The width dimension.
  public var width: LayoutDimension
  /// The height dimension.
  public var height: LayoutDimension

  /// Creates a layout size.
  public init(width: LayoutDimension, height: LayoutDimension) {
    self.width = width.checked("LayoutSize.width")
    self.height = height.checked("LayoutSize.height")
  }

  /// `fractionalWidth(1) × fractionalHeight(1)`, the default size of items and groups.
  public static let fill = LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(1))

  /// The size this layout size has in `container`.
  public func resolved(in container: Size) -> Size {
    Size(width: width.resolved(in: container), height: height.resolved(in: container))
  }
}
