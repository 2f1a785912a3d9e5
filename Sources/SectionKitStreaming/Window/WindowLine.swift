import Foundation
import SectionKit

/// A window's updates as JSON lines: one object per line, as the full stream's lines
/// (`Docs/Streaming.md`, "Windows on the wire", gives every field).
///
/// ```json
/// {"v":1,"type":"windowSnapshot","stream":"…","seq":7,"start":40,"length":3,"counts":[2,50],"firstSection":1,"rows":[["a","b","c"]]}
/// {"v":1,"type":"windowChangeset","seq":8,"start":41,"length":3,"changes":{},"counts":[[0,3]]}
/// {"v":1,"type":"windowMoved","seq":8,"start":44,"length":3,"changes":{"deletedElements":[[1,0]]},"elements":[[[1,2],"f"]]}
/// ```
///
/// A snapshot names the rows of the sections the window crosses only (`firstSection` and the
/// sections after it), so that a list of 10⁴ sections costs a window its counts, not 10⁴ empty
/// arrays. A changeset writes only its parts that are not empty.
public struct WindowLineEncoder<Value: Codable & Sendable>: Sendable {
  /// Creates an encoder.
  public init() {}

  /// `update` as one line, ending with a newline.
  ///
  /// - Throws: what encoding a value throws (`EncodingError`).
  public func encode(_ update: WindowUpdate<Value>) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var line = try encoder.encode(WindowLine(update))
    line.append(UInt8(ascii: "\n"))
    return line
  }
}

/// Reads a window's JSON lines one at a time, numbering them, and refuses what is not a window
/// update of this format with a ``StreamLineError`` naming the line.
public struct WindowLineDecoder<Value: Codable & Sendable>: Sendable {
  /// The number of lines read.
  public private(set) var lineNumber = 0
  /// The longest line accepted, in bytes.
  public let maximumLineLength: Int

  /// Creates a decoder that accepts lines of at most `maximumLineLength` bytes.
  public init(maximumLineLength: Int = 16 << 20) {
    self.maximumLineLength = maximumLineLength
  }

  /// Decodes one line (with or without its newline).
  ///
  /// - Throws: ``StreamLineError``: ``StreamLineError/Kind/tooLong``,
  ///   ``StreamLineError/Kind/unsupportedVersion``, or ``StreamLineError/Kind/malformed`` naming
  ///   the field.
  public mutating func decode(line: some DataProtocol) throws(StreamLineError) -> WindowUpdate<
    Value
  > {
    lineNumber += 1
    guard line.count <= maximumLineLength else {
      throw StreamLineError(
        line: lineNumber, kind: .tooLong,
        detail: "\(line.count) bytes, more than the \(maximumLineLength) accepted")
    }
    let decoded: WindowLine<Value>
    do {
      decoded = try JSONDecoder().decode(WindowLine<Value>.self, from: Data(line))
    } catch let error as StreamLineError {
      throw StreamLineError(line: lineNumber, kind: error.kind, detail: error.detail)
    } catch let error as DecodingError {
      throw StreamLineError(line: lineNumber, kind: .malformed, detail: describe(error))
    } catch {
      throw StreamLineError(line: lineNumber, kind: .malformed, detail: "\(error)")
    }
    return decoded.update
  }
}

/// One line, as it is encoded.
struct WindowLine<Value: Codable & Sendable>: Codable {
  var update: WindowUpdate<Value>

  init(_ update: WindowUpdate<Value>) { self.update = update }

  enum Kind: String, Codable {
    case windowSnapshot, windowChangeset, windowMoved
  }

  enum Key: String, CodingKey {
    case v, type, stream, seq, start, length, anchor, counts, firstSection, rows, changes
    case sections, elements, labels
  }

  /// The parts of a changeset that are not empty; index paths as `[section, item]`, ranges as
  /// `[lower, upper]`, section moves as `[from, to]`.
  struct Changes: Codable {
    var deletedSectionRanges: [[Int]]?
    var insertedSectionRanges: [[Int]]?
    var reloadedSectionRanges: [[Int]]?
    var movedSections: [[Int]]?
    var deletedElements: [[Int]]?
    var insertedElements: [[Int]]?
    var reloadedElements: [[Int]]?

    init(_ changeset: Changeset) {
      func ranges(_ ranges: [Range<Int>]) -> [[Int]]? {
        ranges.isEmpty ? nil : ranges.map { [$0.lowerBound, $0.upperBound] }
      }
      func paths(_ paths: [IndexPath]) -> [[Int]]? {
        paths.isEmpty ? nil : paths.map { Array($0) }
      }
      precondition(
        changeset.movedElements.isEmpty,
        "a window's changeset moves no element (a delete and an insert)")
      deletedSectionRanges = ranges(changeset.deletedSectionRanges)
      insertedSectionRanges = ranges(changeset.insertedSectionRanges)
      reloadedSectionRanges = ranges(changeset.reloadedSectionRanges)
      movedSections =
        changeset.movedSections.isEmpty ? nil : changeset.movedSections.map { [$0.from, $0.to] }
      deletedElements = paths(changeset.deletedElements)
      insertedElements = paths(changeset.insertedElements)
      reloadedElements = paths(changeset.reloadedElements)
    }

