import Foundation
import SectionKit

/// The JSON-lines wire format of a stream: one update per line (`Docs/Streaming.md` documents
/// every field).
///
/// ```text
/// {"sections":[["Mum","Dad"]],"seq":1,"stream":"5A0E…","type":"snapshot","v":1}
/// {"changeset":{…},"newElements":[{"path":[0,2],"value":"Gran"}],"newSections":[],"seq":2,"type":"changeset","v":1}
/// ```
public enum StreamLine {
  /// The format version this library writes for a line without a digest, and the one whose
  /// fields the errors name; version 2 adds `digest` to changeset lines (``StreamDigest``, of
  /// kind ``StreamDigest/Kind/sequential``), version 3 the digest of kind
  /// ``StreamDigest/Kind/pairs``. The decoder reads all three.
  public static let version = 1
  /// The newest format version: written for a changeset with a digest of kind
  /// ``StreamDigest/Kind/pairs``.
  public static let newestVersion = 3
  /// The largest sequence number on the wire: 2⁵³ − 1, the largest integer a JavaScript client
  /// reads exactly.
  public static let maximumSequence = (1 << 53) - 1
}

/// One line as it is written and read: the fields of both kinds, the unused ones absent.
struct WireLine<Value: Codable>: Codable {
  struct SectionElements: Codable {
    @WireInteger var index: Int
    var elements: [Value]
  }
  struct Element: Codable {
    var path: WirePath
    var value: Value
  }

  @WireInteger var v: Int
  var type: String
  @WireInteger var seq: Int
  var stream: String?
  var sections: [[Value]]?
  var changeset: WireChangeset?
  var insertedSections: [SectionElements]?
  var elements: [Element]?

  enum CodingKeys: String, CodingKey {
    case v, type, seq, stream, sections, changeset
    case insertedSections = "newSections"
    case elements = "newElements"
  }
}

/// Writes updates as JSON lines.
///
/// ```swift
/// let encoder = StreamLineEncoder<String>()
/// for await update in stream.subscribe() {
///   try socket.write(encoder.encode(update))    // one line, ending with "\n"
/// }
/// ```
public struct StreamLineEncoder<Value: Codable & Sendable>: Sendable {
  /// For values that are neither strings nor integers, and for the reference path.
  let encoder: JSONEncoder
  /// How the values are written.
  let coding: ValueCoding

  /// Creates an encoder.
  public init() {
    encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    coding = ValueCoding.of(Value.self)
  }

  /// One line for `update`, ending with a newline. Keys are sorted and lists are in ascending
  /// order, so equal updates give equal bytes. The envelope, the index paths and the ranges are
  /// written byte by byte; strings and integers too, other values through their `Codable`
  /// conformance (one `JSONEncoder` call for all the values of the line). A changeset with a
  /// ``StreamChangeset/digest`` is a line of version 3 (version 2 for a digest of kind
  /// ``StreamDigest/Kind/sequential``); any other line is of version 1.
  ///
  /// - Throws: what encoding a value throws (`EncodingError`).
  /// - Complexity: O(n) for the n values and changes of the update.
  public func encode(_ update: StreamUpdate<Value>) throws -> Data {
    Data(try bytes(update))
  }

  /// The line for `update` through `JSONEncoder`, as this library wrote it before its own codec:
  /// the reference the byte-by-byte writer is tested and measured against. Version 1 only (the
  /// digest is not written).
  @_spi(Reference)
  public func encodeWithFoundation(_ update: StreamUpdate<Value>) throws -> Data {
    let line: WireLine<Value>
    switch update {
    case .snapshot(let snapshot):
      line = WireLine(
        v: StreamLine.version, type: "snapshot", seq: snapshot.sequence, stream: snapshot.stream,
        sections: snapshot.sections)
    case .changeset(let update):
      line = WireLine(
        v: StreamLine.version, type: "changeset", seq: update.sequence,
        changeset: WireChangeset(update.changeset),
        insertedSections: update.sections.sorted { $0.key < $1.key }.map {
          .init(index: $0.key, elements: $0.value)
        },
        elements: update.elements.sorted { $0.key < $1.key }.map {
          .init(path: WirePath($0.key), value: $0.value)
        })
    }
    var data = try encoder.encode(line)
    data.append(UInt8(ascii: "\n"))
    return data
  }
}

/// A changeset on the wire: the fields of `Changeset`'s own coding, with every index path as a
/// plain `[section, element]` array rather than Foundation's coding of `IndexPath` (an object,
/// `{"indexes": […]}`), so that the format is this library's own.
struct WireChangeset: Codable {
  struct Move: Codable {
    var from: WirePath
    var to: WirePath
  }
  struct SectionMove: Codable {
    @WireInteger var from: Int
    @WireInteger var to: Int
  }

