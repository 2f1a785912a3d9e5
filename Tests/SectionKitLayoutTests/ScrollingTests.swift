import Foundation
import SectionKitLayout
import Testing

/// Scroll positions (orthogonal offsets, pinning for a content offset), paging targets, the
/// visible-items handler, right-to-left layouts, `.none` boundary alignment and content-insets
/// references, with hand-computed frames on a 375 × 812-point container.
@Suite struct ScrollingTests {
  static let container = Size(width: 375, height: 812)
  static let environment = LayoutEnvironment(containerSize: container)

  /// Halves of the full width (187.5) after a 16-point inset, 100 high, with a badge per item.
  static func strip(_ behavior: OrthogonalScrollingBehavior = .continuous) -> LayoutSection {
    LayoutSection {
      HGroup {
        Item().supplementaryItems {
          SupplementaryItem(elementKind: "badge").width(.absolute(10)).height(.absolute(10))
        }
      }
      .width(.fractionalWidth(0.5)).height(.absolute(100))
    }
    .orthogonalScrollingBehavior(behavior)
    .contentInsets(horizontal: 16)
    .boundarySupplementaryItems {
      BoundarySupplementaryItem(elementKind: "header").height(.absolute(30))
    }
  }

  // MARK: Orthogonal offsets

  @Test func orthogonalOffset_movesTheSectionsElementsAndTheirSupplementaries_notItsHeader() {
    let result = layout(Self.strip()).frames(
      itemCounts: [3], environment: Self.environment,
      scroll: LayoutScrollPosition(orthogonalOffsets: [0: 100]))
    #expect(
      elementFrames(result)
        == [rect(-84, 30, 187.5, 100), rect(103.5, 30, 187.5, 100), rect(291, 30, 187.5, 100)])
    #expect(result.supplementaryFrame(ofKind: "badge", at: ip(0, 1)) == rect(103.5, 30, 10, 10))
    #expect(result.supplementaryFrame(ofKind: "header", at: ip(0, 0)) == rect(16, 0, 343, 30))
    // The strip itself stays where it is.
    #expect(result.sections[0].orthogonalRegion?.frame == rect(0, 30, 375, 100))
  }

  @Test func orthogonalOffset_ofAnotherSection_changesNothingHere() {
    let atRest = layout(Self.strip()).frames(itemCounts: [3], container: Self.container)
    let scrolled = layout(Self.strip()).frames(
      itemCounts: [3], environment: Self.environment,
      scroll: LayoutScrollPosition(orthogonalOffsets: [1: 100]))
    #expect(scrolled.sections == atRest.sections)
  }

  @Test func orthogonalOffset_viewportQueryEqualsTheFilteredFullLayout() {
    let scroll = LayoutScrollPosition(orthogonalOffsets: [0: 400])
    let full = layout(Self.strip()).frames(
      itemCounts: [12], environment: Self.environment, scroll: scroll)
    let viewport = rect(0, 0, 375, 812)
    let query = layout(Self.strip()).frames(
      in: viewport, itemCounts: [12], environment: Self.environment, scroll: scroll)
    #expect(
      query.sections[0].elements
        == full.sections[0].elements.filter {
          $0.frame.intersects(viewport)
        })
    // Item k spans 16 + 187.5 k − 400 …+ 187.5: items 2 (−9…178.5), 3 and 4 (366…553.5).
    #expect(query.sections[0].elements.map(\.item) == [2, 3, 4])
  }

  // MARK: Paging targets

  static func region(
    _ behavior: OrthogonalScrollingBehavior, count: Int = 6, section: LayoutSection? = nil
  ) throws -> OrthogonalRegion {
    let result = layout(section ?? Self.strip(behavior))
      .frames(itemCounts: [count], container: Self.container)
    return try #require(result.sections[0].orthogonalRegion)
  }

  @Test func groupPaging_movesOneGroupInTheGesturesDirection() throws {
    // Groups of 187.5: anchors 0, 187.5, 375, …; the strip is 16 + 6 × 187.5 + 16 = 1157
    // long, so offsets end at 1157 − 375 = 782.
    let region = try Self.region(.groupPaging)
    #expect(region.targetOffset(forEndingOffset: 130, velocity: 400) == 187.5)
    #expect(region.targetOffset(forEndingOffset: 130, velocity: -400) == 0)
    #expect(region.targetOffset(forEndingOffset: 130, velocity: 0) == 187.5)
    #expect(region.targetOffset(forEndingOffset: 187.5, velocity: 1) == 375)
    #expect(region.targetOffset(forEndingOffset: 780, velocity: 400) == 782)
  }

  @Test func paging_movesOnePageOfTheStripsWidth() throws {
    let region = try Self.region(.paging)
    #expect(region.targetOffset(forEndingOffset: 130, velocity: 400) == 375)
    #expect(region.targetOffset(forEndingOffset: 130, velocity: -400) == 0)
    #expect(region.targetOffset(forEndingOffset: 130, velocity: 0) == 0)
    #expect(region.targetOffset(forEndingOffset: 400, velocity: 400) == 750)
    #expect(region.targetOffset(forEndingOffset: 760, velocity: 400) == 782)
  }

  @Test func continuousGroupLeadingBoundary_glidesThenRestsOnTheNearestGroupEdge() throws {
    // 130 + 0.499 × 400 = 329.6, nearest group edge 375 (2 × 187.5).
    let region = try Self.region(.continuousGroupLeadingBoundary)
    #expect(region.targetOffset(forEndingOffset: 130, velocity: 400) == 375)
    #expect(region.targetOffset(forEndingOffset: 130, velocity: 0) == 187.5)
    let continuous = try Self.region(.continuous)
    #expect(continuous.targetOffset(forEndingOffset: 130, velocity: 400) == 329.6)
    #expect(continuous.targetOffset(forEndingOffset: 100, velocity: -1_000) == 0)
  }

  @Test func groupPagingCentered_centresTheNextGroup() throws {
    // 0.8 × 375 = 300-point groups, 10 apart, centred: the first starts at 16 + (343 − 300) / 2
    // = 37.5, so offset 0 centres it; group k is centred at k × 310. The strip is
    // 37.5 + 4 × 300 + 3 × 10 + 16 + 21.5 = 1305 long, so offsets end at 930.
    let section = LayoutSection {
      HGroup { Item() }.width(.fractionalWidth(0.8)).height(.absolute(100))
    }
    .orthogonalScrollingBehavior(.groupPagingCentered).contentInsets(horizontal: 16)
    .interGroupSpacing(10)
    let region = try Self.region(.groupPagingCentered, count: 4, section: section)
    #expect(region.contentLength == 1_305)
    #expect(region.targetOffset(forEndingOffset: 100, velocity: 300) == 310)
    #expect(region.targetOffset(forEndingOffset: 100, velocity: 0) == 0)
    #expect(region.targetOffset(forEndingOffset: 900, velocity: 300) == 930)
  }

  @Test func targetOffset_nonFiniteVelocity_traps() async {
    await #expect(processExitsWith: .failure) {
      let region = try! ScrollingTests.region(.paging)
      _ = region.targetOffset(forEndingOffset: 0, velocity: .nan)
    }
  }

  // MARK: Pinning in the full frame query

  static func pinnedList() -> CompositionalLayout {
    CompositionalLayout { _, _ in
      ListSection(rowHeight: .absolute(50)).header(height: .absolute(30), pinned: true)
    }
  }

  @Test func pinnedHeader_followsTheContentOffsetInTheFullQuery() {
    // Section 0: header 0–30, rows 30–230; section 1: 230–460.
    let result = Self.pinnedList().frames(
      itemCounts: [4, 4], environment: Self.environment,
      scroll: LayoutScrollPosition(contentOffset: Point(x: 0, y: 100)))
    #expect(result.supplementaryFrame(ofKind: "header", at: ip(0, 0)) == rect(0, 100, 375, 30))
    #expect(result.supplementaryFrame(ofKind: "header", at: ip(1, 0)) == rect(0, 230, 375, 30))
    // Pushed up by the next section: the first header stops at its section's end (230 − 30).
    let later = Self.pinnedList().frames(
      itemCounts: [4, 4], environment: Self.environment,
      scroll: LayoutScrollPosition(contentOffset: Point(x: 0, y: 215)))
    #expect(later.supplementaryFrame(ofKind: "header", at: ip(0, 0)) == rect(0, 200, 375, 30))
    // Without a scroll position nothing is pinned.
    let rest = Self.pinnedList().frames(itemCounts: [4, 4], container: Self.container)
    #expect(rest.supplementaryFrame(ofKind: "header", at: ip(0, 0)) == rect(0, 0, 375, 30))
  }

  @Test func pinnedHeader_inAHorizontalLayout_followsTheContentOffsetAlongX() {
    // The description as written: 375-point-wide rows side by side (section 0 spans 0…1500)
    // under a 375 × 30 header at the content's top; pinned, it follows the offset along x and
    // stops at its section's end (1500 − 375).
    let layout = Self.pinnedList().scrollDirection(.horizontal)
    let result = layout.frames(
      itemCounts: [4, 4], environment: Self.environment,
      scroll: LayoutScrollPosition(contentOffset: Point(x: 100, y: 0)))
    #expect(result.supplementaryFrame(ofKind: "header", at: ip(0, 0)) == rect(100, 0, 375, 30))
    #expect(result.supplementaryFrame(ofKind: "header", at: ip(1, 0)) == rect(1_500, 0, 375, 30))
    let later = layout.frames(
      itemCounts: [4, 4], environment: Self.environment,
      scroll: LayoutScrollPosition(contentOffset: Point(x: 1_400, y: 0)))
    #expect(later.supplementaryFrame(ofKind: "header", at: ip(0, 0)) == rect(1_125, 0, 375, 30))
  }

  @Test func scrollPosition_nonFiniteOffset_traps() async {
    await #expect(processExitsWith: .failure) {
      _ = LayoutScrollPosition(orthogonalOffsets: [0: .infinity])
    }
  }

  @Test func environment_negativeReferenceInsets_trap() async {
    await #expect(processExitsWith: .failure) {
      let environment = LayoutEnvironment(
        containerSize: ScrollingTests.container, safeAreaInsets: EdgeInsets(leading: -1))
      _ = layout(LayoutSection { HGroup { Item() }.height(.absolute(10)) })
        .frames(itemCounts: [1], environment: environment)
    }
  }

  @Test func pinnedHeader_fullQueryMatchesTheViewportQuery() {
    let scroll = LayoutScrollPosition(contentOffset: Point(x: 0, y: 140))
    let full = Self.pinnedList().frames(
      itemCounts: [4, 4, 4], environment: Self.environment, scroll: scroll)
    let viewport = Rect(origin: scroll.contentOffset, size: Self.container)
    let query = Self.pinnedList().frames(
      in: viewport, itemCounts: [4, 4, 4], container: Self.container)
    #expect(query.supplementaries == full.supplementaries.filter { $0.frame.intersects(viewport) })
  }

  // MARK: The visible-items handler

  @Test func visibleItemsHandler_receivesTheVisibleViewsAndTheSectionsOffset() throws {
    let section = Self.strip().visibleItemsInvalidationHandler { items, offset, environment in
      for index in items.indices where items[index].category == .element {
        // Fade by the distance of the centre from the strip's middle.
        let middle = environment.containerSize.width / 2
        items[index].alpha = max(0, 1 - abs(items[index].center.x - middle) / middle)
        items[index].transform = LayoutTransform(translationX: offset.x, y: 0)
      }
    }
    let result = layout(section).frames(
      itemCounts: [6], environment: Self.environment,
      scroll: LayoutScrollPosition(orthogonalOffsets: [0: 100]))
    let items = try #require(result.visibleItems)
    let elements = items.filter { $0.category == .element }
    // Visible at offset 100: items 0 (−84…103.5), 1 (103.5…291) and 2 (291…478.5).
    #expect(elements.map(\.indexPath) == [ip(0, 0), ip(0, 1), ip(0, 2)])
    #expect(elements.map(\.frame.minX) == [-84, 103.5, 291])
    // Centres 9.75, 197.25, 384.75 against the middle 187.5.
    #expect(
      elements.map(\.alpha) == [9.75, 197.25, 384.75].map { max(0, 1 - abs($0 - 187.5) / 187.5) })
    #expect(elements.allSatisfy { $0.transform == LayoutTransform(translationX: 100, y: 0) })
    #expect(items.contains { $0.category == .supplementary(kind: "header") })
  }

  @Test func visibleItemsHandler_runsOnlyWithAScrollPosition() {
    let section = Self.strip().visibleItemsInvalidationHandler { items, _, _ in
      for index in items.indices { items[index].alpha = 0.5 }
    }
    #expect(layout(section).frames(itemCounts: [3], container: Self.container).visibleItems == nil)
  }

  @Test func visibleItemsHandler_thatRemovesAnItem_traps() async {
    await #expect(processExitsWith: .failure) {
      let section = ScrollingTests.strip().visibleItemsInvalidationHandler { items, _, _ in
        items.removeLast()
      }
      _ = layout(section).frames(
        itemCounts: [3], environment: ScrollingTests.environment, scroll: LayoutScrollPosition())
    }
  }

  @Test func visibleItemsHandler_alphaOutOfRange_traps() async {
    await #expect(processExitsWith: .failure) {
      let section = ScrollingTests.strip().visibleItemsInvalidationHandler { items, _, _ in
        items[0].alpha = 2
      }
      _ = layout(section).frames(
        itemCounts: [3], environment: ScrollingTests.environment, scroll: LayoutScrollPosition())
    }
  }

  // MARK: Right to left

  @Test func rightToLeft_mirrorsAcrossTheContainerWidth() {
    var environment = Self.environment
    environment.layoutDirection = .rightToLeft
    let section = LayoutSection {
      HGroup { Item().width(.fractionalWidth(0.5)) }.height(.absolute(50))
    }
    .contentInsets(leading: 16)
    .boundarySupplementaryItems {
      BoundarySupplementaryItem(elementKind: "tag", alignment: .topLeading)
        .width(.absolute(40)).height(.absolute(20))
    }
    // Left to right: items 179.5 wide at 16 and 195.5; the tag at 16. Mirrored: 375 − maxX.
    let result = layout(section).frames(itemCounts: [2], environment: environment)
    #expect(elementFrames(result) == [rect(179.5, 20, 179.5, 50), rect(0, 20, 179.5, 50)])
    #expect(result.supplementaryFrame(ofKind: "tag", at: ip(0, 0)) == rect(319, 0, 40, 20))
  }

  @Test func rightToLeft_orthogonalStripRunsToTheLeft_andItsOffsetMovesItRight() {
    var environment = Self.environment
    environment.layoutDirection = .rightToLeft
    let result = layout(Self.strip()).frames(
      itemCounts: [3], environment: environment,
      scroll: LayoutScrollPosition(orthogonalOffsets: [0: 100]))
    // Left to right −84, 103.5, 291 (187.5 wide) mirror to 271.5, 84, −103.5.
    #expect(elementFrames(result).map(\.minX) == [271.5, 84, -103.5])
  }

  @Test func rightToLeft_horizontalLayout_mirrorsAcrossTheContentWidth() {
    let ltr = CompositionalLayout { _, _ in
      LayoutSection { VGroup { Item().height(.fractionalHeight(0.5)) }.width(.absolute(100)) }
    }.scrollDirection(.horizontal)
    var environment = Self.environment
    let left = ltr.frames(itemCounts: [6], environment: environment)
    environment.layoutDirection = .rightToLeft
    let right = ltr.frames(itemCounts: [6], environment: environment)
    #expect(left.contentSize.width == 300)
    #expect(elementFrames(right).map(\.minX) == [200, 200, 100, 100, 0, 0])
  }

  // MARK: `.none` alignment and content-insets references

  @Test func noneAlignedBoundaryItem_sitsAtTheContentsLeadingTopCorner_movedByItsOffset() {
    let section = LayoutSection { HGroup { Item() }.height(.absolute(50)) }
      .contentInsets(top: 4, leading: 8)
      .boundarySupplementaryItems {
        BoundarySupplementaryItem(elementKind: "float", alignment: .none)
          .width(.absolute(50)).height(.absolute(20)).absoluteOffset(Point(x: 10, y: 5))
      }
    let result = layout(section).frames(itemCounts: [1], container: Self.container)
    #expect(result.supplementaryFrame(ofKind: "float", at: ip(0, 0)) == rect(18, 5, 50, 20))
    // It does not extend the section: 4 + 50.
    #expect(result.sections[0].frame.height == 54)
  }

  @Test(arguments: [
    (ContentInsetsReference.none, 10.0), (.safeArea, 54), (.layoutMargins, 30),
    (.readableContent, 74), (.automatic, 54),
  ])
  func contentInsetsReference_addsTheEnvironmentsInsetsAcross(
    reference: ContentInsetsReference, leading: Double
  ) {
    let environment = LayoutEnvironment(
      containerSize: Self.container,
      safeAreaInsets: EdgeInsets(top: 47, leading: 44, bottom: 34, trailing: 44),
      layoutMargins: EdgeInsets(all: 20), readableContentInsets: EdgeInsets(all: 64))
    let section = LayoutSection { HGroup { Item() }.height(.absolute(50)) }
      .contentInsets(horizontal: 10).contentInsetsReference(reference)
    let result = layout(section).frames(itemCounts: [1], environment: environment)
    #expect(elementFrames(result) == [rect(leading, 0, 375 - 2 * leading, 50)])
  }

  @Test func configurationsReference_appliesToAutomaticSections() {
    let environment = LayoutEnvironment(
      containerSize: Self.container, layoutMargins: EdgeInsets(all: 20))
    var configuration = CompositionalLayout.Configuration()
    configuration.contentInsetsReference = .layoutMargins
    let result = layout(
      LayoutSection { HGroup { Item() }.height(.absolute(50)) }, configuration: configuration
    ).frames(itemCounts: [1], environment: environment)
    #expect(elementFrames(result) == [rect(20, 0, 335, 50)])
  }
}
