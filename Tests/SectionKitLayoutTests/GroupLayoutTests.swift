import Foundation
import SectionKitLayout
import Testing

/// Hand-computed frames for items and groups. Container 400 × 800 unless stated.
@Suite struct GroupLayoutTests {
  let container = Size(width: 400, height: 800)

  @Test func fractionalItemRepeatsWhileItFits_fourColumnsThenNextRow() {
    let result = layout(
      LayoutSection { HGroup { Item().width(.fractionalWidth(0.25)) }.height(.absolute(50)) }
    )
    .frames(itemCounts: [5], container: container)
    #expect(
      elementFrames(result) == [
        rect(0, 0, 100, 50), rect(100, 0, 100, 50), rect(200, 0, 100, 50), rect(300, 0, 100, 50),
        rect(0, 50, 100, 50),
      ])
    #expect(result.contentSize == Size(width: 400, height: 100))
  }

  @Test func fixedInterItemSpacing_dropsTheItemThatNoLongerFits() {
    // 4 × 100 + 3 × 10 = 430 > 400: three per row, as in UIKit.
    let result = layout(
      LayoutSection {
        HGroup { Item().width(.fractionalWidth(0.25)) }.height(.absolute(50)).interItemSpacing(
          .fixed(10))
      }
    ).frames(itemCounts: [4], container: container)
    #expect(
      elementFrames(result) == [
        rect(0, 0, 100, 50), rect(110, 0, 100, 50), rect(220, 0, 100, 50), rect(0, 50, 100, 50),
      ])
  }

  @Test func countGroup_sharesTheWidthEquallyAfterSpacing() {
    // (320 - 2 × 10) / 3 = 100; the item's own width is ignored.
    let result = layout(
      LayoutSection {
        HGroup(count: 3) { Item().width(.absolute(7)) }.width(.absolute(320)).height(.absolute(40))
          .interItemSpacing(.fixed(10))
      }
    ).frames(itemCounts: [3], container: container)
    #expect(
      elementFrames(result) == [rect(0, 0, 100, 40), rect(110, 0, 100, 40), rect(220, 0, 100, 40)])
  }

  @Test func verticalCountGroup_sharesTheHeight() {
    let result = layout(
      LayoutSection { VGroup(count: 2) { Item() }.width(.absolute(80)).height(.absolute(100)) }
    )
    .frames(itemCounts: [3], container: container)
    #expect(
      elementFrames(result) == [rect(0, 0, 80, 50), rect(0, 50, 80, 50), rect(0, 100, 80, 50)])
  }

  @Test func verticalGroupRepeatsFractionalHeights() {
    let result = layout(
      LayoutSection {
        VGroup { Item().height(.fractionalHeight(0.5)) }.width(.absolute(60)).height(.absolute(80))
      }
    ).frames(itemCounts: [2], container: container)
    #expect(elementFrames(result) == [rect(0, 0, 60, 40), rect(0, 40, 60, 40)])
  }

  @Test func nestedGroups_fillInDepthFirstOrder() {
    let result = layout(
      LayoutSection {
        HGroup {
          Item().width(.fractionalWidth(0.5))
          VGroup(count: 2) { Item() }.width(.fractionalWidth(0.5))
        }
        .width(.absolute(200)).height(.absolute(100))
      }
    ).frames(itemCounts: [5], container: container)
    #expect(
      elementFrames(result) == [
        rect(0, 0, 100, 100), rect(100, 0, 100, 50), rect(100, 50, 100, 50), rect(0, 100, 100, 100),
        rect(100, 100, 100, 50),
      ])
  }

  @Test func itemContentInsets_shrinkTheFrameInsideItsSpace() {
    let result = layout(
      LayoutSection {
        HGroup {
          Item().width(.fractionalWidth(0.5)).contentInsets(
            top: 1, leading: 2, bottom: 3, trailing: 4)
        }
        .height(.absolute(50))
      }
    ).frames(itemCounts: [2], container: container)
    #expect(elementFrames(result) == [rect(2, 1, 194, 46), rect(202, 1, 194, 46)])
  }

  @Test func groupContentInsets_makeFractionsRelativeToTheInsetArea() {
    // Inner width 400 - 20 - 20 = 360; half = 180.
    let result = layout(
      LayoutSection {
        HGroup { Item().width(.fractionalWidth(0.5)).height(.fractionalHeight(1)) }
          .height(.absolute(60)).contentInsets(horizontal: 20, vertical: 5)
      }
    ).frames(itemCounts: [2], container: container)
    #expect(elementFrames(result) == [rect(20, 5, 180, 50), rect(200, 5, 180, 50)])
  }

  @Test func fixedLeadingEdgeSpacing_isAddedBeforeEachItem() {
    // Each item needs 10 + 50 = 60: three fit in 200.
    let result = layout(
      LayoutSection {
        HGroup { Item().width(.absolute(50)).edgeSpacing(leading: .fixed(10), top: .fixed(5)) }
          .width(.absolute(200)).height(.absolute(30))
      }
    ).frames(itemCounts: [3], container: container)
    #expect(
      elementFrames(result) == [rect(10, 5, 50, 30), rect(70, 5, 50, 30), rect(130, 5, 50, 30)])
  }

  @Test func flexibleInterItemSpacing_distributesTheRest() {
    // Three 60-wide items in 200: 20 left over, 10 per gap.
    let result = layout(
      LayoutSection {
        HGroup { Item().width(.absolute(60)) }.width(.absolute(200)).height(.absolute(30))
          .interItemSpacing(.flexible(0))
      }
    ).frames(itemCounts: [3], container: container)
    #expect(
      elementFrames(result) == [rect(0, 0, 60, 30), rect(70, 0, 60, 30), rect(140, 0, 60, 30)])
  }

  @Test func flexibleEdgeSpacingOnBothSides_centresTheItem() {
    let result = layout(
      LayoutSection {
        HGroup {
          Item().width(.absolute(120)).height(.absolute(20))
            .edgeSpacing(
              leading: .flexible(0), top: .flexible(0), trailing: .flexible(0), bottom: .flexible(0)
            )
        }
        .width(.absolute(200)).height(.absolute(40))
      }
    ).frames(itemCounts: [1], container: container)
    #expect(elementFrames(result) == [rect(40, 10, 120, 20)])
  }

  @Test func flexibleTopEdgeSpacingAlone_pushesTheItemDown() {
    let result = layout(
      LayoutSection {
        HGroup { Item().width(.absolute(50)).height(.absolute(10)).edgeSpacing(top: .flexible(2)) }
          .width(.absolute(50)).height(.absolute(40))
      }
    ).frames(itemCounts: [1], container: container)
    #expect(elementFrames(result) == [rect(0, 30, 50, 10)])
  }

  @Test func lastGroupIsPartial_butKeepsItsFullSize() {
    let result = layout(
      LayoutSection { HGroup(count: 3) { Item() }.height(.absolute(30)) }.interGroupSpacing(5)
    ).frames(itemCounts: [4], container: Size(width: 300, height: 800))
    #expect(elementFrames(result).count == 4)
    #expect(result.frame(at: ip(0, 3)) == rect(0, 35, 100, 30))
    #expect(result.contentSize.height == 65)
  }

  @Test func customGroup_returnsFramesRelativeToItsInsetArea_andRepeats() {
    let result = layout(
      LayoutSection {
        CustomGroup { environment in
          let height = environment.containerSize.height
          return [
            CustomGroupItem(frame: rect(0, 0, height, height), zIndex: 2),
            CustomGroupItem(frame: rect(height, 0, height / 2, height / 2)),
          ]
        }
        .height(.absolute(50)).contentInsets(value: 5)
      }
    ).frames(itemCounts: [3], container: container)
    #expect(
      elementFrames(result) == [rect(5, 5, 40, 40), rect(45, 5, 20, 20), rect(5, 55, 40, 40)])
    #expect(result.attributes(at: ip(0, 0))?.zIndex == 2)
  }

  @Test func dataDrivenGroup_makesOneSubitemPerElement() {
    let result = layout(
      LayoutSection {
        HGroup(of: [0.5, 0.25, 0.25]) { fraction in Item().width(.fractionalWidth(fraction)) }
          .height(.absolute(10))
      }
    ).frames(itemCounts: [3], container: container)
    #expect(
      elementFrames(result) == [rect(0, 0, 200, 10), rect(200, 0, 100, 10), rect(300, 0, 100, 10)])
  }

  @Test func loneItemInSection_isWrappedInAGroupOfItsSize() {
    let result = layout(LayoutSection { Item().height(.absolute(44)).contentInsets(value: 2) })
      .frames(itemCounts: [2], container: container)
    #expect(elementFrames(result) == [rect(2, 2, 396, 40), rect(2, 46, 396, 40)])
  }

  @Test func fractionalHeightOfGroup_isRelativeToTheContainerMinusSectionInsets() {
    let result = layout(
      LayoutSection { HGroup { Item() }.height(.fractionalHeight(0.5)) }.contentInsets(
        vertical: 100)
    ).frames(itemCounts: [1], container: container)
    #expect(elementFrames(result) == [rect(0, 100, 400, 300)])
  }

  @Test func fractionalWidthHeight_makesSquares() {
    let result = layout(
      LayoutSection { HGroup { Item().width(.fractionalWidth(0.5)) }.height(.fractionalWidth(0.5)) }
    ).frames(itemCounts: [2], container: container)
    #expect(elementFrames(result) == [rect(0, 0, 200, 200), rect(200, 0, 200, 200)])
  }
}
