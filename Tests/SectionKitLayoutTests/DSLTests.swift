import Foundation
import SectionKitExamples
import SectionKitLayout
import Testing

/// The DSL: modifiers keep what was set before them, builders take `if`, `for`, `if let`,
/// `switch`.
@Suite struct DSLTests {
  @Test func modifiersKeepEarlierValuesAndTheConcreteType() {
    let item: Item = Item()
      .width(.fractionalWidth(0.5))
      .contentInsets(value: 2)
      .height(.absolute(44))
      .contentInsets(top: 9)
      .edgeSpacing(leading: .fixed(1))
      .edgeSpacing(top: .flexible(2))
      .zIndex(4)
    #expect(item.layoutSize == LayoutSize(width: .fractionalWidth(0.5), height: .absolute(44)))
    #expect(item.contentInsets == EdgeInsets(top: 9, leading: 2, bottom: 2, trailing: 2))
    #expect(item.edgeSpacing == LayoutEdgeSpacing(leading: .fixed(1), top: .flexible(2)))
    #expect(item.zIndex == 4)

    let group: HGroup = HGroup { item }.interItemSpacing(.fixed(3)).contentInsets(horizontal: 5)
      .height(.absolute(9))
    #expect(group.interItemSpacing == .fixed(3))
    #expect(group.contentInsets == EdgeInsets(top: 0, leading: 5, bottom: 0, trailing: 5))
    #expect(group.layoutSize == LayoutSize(width: .fractionalWidth(1), height: .absolute(9)))

    let section: LayoutSection = LayoutSection { group }
      .interGroupSpacing(8).contentInsets(vertical: 4).orthogonalScrollingBehavior(.paging)
      .supplementariesFollowContentInsets(false)
      .boundarySupplementaryItems { BoundarySupplementaryItem(elementKind: "a") }
      .boundarySupplementaryItems { BoundarySupplementaryItem(elementKind: "b") }
    #expect(section.interGroupSpacing == 8)
    #expect(section.contentInsets == EdgeInsets(top: 4, leading: 0, bottom: 4, trailing: 0))
    #expect(section.orthogonalScrollingBehavior == .paging)
    #expect(section.boundarySupplementaryItems.map(\.elementKind) == ["a", "b"])

    let header = BoundarySupplementaryItem(elementKind: "h").height(.absolute(30)).alignment(
      .bottom
    )
    .pinToVisibleBounds(true).extendsBoundary(false).absoluteOffset(Point(x: 1, y: 2))
    #expect(header.layoutSize.height == .absolute(30))
    #expect(header.alignment == .bottom && header.pinToVisibleBounds && !header.extendsBoundary)
    #expect(header.absoluteOffset == Point(x: 1, y: 2))
  }

  @Test func subitemBuilder_supportsIfForIfLetAndSwitch() {
    let wide = true
    let extra: Double? = 0.125
    let mode = 2
    let group = HGroup {
      Item().width(.fractionalWidth(0.25))
      if wide { Item().width(.fractionalWidth(0.25)) } else { Item().width(.fractionalWidth(0.5)) }
      if !wide { Item() }
      if let extra { Item().width(.fractionalWidth(extra)) }
      for _ in 0..<2 { Item().width(.fractionalWidth(0.125)) }
      switch mode {
      case 1: VGroup { Item() }
      default: VGroup(count: 2) { Item() }.width(.fractionalWidth(0.125))
      }
    }
    .height(.absolute(10))
    #expect(group.subitems.count == 6)
    let result = layout(LayoutSection { group }).frames(
      itemCounts: [7], container: Size(width: 800, height: 100))
    #expect(
      result.sections[0].elements.map(\.frame.width) == [200, 200, 100, 100, 100, 100, 100])
  }

  @Test func sectionProviderBuilder_supportsSwitchIfAndPresets() {
    let layout = CompositionalLayout { index, environment in
      switch index {
      case 0: LayoutSection { HGroup { Item() }.height(.absolute(10)) }
      default:
        if environment.containerSize.width > 100 {
          ListSection(rowHeight: .absolute(20))
        } else {
          ListSection(rowHeight: .absolute(30))
        }
      }
    }
    let result = layout.frames(itemCounts: [1, 2], container: Size(width: 200, height: 100))
    #expect(result.frame(at: ip(1, 1)) == rect(0, 30, 200, 20))
  }

  @Test func sectionListBuilder_supportsFor() {
    let layout = CompositionalLayout {
      for height in [10.0, 20.0] {
        LayoutSection { HGroup { Item() }.height(.absolute(height)) }
      }
      ListSection(rowHeight: .absolute(5))
    }
    let result = layout.frames(itemCounts: [1, 1, 1, 1], container: Size(width: 50, height: 100))
    #expect(result.sections.map(\.frame.height) == [10, 20, 5, 5])
  }

  @Test func listBuilder_supportsIfAndFor() {
    let kinds = ["a", "b"]
    let withFooter = false
    let section = LayoutSection { HGroup { Item() } }.boundarySupplementaryItems {
      for kind in kinds { BoundarySupplementaryItem(elementKind: kind) }
      if withFooter { BoundarySupplementaryItem(elementKind: "footer", alignment: .bottom) }
    }
    #expect(section.boundarySupplementaryItems.map(\.elementKind) == ["a", "b"])
  }

  @Test func customSubitem_isReadOnceAndCannotLoop() {
    struct Tile: GroupSubitem {
      var layoutNode: LayoutNode {
        Item().width(.fractionalWidth(0.5)).contentInsets(value: 1).layoutNode
      }
    }
    let result = layout(LayoutSection { HGroup { Tile() }.height(.absolute(10)) })
      .frames(itemCounts: [2], container: Size(width: 100, height: 100))
    #expect(elementFrames(result) == [rect(1, 1, 48, 8), rect(51, 1, 48, 8)])
  }

  @Test func listSectionPreset() {
    let section = ListSection(rowHeight: .absolute(40), rowSpacing: 2).header(
      height: .absolute(10), pinned: true
    )
    .footer(height: .absolute(5)).contentInsets(horizontal: 8)
    let result = layout(section.layoutSection).frames(
      itemCounts: [2], container: Size(width: 100, height: 200))
    #expect(
      result.supplementaryFrame(ofKind: ListSection.headerKind, at: ip(0, 0)) == rect(8, 0, 84, 10))
    #expect(elementFrames(result) == [rect(8, 10, 84, 40), rect(8, 52, 84, 40)])
    #expect(
      result.supplementaryFrame(ofKind: ListSection.footerKind, at: ip(0, 0)) == rect(8, 92, 84, 5))
  }

  @Test func resultIsCodableAndSendable() throws {
    let result = LayoutExamples.listKitStyle().frames(
      itemCounts: LayoutExamples.listKitItemCounts, container: LayoutExamples.demoContainer)
    let data = try JSONEncoder().encode(result)
    #expect(try JSONDecoder().decode(LayoutResult.self, from: data) == result)
    let _: any Sendable = result
  }
}