  var deletedSectionRanges: [WireRange]?
  var insertedSectionRanges: [WireRange]?
  var reloadedSectionRanges: [WireRange]?
  var movedSections: [SectionMove]?
  var deletedElements: [WirePath]?
  var insertedElements: [WirePath]?
  var reloadedElements: [WirePath]?
  var movedElements: [Move]?

  init(_ changeset: Changeset) {
    deletedSectionRanges = changeset.deletedSectionRanges.map(WireRange.init)
    insertedSectionRanges = changeset.insertedSectionRanges.map(WireRange.init)
    reloadedSectionRanges = changeset.reloadedSectionRanges.map(WireRange.init)
    movedSections = changeset.movedSections.map { SectionMove(from: $0.from, to: $0.to) }
    deletedElements = changeset.deletedElements.map(WirePath.init)
    insertedElements = changeset.insertedElements.map(WirePath.init)
    reloadedElements = changeset.reloadedElements.map(WirePath.init)
    movedElements = changeset.movedElements.map {
      Move(from: WirePath($0.from), to: WirePath($0.to))
    }
  }

  /// The changeset, checked against its own invariants (those `Changeset`'s decoding checks);
  /// the text of the first one broken otherwise.
  func changeset() -> Result<Changeset, WireChangesetError> {
    func paths(_ list: [WirePath]?) -> [IndexPath] { (list ?? []).map(\.indexPath) }
    func ranges(_ list: [WireRange]?) -> [Range<Int>] { (list ?? []).map(\.range) }
    var changeset = Changeset(
      movedSections: (movedSections ?? []).map { Changeset.SectionMove(from: $0.from, to: $0.to) },
      deletedElements: paths(deletedElements), insertedElements: paths(insertedElements),
      reloadedElements: paths(reloadedElements),
      movedElements: (movedElements ?? []).map {
        Changeset.Move(from: $0.from.indexPath, to: $0.to.indexPath)
      })
    changeset.deletedSectionRanges = ranges(deletedSectionRanges)
    changeset.insertedSectionRanges = ranges(insertedSectionRanges)
    changeset.reloadedSectionRanges = ranges(reloadedSectionRanges)
    if let violation = changeset.invariantViolation() {
      return .failure(
        WireChangesetError(
          text: "changeset.\(violation.fieldDescription) = \(violation.value) \(violation.reason)"))
    }
    return .success(changeset)
  }
}

/// A changeset that breaks its own invariants.
struct WireChangesetError: Error {
  var text: String
}

// MARK: Numbers, read strictly

/// An integer field: a JSON number whose value is an integer that fits in `Int`. A number with a
/// fraction (`1.5`) or out of range (`1e30`) is refused naming the field, where `JSONDecoder`
/// alone says only that the data is not valid JSON. (`1.0` and `1e0` are the integer 1: JSON
/// does not tell them apart, and neither does this reader.)
@propertyWrapper
struct WireInteger: Codable {
  var wrappedValue: Int

  init(wrappedValue: Int) {
    self.wrappedValue = wrappedValue
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    do {
      wrappedValue = try container.decode(Int.self)
    } catch {
      guard let number = try? container.decode(Double.self) else { throw error }
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: number.rounded() == number
            ? "\(number) is out of the range of integers" : "\(number) is not an integer"))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(wrappedValue)
  }
}

/// An index path on the wire: an array of integers (`[section, element]`; its length is checked
/// where it is used, with the field's name).
struct WirePath: Codable {
  var indexes: [Int]

  init(_ indexPath: IndexPath) {
    indexes = Array(indexPath)
  }

  init(from decoder: any Decoder) throws {
    indexes = try [WireInteger](from: decoder).map(\.wrappedValue)
  }

  func encode(to encoder: any Encoder) throws {
    try indexes.encode(to: encoder)
  }

  var indexPath: IndexPath { IndexPath(indexes: indexes) }
}

/// A half-open range of sections on the wire: exactly `[lower, upper]`, two integers with
/// `lower <= upper`. (Swift's own decoding of `Range` reads the first two numbers of a longer
/// array and ignores the rest: `[1, 3, 5]` would be `1..<3`.)
struct WireRange: Codable {
  var range: Range<Int>

  init(_ range: Range<Int>) {
    self.range = range
  }

  init(from decoder: any Decoder) throws {
    func refuse(_ reason: String) -> DecodingError {
      .dataCorrupted(
        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: reason))
    }
    let bounds = try [WireInteger](from: decoder).map(\.wrappedValue)
    guard bounds.count == 2 else {
      let shown = bounds.count <= 4 ? "\(bounds)" : "an array of \(bounds.count) numbers"
      throw refuse("\(shown) is not a range [lower, upper]")
    }
    guard bounds[0] <= bounds[1] else {
      throw refuse("\(bounds) is not a range: the lower bound is greater than the upper bound")
    }
    range = bounds[0]..<bounds[1]
  }

  func encode(to encoder: any Encoder) throws {
    try [range.lowerBound, range.upperBound].encode(to: encoder)
  }
}
