/// One frame returned by a ``CustomGroup``'s closure, relative to the group's area after its
/// content insets, as in UIKit's `NSCollectionLayoutGroupCustomItem`.
public struct CustomGroupItem: Sendable, Hashable, Codable {
  /// The element's frame relative to the group.
  public var frame: Rect
  /// The z-index reported with the element's frame.
  public var zIndex: Int

  /// Creates a custom group item.
  public init(frame: Rect, zIndex: Int = 0) {
    self.frame = frame
    self.zIndex = zIndex
  }
}

/// A group whose subitem frames come from a closure, as in UIKit's
/// `NSCollectionLayoutGroup.custom(layoutSize:itemProvider:)`.
///
/// The closure receives an environment whose `containerSize` is the group's area after its
/// content insets, and returns one frame per element, in element order. Each returned frame
/// is one element; the section repeats the group until the elements run out.
///
/// ```swift
/// CustomGroup { environment in
///   let side = environment.containerSize.height
///   return [CustomGroupItem(frame: Rect(x: 0, y: 0, width: side, height: side)),
///           CustomGroupItem(frame: Rect(x: side, y: 0, width: side / 2, height: side / 2))]
/// }
/// .height(.absolute(80))
/// ```
public struct CustomGroup: Sendable, LayoutItemConfigurable, GroupSubitem {
  /// The size. Default: `fractionalWidth(1) × fractionalHeight(1)`.
  public var layoutSize: LayoutSize = .fill
  /// Insets between the group's frame and the frames' coordinate space.
  public var contentInsets: EdgeInsets = .zero
  /// Space around the group inside its parent group.
  public var edgeSpacing: LayoutEdgeSpacing?
  /// Supplementary items anchored to the group.
  public var supplementaryItems: [SupplementaryItem] = []
  /// The closure that returns the frames.
  public var itemProvider: @Sendable (LayoutEnvironment) -> [CustomGroupItem]

  /// Creates a custom group.
  public init(itemProvider: @escaping @Sendable (LayoutEnvironment) -> [CustomGroupItem]) {
    self.itemProvider = itemProvider
  }

  /// The group as a subitem of another group.
  public var layoutNode: LayoutNode {
    LayoutNode(
      storage: .group(
        GroupNode(
          kind: .custom(itemProvider), layoutSize: layoutSize, contentInsets: contentInsets,
          edgeSpacing: edgeSpacing, supplementaryItems: supplementaryItems, interItemSpacing: nil,
          subitems: [], count: nil)))
  }
}

extension CustomGroupItem {
  /// Decodes a custom group item; throws `DecodingError.dataCorrupted` at `frame` for an origin
  /// that is not finite or a size that is not finite or negative (a layout would trap on it).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let frame = try container.decode(Rect.self, forKey: .frame)
    guard
      frame.minX.isFinite && frame.minY.isFinite && frame.width.isLegalLength
        && frame.height.isLegalLength
    else {
      throw DecodingError.dataCorruptedError(
        forKey: .frame, in: container,
        debugDescription:
          "CustomGroupItem.frame \(frame) must be finite with a size that is not negative")
    }
    self.init(frame: frame, zIndex: try container.decode(Int.self, forKey: .zIndex))
  }
}
