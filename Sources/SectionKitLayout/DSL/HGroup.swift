/// A group that lays its subitems out left to right, as in UIKit's
/// `NSCollectionLayoutGroup.horizontal`.
///
/// Without `count`, the subitems repeat in order while the next one still fits in the group's
/// width (UIKit's behaviour: one item of `fractionalWidth(0.25)` makes four columns). With
/// `count`, exactly `count` subitems are placed and each gets an equal share of the width
/// (their own width dimension is ignored). Groups nest to any depth; the section repeats its
/// group until the elements run out.
///
/// ```swift
/// HGroup {
///   Item().width(.fractionalWidth(0.5))
///   VGroup(count: 2) { Item() }.width(.fractionalWidth(0.5))
/// }
/// .height(.absolute(100))
/// .interItemSpacing(.fixed(8))
/// ```
public struct HGroup: Sendable, LayoutGroupConfigurable, GroupSubitem {
  /// The size. Default: `fractionalWidth(1) × fractionalHeight(1)`.
  public var layoutSize: LayoutSize = .fill
  /// Insets between the group's frame and its subitems' area.
  public var contentInsets: EdgeInsets = .zero
  /// Space around the group inside its parent group.
  public var edgeSpacing: LayoutEdgeSpacing?
  /// Supplementary items anchored to the group.
  public var supplementaryItems: [SupplementaryItem] = []
  /// Space between consecutive subitems.
  public var interItemSpacing: LayoutSpacing?
  /// The subitems, in element order.
  public var subitems: [LayoutNode]
  /// The exact number of subitems, or `nil` to repeat them while they fit.
  public var count: Int?

  /// Creates a horizontal group.
  ///
  /// - Parameters:
  ///   - count: the exact number of subitems (equal widths), or `nil` to repeat while they fit.
  ///   - subitems: the subitems; `if`, `for`, `switch` allowed.
  public init(count: Int? = nil, @SubitemBuilder subitems: () -> [LayoutNode]) {
    if let count { precondition(count > 0, "HGroup: count must be positive, got \(count)") }
    self.count = count
    self.subitems = subitems()
  }

  /// Creates a horizontal group with one subitem per element of `data` (ListKit's form).
  ///
  /// - Complexity: O(*n*) in the length of `data`.
  public init<Data: Sequence>(
    of data: Data, @SubitemBuilder subitem: (Data.Element) -> [LayoutNode]
  ) {
    self.subitems = data.flatMap(subitem)
  }

  /// The group as a subitem of another group.
  public var layoutNode: LayoutNode {
    LayoutNode(
      storage: .group(
        GroupNode(
          kind: .horizontal, layoutSize: layoutSize, contentInsets: contentInsets,
          edgeSpacing: edgeSpacing, supplementaryItems: supplementaryItems,
          interItemSpacing: interItemSpacing, subitems: subitems, count: count)))
  }
}
