/// A leaf of the layout: one element (cell), as in UIKit's `NSCollectionLayoutItem`.
///
/// Its size is relative to the group's area after the group's content insets; its own content
/// insets shrink the element's frame inside the space it was given.
///
/// ```swift
/// Item()
///   .width(.fractionalWidth(0.25))
///   .contentInsets(value: 2)
/// ```
public struct Item: Sendable, LayoutItemConfigurable, LayoutZIndexable, GroupSubitem {
  /// The size. Default: `fractionalWidth(1) × fractionalHeight(1)`.
  public var layoutSize: LayoutSize
  /// Insets that shrink the element's frame.
  public var contentInsets: EdgeInsets = .zero
  /// Space around the item inside its group.
  public var edgeSpacing: LayoutEdgeSpacing?
  /// Supplementary items anchored to the item.
  public var supplementaryItems: [SupplementaryItem] = []
  /// The z-index reported with the element's frame. Default: 0.
  public var zIndex: Int = 0

  /// Creates an item.
  public init(
    width: LayoutDimension = .fractionalWidth(1), height: LayoutDimension = .fractionalHeight(1)
  ) {
    self.layoutSize = LayoutSize(
      width: width.checked("Item.width"), height: height.checked("Item.height"))
  }

  /// Creates an item of the given size.
  public init(size: LayoutSize) {
    self.layoutSize = size.checked("Item.size")
  }

  /// The item as a subitem of a group.
  public var layoutNode: LayoutNode { LayoutNode(storage: .item(self)) }
}
