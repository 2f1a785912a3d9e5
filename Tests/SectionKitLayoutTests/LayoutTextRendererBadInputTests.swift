import Foundation
import SectionKitLayout
import Testing

/// Results no engine computes (decoded, or edited by hand) and scales set after `init`.
@Suite struct LayoutTextRendererBadInputTests {
  static func smallResult() -> LayoutResult {
    let section = LayoutSection {
      HGroup { Item().width(.fractionalWidth(0.5)) }.height(.absolute(3))
    }
    return layout(section).frames(itemCounts: [3], container: Size(width: 8, height: 10))
  }

  @Test func aNonFiniteContentSize_drawsNoRowsInsteadOfCrashing() async {
    await #expect(processExitsWith: .success) {
      var result = Self.smallResult()
      result.contentSize.height = .nan
      _ = LayoutTextRenderer(scale: 1).render(result)
      result.contentSize.height = .infinity
      _ = LayoutTextRenderer(scale: 1).render(result)
      result.contentSize.height = 1e300
      _ = LayoutTextRenderer(scale: 1).render(result)
    }
    var result = Self.smallResult()
    result.contentSize.height = .nan
    #expect(LayoutTextRenderer(scale: 1).render(result) == "")
  }

  @Test func aZeroOrNonFiniteScaleSetAfterInit_traps() async {
    await #expect(processExitsWith: .failure) {
      var renderer = LayoutTextRenderer(scale: 1)
      renderer.horizontalScale = 0
    }
    await #expect(processExitsWith: .failure) {
      var renderer = LayoutTextRenderer(scale: 1)
      renderer.verticalScale = .nan
    }
    await #expect(processExitsWith: .failure) {
      _ = LayoutTextRenderer(horizontalScale: .infinity, verticalScale: 1)
    }
  }

  @Test func aFrameFarWiderThanTheDrawing_isClipped() {
    var result = Self.smallResult()
    result.sections[0].elements[0].frame.size.width = 1e6
    let drawing = LayoutTextRenderer(scale: 1).render(result)
    #expect(
      drawing.split(separator: "\n", omittingEmptySubsequences: false).allSatisfy { $0.count <= 8 })
  }
}
