import Foundation
import SectionKit

/// How the codec writes and reads the values of a stream: strings and integers directly,
/// anything else through its `Codable` conformance (one `JSONEncoder` or `JSONDecoder` call per
/// line for all the values of the line).
enum ValueCoding {
  case string
  case integer
  case codable

  static func of<Value>(_ type: Value.Type) -> ValueCoding {
    if type == String.self { return .string }
    if type == Int.self { return .integer }
    return .codable
  }
}

// MARK: - Writing (the reading is in StreamLineReader.swift)

extension StreamLineEncoder {
  /// The line for `update`, written byte by byte; the same bytes as ``referenceBytes(_:)`` for a
  /// line of version 1.
  @_specialize(where Value == String)
  func bytes(_ update: StreamUpdate<Value>) throws -> [UInt8] {
    var out: [UInt8] = []
    switch update {
    case .snapshot(let snapshot):
      out.reserveCapacity(64 + snapshot.sections.count * 16)
      precondition(
        snapshot.labels.isEmpty || snapshot.labels.count == snapshot.sections.count,
        "StreamLineEncoder.encode(_:): \(snapshot.labels.count) labels for "
          + "\(snapshot.sections.count) sections (give one per section, or none)")
      out.append(UInt8(ascii: "{"))
      if !snapshot.labels.isEmpty {
        StreamSectionLabel.appendSnapshotField(snapshot.labels, to: &out)
      }
      JSONWriter.appendRaw(#""sections":"#, to: &out)
      try appendSections(snapshot.sections, to: &out)
      JSONWriter.appendRaw(#","seq":"#, to: &out)
      JSONWriter.append(snapshot.sequence, to: &out)
      JSONWriter.appendRaw(#","stream":"#, to: &out)
      JSONWriter.append(snapshot.stream, to: &out)
      JSONWriter.appendRaw(#","type":"snapshot","v":"#, to: &out)
      JSONWriter.append(snapshot.labels.isEmpty ? 1 : StreamSectionLabel.wireVersion, to: &out)
      out.append(UInt8(ascii: "}"))
    case .changeset(let update):
      let changeset = update.changeset
      out.reserveCapacity(estimatedLength(of: update))
      JSONWriter.appendRaw(#"{"changeset":{"deletedElements":"#, to: &out)
      appendPaths(changeset.deletedElements, to: &out)
      JSONWriter.appendRaw(#","deletedSectionRanges":"#, to: &out)
      appendRanges(changeset.deletedSectionRanges, to: &out)
      JSONWriter.appendRaw(#","insertedElements":"#, to: &out)
      appendPaths(changeset.insertedElements, to: &out)
      JSONWriter.appendRaw(#","insertedSectionRanges":"#, to: &out)
      appendRanges(changeset.insertedSectionRanges, to: &out)
      JSONWriter.appendRaw(#","movedElements":["#, to: &out)
      for (position, move) in changeset.movedElements.enumerated() {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        JSONWriter.appendRaw(#"{"from":"#, to: &out)
        appendPath(move.from, to: &out)
        JSONWriter.appendRaw(#","to":"#, to: &out)
        appendPath(move.to, to: &out)
        out.append(UInt8(ascii: "}"))
      }
      JSONWriter.appendRaw(#"],"movedSections":["#, to: &out)
      for (position, move) in changeset.movedSections.enumerated() {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        JSONWriter.appendRaw(#"{"from":"#, to: &out)
        JSONWriter.append(move.from, to: &out)
        JSONWriter.appendRaw(#","to":"#, to: &out)
        JSONWriter.append(move.to, to: &out)
        out.append(UInt8(ascii: "}"))
      }
      JSONWriter.appendRaw(#"],"reloadedElements":"#, to: &out)
      appendPaths(changeset.reloadedElements, to: &out)
      JSONWriter.appendRaw(#","reloadedSectionRanges":"#, to: &out)
      appendRanges(changeset.reloadedSectionRanges, to: &out)
      out.append(UInt8(ascii: "}"))
      if let digest = update.digest {
        JSONWriter.appendRaw(#","digest":["#, to: &out)
        for (position, section) in digest.sections.enumerated() {
          if position > 0 { out.append(UInt8(ascii: ",")) }
          out.append(UInt8(ascii: "["))
          JSONWriter.append(section.count, to: &out)
          out.append(UInt8(ascii: ","))
          StreamDigest.appendHex(section.hash, to: &out)
          out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "]"))
      }
      // The new values are held in the order of their paths (``StreamChangeset/elements``).
      let sections = update.sections.sorted { $0.key < $1.key }
      JSONWriter.appendRaw(#","newElements":["#, to: &out)
      let values = try encodedValues(coding == .codable ? update.elementValues : [])
      for (position, (path, value)) in zip(update.elementPaths, update.elementValues).enumerated() {
        precondition(
          path.count == 2,
          "StreamLineEncoder.encode(_:): the path \(Array(path)) of a new element is not "
            + "[section, element]")
        if position > 0 { out.append(UInt8(ascii: ",")) }
        JSONWriter.appendRaw(#"{"path":["#, to: &out)
        JSONWriter.append(path[0], to: &out)
        out.append(UInt8(ascii: ","))
        JSONWriter.append(path[1], to: &out)
        out.append(UInt8(ascii: "]"))
        JSONWriter.appendRaw(#","value":"#, to: &out)
        values.append(position, value, to: &out)
        out.append(UInt8(ascii: "}"))
      }
      JSONWriter.appendRaw(#"],"newSections":["#, to: &out)
      for (position, section) in sections.enumerated() {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        JSONWriter.appendRaw(#"{"elements":"#, to: &out)
        try appendSections([section.value], to: &out, unwrapped: true)
        update.labels[section.key]?.appendFields(to: &out)
        JSONWriter.appendRaw(#","index":"#, to: &out)
        JSONWriter.append(section.key, to: &out)
        out.append(UInt8(ascii: "}"))
      }
      JSONWriter.appendRaw(#"],"seq":"#, to: &out)
      JSONWriter.append(update.sequence, to: &out)
      JSONWriter.appendRaw(#","type":"changeset","v":"#, to: &out)
      JSONWriter.append(version(of: update), to: &out)
      out.append(UInt8(ascii: "}"))
    }
    out.append(UInt8(ascii: "\n"))
    return out
  }

  /// About the length of a changeset's line, to reserve it at once: the envelope, about 16 bytes
  /// a path, 40 a new element and its value (a string's own length besides), 24 a digest's
  /// section.
  private func estimatedLength(of update: StreamChangeset<Value>) -> Int {
    let changeset = update.changeset
    var length =
      320
      + 16
      * (changeset.deletedElements.count + changeset.insertedElements.count
        + changeset.reloadedElements.count + 2 * changeset.movedElements.count)
      + 40 * update.elementValues.count + 24 * (update.digest?.sections.count ?? 0)
    if coding == .string {
      for value in update.elementValues { length += (value as! String).utf8.count }
    }
    return length
  }

  /// The version of a changeset's line: 4 with labels (``StreamSectionLabel/wireVersion``), 3
  /// with a digest of kind ``StreamDigest/Kind/pairs``, 2 with one of kind
  /// ``StreamDigest/Kind/sequential``, 1 otherwise.
  private func version(of update: StreamChangeset<Value>) -> Int {
    guard update.labels.values.contains(where: { !$0.isEmpty }) else {
      return update.digest.map { $0.kind == .sequential ? 2 : 3 } ?? 1
    }
    precondition(
      update.digest?.kind != .sequential,
      "StreamLineEncoder.encode(_:): changeset \(update.sequence) has labels and a digest of "
        + "kind sequential, which a line of version \(StreamSectionLabel.wireVersion) cannot carry")
    for index in update.labels.keys {
      precondition(
        update.sections[index] != nil,
        "StreamLineEncoder.encode(_:): changeset \(update.sequence) has a label for section "
          + "\(index), which it does not send (sections: \(update.sections.keys.sorted()))")
    }
    return StreamSectionLabel.wireVersion
  }

  /// `[[…],[…]]`, or with `unwrapped` the one section's `[…]`.
  private func appendSections(_ sections: [[Value]], to out: inout [UInt8], unwrapped: Bool = false)
    throws
  {
    switch coding {
    case .string, .integer:
      if !unwrapped { out.append(UInt8(ascii: "[")) }
      for (index, section) in sections.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        out.append(UInt8(ascii: "["))
        for (position, value) in section.enumerated() {
          if position > 0 { out.append(UInt8(ascii: ",")) }
          appendDirect(value, to: &out)
        }
        out.append(UInt8(ascii: "]"))
      }
      if !unwrapped { out.append(UInt8(ascii: "]")) }
    case .codable:
      if unwrapped {
        out.append(contentsOf: try encoder.encode(sections[0]))
      } else {
        out.append(contentsOf: try encoder.encode(sections))
      }
    }
  }

  @inline(__always)
  private func appendDirect(_ value: Value, to out: inout [UInt8]) {
    switch coding {
    case .string: JSONWriter.append(value as! String, to: &out)
    case .integer: JSONWriter.append(value as! Int, to: &out)
    case .codable: preconditionFailure("not a direct value")
    }
  }

  /// The values of a line's `newElements`: written directly, or encoded in one call.
  struct EncodedValues {
    let coding: ValueCoding
    var bytes: [UInt8] = []
    var ranges: [Range<Int>] = []

    func append(_ position: Int, _ value: Value, to out: inout [UInt8]) {
      switch coding {
      case .string: JSONWriter.append(value as! String, to: &out)
      case .integer: JSONWriter.append(value as! Int, to: &out)
      case .codable: out.append(contentsOf: bytes[ranges[position]])
      }
    }
  }

  private func encodedValues(_ values: [Value]) throws -> EncodedValues {
    var result = EncodedValues(coding: coding)
    guard coding == .codable, !values.isEmpty else { return result }
    result.bytes = [UInt8](try encoder.encode(values))
    result.ranges = result.bytes.withUnsafeBufferPointer { buffer in
      var reader = JSONReader(buffer)
      var ranges: [Range<Int>] = []
      ranges.reserveCapacity(values.count)
      // `JSONEncoder`'s own output: it reads.
      try? reader.expect(UInt8(ascii: "["))
      repeat {
        reader.skipWhitespace()
        let start = reader.index
        _ = try? reader.skipValue()
        ranges.append(start..<reader.index)
      } while (try? reader.next(close: UInt8(ascii: "]"))) == true
      return ranges
    }
    precondition(result.ranges.count == values.count, "JSONEncoder wrote an unexpected array")
    return result
  }

  private func appendPath(_ path: IndexPath, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "["))
    if path.count == 2 {  // the usual shape, without iterating an `IndexPath`
      JSONWriter.append(path[0], to: &out)
      out.append(UInt8(ascii: ","))
      JSONWriter.append(path[1], to: &out)
      out.append(UInt8(ascii: "]"))
      return
    }
    for (position, index) in path.enumerated() {
      if position > 0 { out.append(UInt8(ascii: ",")) }
      JSONWriter.append(index, to: &out)
    }
    out.append(UInt8(ascii: "]"))
  }

  private func appendPaths(_ paths: [IndexPath], to out: inout [UInt8]) {
    out.append(UInt8(ascii: "["))
    for (position, path) in paths.enumerated() {
      if position > 0 { out.append(UInt8(ascii: ",")) }
      appendPath(path, to: &out)
    }
    out.append(UInt8(ascii: "]"))
  }

  private func appendRanges(_ ranges: [Range<Int>], to out: inout [UInt8]) {
    out.append(UInt8(ascii: "["))
    for (position, range) in ranges.enumerated() {
      if position > 0 { out.append(UInt8(ascii: ",")) }
      out.append(UInt8(ascii: "["))
      JSONWriter.append(range.lowerBound, to: &out)
      out.append(UInt8(ascii: ","))
      JSONWriter.append(range.upperBound, to: &out)
      out.append(UInt8(ascii: "]"))
    }
    out.append(UInt8(ascii: "]"))
  }
}
