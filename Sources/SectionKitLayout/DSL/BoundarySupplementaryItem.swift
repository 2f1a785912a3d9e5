/// Where a ``BoundarySupplementaryItem`` sits on its section (or on the whole layout), as in
/// UIKit's `NSRectAlignment`.
public enum BoundaryAlignment: Sendable, Hashable, Codable, CaseIterable {
  /// Above the content, centred horizontally (a header).
  case top
  /// Above the content, at the leading side.
  case topLeading
  /// Above the content, at the trailing side.
  case topTrailing
  /// Below the content, centred horizontally (a footer).
  case bottom
  /// Below the content, at the leading side.
  case bottomLeading
  /// Below the content, at the trailing side.
  case bottomTrailing
  /// At the leading side, top of the content.
  case leading
  /// At the trailing side, top of the content.
  case trailing
  /// No alignment (UIKit's `NSRectAlignment.none`): at the leading top corner of the content,
  /// moved by ``BoundarySupplementaryItem/absoluteOffset`` only; it never extends the boundary.
  case none
}

/// A header or footer of a section or of the whole layout, as in UIKit's
/// `NSCollectionLayoutBoundarySupplementaryItem`.
///
/// With `extendsBoundary` (the default) a top/bottom item grows the section and pushes the
/// content; without it, it overlaps the content inside the section's boundary. A pinned item
/// stays at the viewport's edge while its section is visible (see
/// ``CompositionalLayout/frames(in:itemCounts:container:measure:)``). Its index path is
/// `[section, 0]`, or `[0]` for layout-wide items.
///
/// ```swift
/// BoundarySupplementaryItem(elementKind: "header")
///   .height(.absolute(30))
///   .alignment(.top)
///   .pinToVisibleBounds(true)
/// ```
public struct BoundarySupplementaryItem: Sendable, Hashable, LayoutSizable, LayoutInsettable {
  /// The element kind reported with the frame.
  public var elementKind: String
  /// The size; width relative to the section's width, height to the container's height.
  /// Default: `fractionalWidth(1) × estimated(44)`.
  public var layoutSize: LayoutSize
  /// Where it sits. Default: ``BoundaryAlignment/top``.
  public var alignment: BoundaryAlignment
  /// An offset in points applied after placement.
  public var absoluteOffset: Point = .zero
  /// Whether a top/bottom item grows the section's boundary. Default: `true`.
  public var extendsBoundary: Bool = true
  /// Whether the item sticks to the viewport's edge while its section is visible.
  public var pinToVisibleBounds: Bool = false
  /// Insets that shrink the reported frame.
  public var contentInsets: EdgeInsets = .zero
  /// The z-index reported with the frame. Default: 1.
  public var zIndex: Int = 1

  /// Creates a boundary supplementary item.
  public init(
    elementKind: String,
    layoutSize: LayoutSize = LayoutSize(width: .fractionalWidth(1), height: .estimated(44)),
    alignment: BoundaryAlignment = .top
  ) {
    self.elementKind = elementKind
    self.layoutSize = layoutSize.checked("BoundarySupplementaryItem(\(elementKind))")
    self.alignment = alignment
  }

  /// Sets ``alignment``.
  public func alignment(_ value: BoundaryAlignment) -> Self {
    updated(self, \.alignment, value)
  }

  /// Sets ``absoluteOffset``.
  public func absoluteOffset(_ value: Point) -> Self {
    updated(self, \.absoluteOffset, value.checkedFinite("\(elementKind).absoluteOffset"))
  }

  /// Sets ``extendsBoundary``.
  public func extendsBoundary(_ value: Bool) -> Self {
    updated(self, \.extendsBoundary, value)
  }

  /// Sets ``pinToVisibleBounds``.
  public func pinToVisibleBounds(_ value: Bool) -> Self {
    updated(self, \.pinToVisibleBounds, value)
  }
}
