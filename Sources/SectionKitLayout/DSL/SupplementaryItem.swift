/// A supplementary view attached to an item or a group (a badge, a label), as in UIKit's
/// `NSCollectionLayoutSupplementaryItem`.
///
/// Its size is relative to the frame of what it is attached to, inside that item's or group's
/// content insets (a group's whole frame under ``LayoutRules/legacy``). Without an `itemAnchor`
/// it is placed *inside* that frame at the container anchor's edges, then moved by the anchor's
/// offset (a fractional one in multiples of its own size); with one, the point of the
/// supplementary picked by `itemAnchor` is put on the point of the container picked by
/// `containerAnchor`. Its index path is the item's; a group's is `[section, group]` (see
/// ``LayoutRules/groupSupplementariesIndexedByGroup`` for the details and SectionKitLayout 1's
/// rule).
///
/// ```swift
/// Item().supplementaryItems {
///   SupplementaryItem(elementKind: "badge", containerAnchor: LayoutAnchor(edges: [.top, .trailing]))
///     .width(.absolute(20)).height(.absolute(20))
/// }
/// ```
public struct SupplementaryItem: Sendable, Hashable, LayoutSizable, LayoutInsettable {
  /// The element kind reported with the frame.
  public var elementKind: String
  /// The anchor on the item or group.
  public var containerAnchor: LayoutAnchor
  /// The anchor on the supplementary itself; `nil` uses the container anchor's edges.
  public var itemAnchor: LayoutAnchor?
  /// The size, relative to the item or group it is attached to. Default: 20 × 20 points.
  public var layoutSize: LayoutSize
  /// Insets that shrink the reported frame inside the anchored rectangle.
  public var contentInsets: EdgeInsets = .zero
  /// The z-index reported with the frame. Default: 1 (above elements).
  public var zIndex: Int = 1

  /// Creates a supplementary item.
  public init(
    elementKind: String, containerAnchor: LayoutAnchor = LayoutAnchor(edges: [.top, .leading]),
    itemAnchor: LayoutAnchor? = nil
  ) {
    self.elementKind = elementKind
    self.containerAnchor = containerAnchor
    self.itemAnchor = itemAnchor
    self.layoutSize = LayoutSize(width: .absolute(20), height: .absolute(20))
  }
}
