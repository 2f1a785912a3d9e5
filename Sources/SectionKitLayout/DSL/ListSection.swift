/// A list preset: one full-width row per element, the ListKit / `UICollectionLayoutListConfiguration`
/// shape, with optional header and footer.
///
/// ```swift
/// ListSection(rowHeight: .absolute(44), rowSpacing: 1)
///   .header(height: .absolute(30))
///   .contentInsets(horizontal: 16)
/// ```
public struct ListSection: Sendable, LayoutInsettable, LayoutSectionConvertible {
  /// The height of every row. Default: `estimated(44)`.
  public var rowHeight: LayoutDimension
  /// The space between rows.
  public var rowSpacing: Double
  /// The section's content insets.
  public var contentInsets: EdgeInsets = .zero
  /// The header's height, or `nil` for none. Kind: ``headerKind``.
  public var headerHeight: LayoutDimension?
  /// The footer's height, or `nil` for none. Kind: ``footerKind``.
  public var footerHeight: LayoutDimension?
  /// Whether the header is pinned.
  public var pinsHeader: Bool = false

  /// The element kind of the list's header.
  public static let headerKind = "header"
  /// The element kind of the list's footer.
  public static let footerKind = "footer"

  /// Creates a list section.
  public init(rowHeight: LayoutDimension = .estimated(44), rowSpacing: Double = 0) {
    self.rowHeight = rowHeight.checked("ListSection.rowHeight")
    checkLength(rowSpacing, "ListSection.rowSpacing")
    self.rowSpacing = rowSpacing
  }

  /// Adds a header.
  public func header(height: LayoutDimension = .estimated(44), pinned: Bool = false) -> Self {
    var copy = self
    copy.headerHeight = height.checked("ListSection.header height")
    copy.pinsHeader = pinned
    return copy
  }

  /// Adds a footer.
  public func footer(height: LayoutDimension = .estimated(44)) -> Self {
    updated(self, \.footerHeight, height.checked("ListSection.footer height"))
  }

  /// The equivalent ``LayoutSection``.
  public var layoutSection: LayoutSection {
    var section = LayoutSection {
      HGroup { Item().height(rowHeight) }.height(rowHeight)
    }
    .interGroupSpacing(rowSpacing)
    .contentInsets(contentInsets)
    if let headerHeight {
      section.boundarySupplementaryItems.append(
        BoundarySupplementaryItem(elementKind: Self.headerKind).height(headerHeight)
          .pinToVisibleBounds(pinsHeader))
    }
    if let footerHeight {
      section.boundarySupplementaryItems.append(
        BoundarySupplementaryItem(elementKind: Self.footerKind, alignment: .bottom).height(
          footerHeight))
    }
    return section
  }
}
