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
    var path: IndexPath
    var value: Value
  }

  var v: Int
  var type: String
  var seq: Int
  var stream: String?
  var sections: [[Value]]?
  var changeset: Changeset?
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
  /// Creates an encoder.
  public init() {}

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
        changeset: update.changeset,
        insertedSections: update.sections.sorted { $0.key < $1.key }.map {
          .init(index: $0.key, elements: $0.value)
        },
        elements: update.elements.sorted { $0.key < $1.key }.map {
          .init(path: $0.key, value: $0.value)
        })
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var data = try encoder.encode(line)
    data.append(UInt8(ascii: "\n"))
    return data
  }
}
