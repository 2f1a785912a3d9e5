/// A group that lays its subitems out along one axis: ``HGroup`` (left to right) or ``VGroup``
/// (top to bottom). Use those names; `AxisGroup` is the one implementation they share.
public struct AxisGroup<Axis: GroupAxis>: Sendable, LayoutGroupConfigurable, GroupSubitem {
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

  /// Creates a group along `Axis`.
  ///
  /// - Parameters:
  ///   - count: the exact number of subitems (equal shares of the group's length along `Axis`), or
  ///     `nil` to repeat while they fit.
  ///   - subitems: the subitems; `if`, `for`, `switch` allowed.
  public init(count: Int? = nil, @SubitemBuilder subitems: () -> [LayoutNode]) {
    if let count {
      precondition(count > 0, "\(Axis.groupName): count must be positive, got \(count)")
    }
    self.count = count
    self.subitems = subitems()
  }

  /// Creates a group with one subitem per element of `data` (ListKit's form).
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
          kind: Axis.isHorizontal ? .horizontal : .vertical, layoutSize: layoutSize,
          contentInsets: contentInsets,
          edgeSpacing: edgeSpacing, supplementaryItems: supplementaryItems,
          interItemSpacing: interItemSpacing, subitems: subitems, count: count)))
  }
}

/// The axis of an ``AxisGroup``: ``HorizontalAxis`` or ``VerticalAxis``.
public protocol GroupAxis: Sendable {
  /// Whether subitems go left to right (`true`) or top to bottom.
  static var isHorizontal: Bool { get }
  /// The group's name in messages: `HGroup` or `VGroup`.
  static var groupName: String { get }
}

/// Left to right.
public enum HorizontalAxis: GroupAxis {
  /// `true`.
  public static var isHorizontal: Bool { true }
  /// `HGroup`.
  public static var groupName: String { "HGroup" }
}

/// Top to bottom.
public enum VerticalAxis: GroupAxis {
  /// `false`.
  public static var isHorizontal: Bool { false }
  /// `VGroup`.
  public static var groupName: String { "VGroup" }
}

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
public typealias HGroup = AxisGroup<HorizontalAxis>

/// A group that lays its subitems out top to bottom, as in UIKit's
/// `NSCollectionLayoutGroup.vertical`.
///
/// Without `count`, the subitems repeat in order while the next one still fits in the group's
/// height (one item of `fractionalHeight(0.5)` makes two rows). With
/// `count`, exactly `count` subitems are placed and each gets an equal share of the height
/// (their own height dimension is ignored). Groups nest to any depth; the section repeats its
/// group until the elements run out.
///
/// ```swift
/// VGroup {
///   Item().height(.absolute(60))
///   HGroup(count: 2) { Item() }.height(.absolute(40))
/// }
/// .height(.absolute(108))
/// .interItemSpacing(.fixed(8))
/// ```
public typealias VGroup = AxisGroup<VerticalAxis>
