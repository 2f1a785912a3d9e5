import Foundation
import SectionKitLayout
import SectionKitTesting
import Testing

/// Random layouts under UIKit's rules, scroll positions and both layout directions.
/// `SECTIONKIT_SEED=<seed>` replays one layout; `SECTIONKIT_FUZZ_ITERATIONS=<n>` runs `n`
/// (default 300), as in ``LayoutFuzzTests``.
@Suite struct ScrollingPropertyTests {
  /// `frame` mirrored across the vertical line at `axis / 2`.
  static func mirrored(_ frame: Rect, _ axis: Double) -> Rect {
    Rect(x: axis - frame.maxX, y: frame.minY, width: frame.width, height: frame.height)
  }

  /// Random orthogonal offsets (some negative, as a bouncing scroll view's) for `sections`.
  static func offsets(_ sections: Int, _ rng: inout SeededGenerator) -> LayoutScrollPosition {
    var offsets: [Int: Double] = [:]
    for section in 0..<sections where Bool.random(using: &rng) {
      offsets[section] = Double.random(in: -50...2_000, using: &rng)
    }
    return LayoutScrollPosition(orthogonalOffsets: offsets)
  }

  @Test func rightToLeft_mirrorsLeftToRightExactly() {
    for seed in LayoutFuzzTests.seeds {
      let testCase = LayoutFuzzTests.randomCase(seed: seed)
      var rng = SeededGenerator(seed: seed ^ 0x71)
      let scroll = Self.offsets(testCase.itemCounts.count, &rng)
      for direction in ScrollDirection.allCases {
        let layout = testCase.layout.scrollDirection(direction)
        var environment = LayoutEnvironment(containerSize: testCase.container)
        let ltr = layout.frames(
          itemCounts: testCase.itemCounts, environment: environment, scroll: scroll,
          measure: LayoutFuzzTests.measuring(testCase))
        environment.layoutDirection = .rightToLeft
        let rtl = layout.frames(
          itemCounts: testCase.itemCounts, environment: environment, scroll: scroll,
          measure: LayoutFuzzTests.measuring(testCase))
        let axis = ltr.contentSize.width
        let replay = "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)), \(direction)"
        #expect(rtl.contentSize == ltr.contentSize, "\(replay)")
        #expect(
          rtl.allElements.map(\.attributes.frame)
            == ltr.allElements.map { Self.mirrored($0.attributes.frame, axis) }, "\(replay)")
        #expect(
          rtl.supplementaries.map(\.frame)
            == ltr.supplementaries.map { Self.mirrored($0.frame, axis) },
          "\(replay)")
        #expect(
          rtl.decorations.map(\.frame) == ltr.decorations.map { Self.mirrored($0.frame, axis) },
          "\(replay)")
        if rtl.allElements.count != ltr.allElements.count { return }
      }
    }
  }

  @Test func scrolledLayouts_keepElementsInsideTheirStrips_andApartInsideASection() {
    for seed in LayoutFuzzTests.seeds {
      let (layout, counts, container) = PropertyTests.randomLayout(seed: seed)
      var rng = SeededGenerator(seed: seed ^ 0x5C)
      let scroll = Self.offsets(counts.count, &rng)
      let result = layout.frames(
        itemCounts: counts, environment: LayoutEnvironment(containerSize: container),
        scroll: scroll)
      let content = Rect(origin: .zero, size: result.contentSize)
      let replay = "seed \(seed) (replay with SECTIONKIT_SEED=\(seed))"
      for section in result.sections {
        let shift = scroll.orthogonalOffset(ofSection: section.index)
        let bounds =
          section.orthogonalRegion.map {
            Rect(
              x: $0.frame.minX - shift, y: $0.frame.minY, width: $0.contentWidth,
              height: $0.frame.height)
          } ?? content
        let frames = section.elements.map(\.frame)
        for (i, frame) in frames.enumerated() {
          #expect(bounds.contains(frame, tolerance: 1e-9), "\(replay): [\(section.index), \(i)]")
          for j in frames.indices where j > i {
            #expect(
              !frame.inset(by: EdgeInsets(all: 1e-6)).intersects(frames[j]),
              "\(replay): section \(section.index) items \(i), \(j) overlap")
          }
        }
      }
    }
  }

  @Test func viewportQueryForAScrollPosition_equalsTheFilteredFullQuery() {
    for seed in LayoutFuzzTests.seeds.prefix(100) {
      let (layout, counts, container) = PropertyTests.randomLayout(seed: seed)
      var rng = SeededGenerator(seed: seed ^ 0x90)
      var scroll = Self.offsets(counts.count, &rng)
      let environment = LayoutEnvironment(containerSize: container)
      let height = layout.frames(itemCounts: counts, container: container).contentSize.height
      scroll.contentOffset.y = Double.random(in: 0...max(0, height), using: &rng)
      let viewport = Rect(origin: scroll.contentOffset, size: container)
      let full = layout.frames(itemCounts: counts, environment: environment, scroll: scroll)
      let query = layout.frames(
        in: viewport, itemCounts: counts, environment: environment, scroll: scroll)
      let replay = "seed \(seed) (replay with SECTIONKIT_SEED=\(seed))"
      for (queried, section) in zip(query.sections, full.sections) {
        #expect(
          queried.elements == section.elements.filter { $0.frame.intersects(viewport) },
          "\(replay)")
      }
      #expect(
        query.supplementaries == full.supplementaries.filter { $0.frame.intersects(viewport) },
        "\(replay)")
    }
  }
}
