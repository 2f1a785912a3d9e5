import Foundation
import SectionKitExamples
import SectionKitLayout
import Testing

/// The examples' frames and drawings against files in `Golden/`. Re-record with
/// `SECTIONKIT_RECORD=1 swift test`.
@Suite struct GoldenTests {
  @Test func compositionalLayoutDSLReadmeExample() throws {
    let result = LayoutExamples.compositionalLayoutDSLReadme().frames(
      itemCounts: LayoutExamples.readmeItemCounts, container: LayoutExamples.demoContainer)
    // Hand-checked anchors: the orthogonal section's group is 0.3 of the full 320-point width
    // (UIKit's rule; 0.3 × 288 = 86.4 under `LayoutRules.legacy`), 96 square, after the 16-point
    // inset and below the 30-point header and the 8-point inset; the next 8 points further.
    let first = try #require(result.frame(at: ip(0, 0)))
    #expect(first.minX == 16 && first.minY == 38)
    #expect(abs(first.width - 96) < 1e-9 && abs(first.height - 96) < 1e-9)
    #expect(result.frame(at: ip(0, 1))?.minX == 120)
    #expect(
      result.supplementaryFrame(ofKind: LayoutExamples.headerKind, at: ip(0, 0))
        == rect(0, 0, 320, 30))
    try Golden.check(result.description, against: "compositional-layout-dsl-readme.frames.txt")
    try Golden.check(
      LayoutExamples.demoRenderer.render(result),
      against: "compositional-layout-dsl-readme.drawing.txt")
  }

  @Test func threeColumnMosaicExample() throws {
    let result = LayoutExamples.threeColumnMosaic().frames(
      itemCounts: LayoutExamples.mosaicItemCounts, container: LayoutExamples.demoContainer)
    // Content width 304: the big item 152 wide minus insets 2, at 8 + 2 below the 24-point header.
    #expect(result.frame(at: ip(0, 0)) == rect(10, 34, 148, 148))
    try Golden.check(result.description, against: "three-column-mosaic.frames.txt")
    try Golden.check(
      LayoutExamples.demoRenderer.render(result), against: "three-column-mosaic.drawing.txt")
  }

  @Test func listKitStyleExample() throws {
    let result = LayoutExamples.listKitStyle().frames(
      itemCounts: LayoutExamples.listKitItemCounts, container: LayoutExamples.demoContainer)
    #expect(result.frame(at: ip(0, 0)) == rect(4, 28, 152, 56))
    try Golden.check(result.description, against: "listkit-style.frames.txt")
    try Golden.check(
      LayoutExamples.demoRenderer.render(result), against: "listkit-style.drawing.txt")
  }
}
