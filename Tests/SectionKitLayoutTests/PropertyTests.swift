import Foundation
import SectionKitLayout
import SectionKitTesting
import Testing

/// Seeded random layouts: each failure names its seed, which replays it.
@Suite struct PropertyTests {
  static let seeds: [UInt64] = Array(1...60)

  static func double(_ range: ClosedRange<Int>, _ rng: inout SeededGenerator) -> Double {
    Double(Int.random(in: range, using: &rng))
  }

  static func randomGroup(_ rng: inout SeededGenerator) -> HGroup {
    let inset = double(0...3, &rng)
    let height = LayoutDimension.absolute(double(10...60, &rng))
    switch Int.random(in: 0...3, using: &rng) {
    case 0:
      let columns = Double(Int.random(in: 1...4, using: &rng))
      return HGroup { Item().width(.fractionalWidth(1 / columns)).contentInsets(value: inset) }
        .height(height)
    case 1:
      return HGroup(count: Int.random(in: 1...5, using: &rng)) {
        Item().contentInsets(value: inset)
      }
      .height(height).interItemSpacing(.fixed(double(0...4, &rng)))
    case 2:
      let rows = Int.random(in: 1...3, using: &rng)
      return HGroup {
        Item().width(.fractionalWidth(0.5)).contentInsets(value: inset)
        VGroup(count: rows) { Item().contentInsets(value: inset) }.width(.fractionalWidth(0.5))
          .interItemSpacing(.fixed(double(0...2, &rng)))
      }
      .height(height)
    default:
      return HGroup {
        VGroup { Item().height(.fractionalHeight(0.5)) }.width(.fractionalWidth(0.25))
        Item().width(.absolute(30)).edgeSpacing(leading: .flexible(0), trailing: .flexible(0))
      }
      .height(height).contentInsets(horizontal: inset)
    }
  }

  static func randomSection(_ rng: inout SeededGenerator) -> LayoutSection {
    var group = randomGroup(&rng)
    let orthogonal = Int.random(in: 0..<5, using: &rng) == 0
    if orthogonal { group = group.width(.absolute(double(50...150, &rng))) }
    var section = LayoutSection { group }
      .contentInsets(
        top: double(0...10, &rng), leading: double(0...10, &rng), bottom: double(0...10, &rng),
        trailing: double(0...10, &rng)
      )
      .interGroupSpacing(double(0...8, &rng))
      .supplementariesFollowContentInsets(Bool.random(using: &rng))
    if orthogonal {
      section = section.orthogonalScrollingBehavior(
        [.continuous, .paging, .groupPaging, .groupPagingCentered].randomElement(using: &rng)!)
    }
    if Bool.random(using: &rng) {
      section = section.boundarySupplementaryItems {
        BoundarySupplementaryItem(elementKind: "header").height(.absolute(double(5...30, &rng)))
      }
    }
    if Bool.random(using: &rng) {
      section = section.boundarySupplementaryItems {
        BoundarySupplementaryItem(elementKind: "footer", alignment: .bottom).height(
          .absolute(double(5...30, &rng)))
      }
    }
    if Bool.random(using: &rng) {
      section = section.decorationItems {
        DecorationItem.background(elementKind: "bg").contentInsets(value: 2)
      }
    }
    return section
  }

  static func randomLayout(seed: UInt64) -> (CompositionalLayout, [Int], Size) {
    var rng = SeededGenerator(seed: seed)
    let sections = (0..<Int.random(in: 1...5, using: &rng)).map { _ in randomSection(&rng) }
    let counts = sections.map { _ in Int.random(in: 0...40, using: &rng) }
    let container = Size(width: double(200...420, &rng), height: double(300...900, &rng))
    let spacing = double(0...20, &rng)
    return (CompositionalLayout(sections: sections).interSectionSpacing(spacing), counts, container)
  }

