import Foundation
import SectionKitLayout
import Testing

@Suite struct LayoutTextRendererTests {
  @Test func drawsBoxesHeadersBackgroundsAndOneRowBoxes() {
    let section = LayoutSection {
      HGroup { Item().width(.fractionalWidth(0.5)).contentInsets(value: 1) }.height(.absolute(5))
    }
    .boundarySupplementaryItems {
      BoundarySupplementaryItem(elementKind: "hd").height(.absolute(1))
    }
    .decorationItems { DecorationItem.background(elementKind: "bg") }
    let result = layout(section).frames(itemCounts: [3], container: Size(width: 12, height: 20))
    let expected = """
      [hd--------]
      ............
      .+--+..+--+.
      .|0 |..|1 |.
      .+--+..+--+.
      ............
      ............
      .+--+.......
      .|2 |.......
      .+--+.......
      ............

      """
    #expect(LayoutTextRenderer(scale: 1).render(result) == expected)
  }

  @Test func clipsOrthogonalStripsAndMarksMoreContent() {
    let section = LayoutSection { HGroup { Item() }.width(.absolute(6)).height(.absolute(3)) }
      .interGroupSpacing(1).orthogonalScrollingBehavior(.continuous)
    let result = layout(section).frames(itemCounts: [3], container: Size(width: 10, height: 10))
    let expected = """
      +----+ +--
      |0   | |1>
      +----+ +--

      """
    #expect(LayoutTextRenderer(scale: 1).render(result) == expected)
  }

  @Test func scaleDividesPointsIntoCells_andLabelsAreCustomisable() {
    let result = layout(LayoutSection { HGroup { Item() }.height(.absolute(30)) })
      .frames(itemCounts: [1], container: Size(width: 40, height: 100))
    let drawing = LayoutTextRenderer(horizontalScale: 4, verticalScale: 10).render(result) { id in
      if case .element(let indexPath) = id { return "cell \(indexPath[1])" }
      return nil
    }
    #expect(drawing == "+--------+\n|cell 0  |\n+--------+\n")
  }
}