    /// The changeset, or an error naming the field that is not one.
    func changeset() throws(StreamLineError) -> Changeset {
      func malformed(_ field: String, _ reason: String) -> StreamLineError {
        StreamLineError(line: 0, kind: .malformed, detail: "changes.\(field): \(reason)")
      }
      func sections(_ ranges: [[Int]]?, _ field: String) throws(StreamLineError) -> IndexSet {
        var set = IndexSet()
        for range in ranges ?? [] {
          guard range.count == 2, range[0] >= 0, range[0] < range[1],
            range[1] <= Changeset.sectionLimit
          else { throw malformed(field, "\(range) is not a range [lower, upper] of sections") }
          set.insert(integersIn: range[0]..<range[1])
        }
        return set
      }
      func paths(_ paths: [[Int]]?, _ field: String) throws(StreamLineError) -> [IndexPath] {
        var result: [IndexPath] = []
        for path in paths ?? [] {
          guard path.count == 2, (0..<Changeset.sectionLimit).contains(path[0]),
            (0...Changeset.elementLimit).contains(path[1])
          else { throw malformed(field, "\(path) is not an index path [section, item]") }
          result.append(IndexPath(item: path[1], section: path[0]))
        }
        return result
      }
      var moves: [Changeset.SectionMove] = []
      for move in movedSections ?? [] {
        guard move.count == 2, move.allSatisfy({ (0..<Changeset.sectionLimit).contains($0) }) else {
          throw malformed("movedSections", "\(move) is not a move [from, to]")
        }
        moves.append(Changeset.SectionMove(from: move[0], to: move[1]))
      }
      let changeset = Changeset(
        deletedSections: try sections(deletedSectionRanges, "deletedSectionRanges"),
        insertedSections: try sections(insertedSectionRanges, "insertedSectionRanges"),
        reloadedSections: try sections(reloadedSectionRanges, "reloadedSectionRanges"),
        movedSections: moves,
        deletedElements: try paths(deletedElements, "deletedElements"),
        insertedElements: try paths(insertedElements, "insertedElements"),
        reloadedElements: try paths(reloadedElements, "reloadedElements"))
      if let violation = changeset.invariantViolation() {
        throw malformed(violation.fieldDescription, "\(violation.value) \(violation.reason)")
      }
      return changeset
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(1, forKey: .v)
    switch update {
    case .snapshot(let snapshot):
      try container.encode(Kind.windowSnapshot, forKey: .type)
      try container.encode(snapshot.stream, forKey: .stream)
      try container.encode(snapshot.sequence, forKey: .seq)
      try encode(snapshot.window, into: &container)
      try container.encode(snapshot.counts, forKey: .counts)
      let crossed = snapshot.rows.indices.filter { !snapshot.rows[$0].isEmpty }
      let first = crossed.first ?? 0
      try container.encode(first, forKey: .firstSection)
      try container.encode(
        crossed.isEmpty ? [] : Array(snapshot.rows[first...crossed.last!]), forKey: .rows)
      if !snapshot.labels.isEmpty { try container.encode(snapshot.labels, forKey: .labels) }
    case .changeset(let changeset), .moved(let changeset):
      let kind: Kind = if case .moved = update { .windowMoved } else { .windowChangeset }
      try container.encode(kind, forKey: .type)
      try container.encode(changeset.sequence, forKey: .seq)
      try encode(changeset.window, into: &container)
      try container.encode(Changes(changeset.changeset), forKey: .changes)
      if !changeset.sections.isEmpty {
        try container.encode(
          changeset.sections.sorted { $0.key < $1.key }.map {
            Pair(first: $0.key, second: $0.value)
          },
          forKey: .sections)
      }
      if !changeset.elements.isEmpty {
        try container.encode(
          changeset.elements.sorted { $0.key < $1.key }.map {
            Pair(first: Array($0.key), second: $0.value)
          },
          forKey: .elements)
      }
      if !changeset.counts.isEmpty {
        try container.encode(
          changeset.counts.sorted { $0.key < $1.key }.map { [$0.key, $0.value] }, forKey: .counts)
      }
      if !changeset.labels.isEmpty {
        try container.encode(
          changeset.labels.sorted { $0.key < $1.key }.map { Pair(first: $0.key, second: $0.value) },
          forKey: .labels)
      }
    }
  }