  @Test(arguments: seeds) func noElementOutsideTheContent(seed: UInt64) {
    let (layout, counts, container) = Self.randomLayout(seed: seed)
    let result = layout.frames(itemCounts: counts, container: container)
    let content = Rect(origin: .zero, size: result.contentSize)
    for section in result.sections {
      let bounds =
        section.orthogonalRegion.map {
          Rect(x: $0.frame.minX, y: $0.frame.minY, width: $0.contentWidth, height: $0.frame.height)
        } ?? content
      for element in section.elements {
        #expect(
          bounds.contains(element.frame),
          "seed \(seed): \(section.index).\(element.item) \(element.frame)")
      }
      #expect(section.elements.count == section.itemCount, "seed \(seed)")
    }
  }

  @Test(arguments: seeds) func noTwoElementsOfASectionOverlap(seed: UInt64) {
    let (layout, counts, container) = Self.randomLayout(seed: seed)
    let result = layout.frames(itemCounts: counts, container: container)
    for section in result.sections {
      let frames = section.elements.map(\.frame)
      for i in frames.indices {
        for j in frames.indices where j > i {
          // Shrunk by 1e-6 so that rounding in fractional positions does not count as overlap.
          let a = frames[i].inset(by: EdgeInsets(all: 1e-6))
          #expect(
            !a.intersects(frames[j]), "seed \(seed): section \(section.index) items \(i), \(j)")
        }
      }
    }
  }

  @Test(arguments: seeds) func framesAreInvariantUnderLaterSectionCounts(seed: UInt64) {
    let (layout, counts, container) = Self.randomLayout(seed: seed)
    var rng = SeededGenerator(seed: seed ^ 0xABCD)
    let pivot = Int.random(in: 0..<counts.count, using: &rng)
    var changed = counts
    for index in changed.indices where index > pivot {
      changed[index] = Int.random(in: 0...40, using: &rng)
    }
    let a = layout.frames(itemCounts: counts, container: container)
    let b = layout.frames(itemCounts: changed, container: container)
    #expect(Array(a.sections[...pivot]) == Array(b.sections[...pivot]), "seed \(seed)")
    let limit = a.sections[pivot].frame.maxY
    #expect(
      a.supplementaries.filter { $0.indexPath[0] <= pivot }
        == b.supplementaries.filter { $0.indexPath[0] <= pivot },
      "seed \(seed)")
    #expect(
      a.decorations.filter { $0.frame.maxY <= limit }
        == b.decorations.filter { $0.frame.maxY <= limit })
  }

  @Test(arguments: seeds) func viewportQueryEqualsTheFilteredFullLayout(seed: UInt64) {
    let (layout, counts, container) = Self.randomLayout(seed: seed)
    let full = layout.frames(itemCounts: counts, container: container)
    var rng = SeededGenerator(seed: seed ^ 0x5EED)
    for _ in 0..<5 {
      let y = Double.random(in: -50...max(0, full.contentSize.height), using: &rng)
      let x = Double.random(in: -20...container.width, using: &rng)
      let viewport = Rect(
        x: x, y: y, width: container.width,
        height: Double.random(in: 1...container.height, using: &rng))
      let query = layout.frames(in: viewport, itemCounts: counts, container: container)
      #expect(query.contentSize == full.contentSize, "seed \(seed)")
      for (queried, section) in zip(query.sections, full.sections) {
        #expect(
          queried.elements == section.elements.filter { $0.frame.intersects(viewport) },
          "seed \(seed) \(viewport)")
        #expect(
          queried.frame == section.frame && queried.orthogonalRegion == section.orthogonalRegion)
      }
      #expect(
        query.supplementaries == full.supplementaries.filter { $0.frame.intersects(viewport) },
        "seed \(seed)")
      #expect(
        query.decorations == full.decorations.filter { $0.frame.intersects(viewport) },
        "seed \(seed)")
    }
  }

  @Test(arguments: Array(seeds.prefix(20))) func horizontalLayoutIsTheTransposedVerticalOne(
    seed: UInt64
  ) {
    // A vertical layout of a description with fixed sizes only equals, transposed, the horizontal
    // layout in the transposed container: content size and element count agree.
    let (layout, counts, container) = Self.randomLayout(seed: seed)
    let vertical = layout.frames(itemCounts: counts, container: container)
    let horizontal = layout.scrollDirection(.horizontal).frames(
      itemCounts: counts, container: Size(width: container.height, height: container.width))
    #expect(horizontal.elementCount == vertical.elementCount, "seed \(seed)")
    #expect(horizontal.contentSize.height == container.width, "seed \(seed)")
  }
}
