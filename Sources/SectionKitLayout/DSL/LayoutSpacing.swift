/// Spacing between items, as in UIKit's `NSCollectionLayoutSpacing`.
///
/// ```swift
/// HGroup { Item() }.interItemSpacing(.fixed(8))
/// ```
public enum LayoutSpacing: Sendable, Hashable, Codable {
  /// Exactly this many points.
  case fixed(Double)
  /// At least this many points; grows to share the space left in the group.
  case flexible(Double)

  /// The fixed value, or the flexible minimum.
  public var minimum: Double {
    switch self {
    case .fixed(let value), .flexible(let value): return value
    }
  }

  /// Whether this is ``flexible(_:)``.
  public var isFlexible: Bool {
    if case .flexible = self { return true }
    return false
  }
}

/// Space around an item inside its group, as in UIKit's `NSCollectionLayoutEdgeSpacing`.
/// Edge spacing is outside the item's size: it moves the item, it never shrinks it.
///
/// ```swift
/// Item().edgeSpacing(leading: .flexible(0), trailing: .flexible(0))  // centred along the row
/// ```
public struct LayoutEdgeSpacing: Sendable, Hashable, Codable {
  /// Space before the leading edge.
  public var leading: LayoutSpacing?
  /// Space above the top edge.
  public var top: LayoutSpacing?
  /// Space after the trailing edge.
  public var trailing: LayoutSpacing?
  /// Space below the bottom edge.
  public var bottom: LayoutSpacing?

  /// Creates edge spacing; `nil` means none.
  public init(
    leading: LayoutSpacing? = nil, top: LayoutSpacing? = nil, trailing: LayoutSpacing? = nil,
    bottom: LayoutSpacing? = nil
  ) {
    self.leading = leading
    self.top = top
    self.trailing = trailing
    self.bottom = bottom
  }
}
