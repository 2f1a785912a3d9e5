import Foundation
import SectionKitLayout
import Testing

/// UIKit's four measured rules (see "UIKit's rules, as implemented" in Docs/Layout.md), with
/// hand-computed frames on UIKit's measuring container (375 × 812 points), and the same
/// layouts under `LayoutRules.legacy`.
@Suite struct UIKitRulesTests {
  static let container = Size(width: 375, height: 812)

  // MARK: Rule 1: orthogonal sections resolve fractions against the full container width

  static func strip(width: LayoutDimension, spacing: Double = 0) -> LayoutSection {
    LayoutSection { HGroup { Item() }.width(width).height(.absolute(100)) }
      .orthogonalScrollingBehavior(.continuous)
      .contentInsets(horizontal: 16)
      .interGroupSpacing(spacing)
  }

  @Test func orthogonalGroup_fractionOfTheFullContainerWidth_startsAfterTheLeadingInset() {
    // The worked numbers: fraction 1 with 16-point insets on 375 points is a 375-point
    // group at x = 16; the next at 16 + 375; the strip is 16 + 3 × 375 + 16 long.
    let result = layout(Self.strip(width: .fractionalWidth(1)))
      .frames(itemCounts: [3], container: Self.container)
    #expect(
      elementFrames(result)
        == [rect(16, 0, 375, 100), rect(391, 0, 375, 100), rect(766, 0, 375, 100)])
    #expect(result.sections[0].orthogonalRegion?.contentWidth == 1_157)
  }

  @Test func orthogonalGroup_partialFractionWithSpacing() {
    // 0.8 × 375 = 300 wide, 10 apart: x = 16, 326, 636; strip 16 + 900 + 20 + 16.
    let result = layout(Self.strip(width: .fractionalWidth(0.8), spacing: 10))
      .frames(itemCounts: [3], container: Self.container)
    #expect(
      elementFrames(result)
        == [rect(16, 0, 300, 100), rect(326, 0, 300, 100), rect(636, 0, 300, 100)])
    #expect(result.sections[0].orthogonalRegion?.contentWidth == 952)
  }

  @Test func orthogonalGroup_legacyRules_resolveAgainstTheInsetWidth() {
    let result = layout(
      Self.strip(width: .fractionalWidth(1)), configuration: .init(rules: .legacy)
    ).frames(itemCounts: [2], container: Self.container)
    #expect(elementFrames(result) == [rect(16, 0, 343, 100), rect(359, 0, 343, 100)])
  }

  @Test func nonOrthogonalSection_stillResolvesAgainstTheInsetWidth() {
    var section = Self.strip(width: .fractionalWidth(1))
    section.orthogonalScrollingBehavior = .none
    let result = layout(section).frames(itemCounts: [1], container: Self.container)
    #expect(elementFrames(result) == [rect(16, 0, 343, 100)])
  }

  // MARK: Rule 2: counted groups resolve fractions against the length minus the spacing

  static func countedRow() -> LayoutSection {
    LayoutSection {
      HGroup(count: 4) { Item().height(.fractionalWidth(0.25)) }
        .height(.absolute(100)).interItemSpacing(.fixed(16))
    }
    .contentInsets(horizontal: 10)
  }

  @Test func countedHGroup_itemHeightFromWidthFraction_excludesTheSpacing() {
    // The worked numbers: a 355-point group of 4 with 16 points of spacing gives
    // (355 − 3 × 16) / 4 = 76.75 for both the share and fractionalWidth(1/4).
    let result = layout(Self.countedRow()).frames(itemCounts: [4], container: Self.container)
    #expect(
      elementFrames(result) == [
        rect(10, 0, 76.75, 76.75), rect(102.75, 0, 76.75, 76.75), rect(195.5, 0, 76.75, 76.75),
        rect(288.25, 0, 76.75, 76.75),
      ])
  }

  @Test func countedHGroup_legacyRules_resolveAgainstTheWholeGroup() {
    let result = layout(Self.countedRow(), configuration: .init(rules: .legacy))
      .frames(itemCounts: [1], container: Self.container)
    #expect(elementFrames(result) == [rect(10, 0, 76.75, 88.75)])
  }

  @Test func countedVGroup_widthFromHeightFraction_excludesTheSpacing() {
    // (230 − 2 × 10) / 3 = 70 tall; fractionalHeight(0.5) of 230 − 20 = 105 wide.
    let section = LayoutSection {
      VGroup(count: 3) { Item().width(.fractionalHeight(0.5)) }
        .height(.absolute(230)).interItemSpacing(.fixed(10))
    }
    let result = layout(section).frames(itemCounts: [3], container: Self.container)
    #expect(
      elementFrames(result) == [rect(0, 0, 105, 70), rect(0, 80, 105, 70), rect(0, 160, 105, 70)])
    let legacy = layout(section, configuration: .init(rules: .legacy))
      .frames(itemCounts: [1], container: Self.container)
    #expect(elementFrames(legacy) == [rect(0, 0, 115, 70)])
  }

  @Test func countedHorizontalLayout_isTheTransposeOfTheVerticalOne() {
    let vertical = layout(Self.countedRow()).frames(itemCounts: [4], container: Self.container)
    let horizontal = CompositionalLayout(sections: [
      LayoutSection {
        VGroup(count: 4) { Item().width(.fractionalHeight(0.25)) }
          .width(.absolute(100)).interItemSpacing(.fixed(16))
      }
      .contentInsets(vertical: 10)
    ]).scrollDirection(.horizontal).frames(
      itemCounts: [4], container: Size(width: 812, height: 375))
    #expect(
      elementFrames(horizontal)
        == elementFrames(vertical).map {
          rect($0.minY, $0.minX, $0.height, $0.width)
        })
  }

  // MARK: Rule 3: group supplementaries against the visible group frame, indexed by group

  static let badge = SupplementaryItem(
    elementKind: "badge", containerAnchor: LayoutAnchor(edges: [.top, .trailing])
  ).width(.absolute(20)).height(.absolute(20))

  static func badgedPairs() -> LayoutSection {
    LayoutSection {
      HGroup { Item().width(.fractionalWidth(0.5)) }.height(.absolute(50))
        .supplementaryItems { badge }
    }
  }

  @Test func groupSupplementary_takesTheGroupsIndex() {
    // Five items in pairs: groups 0, 1, 2, each with its badge at its top-right corner.
    let result = layout(Self.badgedPairs()).frames(itemCounts: [5], container: Self.container)
    #expect(
      result.supplementaries.map(\.indexPath) == [ip(0, 0), ip(0, 1), ip(0, 2)])
    #expect(
      result.supplementaries.map(\.frame)
        == [rect(355, 0, 20, 20), rect(355, 50, 20, 20), rect(355, 100, 20, 20)])
  }

  @Test func groupSupplementary_legacyRules_takeTheFirstItemsIndex() {
    let result = layout(Self.badgedPairs(), configuration: .init(rules: .legacy))
      .frames(itemCounts: [5], container: Self.container)
    #expect(result.supplementaries.map(\.indexPath) == [ip(0, 0), ip(0, 2), ip(0, 4)])
  }

  @Test func groupSupplementary_onAGroupWiderThanTheContainer_staysInsideTheContainer() {
    // A 500-point group at x = 16 runs to 516; its visible part ends at 375, so the badge's
    // trailing edge is 375 (x = 355), not 516.
    let section = LayoutSection {
      HGroup { Item().width(.absolute(200)) }.width(.absolute(500)).height(.absolute(50))
        .supplementaryItems { Self.badge }
    }
    .contentInsets(leading: 16)
    let result = layout(section).frames(itemCounts: [2], container: Self.container)
    #expect(result.supplementaries.map(\.frame) == [rect(355, 0, 20, 20)])
    let legacy = layout(section, configuration: .init(rules: .legacy))
      .frames(itemCounts: [2], container: Self.container)
    #expect(legacy.supplementaries.map(\.frame) == [rect(496, 0, 20, 20)])
  }

  /// CompositionalLayoutDSL's `SupplementaryItemDSLTests` layout (snapshotted against UIKit on
  /// an iPhone X): a badge on each item's top-trailing corner, and on each group a 20 × 60
  /// supplementary on its trailing edge moved by its own width, into the group's 20-point
  /// trailing content inset.
  static func supplementaryItemDSLTestsSection() -> LayoutSection {
    LayoutSection {
      HGroup(count: 4) {
        Item().height(.fractionalWidth(1.0 / 4)).supplementaryItems {
          SupplementaryItem(
            elementKind: "badge",
            containerAnchor: LayoutAnchor(
              edges: [.top, .trailing], fractionalOffset: Point(x: 0.5, y: -0.5))
          ).width(.absolute(15)).height(.absolute(15))
        }
      }
      .height(.absolute(80)).interItemSpacing(.fixed(16))
      .supplementaryItems {
        SupplementaryItem(
          elementKind: "trailing",
          containerAnchor: LayoutAnchor(edges: .trailing, fractionalOffset: Point(x: 1, y: 0))
        ).width(.absolute(20)).height(.absolute(60))
      }
      .contentInsets(trailing: 20)
    }
    .interGroupSpacing(16).contentInsets(bottom: 16)
  }

  @Test func groupSupplementary_isAnchoredInsideTheGroupsContentInsets_asInUIKit() {
    // UIKit: the group is 375 wide, 355 inside its trailing inset; the trailing supplementary
    // sits inside that edge (x = 335) moved by its width: (355, 10, 20, 60), flush with the
    // group's trailing edge. Items: (355 − 3 × 16) / 4 = 76.75 square, badges 7.5 outside
    // their top-trailing corners.
    let result = layout(Self.supplementaryItemDSLTestsSection())
      .frames(itemCounts: [5], container: Self.container)
    let trailing = result.supplementaries.filter { $0.kind == "trailing" }
    #expect(trailing.map(\.indexPath) == [ip(0, 0), ip(0, 1)])
    #expect(trailing.map(\.frame) == [rect(355, 10, 20, 60), rect(355, 106, 20, 60)])
    #expect(
      elementFrames(result) == [
        rect(0, 0, 76.75, 76.75), rect(92.75, 0, 76.75, 76.75), rect(185.5, 0, 76.75, 76.75),
        rect(278.25, 0, 76.75, 76.75), rect(0, 96, 76.75, 76.75),
      ])
    #expect(
      result.supplementaries.filter { $0.kind == "badge" }.map(\.frame) == [
        rect(69.25, -7.5, 15, 15), rect(162, -7.5, 15, 15), rect(254.75, -7.5, 15, 15),
        rect(347.5, -7.5, 15, 15), rect(69.25, 88.5, 15, 15),
      ])
    #expect(result.contentSize.height == 192)
  }

  @Test func groupSupplementary_legacyRules_areAnchoredOnTheWholeGroupFrame() {
    let result = layout(
      Self.supplementaryItemDSLTestsSection(), configuration: .init(rules: .legacy)
    ).frames(itemCounts: [4], container: Self.container)
    #expect(
      result.supplementaries.filter { $0.kind == "trailing" }.map(\.frame)
        == [rect(375, 10, 20, 60)])
  }

  @Test func groupSupplementary_eachEdgeInsideTheGroupsContentInsets() {
    // Insets 10, 30, 20, 40 on a 375 × 100 group: its content is (30, 10)–(335, 80). Corners,
    // edge midpoints and the centre, without offset, are those of the content.
    func placed(_ edges: DirectionalEdges) -> Rect? {
      let section = LayoutSection {
        HGroup { Item() }.height(.absolute(100))
          .contentInsets(top: 10, leading: 30, bottom: 20, trailing: 40)
          .supplementaryItems {
            SupplementaryItem(elementKind: "s", containerAnchor: LayoutAnchor(edges: edges))
              .width(.absolute(20)).height(.absolute(10))
          }
      }
      return layout(section).frames(itemCounts: [1], container: Self.container)
        .supplementaryFrame(ofKind: "s", at: ip(0, 0))
    }
    #expect(placed([.top, .leading]) == rect(30, 10, 20, 10))
    #expect(placed([.bottom, .trailing]) == rect(315, 70, 20, 10))
    #expect(placed(.top) == rect(172.5, 10, 20, 10))
    #expect(placed(.leading) == rect(30, 40, 20, 10))
    #expect(placed([]) == rect(172.5, 40, 20, 10))
  }

  @Test func groupSupplementary_ofANestedGroup_insideThatGroupsContentInsets() {
    // Inner groups 187.5 wide with a 10-point leading inset: their badges at x = 10 and 197.5.
    let section = LayoutSection {
      HGroup {
        VGroup { Item() }.width(.fractionalWidth(0.5)).contentInsets(leading: 10)
          .supplementaryItems {
            SupplementaryItem(elementKind: "inner").width(.absolute(10)).height(.absolute(10))
          }
      }
      .height(.absolute(50))
    }
    let result = layout(section).frames(itemCounts: [2], container: Self.container)
    #expect(
      result.supplementaries.map(\.frame.origin) == [Point(x: 10, y: 0), Point(x: 197.5, y: 0)])
  }

  @Test func groupSupplementary_inAHorizontalLayout_insideTheGroupsContentInsets() {
    // The transpose of the example: a 375-point-tall VGroup with a bottom inset of 20,
    // its 60 × 20 supplementary on its bottom edge moved by its own height: (10, 355, 60, 20).
    let section = LayoutSection {
      VGroup(count: 4) { Item() }.width(.absolute(80))
        .supplementaryItems {
          SupplementaryItem(
            elementKind: "bottom",
            containerAnchor: LayoutAnchor(edges: .bottom, fractionalOffset: Point(x: 0, y: 1))
          ).width(.absolute(60)).height(.absolute(20))
        }
        .contentInsets(bottom: 20)
    }
    let result = CompositionalLayout(sections: [section]).scrollDirection(.horizontal)
      .frames(itemCounts: [4], container: Size(width: 812, height: 375))
    #expect(result.supplementaryFrame(ofKind: "bottom", at: ip(0, 0)) == rect(10, 355, 60, 20))
  }

  @Test func groupSupplementary_viewportQueryMatchesTheFullLayout() {
    let full = layout(Self.badgedPairs()).frames(itemCounts: [40], container: Self.container)
    let viewport = rect(0, 300, 375, 200)
    let visible = layout(Self.badgedPairs())
      .frames(in: viewport, itemCounts: [40], container: Self.container)
    #expect(
      visible.supplementaries == full.supplementaries.filter { $0.frame.intersects(viewport) })
    // Group 6 (y 300–350) is the first whose badge (its top 20 points) reaches the viewport.
    #expect(visible.supplementaries.first?.indexPath == ip(0, 6))
  }

  @Test func groupSupplementary_withMeasuredItems_indexedByGroupAndMeasuredAtThatPath() {
    let section = LayoutSection {
      HGroup { Item().width(.fractionalWidth(0.5)).height(.estimated(10)) }
        .height(.estimated(10))
        .supplementaryItems { Self.badge.height(.estimated(20)) }
    }
    let requests = RequestLog()
    let result = layout(section).frames(itemCounts: [5], container: Self.container) { request in
      if request.category != .element { requests.append(request.indexPath) }
      return Size(width: request.proposedSize.width, height: 30)
    }
    #expect(result.supplementaries.map(\.indexPath) == [ip(0, 0), ip(0, 1), ip(0, 2)])
    #expect(result.supplementaries.map(\.frame.minY) == [0, 30, 60])
    #expect(requests.paths == [ip(0, 0), ip(0, 1), ip(0, 2)])
  }

  @Test func nestedGroupSupplementaries_numberTheirGroupsInOrder() {
    // Each outer group holds two inner groups with a badge: inner groups 0, 1 in group 0, 2, 3
    // in group 1; the outer group's own badge takes the outer group's index.
    let section = LayoutSection {
      HGroup {
        VGroup { Item().height(.fractionalHeight(0.5)) }.width(.fractionalWidth(0.5))
          .supplementaryItems {
            SupplementaryItem(elementKind: "inner").width(.absolute(10)).height(.absolute(10))
          }
      }
      .height(.absolute(100))
      .supplementaryItems { Self.badge }
    }
    let result = layout(section).frames(itemCounts: [8], container: Self.container)
    let inner = result.supplementaries.filter { $0.kind == "inner" }
    #expect(inner.map(\.indexPath) == [ip(0, 0), ip(0, 1), ip(0, 2), ip(0, 3)])
    #expect(
      inner.map(\.frame.origin) == [
        Point(x: 0, y: 0), Point(x: 187.5, y: 0), Point(x: 0, y: 100), Point(x: 187.5, y: 100),
      ])
    let outer = result.supplementaries.filter { $0.kind == "badge" }
    #expect(outer.map(\.indexPath) == [ip(0, 0), ip(0, 1)])
  }

  // MARK: Rule 4: empty sections take no space

  static func listWithBackground(header: Bool) -> LayoutSection {
    var section = ListSection(rowHeight: .absolute(44)).contentInsets(vertical: 10)
      .layoutSection
      .decorationItems { DecorationItem.background(elementKind: "bg") }
    if header {
      section = section.boundarySupplementaryItems {
        BoundarySupplementaryItem(elementKind: "header").height(.absolute(30))
      }
    }
    return section
  }

  @Test func emptySection_takesNoSpace_butTheSpacingAroundItStays() {
    // Section 0: 10 + 3 × 44 + 10 = 152. Section 1 (empty) at 152 + 8, zero high, no
    // background. Section 2 at 160 + 8, its first row 10 lower.
    let result = layout(Self.listWithBackground(header: false)).interSectionSpacing(8)
      .frames(itemCounts: [3, 0, 2], container: Self.container)
    #expect(
      result.sections.map(\.frame) == [
        rect(0, 0, 375, 152), rect(0, 160, 375, 0), rect(0, 168, 375, 108),
      ])
    #expect(result.frame(at: ip(2, 0)) == rect(0, 178, 375, 44))
    #expect(result.decorations.map(\.indexPath) == [ip(0, 0), ip(2, 0)])
    #expect(result.contentSize.height == 276)
  }

  @Test func emptySectionWithAHeader_keepsTheHeaderAndItsInsets() {
    // 30 (header) + 10 + 10.
    let result = layout(Self.listWithBackground(header: true)).interSectionSpacing(8)
      .frames(itemCounts: [0], container: Self.container)
    #expect(result.sections[0].frame == rect(0, 0, 375, 50))
    #expect(result.decorationFrame(ofKind: "bg", at: ip(0, 0)) == rect(0, 30, 375, 20))
  }

  @Test func emptySection_legacyRules_keepItsInsetsAndBackground() {
    let result = layout(
      Self.listWithBackground(header: false), configuration: .init(rules: .legacy)
    ).interSectionSpacing(8).frames(itemCounts: [3, 0, 2], container: Self.container)
    #expect(result.sections[1].frame == rect(0, 160, 375, 20))
    #expect(result.decorationFrame(ofKind: "bg", at: ip(1, 0)) == rect(0, 160, 375, 20))
  }

  @Test func emptyOrthogonalSection_takesNoSpace() {
    let result = layout(Self.strip(width: .fractionalWidth(0.5)).contentInsets(vertical: 12))
      .frames(itemCounts: [0], container: Self.container)
    #expect(result.sections[0].frame == rect(0, 0, 375, 0))
    #expect(result.sections[0].orthogonalRegion?.contentWidth == 0)
  }
}

/// Index paths a measuring closure was asked about, in order.
final class RequestLog {
  private(set) var paths: [IndexPath] = []
  func append(_ path: IndexPath) { paths.append(path) }
}
