/// A set of edges of a rectangle, used by ``LayoutAnchor``.
public struct DirectionalEdges: OptionSet, Sendable, Hashable, Codable {
  /// The raw bits.
  public let rawValue: Int
  /// Creates edges from raw bits.
  public init(rawValue: Int) { self.rawValue = rawValue }
  /// The top edge.
  public static let top = DirectionalEdges(rawValue: 1)
  /// The leading (left) edge.
  public static let leading = DirectionalEdges(rawValue: 2)
  /// The bottom edge.
  public static let bottom = DirectionalEdges(rawValue: 4)
  /// The trailing (right) edge.
  public static let trailing = DirectionalEdges(rawValue: 8)
  /// All four edges.
  public static let all: DirectionalEdges = [.top, .leading, .bottom, .trailing]
}

/// Where a ``SupplementaryItem`` attaches to its item or group, as in UIKit's
/// `NSCollectionLayoutAnchor`.
///
/// The edges pick a point of the rectangle: `[.top, .trailing]` is the top-right corner, `.top`
/// alone is the middle of the top edge, `[]` the centre. The offset moves the supplementary:
/// absolute in points, fractional in multiples of the *supplementary's* size.
///
/// ```swift
/// // A badge centred on the item's top-right corner.
/// LayoutAnchor(edges: [.top, .trailing], fractionalOffset: Point(x: 0.5, y: -0.5))
/// ```
public struct LayoutAnchor: Sendable, Hashable, Codable {
  /// How an anchor's offset is measured.
  public enum Offset: Sendable, Hashable, Codable {
    /// An offset in points.
    case absolute(Point)
    /// An offset in multiples of the supplementary item's width and height.
    case fractional(Point)
  }

  /// The edges that pick the anchor point.
  public var edges: DirectionalEdges
  /// The offset applied after anchoring.
  public var offset: Offset

  /// Creates an anchor without offset.
  public init(edges: DirectionalEdges) {
    self.edges = edges
    self.offset = .absolute(.zero)
  }

  /// Creates an anchor with an offset in points.
  public init(edges: DirectionalEdges, absoluteOffset: Point) {
    self.edges = edges
    self.offset = .absolute(absoluteOffset)
  }

  /// Creates an anchor with an offset in multiples of the supplementary's size.
  public init(edges: DirectionalEdges, fractionalOffset: Point) {
    self.edges = edges
    self.offset = .fractional(fractionalOffset)
  }
}
