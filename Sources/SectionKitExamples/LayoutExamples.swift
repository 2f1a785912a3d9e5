import Foundation
import SectionKitLayout

/// Ready-made layouts for the demo, the documentation and the golden tests.
///
/// ```swift
/// let drawing = LayoutExamples.render(
///   LayoutExamples.compositionalLayoutDSLReadme(), itemCounts: LayoutExamples.readmeItemCounts)
/// print(drawing)
/// ```
public enum LayoutExamples {
  /// The element kind of the examples' headers (`ListSection`'s, which `ConsoleLayoutRenderer`
  /// labels with the section's header).
  public static let headerKind = ListSection.headerKind
  /// The element kind of the examples' footers (`ListSection`'s).
  public static let footerKind = ListSection.footerKind
  /// The element kind of the examples' section backgrounds.
  public static let backgroundKind = "background"

  /// The container the demo draws the examples in: an iPhone-like 320 × 568 points.
  public static let demoContainer = Size(width: 320, height: 568)
  /// The demo's renderer: 4 points per column, 8 per row (80 columns for ``demoContainer``).
  public static let demoRenderer = LayoutTextRenderer(horizontalScale: 4, verticalScale: 8)

  /// CompositionalLayoutDSL's README "Getting started" layout, transcribed:
  ///
  /// ```swift
  /// LayoutBuilder {
  ///   Section {
  ///     VGroup(count: 1) { Item() }
  ///       .height(.fractionalWidth(0.3))
  ///       .width(.fractionalWidth(0.3))
  ///       .interItemSpacing(.fixed(8))
  ///   }
  ///   .interGroupSpacing(8)
  ///   .contentInsets(horizontal: 16, vertical: 8)
  ///   .orthogonalScrollingBehavior(.continuous)
  ///   .supplementariesFollowContentInsets(false)
  ///   .boundarySupplementaryItems {
  ///     BoundarySupplementaryItem(elementKind: UICollectionView.elementKindSectionHeader)
  ///       .height(.absolute(30))
  ///       .alignment(.top)
  ///       .pinToVisibleBounds(true)
  ///   }
  /// }
  /// ```
  public static func compositionalLayoutDSLReadme() -> CompositionalLayout {
    CompositionalLayout { _, _ in
      LayoutSection {
        VGroup(count: 1) { Item() }
          .height(.fractionalWidth(0.3))
          .width(.fractionalWidth(0.3))
          .interItemSpacing(.fixed(8))
      }
      .interGroupSpacing(8)
      .contentInsets(horizontal: 16, vertical: 8)
      .orthogonalScrollingBehavior(.continuous)
      .supplementariesFollowContentInsets(false)
      .boundarySupplementaryItems {
        BoundarySupplementaryItem(elementKind: headerKind)
          .height(.absolute(30))
          .alignment(.top)
          .pinToVisibleBounds(true)
      }
    }
  }

  /// The element counts the demo uses for ``compositionalLayoutDSLReadme()``.
  public static let readmeItemCounts = [6, 6, 6]

  /// The three-column HGroup: a large item next to a VGroup of two and a VGroup of three, with a
  /// header and a background, in the style of CompositionalLayoutDSL's showcase.
  ///
  /// ```swift
  /// LayoutSection {
  ///   HGroup {
  ///     Item().width(.fractionalWidth(0.5)).contentInsets(value: 2)
  ///     VGroup(count: 2) { Item().contentInsets(value: 2) }.width(.fractionalWidth(0.25))
  ///     VGroup(count: 3) { Item().contentInsets(value: 2) }.width(.fractionalWidth(0.25))
  ///   }
  ///   .height(.fractionalWidth(0.5))
  /// }
  /// .contentInsets(value: 8)
  /// ```
  public static func threeColumnMosaic() -> CompositionalLayout {
    CompositionalLayout { _, _ in
      LayoutSection {
        HGroup {
          Item().width(.fractionalWidth(0.5)).contentInsets(value: 2)
          VGroup(count: 2) { Item().contentInsets(value: 2) }.width(.fractionalWidth(0.25))
          VGroup(count: 3) { Item().contentInsets(value: 2) }.width(.fractionalWidth(0.25))
        }
        .height(.fractionalWidth(0.5))
      }
      .contentInsets(value: 8)
      .boundarySupplementaryItems {
        BoundarySupplementaryItem(elementKind: headerKind).height(.absolute(24))
      }
      .decorationItems {
        DecorationItem.background(elementKind: backgroundKind)
      }
    }
    .interSectionSpacing(16)
  }

  /// The element counts the demo uses for ``threeColumnMosaic()``.
  public static let mosaicItemCounts = [9, 4]

  /// A ListKit-style layout built with the data-driven forms and `switch`: a row of three
  /// tiles from data, a strip of cards that pages sideways, and a list with header and footer.
  public static func listKitStyle() -> CompositionalLayout {
    let fractions = [0.5, 0.25, 0.25]
    return CompositionalLayout { sectionIndex, _ in
      switch sectionIndex {
      case 0:
        LayoutSection {
          HGroup(of: fractions) { fraction in
            Item().width(.fractionalWidth(fraction)).contentInsets(value: 4)
          }
          .height(.absolute(64))
        }
        .boundarySupplementaryItems {
          BoundarySupplementaryItem(elementKind: headerKind).height(.absolute(24))
        }
      case 1:
        LayoutSection {
          HGroup { Item() }.width(.absolute(120)).height(.absolute(64))
        }
        .interGroupSpacing(8)
        .contentInsets(horizontal: 16, vertical: 8)
        .orthogonalScrollingBehavior(.groupPaging)
        .decorationItems { DecorationItem.background(elementKind: backgroundKind) }
      default:
        ListSection(rowHeight: .absolute(32), rowSpacing: 8)
          .header(height: .absolute(24))
          .footer(height: .absolute(16))
          .contentInsets(horizontal: 16)
      }
    }
    .interSectionSpacing(16)
  }

  /// The element counts the demo uses for ``listKitStyle()``.
  public static let listKitItemCounts = [6, 5, 3]

  /// Lays `layout` out in `container` and draws it.
  public static func render(
    _ layout: CompositionalLayout, itemCounts: [Int], container: Size = demoContainer,
    renderer: LayoutTextRenderer = demoRenderer
  ) -> String {
    renderer.render(layout.frames(itemCounts: itemCounts, container: container))
  }
}
