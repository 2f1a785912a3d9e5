import Foundation
import SectionKitLayout
import Testing

/// Decoded values come from outside: every value an initializer or a layout refuses throws a
/// `DecodingError` naming the field, never a later trap (see "Bad dimensions" in
/// Docs/Layout.md).
@Suite struct BadDecodedValueTests {
  /// A decoder that reads `"nan"`, `"inf"` and `"-inf"` as those numbers.
  static func lenientDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return decoder
  }

  /// `value` encoded, with every `12345` replaced by `replacement` (a JSON number or string).
  static func encoded(_ value: some Encodable, replacing12345With replacement: String) throws
    -> Data
  {
    let json = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    #expect(json.contains("12345"), "\(json)")
    return Data(json.replacing("12345", with: replacement).utf8)
  }

  /// Decodes `T` from `data` and returns the `DecodingError.dataCorrupted` it throws.
  static func corruption<T: Decodable>(
    _ type: T.Type, from data: Data, sourceLocation: SourceLocation = #_sourceLocation
  ) -> DecodingError.Context? {
    do {
      let value = try lenientDecoder().decode(type, from: data)
      Issue.record("decoded \(value)", sourceLocation: sourceLocation)
    } catch DecodingError.dataCorrupted(let context) {
      return context
    } catch {
      Issue.record("threw \(error), not dataCorrupted", sourceLocation: sourceLocation)
    }
    return nil
  }

  // MARK: LayoutScrollPosition

  @Test(arguments: ["\"nan\"", "\"inf\"", "\"-inf\""])
  func aDecodedScrollPositionWithANonFiniteContentOffset_throwsNamingTheField(_ bad: String) throws
  {
    let data = try Self.encoded(
      LayoutScrollPosition(contentOffset: Point(x: 0, y: 12345)), replacing12345With: bad)
    let context = try #require(Self.corruption(LayoutScrollPosition.self, from: data))
    #expect(context.codingPath.map(\.stringValue) == ["contentOffset"])
    #expect(context.debugDescription.contains("LayoutScrollPosition.contentOffset"))
  }

  @Test func aDecodedScrollPositionWithANonFiniteOrthogonalOffset_throwsNamingTheSection() throws {
    let data = try Self.encoded(
      LayoutScrollPosition(orthogonalOffsets: [0: 4, 3: 12345]), replacing12345With: "\"inf\"")
    let context = try #require(Self.corruption(LayoutScrollPosition.self, from: data))
    #expect(context.codingPath.map(\.stringValue) == ["orthogonalOffsets"])
    #expect(context.debugDescription.contains("offset inf of section 3"))
  }

  @Test func aDecodedFiniteScrollPosition_roundTripsAndLaysOut() throws {
    let position = LayoutScrollPosition(
      contentOffset: Point(x: 0, y: 12345), orthogonalOffsets: [0: -20.5])
    let data = try JSONEncoder().encode(position)
    let decoded = try Self.lenientDecoder().decode(LayoutScrollPosition.self, from: data)
    #expect(decoded == position)
    let section = LayoutSection { HGroup { Item() }.height(.absolute(10)) }
    let result = layout(section).frames(
      itemCounts: [2], environment: LayoutEnvironment(containerSize: Size(width: 10, height: 10)),
      scroll: decoded)
    #expect(result.elementCount == 2)
  }

  // MARK: Siblings: LayoutAnchor, CustomGroupItem

  @Test(arguments: ["\"nan\"", "\"inf\""])
  func aDecodedAnchorWithANonFiniteOffset_throws(_ bad: String) throws {
    for anchor in [
      LayoutAnchor(edges: .top, absoluteOffset: Point(x: 12345, y: 0)),
      LayoutAnchor(edges: .top, fractionalOffset: Point(x: 0, y: 12345)),
    ] {
      let data = try Self.encoded(anchor, replacing12345With: bad)
      let context = try #require(Self.corruption(LayoutAnchor.self, from: data))
      #expect(context.codingPath.first?.stringValue == "offset")
      #expect(context.debugDescription.contains("must be finite"))
      #expect(
        try Self.lenientDecoder().decode(LayoutAnchor.self, from: JSONEncoder().encode(anchor))
          == anchor)
    }
  }

  @Test(arguments: [
    (Rect(x: 12345, y: 0, width: 1, height: 1), "\"nan\""),
    (Rect(x: 0, y: 12345, width: 1, height: 1), "\"-inf\""),
    (Rect(x: 0, y: 0, width: 12345, height: 1), "-1"),
    (Rect(x: 0, y: 0, width: 1, height: 12345), "\"inf\""),
  ])
  func aDecodedCustomGroupItemWithABadFrame_throwsNamingTheFrame(_ frame: Rect, _ bad: String)
    throws
  {
    let item = CustomGroupItem(frame: frame, zIndex: 2)
    let data = try Self.encoded(item, replacing12345With: bad)
    let context = try #require(Self.corruption(CustomGroupItem.self, from: data))
    #expect(context.codingPath.map(\.stringValue) == ["frame"])
    #expect(
      try JSONDecoder().decode(CustomGroupItem.self, from: JSONEncoder().encode(item)) == item)
  }

  // MARK: Sibling: a result with infinite or huge numbers still prints

  @Test func aDecodedResultWithInfiniteAndHugeFrames_describesItself() throws {
    let section = LayoutSection { HGroup { Item() }.height(.absolute(10)) }
    let result = layout(section).frames(itemCounts: [2], container: Size(width: 10, height: 10))
    var json = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
    json = json.replacing("\"width\":10", with: "\"width\":\"inf\"")
    json = json.replacing("\"height\":10", with: "\"height\":1e300")
    let decoded = try Self.lenientDecoder().decode(LayoutResult.self, from: Data(json.utf8))
    #expect(decoded.container == Size(width: .infinity, height: 1e300))
    #expect(decoded.description.contains("container infx1e+300"))
  }

  @Test func aViewportQueryWithAnInfiniteEdge_describesItself() {
    let section = LayoutSection { HGroup { Item() }.height(.absolute(10)) }
    let result = layout(section).frames(
      in: rect(0, 0, 10, .infinity), itemCounts: [2], container: Size(width: 10, height: 10))
    #expect(result.elementCount == 2)
    #expect(result.description.contains("viewport (0, 0, 10, inf)"))
  }
}
