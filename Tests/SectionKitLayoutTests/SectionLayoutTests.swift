import Foundation
import SectionKitLayout
import Testing

/// Hand-computed frames for sections, boundary items, supplementaries, decorations, orthogonal
/// sections and the layout configuration. Container 400 × 800.
@Suite struct SectionLayoutTests {
  let container = Size(width: 400, height: 800)

  func row(_ height: Double = 50) -> HGroup {
    HGroup { Item().width(.fractionalWidth(0.5)) }.height(.absolute(height))
  }

  @Test func sectionInsetsAndInterGroupSpacing() {
    // Content width 400 - 10 - 30 = 360; halves of 180.
    let result = layout(
      LayoutSection { row() }.contentInsets(top: 20, leading: 10, bottom: 5, trailing: 30)
        .interGroupSpacing(8)
    ).frames(itemCounts: [3], container: container)
    #expect(
      elementFrames(result) == [
        rect(10, 20, 180, 50), rect(190, 20, 180, 50), rect(10, 78, 180, 50),
      ])
    #expect(result.contentSize == Size(width: 400, height: 133))
    #expect(result.sections[0].frame == rect(0, 0, 400, 133))
  }

  @Test func headerAndFooterExtendTheBoundary_andFollowContentInsets() {
    let result = layout(
      LayoutSection { row() }
        .contentInsets(top: 10, leading: 20, bottom: 10, trailing: 20)
        .boundarySupplementaryItems {
          BoundarySupplementaryItem(elementKind: "header").height(.absolute(30))
          BoundarySupplementaryItem(elementKind: "footer", alignment: .bottom).height(.absolute(15))
        }
    ).frames(itemCounts: [2], container: container)
    #expect(result.supplementaryFrame(ofKind: "header", at: ip(0, 0)) == rect(20, 0, 360, 30))
    #expect(elementFrames(result) == [rect(20, 40, 180, 50), rect(200, 40, 180, 50)])
    #expect(result.supplementaryFrame(ofKind: "footer", at: ip(0, 0)) == rect(20, 100, 360, 15))
    #expect(result.contentSize.height == 115)
    #expect(result.sections[0].contentFrame == rect(0, 30, 400, 70))
  }

  @Test func supplementariesNotFollowingContentInsets_spanTheFullWidth() {
    let result = layout(
      LayoutSection { row() }.contentInsets(horizontal: 20).supplementariesFollowContentInsets(
        false
      )
      .boundarySupplementaryItems {
        BoundarySupplementaryItem(elementKind: "header").height(.absolute(30))
      }
    ).frames(itemCounts: [1], container: container)
    #expect(result.supplementaryFrame(ofKind: "header", at: ip(0, 0)) == rect(0, 0, 400, 30))
  }

  @Test func boundaryAlignmentAndOffset() {
    let result = layout(
      LayoutSection { row() }.boundarySupplementaryItems {
        BoundarySupplementaryItem(elementKind: "a", alignment: .topTrailing).width(.absolute(100))
          .height(.absolute(10))
        BoundarySupplementaryItem(elementKind: "b", alignment: .top).width(.absolute(100)).height(
          .absolute(10)
        )
        .absoluteOffset(Point(x: 3, y: 4))
        BoundarySupplementaryItem(elementKind: "c", alignment: .bottomLeading).width(.absolute(50))
          .height(.absolute(10))
      }
    ).frames(itemCounts: [1], container: container)
    #expect(result.supplementaryFrame(ofKind: "a", at: ip(0, 0)) == rect(300, 0, 100, 10))
    #expect(result.supplementaryFrame(ofKind: "b", at: ip(0, 0)) == rect(153, 14, 100, 10))
    #expect(elementFrames(result) == [rect(0, 20, 200, 50)])
    #expect(result.supplementaryFrame(ofKind: "c", at: ip(0, 0)) == rect(0, 70, 50, 10))
  }

  @Test func headerNotExtendingTheBoundary_overlapsTheContent() {
    let result = layout(
      LayoutSection { row() }.boundarySupplementaryItems {
        BoundarySupplementaryItem(elementKind: "h").height(.absolute(20)).extendsBoundary(false)
        BoundarySupplementaryItem(elementKind: "f", alignment: .bottom).height(.absolute(20))
          .extendsBoundary(false)
      }
    ).frames(itemCounts: [1], container: container)
    #expect(result.supplementaryFrame(ofKind: "h", at: ip(0, 0)) == rect(0, 0, 400, 20))
    #expect(result.supplementaryFrame(ofKind: "f", at: ip(0, 0)) == rect(0, 30, 400, 20))
    #expect(elementFrames(result) == [rect(0, 0, 200, 50)])
    #expect(result.contentSize.height == 50)
  }

  @Test func interSectionSpacingAndLayoutWideHeaderFooter() {
    let configuration = CompositionalLayout.Configuration(
      interSectionSpacing: 12,
      boundarySupplementaryItems: [
        BoundarySupplementaryItem(elementKind: "top").height(.absolute(40)),
        BoundarySupplementaryItem(elementKind: "bottom", alignment: .bottom).height(.absolute(10)),
      ])
    let result = layout(LayoutSection { row() }, configuration: configuration)
      .frames(itemCounts: [2, 0, 1], container: container)
    #expect(
      result.supplementaryFrame(ofKind: "top", at: IndexPath(index: 0)) == rect(0, 0, 400, 40))
    #expect(result.frame(at: ip(0, 1)) == rect(200, 40, 200, 50))
    #expect(result.sections[1].frame == rect(0, 102, 400, 0))
    #expect(result.frame(at: ip(2, 0)) == rect(0, 114, 200, 50))
    #expect(
      result.supplementaryFrame(ofKind: "bottom", at: IndexPath(index: 0)) == rect(0, 164, 400, 10))
    #expect(result.contentSize.height == 174)
  }

  @Test func itemSupplementary_anchoredOnTheTopTrailingCornerWithFractionalOffset() {
    let badge = SupplementaryItem(
      elementKind: "badge",
      containerAnchor: LayoutAnchor(
        edges: [.top, .trailing], fractionalOffset: Point(x: 0.5, y: -0.5))
    )
    .width(.absolute(20)).height(.absolute(20))
    let result = layout(
      LayoutSection {
        HGroup { Item().width(.fractionalWidth(0.25)).supplementaryItems { badge } }.height(
          .absolute(100))
      }
    ).frames(itemCounts: [2], container: container)
    #expect(result.supplementaryFrame(ofKind: "badge", at: ip(0, 0)) == rect(90, -10, 20, 20))
    #expect(result.supplementaryFrame(ofKind: "badge", at: ip(0, 1)) == rect(190, -10, 20, 20))
    #expect(result.supplementaries.count == 2)
    #expect(result.supplementaries[0].zIndex == 1)
  }

  @Test func itemSupplementary_withItemAnchorAndAbsoluteOffset() {
    // The supplementary's top-leading corner on the item's bottom-trailing corner, then +2, +3.
    let label = SupplementaryItem(
      elementKind: "label",
      containerAnchor: LayoutAnchor(
        edges: [.bottom, .trailing], absoluteOffset: Point(x: 2, y: 3)),
      itemAnchor: LayoutAnchor(edges: [.top, .leading])
    )
    .width(.fractionalWidth(0.5)).height(.absolute(10))
    let result = layout(
      LayoutSection { HGroup { Item().supplementaryItems { label } }.height(.absolute(40)) }
    )
    .frames(itemCounts: [1], container: Size(width: 100, height: 100))
    #expect(result.supplementaryFrame(ofKind: "label", at: ip(0, 0)) == rect(102, 43, 50, 10))
  }

  @Test func groupSupplementary_legacyRules_takeTheIndexPathOfTheGroupsFirstItem() {
    let result = layout(
      LayoutSection {
        HGroup { Item().width(.fractionalWidth(0.5)) }.height(.absolute(50)).supplementaryItems {
          SupplementaryItem(elementKind: "g", containerAnchor: LayoutAnchor(edges: [.bottom]))
            .width(.absolute(10))
            .height(.absolute(4))
        }
      }, configuration: .init(rules: .legacy)
    ).frames(itemCounts: [3], container: container)
    #expect(result.supplementaryFrame(ofKind: "g", at: ip(0, 0)) == rect(195, 46, 10, 4))
    #expect(result.supplementaryFrame(ofKind: "g", at: ip(0, 2)) == rect(195, 96, 10, 4))
    #expect(result.supplementaries.count == 2)
  }

  @Test func backgroundDecoration_coversTheContentBetweenHeaderAndFooter_insetByItsInsets() {
    let result = layout(
      LayoutSection { row() }.contentInsets(value: 10)
        .boundarySupplementaryItems {
          BoundarySupplementaryItem(elementKind: "h").height(.absolute(20))
        }
        .decorationItems {
          DecorationItem.background(elementKind: "bg").contentInsets(horizontal: 5)
        }
    ).frames(itemCounts: [1], container: container)
    #expect(result.decorationFrame(ofKind: "bg", at: ip(0, 0)) == rect(5, 20, 390, 70))
    #expect(result.decorations[0].zIndex == -1)
  }

  @Test func zIndexModifiers_areReported() {
    let result = layout(
      LayoutSection { HGroup { Item().zIndex(3) }.height(.absolute(10)) }
        .boundarySupplementaryItems {
          BoundarySupplementaryItem(elementKind: "h").height(.absolute(5)).zIndex(7)
        }
        .decorationItems { DecorationItem.background(elementKind: "bg").zIndex(-4) }
    ).frames(itemCounts: [1], container: container)
    #expect(result.attributes(at: ip(0, 0))?.zIndex == 3)
    #expect(result.supplementaries[0].zIndex == 7)
    #expect(result.decorations[0].zIndex == -4)
  }

  @Test func orthogonalSection_laysGroupsOutInOneStrip() {
    let result = layout(
      LayoutSection { HGroup { Item() }.width(.absolute(150)).height(.absolute(60)) }
        .interGroupSpacing(10).contentInsets(horizontal: 16, vertical: 8)
        .orthogonalScrollingBehavior(.continuous)
    ).frames(itemCounts: [3], container: container)
    #expect(
      elementFrames(result) == [rect(16, 8, 150, 60), rect(176, 8, 150, 60), rect(336, 8, 150, 60)])
    #expect(result.orthogonalRegions.count == 1)
    let region = result.orthogonalRegions.first
    #expect(region?.frame == rect(0, 0, 400, 76))
    let expectedWidth: Double = 16 + 3 * 150 + 2 * 10 + 16
    #expect(region?.contentWidth == expectedWidth)
    #expect(result.contentSize == Size(width: 400, height: 76))
  }

  @Test func groupPagingCentered_centresTheGroups() {
    let result = layout(
      LayoutSection { HGroup { Item() }.width(.absolute(200)).height(.absolute(50)) }
        .orthogonalScrollingBehavior(.groupPagingCentered)
    ).frames(itemCounts: [2], container: container)
    #expect(elementFrames(result) == [rect(100, 0, 200, 50), rect(300, 0, 200, 50)])
    #expect(result.orthogonalRegions[0].contentWidth == 600)
  }

  @Test func estimatedDimensions_useTheMeasuringClosure() {
    let heights = [30.0, 70.0, 50.0]
    let section = LayoutSection { HGroup { Item().height(.estimated(44)) }.height(.estimated(44)) }
      .contentInsets(top: 10)
      .boundarySupplementaryItems { BoundarySupplementaryItem(elementKind: "h") }
    let measured = layout(section).frames(itemCounts: [3], container: container) { request in
      switch request.category {
      case .element: return Size(width: 999, height: heights[request.indexPath[1]])
      case .supplementary: return Size(width: 999, height: 25)
      }
    }
    #expect(measured.supplementaryFrame(ofKind: "h", at: ip(0, 0)) == rect(0, 0, 400, 25))
    #expect(
      elementFrames(measured) == [
        rect(0, 35, 400, 30), rect(0, 65, 400, 70), rect(0, 135, 400, 50),
      ])
    let estimated = layout(section).frames(itemCounts: [3], container: container)
    #expect(
      elementFrames(estimated) == [
        rect(0, 54, 400, 44), rect(0, 98, 400, 44), rect(0, 142, 400, 44),
      ])
  }

  @Test func estimatedAxis_ignoresContentInsets() {
    let result = layout(
      LayoutSection {
        HGroup { Item().height(.estimated(20)).contentInsets(value: 4) }.height(.estimated(20))
      }
    ).frames(itemCounts: [1], container: container)
    #expect(elementFrames(result) == [rect(4, 0, 392, 20)])
  }

  @Test func pinnedHeader_sticksToTheViewportUntilTheSectionEnds() {
    let section = LayoutSection { HGroup { Item() }.height(.absolute(100)) }
      .boundarySupplementaryItems {
        BoundarySupplementaryItem(elementKind: "h").height(.absolute(20)).pinToVisibleBounds(true)
      }
    let layout = layout(section)
    // Section 0 spans 0..<320 (header 20 + 3 × 100).
    let middle = layout.frames(
      in: rect(0, 150, 400, 100), itemCounts: [3, 3], container: container)
    #expect(middle.supplementaryFrame(ofKind: "h", at: ip(0, 0)) == rect(0, 150, 400, 20))
    let nearEnd = layout.frames(
      in: rect(0, 310, 400, 100), itemCounts: [3, 3], container: container)
    #expect(nearEnd.supplementaryFrame(ofKind: "h", at: ip(0, 0)) == rect(0, 300, 400, 20))
    #expect(nearEnd.supplementaryFrame(ofKind: "h", at: ip(1, 0)) == rect(0, 320, 400, 20))
    let full = layout.frames(itemCounts: [3, 3], container: container)
    #expect(full.supplementaryFrame(ofKind: "h", at: ip(0, 0)) == rect(0, 0, 400, 20))
  }

  @Test func viewportQuery_returnsOnlyVisibleElements() {
    let grid = layout(
      LayoutSection { HGroup { Item().width(.fractionalWidth(0.25)) }.height(.absolute(50)) })
    let result = grid.frames(in: rect(0, 1000, 400, 100), itemCounts: [1000], container: container)
    #expect(result.sections[0].elements.map(\.item) == Array(80..<88))
    #expect(result.frame(at: ip(0, 81)) == rect(100, 1000, 100, 50))
    #expect(result.frame(at: ip(0, 0)) == nil)
    #expect(result.contentSize.height == 12500)
  }

  @Test func horizontalScrollDirection_transposesTheLayout() {
    // Sections stack left to right; an HGroup-like row becomes a column of the container height.
    let result = CompositionalLayout(sections: [
      LayoutSection { VGroup { Item().height(.fractionalHeight(0.5)) }.width(.absolute(50)) }
        .boundarySupplementaryItems {
          BoundarySupplementaryItem(
            elementKind: "h",
            layoutSize: LayoutSize(width: .absolute(20), height: .fractionalHeight(1)),
            alignment: .leading)
        }
    ])
    .scrollDirection(.horizontal)
    .frames(itemCounts: [3], container: Size(width: 300, height: 200))
    #expect(result.supplementaryFrame(ofKind: "h", at: ip(0, 0)) == rect(0, 0, 20, 200))
    #expect(
      elementFrames(result) == [rect(20, 0, 50, 100), rect(20, 100, 50, 100), rect(70, 0, 50, 100)])
    #expect(result.contentSize == Size(width: 120, height: 200))
  }

  @Test func laterSectionsDoNotMoveEarlierOnes() {
    let layout = layout(LayoutSection { row() }.interGroupSpacing(3))
    let a = layout.frames(itemCounts: [5, 1, 2], container: container)
    let b = layout.frames(itemCounts: [5, 9, 0], container: container)
    #expect(a.sections[0] == b.sections[0])
  }
}
