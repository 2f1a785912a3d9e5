import Foundation
import SectionKitLayout
import Synchronization
import Testing

/// Counts the calls of a `@Sendable` closure (a custom group's item provider).
final class CallCounter: Sendable {
  private let calls = Mutex(0)

  func increment() { calls.withLock { $0 += 1 } }

  var value: Int { calls.withLock { $0 } }
}

/// A custom group of one 1 × 1 element that counts how often the engine lays it out.
func countingCustomGroup(_ counter: CallCounter, elements: Int = 1) -> CustomGroup {
  CustomGroup { _ in
    counter.increment()
    return (0..<elements).map { _ in CustomGroupItem(frame: Rect(x: 0, y: 0, width: 1, height: 1)) }
  }
}

/// The standard error of an exit test, as text.
func standardError(_ result: ExitTest.Result?) -> String {
  String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
}

/// NaN, infinite, negative, zero and tiny dimensions (see "Bad dimensions" in Docs/Layout.md).
@Suite struct BadDimensionTests {
  // MARK: The cost of a layout is bounded by its elements

  @Test func aTinyFraction_repeatsTheSubitemOnlyForTheElementsThatExist() {
    let counter = CallCounter()
    let section = LayoutSection {
      HGroup { countingCustomGroup(counter).width(.fractionalWidth(0.001)) }.height(.absolute(10))
    }
    let result = layout(section).frames(itemCounts: [2], container: Size(width: 320, height: 100))
    #expect(result.elementCount == 2)
    #expect(counter.value == 2, "the group was laid out for \(counter.value) subitems, not 2")
  }

  @Test func aHugeGroupCount_placesOnlyTheElementsThatExist() {
    let counter = CallCounter()
    let section = LayoutSection {
      HGroup(count: 1_000) { countingCustomGroup(counter) }.height(.absolute(10))
    }
    let result = layout(section).frames(itemCounts: [3], container: Size(width: 320, height: 100))
    #expect(result.elementCount == 3)
    #expect(counter.value == 3, "the group was laid out for \(counter.value) subitems, not 3")
  }

  @Test func aGroupStopsRepeatingAfterAPassThatPlacesNoElement() {
    let counter = CallCounter()
    let section = LayoutSection {
      HGroup {
        HGroup { countingCustomGroup(counter, elements: 0).width(.fractionalWidth(0.001)) }
          .width(.fractionalWidth(0.5))
        Item().width(.fractionalWidth(0.5))
      }
      .height(.absolute(10))
    }
    let result = layout(section).frames(itemCounts: [1], container: Size(width: 320, height: 100))
    #expect(result.elementCount == 1)
    #expect(counter.value == 1, "an empty custom group was laid out \(counter.value) times")
  }

  // MARK: Programming errors trap, naming the dimension

