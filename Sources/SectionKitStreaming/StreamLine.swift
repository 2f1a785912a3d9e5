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
  /// The format version this library writes and reads.
  public static let version = 1
  /// The largest sequence number on the wire: 2⁵³ − 1, the largest integer a JavaScript client
  /// reads exactly.
  public static let maximumSequence = (1 << 53) - 1
}

/// One line as it is written and read: the fields of both kinds, the unused ones absent.
struct WireLine<Value: Codable>: Codable {
  struct SectionElements: Codable {
    var index: Int
    var elements: [Value]
  }
  struct Element: Codable {
    var path: [Int]
    var value: Value
  }

  var v: Int
  var type: String
  var seq: Int
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
  private let encoder: JSONEncoder

  /// Creates an encoder.
  public init() {
    encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  }

  /// One line for `update`, ending with a newline. Keys are sorted and lists are in ascending
  /// order, so equal updates give equal bytes.
  ///
  /// - Throws: what encoding a value throws (`EncodingError`).
  /// - Complexity: O(n) for the n values and changes of the update.
  public func encode(_ update: StreamUpdate<Value>) throws -> Data {
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
          .init(path: Array($0.key), value: $0.value)
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
    var from: [Int]
    var to: [Int]
  }

  var deletedSectionRanges: [Range<Int>]?
  var insertedSectionRanges: [Range<Int>]?
  var reloadedSectionRanges: [Range<Int>]?
  var movedSections: [Changeset.SectionMove]?
  var deletedElements: [[Int]]?
  var insertedElements: [[Int]]?
  var reloadedElements: [[Int]]?
  var movedElements: [Move]?

  init(_ changeset: Changeset) {
    deletedSectionRanges = changeset.deletedSectionRanges
    insertedSectionRanges = changeset.insertedSectionRanges
    reloadedSectionRanges = changeset.reloadedSectionRanges
    movedSections = changeset.movedSections
    deletedElements = changeset.deletedElements.map(Array.init)
    insertedElements = changeset.insertedElements.map(Array.init)
    reloadedElements = changeset.reloadedElements.map(Array.init)
    movedElements = changeset.movedElements.map { Move(from: Array($0.from), to: Array($0.to)) }
  }

  /// The changeset, checked against its own invariants (those `Changeset`'s decoding checks);
  /// the text of the first one broken otherwise.
  func changeset() -> Result<Changeset, WireChangesetError> {
    func paths(_ list: [[Int]]?) -> [IndexPath] { (list ?? []).map(IndexPath.init(indexes:)) }
    var changeset = Changeset(
      movedSections: movedSections ?? [], deletedElements: paths(deletedElements),
      insertedElements: paths(insertedElements), reloadedElements: paths(reloadedElements),
      movedElements: (movedElements ?? []).map {
        Changeset.Move(from: IndexPath(indexes: $0.from), to: IndexPath(indexes: $0.to))
      })
    changeset.deletedSectionRanges = deletedSectionRanges ?? []
    changeset.insertedSectionRanges = insertedSectionRanges ?? []
    changeset.reloadedSectionRanges = reloadedSectionRanges ?? []
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
