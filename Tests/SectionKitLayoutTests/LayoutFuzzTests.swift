import Foundation
import SectionKitLayout
import SectionKitTesting
import Testing

/// Random layouts with random *legal* dimensions — tiny fractions, zero sizes, insets and
/// spacing longer than their space, huge group counts, big and empty containers — whose results
/// must keep the engine's promises: finite frames, no negative size, every frame inside the
/// content, one frame per element.
///
/// `SECTIONKIT_SEED=<seed>` replays one layout; `SECTIONKIT_FUZZ_ITERATIONS=<n>` runs `n` layouts
/// instead of the default 300 (a few seconds in debug builds).
@Suite struct LayoutFuzzTests {
  static let defaultIterations = 300

  /// The seeds to run: the one `SECTIONKIT_SEED` names, or `iterations` seeds from a fixed base.
  static var seeds: [UInt64] {
    if ProcessInfo.processInfo.environment["SECTIONKIT_SEED"] != nil {
      return [SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED")]
    }
    let text = ProcessInfo.processInfo.environment["SECTIONKIT_FUZZ_ITERATIONS"]
    let iterations = text.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    precondition(
      text == nil || (iterations ?? 0) > 0,
      "LayoutFuzzTests: SECTIONKIT_FUZZ_ITERATIONS=\(text ?? "") is not a positive integer")
    return (0..<UInt64(iterations ?? defaultIterations)).map { 20_261_123 &+ $0 }
  }

  /// A random legal layout and what to lay out with it.
  struct Case {
    var layout: CompositionalLayout
    var itemCounts: [Int]
    var container: Size
    var measures: Bool
    var description: String {
      "itemCounts \(itemCounts), container \(container), measures \(measures)"
    }
  }

  /// A length from one of the ranges that matter: zero, tiny, ordinary, or (when `large`) huge.
  static func length(_ rng: inout SeededGenerator, large: Bool = false) -> Double {
    switch Int.random(in: 0..<(large ? 5 : 4), using: &rng) {
    case 0: return 0
    case 1: return Double.random(in: 0...1e-6, using: &rng)
    case 2, 3: return Double.random(in: 0...40, using: &rng)
    default: return Double.random(in: 1e3...1e6, using: &rng)
    }
  }

  /// A fraction in `0...1`: zero, tiny (down to 1e-7) or ordinary.
  static func fraction(_ rng: inout SeededGenerator) -> Double {
    switch Int.random(in: 0..<6, using: &rng) {
    case 0: return 0
    case 1: return Double.random(in: 1e-7...1e-3, using: &rng)
    case 2: return 1
    default: return Double.random(in: 0.05...1, using: &rng)
    }
  }

  static func insets(_ rng: inout SeededGenerator) -> EdgeInsets {
    EdgeInsets(
      top: length(&rng), leading: length(&rng), bottom: length(&rng), trailing: length(&rng))
  }

  /// A subitem whose size is a fraction of its group's on both axes (so it fits the group), or
  /// an estimated height when the group's height is estimated (the group grows to fit it).
  static func subitem(
    _ rng: inout SeededGenerator, depth: Int, horizontalParent: Bool, estimatedHeight: Bool
  ) -> LayoutNode {
    let width = LayoutDimension.fractionalWidth(fraction(&rng))
    let height =
      estimatedHeight && Bool.random(using: &rng)
      ? LayoutDimension.estimated(length(&rng)) : .fractionalHeight(fraction(&rng))
    if depth > 0 && Int.random(in: 0..<3, using: &rng) == 0 {
      let groupHeight = height.isEstimated ? .fractionalHeight(fraction(&rng)) : height
      return group(&rng, depth: depth - 1, width: width, height: groupHeight)
    }
    var item = Item(width: width, height: height).contentInsets(insets(&rng))
    if Bool.random(using: &rng) {
      item = item.edgeSpacing(
        horizontalParent
          ? LayoutEdgeSpacing(leading: .flexible(0), trailing: .flexible(0))
          : LayoutEdgeSpacing(top: .flexible(0), bottom: .flexible(0)))
    }
    return item.layoutNode
  }

  /// A group of the given size; counted groups have no spacing (their shares never overflow
  /// them), repeating groups any spacing (they place a subitem only while it fits). In a group
  /// of estimated height, an item may have an estimated height too (the group fits its items).
  static func group(
    _ rng: inout SeededGenerator, depth: Int, width: LayoutDimension, height: LayoutDimension
  ) -> LayoutNode {
    let horizontal = Bool.random(using: &rng)
    let count: Int? =
      switch Int.random(in: 0..<5, using: &rng) {
      case 0: Int.random(in: 1...6, using: &rng)
      case 1: [1_000, 50_000_000].randomElement(using: &rng)!
      default: nil
      }
    let spacing: LayoutSpacing? =
      count != nil
      ? nil
      : [nil, .fixed(length(&rng)), .flexible(length(&rng))].randomElement(using: &rng)!
    let subitemCount = Int.random(in: 1...3, using: &rng)
    var subitems: [LayoutNode] = []
    for _ in 0..<subitemCount {
      subitems.append(
        subitem(
          &rng, depth: depth, horizontalParent: horizontal,
          estimatedHeight: height.isEstimated && horizontal))
    }
    let contentInsets = insets(&rng)
    if horizontal {
      return HGroup(count: count) { for node in subitems { node } }
        .width(width).height(height).contentInsets(contentInsets).interItemSpacing(spacing)
        .layoutNode
    }
    return VGroup(count: count) { for node in subitems { node } }
      .width(width).height(height).contentInsets(contentInsets).interItemSpacing(spacing)
      .layoutNode
  }

  static func section(_ rng: inout SeededGenerator) -> LayoutSection {
    let estimated = Int.random(in: 0..<3, using: &rng) == 0
    let height: LayoutDimension =
      estimated
      ? .estimated(length(&rng))
      : [.absolute(length(&rng, large: true)), .fractionalHeight(fraction(&rng))]
        .randomElement(using: &rng)!
    let orthogonal = Int.random(in: 0..<5, using: &rng) == 0
    let width = orthogonal ? LayoutDimension.fractionalWidth(fraction(&rng)) : .fractionalWidth(1)
    var section = LayoutSection(group: group(&rng, depth: 2, width: width, height: height))
      .contentInsets(insets(&rng))
      .interGroupSpacing(length(&rng))
      .supplementariesFollowContentInsets(Bool.random(using: &rng))
    if orthogonal {
      section = section.orthogonalScrollingBehavior(
        [.continuous, .paging, .groupPaging, .groupPagingCentered].randomElement(using: &rng)!)
    }
    for alignment in [BoundaryAlignment.top, .bottom] where Bool.random(using: &rng) {
      let item = BoundarySupplementaryItem(elementKind: "\(alignment)", alignment: alignment)
        .width(.fractionalWidth(fraction(&rng)))
        .height(Bool.random(using: &rng) ? .absolute(length(&rng)) : .estimated(length(&rng)))
        .contentInsets(insets(&rng))
      section = section.boundarySupplementaryItems { item }
    }
    if Bool.random(using: &rng) {
      let background = DecorationItem.background(elementKind: "bg").contentInsets(insets(&rng))
      section = section.decorationItems { background }
    }
    return section
  }

  static func randomCase(seed: UInt64) -> Case {
    var rng = SeededGenerator(seed: seed)
    let sections = (0..<Int.random(in: 1...4, using: &rng)).map { _ in section(&rng) }
    let itemCounts = sections.map { _ in
      Int.random(in: 0..<10, using: &rng) == 0
        ? Int.random(in: 500...3_000, using: &rng) : Int.random(in: 0...40, using: &rng)
    }
    let container = Size(
      width: length(&rng, large: true), height: length(&rng, large: true))
    let layout = CompositionalLayout(sections: sections).interSectionSpacing(length(&rng))
      .rules(Bool.random(using: &rng) ? .uikit : .legacy)
    return Case(
      layout: layout, itemCounts: itemCounts, container: container,
      measures: Bool.random(using: &rng))
  }

  /// The measuring closure of a case that measures.
  static func measuring(_ testCase: Case) -> ((MeasurementRequest) -> Size)? {
    guard testCase.measures else { return nil }
    return { request in measure(request) }
  }

  /// Estimated heights measured as a few points that depend on the index path.
  static func measure(_ request: MeasurementRequest) -> Size {
    var size = request.proposedSize
    if request.estimatesHeight {
      var mixed = 7
      for index in request.indexPath { mixed = mixed &* 31 &+ index }
      size.height = Double(mixed & 31)
    }
    return size
  }

  /// What is wrong with the layout of `testCase`, or `nil`.
  static func violation(of testCase: Case) -> String? {
    let result = testCase.layout.frames(
      itemCounts: testCase.itemCounts, container: testCase.container,
      measure: measuring(testCase))
    let content = Rect(origin: .zero, size: result.contentSize)
    guard content.minX.isFinite, content.maxX.isFinite, content.maxY.isFinite,
      content.width >= 0, content.height >= 0
    else { return "content size \(result.contentSize)" }
    let tolerance = 1e-9 * max(1, content.width, content.height)
    func check(_ frame: Rect, in bounds: Rect, _ what: @autoclosure () -> String) -> String? {
      guard frame.minX.isFinite, frame.minY.isFinite, frame.maxX.isFinite, frame.maxY.isFinite
      else { return "\(what()): frame \(frame) is not finite" }
      guard frame.width >= 0, frame.height >= 0 else {
        return "\(what()): frame \(frame) has a negative size"
      }
      guard bounds.contains(frame, tolerance: tolerance) else {
        return "\(what()): frame \(frame) lies outside \(bounds)"
      }
      return nil
    }
    guard result.sections.count == testCase.itemCounts.count else {
      return "\(result.sections.count) sections for \(testCase.itemCounts.count) counts"
    }
    for (section, count) in zip(result.sections, testCase.itemCounts) {
      guard section.elements.map(\.item) == Array(0..<count) else {
        return "section \(section.index): \(section.elements.count) frames for \(count) elements"
      }
      let bounds =
        section.orthogonalRegion.map {
          Rect(x: $0.frame.minX, y: $0.frame.minY, width: $0.contentWidth, height: $0.frame.height)
        } ?? content
      if let problem = check(section.frame, in: content, "section \(section.index)") {
        return problem
      }
      for element in section.elements {
        if let problem = check(
          element.frame, in: bounds, "element [\(section.index), \(element.item)]")
        {
          return problem
        }
      }
    }
    for view in result.supplementaries + result.decorations {
      if let problem = check(view.frame, in: content, "\(view.kind) \(view.indexPath)") {
        return problem
      }
    }
    return nil
  }

  @Test func randomLegalLayouts_haveFiniteNonNegativeFramesInsideTheContent() {
    for seed in Self.seeds {
      let testCase = Self.randomCase(seed: seed)
      if let problem = Self.violation(of: testCase) {
        Issue.record(
          "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)): \(problem); \(testCase.description)")
        return
      }
    }
  }

  @Test func horizontalLayoutsOfTheSameDescriptions_haveFiniteNonNegativeFrames() {
    for seed in Self.seeds.prefix(100) {
      let testCase = Self.randomCase(seed: seed)
      let result = testCase.layout.scrollDirection(.horizontal).frames(
        itemCounts: testCase.itemCounts, container: testCase.container,
        measure: Self.measuring(testCase))
      let frames =
        result.allElements.map(\.attributes.frame) + result.supplementaries.map(\.frame)
        + result.decorations.map(\.frame)
      let bad = frames.first {
        !($0.minX.isFinite && $0.minY.isFinite && $0.maxX.isFinite && $0.maxY.isFinite
          && $0.width >= 0 && $0.height >= 0)
      }
      #expect(
        bad == nil,
        "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)): frame \(String(describing: bad))")
      #expect(
        result.elementCount == testCase.itemCounts.reduce(0, +),
        "seed \(seed) (replay with SECTIONKIT_SEED=\(seed))")
      #expect(result.contentSize.width >= 0 && result.contentSize.height >= 0, "seed \(seed)")
    }
  }
}
