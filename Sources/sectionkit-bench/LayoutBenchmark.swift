import Foundation
import SectionKitLayout

/// The layout benchmark of `sectionkit-bench`: a 100,000-element grid.
///
/// ```swift
/// let figures = LayoutBenchmark.runGrid(iterations: 20)
/// print("100k grid: best \(figures.best), median \(figures.median)")
/// ```
enum LayoutBenchmark {
  /// The benchmark's container: 390 × 844 points.
  static let container = Size(width: 390, height: 844)

  /// The grid: four columns of square-ish tiles with spacing, a header per section.
  static func gridLayout() -> CompositionalLayout {
    CompositionalLayout { _, _ in
      LayoutSection {
        HGroup { Item().width(.fractionalWidth(0.25)).contentInsets(value: 1) }
          .height(.absolute(96))
      }
      .interGroupSpacing(4)
      .contentInsets(horizontal: 8, vertical: 8)
      .boundarySupplementaryItems {
        BoundarySupplementaryItem(elementKind: "header").height(.absolute(32))
      }
    }
  }

  /// The element counts: `elements` split evenly over `sections`.
  static func gridItemCounts(elements: Int = 100_000, sections: Int = 1) -> [Int] {
    precondition(sections > 0, "LayoutBenchmark: sections must be positive, got \(sections)")
    return (0..<sections).map { elements / sections + ($0 < elements % sections ? 1 : 0) }
  }

  /// Lays the grid out `iterations` times and reports the best and median durations.
  static func runGrid(
    iterations: Int = 10, elements: Int = 100_000, sections: Int = 1
  ) -> (best: Duration, median: Duration, elementCount: Int) {
    precondition(iterations > 0, "LayoutBenchmark: iterations must be positive, got \(iterations)")
    let layout = gridLayout()
    let counts = gridItemCounts(elements: elements, sections: sections)
    let clock = ContinuousClock()
    var durations: [Duration] = []
    var elementCount = 0
    for _ in 0..<iterations {
      let start = clock.now
      let result = layout.frames(itemCounts: counts, container: container)
      durations.append(clock.now - start)
      elementCount = result.elementCount
    }
    durations.sort()
    return (durations[0], durations[durations.count / 2], elementCount)
  }
}