  private func encode(_ window: StreamWindow, into container: inout KeyedEncodingContainer<Key>)
    throws
  {
    try container.encode(window.start, forKey: .start)
    try container.encode(window.length, forKey: .length)
    try container.encodeIfPresent(window.anchor, forKey: .anchor)
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    let version = try container.decode(Int.self, forKey: .v)
    guard version == 1 else {
      throw StreamLineError(
        line: 0, kind: .unsupportedVersion, detail: "version \(version); this reader reads 1")
    }
    let kind = try container.decode(Kind.self, forKey: .type)
    let sequence = try container.decode(Int.self, forKey: .seq)
    guard (0...StreamLine.maximumSequence).contains(sequence) else {
      throw DecodingError.dataCorruptedError(
        forKey: .seq, in: container, debugDescription: "\(sequence) is out of range")
    }
    let start = try container.decode(Int.self, forKey: .start)
    let length = try container.decode(Int.self, forKey: .length)
    let anchor = try container.decodeIfPresent(Int.self, forKey: .anchor)
    guard start >= 0, length >= 0, anchor.map({ (0..<length).contains($0) }) ?? true else {
      throw DecodingError.dataCorruptedError(
        forKey: .start, in: container,
        debugDescription: "window start \(start), length \(length), anchor "
          + "\(anchor.map(String.init) ?? "none") do not make a window")
    }
    let window = StreamWindow(start: start, length: length, anchor: anchor)
    switch kind {
    case .windowSnapshot:
      let counts = try container.decode([Int].self, forKey: .counts)
      let first = try container.decode(Int.self, forKey: .firstSection)
      let crossed = try container.decode([[Value]].self, forKey: .rows)
      guard counts.allSatisfy({ $0 >= 0 }), first >= 0,
        crossed.isEmpty || first + crossed.count <= counts.count
      else {
        throw DecodingError.dataCorruptedError(
          forKey: .rows, in: container,
          debugDescription: "\(crossed.count) sections from \(first) do not fit "
            + "\(counts.count) sections, or a count is negative")
      }
      var rows = [[Value]](repeating: [], count: counts.count)
      for (offset, section) in crossed.enumerated() { rows[first + offset] = section }
      let labels = try container.decodeIfPresent([StreamSectionLabel].self, forKey: .labels) ?? []
      guard labels.isEmpty || labels.count == counts.count else {
        throw DecodingError.dataCorruptedError(
          forKey: .labels, in: container,
          debugDescription: "\(labels.count) labels for \(counts.count) sections (one each)")
      }
      update = .snapshot(
        WindowSnapshot(
          stream: try container.decode(String.self, forKey: .stream), sequence: sequence,
          window: window, counts: counts, rows: rows, labels: labels))
    case .windowChangeset, .windowMoved:
      let changes = try container.decode(Changes.self, forKey: .changes).changeset()
      let sections = try container.decodeIfPresent([Pair<Int, [Value]>].self, forKey: .sections)
      let elements = try container.decodeIfPresent(
        [Pair<[Int], Value>].self, forKey: .elements)
      let counts = try container.decodeIfPresent([[Int]].self, forKey: .counts) ?? []
      let labels =
        try container.decodeIfPresent([Pair<Int, StreamSectionLabel>].self, forKey: .labels) ?? []
      guard labels.allSatisfy({ $0.first >= 0 }) else {
        throw DecodingError.dataCorruptedError(
          forKey: .labels, in: container, debugDescription: "a section index is negative")
      }
      guard counts.allSatisfy({ $0.count == 2 }) else {
        throw DecodingError.dataCorruptedError(
          forKey: .counts, in: container, debugDescription: "an entry is not [section, count]")
      }
      func unique<K: Hashable, E>(_ pairs: [(K, E)], _ field: Key) throws -> [K: E] {
        var dictionary: [K: E] = [:]
        for (key, entry) in pairs {
          guard dictionary.updateValue(entry, forKey: key) == nil else {
            throw DecodingError.dataCorruptedError(
              forKey: field, in: container, debugDescription: "\(key) is given twice")
          }
        }
        return dictionary
      }
      func elementPaths(_ pairs: [Pair<[Int], Value>]) throws -> [(IndexPath, Value)] {
        try pairs.map { pair in
          guard pair.first.count == 2, pair.first.allSatisfy({ $0 >= 0 }) else {
            throw DecodingError.dataCorruptedError(
              forKey: .elements, in: container,
              debugDescription: "\(pair.first) is not an index path [section, item]")
          }
          return (IndexPath(item: pair.first[1], section: pair.first[0]), pair.second)
        }
      }
      let clipped = WindowChangeset(
        sequence: sequence, window: window, changeset: changes,
        sections: try unique((sections ?? []).map { ($0.first, $0.second) }, .sections),
        elements: try unique(try elementPaths(elements ?? []), .elements),
        counts: try unique(counts.map { ($0[0], $0[1]) }, .counts),
        labels: try unique(labels.map { ($0.first, $0.second) }, .labels))
      update = kind == .windowMoved ? .moved(clipped) : .changeset(clipped)
    }
  }
}

/// Two values written as a JSON array of two.
struct Pair<First: Codable, Second: Codable>: Codable {
  var first: First
  var second: Second

  init(first: First, second: Second) {
    self.first = first
    self.second = second
  }

  init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    first = try container.decode(First.self)
    second = try container.decode(Second.self)
    guard container.isAtEnd else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "a pair has more than two entries")
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    try container.encode(first)
    try container.encode(second)
  }
}
