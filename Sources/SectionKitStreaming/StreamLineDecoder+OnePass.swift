import Foundation
import SectionKit

/// The fields of the format's own objects, each an enumeration whose cases are named as the keys
/// are written (``WireKey``).
enum WireField {
  enum Line: Int, WireKey {
    case v, type, seq, stream, sections, changeset, newSections, newElements, digest, labels
    static let keys = WireKeys(Self.self)
  }
  enum Changeset: Int, WireKey {
    case deletedSectionRanges, insertedSectionRanges, reloadedSectionRanges, movedSections
    case deletedElements, insertedElements, reloadedElements, movedElements
    static let keys = WireKeys(Self.self)
  }
  enum Move: Int, WireKey {
    case from, to
    static let keys = WireKeys(Self.self)
  }
  enum SectionElements: Int, WireKey {
    case index, elements, id, header
    static let keys = WireKeys(Self.self)
  }
  enum Label: Int, WireKey {
    case id, header
    static let keys = WireKeys(Self.self)
  }
  enum Element: Int, WireKey {
    case path, value
    static let keys = WireKeys(Self.self)
  }
}

extension StreamLineDecoder {
  /// The update on one line, read in one pass over its bytes: the same checks, in the same
  /// order, as ``parseReference(_:line:)`` (the `JSONDecoder` path kept as the reference).
  @_specialize(where Value == String)
  static func parseFast(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) throws(StreamLineError)
    -> StreamUpdate<Value>
  {
    func fail(_ kind: StreamLineError.Kind, _ detail: String) -> StreamLineError {
      StreamLineError(line: line, kind: kind, detail: detail)
    }
    var reader = LineReader<Value>(bytes)
    let fields: LineFields<Value>
    do {
      fields = try reader.read()
    } catch {
      throw fail(.malformed, error.text)
    }
    if let problem = reader.shape {
      // Valid JSON the format refuses: its version first (a line of another version may have
      // other fields).
      if let version = Self.firstVersion(bytes), !(1...StreamLine.newestVersion).contains(version) {
        throw fail(.unsupportedVersion, "version \(version); \(Self.versionsRead)")
      }
      throw fail(.malformed, problem)
    }
    guard let v = fields.v, let type = fields.type, let seq = fields.seq else {
      throw fail(.malformed, "missing field v, type or seq")
    }
    guard (1...StreamLine.newestVersion).contains(v) else {
      throw fail(.unsupportedVersion, "version \(v); \(Self.versionsRead)")
    }
    if v == 1, fields.digest != nil {
      throw fail(.malformed, "digest: no such field in version 1")
    }
    if v < StreamSectionLabel.wireVersion, let field = fields.labelField {
      throw fail(.malformed, "\(field): no such field in version \(v)")
    }
    // The digest's hash is the one of the line's version.
    let digest = fields.digest.map {
      StreamDigest(sections: $0.sections, kind: v == 2 ? .sequential : .pairs)
    }
    // The values read through their `Codable` conformance: one call for the line.
    var decoded: [Value] = []
    if reader.raws > 0 {
      var joined: [UInt8] = [UInt8(ascii: "[")]
      joined.reserveCapacity(bytes.count)
      func add(_ value: ReadValue<Value>) {
        guard case .raw(let range) = value else { return }
        if joined.count > 1 { joined.append(UInt8(ascii: ",")) }
        joined.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
      }
      for section in fields.sections ?? [] { section.forEach(add) }
      for entry in fields.newSections ?? [] { entry.elements.forEach(add) }
      for range in fields.newElements?.raws ?? [] { add(.raw(range)) }
      joined.append(UInt8(ascii: "]"))
      do {
        decoded = try JSONDecoder().decode([Value].self, from: Data(joined))
      } catch {
        throw fail(.malformed, "a value: \(describe(error))")
      }
    }
    var next = 0
    func resolve(_ value: ReadValue<Value>) -> Value {
      switch value {
      case .value(let value): return value
      case .raw:
        next += 1
        return decoded[next - 1]
      }
    }
    guard (0...StreamLine.maximumSequence).contains(seq) else {
      throw fail(.outOfRange, "seq \(seq) is out of range 0...\(StreamLine.maximumSequence)")
    }
    switch type {
    case "snapshot":
      guard let stream = fields.stream, !stream.isEmpty, stream.utf8.count <= 256 else {
        throw fail(.malformed, "a snapshot needs field stream, 1 to 256 bytes")
      }
      guard let sections = fields.sections.map({ $0.map { $0.map(resolve) } }) else {
        throw fail(.malformed, "a snapshot needs field sections")
      }
      guard fields.changeset == nil, fields.newSections == nil, fields.newElements == nil,
        fields.digest == nil
      else {
        throw fail(.malformed, "a snapshot has no changeset, newSections, newElements or digest")
      }
      let labels = fields.labels ?? []
      guard labels.isEmpty || labels.count == sections.count else {
        throw fail(
          .malformed, "labels: \(labels.count) labels for \(sections.count) sections (one each)")
      }
      return .snapshot(
        StreamSnapshot(stream: stream, sequence: seq, sections: sections, labels: labels))
    case "changeset":
      guard let changeset = fields.changeset else {
        throw fail(.malformed, "a changeset line needs field changeset")
      }
      // Unless the reader found that it keeps them (the common changeset of element changes).
      if !fields.changesetChecked, let violation = changeset.invariantViolation() {
        throw fail(
          .malformed,
          "changeset.\(violation.fieldDescription) = \(violation.value) \(violation.reason)")
      }
      guard fields.sections == nil, fields.stream == nil, fields.labels == nil else {
        throw fail(
          .malformed, "a changeset line has no sections, stream or labels (a snapshot's fields)")
      }
      // The values resolved in the order they were joined: the sections' (none here), the new
      // sections', the new elements'.
      var sections: [Int: [Value]] = [:]
      var labels: [Int: StreamSectionLabel] = [:]
      var previousIndex = -1
      for (position, entry) in (fields.newSections ?? []).enumerated() {
        guard entry.index > previousIndex else {
          throw fail(
            .malformed,
            "newSections[\(position)]: index \(entry.index) is negative, repeated or not "
              + "ascending")
        }
        previousIndex = entry.index
        sections[entry.index] = entry.elements.map(resolve)
        if !entry.label.isEmpty { labels[entry.index] = entry.label }
      }
      // The new values stay in the order read, which the checks below make the order of their
      // paths: no dictionary is built.
      let elements = fields.newElements ?? ReadElements()
      if !elements.ascending {
        // The previous path as a pair: compared without `IndexPath`'s generic comparison.
        var previous = (-1, -1)
        for (position, indexPath) in elements.paths.enumerated() {
          guard indexPath.count == 2, indexPath[0] >= 0, indexPath[1] >= 0 else {
            throw fail(
              .outOfRange,
              "newElements[\(position)]: path \(Array(indexPath)) is not [section, element] "
                + "with both 0 or more")
          }
          let pair = (indexPath[0], indexPath[1])
          guard previous < pair else {
            throw fail(
              .malformed,
              "newElements[\(position)]: path \(Array(indexPath)) is repeated or not ascending")
          }
          previous = pair
        }
      }
      // The values read as bytes are the last of those decoded (joined after the sections').
      let values =
        elements.raws.isEmpty ? elements.values : Array(decoded[next...])
      return .changeset(
        StreamChangeset(
          sequence: seq, changeset: changeset, sections: sections, paths: elements.paths,
          values: values, digest: digest, labels: labels))
    default:
      throw fail(.malformed, "type \"\(type)\" is neither snapshot nor changeset")
    }
  }

  /// What the version errors say.
  static var versionsRead: String { "this reader reads versions 1 to \(StreamLine.newestVersion)" }

  /// The value of the first `v` of a line that is a JSON object, when it is an integer.
  static func firstVersion(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var reader = JSONReader(bytes)
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { reader.index = 3 }
    guard (try? reader.expect(UInt8(ascii: "{"))) != nil else { return nil }
    if reader.consume(UInt8(ascii: "}")) { return nil }
    repeat {
      guard let key = try? reader.readString(), (try? reader.expect(UInt8(ascii: ":"))) != nil
      else { return nil }
      if key == "v" {
        guard case .success(let value)? = try? reader.readInteger() else { return nil }
        return value
      }
      // `try?` on an optional result flattens a success with no problem into `nil` too.
      do { try reader.skipValue() } catch { return nil }
    } while (try? reader.next(close: UInt8(ascii: "}"))) == true
    return nil
  }
}