  @Test func aNaNAbsoluteWidth_trapsWhereTheDSLValueIsBuilt() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      _ = Item().width(.absolute(.nan))
    }
    #expect(standardError(result).contains("Item.width"))
  }

  @Test func aNaNFraction_aNegativeSizeAndNonFiniteSpacingOrInsets_trap() async {
    await #expect(processExitsWith: .failure) { _ = Item().height(.fractionalWidth(.nan)) }
    await #expect(processExitsWith: .failure) { _ = Item(width: .absolute(-1)) }
    await #expect(processExitsWith: .failure) { _ = Item().width(.fractionalWidth(.infinity)) }
    await #expect(processExitsWith: .failure) { _ = Item().width(.estimated(-4)) }
    await #expect(processExitsWith: .failure) {
      _ = HGroup { Item() }.interItemSpacing(.fixed(.nan))
    }
    await #expect(processExitsWith: .failure) { _ = Item().contentInsets(value: .infinity) }
    await #expect(processExitsWith: .failure) { _ = Item().contentInsets(top: -1) }
    await #expect(processExitsWith: .failure) { _ = ListSection(rowHeight: .absolute(.nan)) }
    await #expect(processExitsWith: .failure) {
      _ = LayoutSection { HGroup { Item() } }.interGroupSpacing(.nan)
    }
    await #expect(processExitsWith: .failure) {
      _ = CompositionalLayout(sections: [LayoutSection { HGroup { Item() } }])
        .interSectionSpacing(-.infinity)
    }
  }

  @Test func aBadDimensionSetWithoutTheDSL_trapsWhereTheLayoutIsComputed() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      var item = Item()
      item.layoutSize.height = .absolute(.nan)
      let section = LayoutSection { HGroup { item }.height(.absolute(10)) }
      _ = CompositionalLayout(sections: [section]).frames(
        itemCounts: [1], container: Size(width: 100, height: 100))
    }
    #expect(standardError(result).contains("absolute(nan)"))
  }

  @Test func aGroupCountSetToZeroWithoutTheInitializer_trapsNamingTheCount() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      var group = HGroup(count: 2) { Item() }.height(.absolute(10))
      group.count = 0
      _ = CompositionalLayout(sections: [LayoutSection { group }]).frames(
        itemCounts: [1], container: Size(width: 100, height: 100))
    }
    #expect(standardError(result).contains("count must be positive, got 0"))
  }

  @Test func anInfiniteOrNaNContainer_traps() async {
    await #expect(processExitsWith: .failure) {
      let section = LayoutSection {
        HGroup { Item().width(.absolute(10)) }.width(.absolute(10)).height(.absolute(10))
      }
      _ = CompositionalLayout(sections: [section]).frames(
        itemCounts: [1], container: Size(width: .infinity, height: 100))
    }
    await #expect(processExitsWith: .failure) {
      let section = LayoutSection {
        HGroup { Item().width(.absolute(10)) }.width(.absolute(10)).height(.absolute(10))
      }
      _ = CompositionalLayout(sections: [section]).frames(
        itemCounts: [1], container: Size(width: 100, height: .nan))
    }
  }

  @Test func aNaNViewport_traps() async {
    await #expect(processExitsWith: .failure) {
      let section = LayoutSection { HGroup { Item() }.height(.absolute(10)) }
      _ = CompositionalLayout(sections: [section]).frames(
        in: Rect(x: 0, y: .nan, width: 100, height: 100), itemCounts: [4],
        container: Size(width: 100, height: 100))
    }
  }

  @Test func aDecodedNegativeOrNonFiniteDimension_throws() throws {
    let encoded = try JSONEncoder().encode(LayoutDimension.absolute(12345))
    let negative = Data(
      String(decoding: encoded, as: UTF8.self).replacing("12345", with: "-1").utf8)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(LayoutDimension.self, from: negative)
    }
    let spacing = try JSONEncoder().encode(LayoutSpacing.fixed(12345))
    let negativeSpacing = Data(
      String(decoding: spacing, as: UTF8.self).replacing("12345", with: "-2").utf8)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(LayoutSpacing.self, from: negativeSpacing)
    }
    #expect(try JSONDecoder().decode(LayoutDimension.self, from: encoded) == .absolute(12345))
  }

  // MARK: Zero sizes are legal; nothing comes out negative

  static func expectNoNegativeSize(
    _ result: LayoutResult, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(
      result.contentSize.width >= 0 && result.contentSize.height >= 0,
      sourceLocation: sourceLocation)
    let frames =
      result.allElements.map(\.attributes.frame) + result.supplementaries.map(\.frame)
      + result.decorations.map(\.frame)
    for frame in frames {
      #expect(frame.width >= 0 && frame.height >= 0, "\(frame)", sourceLocation: sourceLocation)
    }
  }

  @Test func itemInsetsLargerThanTheItem_leaveAnEmptyFrameInsideTheItem() {
    let section = LayoutSection {
      HGroup { Item().contentInsets(top: 8, leading: 8, bottom: 8, trailing: 4) }
        .height(.absolute(10))
    }
    let result = layout(section).frames(itemCounts: [1], container: Size(width: 10, height: 100))
    #expect(elementFrames(result) == [rect(20.0 / 3, 5, 0, 0)])
  }

  @Test func sectionInsetsWiderThanTheContainer_keepElementsInsideIt() {
    let section = LayoutSection { HGroup { Item() }.height(.absolute(10)) }
      .contentInsets(horizontal: 80)
      .decorationItems { DecorationItem.background(elementKind: "bg").contentInsets(value: 70) }
    let result = layout(section).frames(itemCounts: [2], container: Size(width: 100, height: 100))
    Self.expectNoNegativeSize(result)
    #expect(elementFrames(result) == [rect(50, 0, 0, 10), rect(50, 10, 0, 10)])
  }

  @Test func countGroupSpacingLongerThanTheGroup_givesZeroWidthShares() {
    let section = LayoutSection {
      HGroup(count: 5) { Item() }.interItemSpacing(.fixed(30)).height(.absolute(10))
    }
    let result = layout(section).frames(itemCounts: [5], container: Size(width: 100, height: 100))
    Self.expectNoNegativeSize(result)
    #expect(elementFrames(result).map(\.width) == [0, 0, 0, 0, 0])
  }

  @Test func aZeroOrNegativeContainer_laysOutZeroSizeFrames() {
    let section = LayoutSection {
      HGroup { Item().width(.fractionalWidth(0.5)) }.height(.absolute(10))
    }
    .contentInsets(value: 4)
    for container in [Size.zero, Size(width: -50, height: -10)] {
      let result = layout(section).frames(itemCounts: [3], container: container)
      Self.expectNoNegativeSize(result)
      #expect(result.elementCount == 3)
      #expect(result.contentSize.width == 0, "\(container)")
    }
  }
}
