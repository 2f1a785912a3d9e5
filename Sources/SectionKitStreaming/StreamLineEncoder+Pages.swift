import Foundation
import SectionKit

/// The page lines of a snapshot too long for one line (`Docs/Streaming.md`, "Large snapshots in
/// pages", gives every field).
///
/// ```text
/// {"first":[0,0],"page":0,"pages":2,"sections":[["a","b"]],"seq":7,"stream":"5A0E…","type":"snapshotPage","v":5}
/// {"first":[0,2],"page":1,"pages":2,"sections":[["c"],[]],"seq":7,"stream":"5A0E…","type":"snapshotPage","v":5}
/// ```
///
/// A labelled snapshot's pages each carry `labels`: one label per section that starts on the
/// page (not the section a page goes on with), so that the pages' labels, one after the other,
/// are the snapshot's.
enum SnapshotPage {
  /// The format version of a page line: version 5 adds the page line.
  static let version = 5
  /// The line's `type`.
  static let type = "snapshotPage"
  /// The bytes a page line starts with when this library writes it (sorted keys).
  static let prefix: [UInt8] = Array(#"{"first":"#.utf8)
  /// The shortest page limit an encoder accepts: the envelope with 20-digit numbers and a
  /// 256-byte stream identifier, written with escapes, plus room for values.
  static let minimumLineLength = 2_048
  /// The fixed text of a page's envelope: all of it but its five integers and its stream.
  static let envelope =
    #"{"first":[,],"page":,"pages":,"sections":[],"seq":,"stream":,"type":"snapshotPage","v":5}"#
    .utf8.count
  /// The fixed text a labelled snapshot adds to each page's envelope.
  static let labelsEnvelope = #""labels":[],"#.utf8.count

  /// The number of decimal digits of `value` (0 or more).
  static func digits(_ value: Int) -> Int {
    var count = 1
    var rest = value
    while rest >= 10 {
      rest /= 10
      count += 1
    }
    return count
  }
}

extension StreamLineEncoder {
  /// The line for `update`, or, for a snapshot whose line is longer than
  /// ``maximumLineLength``, its page lines one after the other.
  func lines(_ update: StreamUpdate<Value>) throws -> [UInt8] {
    let line = try bytes(update)
    guard case .snapshot(let snapshot) = update, line.count - 1 > maximumLineLength else {
      return line
    }
    return Array(try pages(of: snapshot, line: line).joined())
  }

  /// The lines of `update` one by one: one line, or the pages of a long snapshot, each ending with
  /// a newline and at most ``maximumLineLength`` bytes before it. For transports that frame each
  /// line (a server-sent event, a WebSocket message).
  ///
  /// - Throws: what encoding a value throws (`EncodingError`), or `EncodingError.invalidValue`
  ///   for a snapshot element that does not fit a page on its own.
  /// - Complexity: O(n) for the n values and changes of the update.
  public func encodeLines(_ update: StreamUpdate<Value>) throws -> [Data] {
    let line = try bytes(update)
    guard case .snapshot(let snapshot) = update, line.count - 1 > maximumLineLength else {
      return [Data(line)]
    }
    return try pages(of: snapshot, line: line).map { Data($0) }
  }

  /// The error for an element too long for a page of its own.
  private static func tooLong(
    _ snapshot: StreamSnapshot<Value>, _ section: Int, _ item: Int, _ length: Int, _ limit: Int
  ) -> EncodingError {
    EncodingError.invalidValue(
      snapshot.sections[section][item],
      EncodingError.Context(
        codingPath: [],
        debugDescription:
          "StreamLineEncoder: the element [\(section), \(item)] takes \(length) bytes, more "
          + "than a page of \(limit) bytes holds"))
  }

  /// The error for a section's label too long for a page of its own.
  private static func labelTooLong(
    _ snapshot: StreamSnapshot<Value>, _ section: Int, _ length: Int, _ limit: Int
  ) -> EncodingError {
    EncodingError.invalidValue(
      snapshot.labels[section],
      EncodingError.Context(
        codingPath: [],
        debugDescription:
          "StreamLineEncoder: the label of section \(section) takes \(length) bytes, more than "
          + "a page of \(limit) bytes holds"))
  }

  /// Splits the snapshot line `line` (as ``bytes(_:)`` wrote it: `{"sections":[…],…`, or
  /// `{"labels":[…],"sections":[…],…` for a labelled snapshot) into page lines of at most
  /// ``maximumLineLength`` bytes each before the newline. The values' and the labels' bytes are
  /// copied from the line, so that every value is encoded once and exactly as on one line.
  private func pages(of snapshot: StreamSnapshot<Value>, line: [UInt8]) throws -> [[UInt8]] {
    var stream: [UInt8] = []
    JSONWriter.append(snapshot.stream, to: &stream)
    let labelled = !snapshot.labels.isEmpty
    // The envelope at its longest: a page's number and the number of pages are less than the
    // line's bytes, `first` within the sections and their counts.
    let envelope =
      SnapshotPage.envelope + stream.count + SnapshotPage.digits(snapshot.sequence)
      + SnapshotPage.digits(snapshot.sections.count)
      + SnapshotPage.digits(snapshot.sections.map(\.count).max() ?? 0)
      + 2 * SnapshotPage.digits(line.count) + (labelled ? SnapshotPage.labelsEnvelope : 0)
    let budget = maximumLineLength - envelope
    // Each page's first element, the bytes between `"sections":[` and its `]`, and those between
    // `"labels":[` and its `]`: the labels of the sections that start on the page.
    var bodies: [(section: Int, item: Int, body: [UInt8], labels: [UInt8])] = []
    try line.withUnsafeBufferPointer { buffer in
      var reader = JSONReader(buffer)
      reader.index = 1
      // Each label's bytes in the line, in order.
      var labels: [Range<Int>] = []
      if labelled {
        _ = try reader.readString()  // "labels"
        try reader.expect(UInt8(ascii: ":"))
        try reader.expect(UInt8(ascii: "["))
        if !reader.consume(UInt8(ascii: "]")) {
          repeat {
            reader.skipWhitespace()
            let start = reader.index
            try reader.skipValue()
            labels.append(start..<reader.index)
          } while try reader.next(close: UInt8(ascii: "]"))
        }
        try reader.expect(UInt8(ascii: ","))
      }
      _ = try reader.readString()  // "sections"
      try reader.expect(UInt8(ascii: ":"))
      var body: [UInt8] = []
      var pageLabels: [UInt8] = []
      var first = (section: 0, item: 0)
      /// The bytes of the page being written, but its envelope.
      func used() -> Int { body.count + pageLabels.count }
      /// Ends the page being written; the next one starts at `section`, `item`.
      func flush(section: Int, item: Int, open: Bool) {
        if open { body.append(UInt8(ascii: "]")) }
        bodies.append((first.section, first.item, body, pageLabels))
        body = []
        pageLabels = []
        first = (section, item)
        if open { body.append(UInt8(ascii: "[")) }
      }
      try reader.expect(UInt8(ascii: "["))
      guard !reader.consume(UInt8(ascii: "]")) else { return }
      var section = 0
      repeat {
        // A new segment: a comma unless the page is empty, its brackets, and its label with a
        // comma unless it is the page's first.
        let label = labelled ? UnsafeBufferPointer(rebasing: buffer[labels[section]]) : nil
        func segment() -> Int {
          (body.isEmpty ? 0 : 1) + 2
            + (label.map { $0.count + (pageLabels.isEmpty ? 0 : 1) } ?? 0)
        }
        if used() + segment() > budget {
          flush(section: section, item: 0, open: false)
          guard used() + segment() <= budget else {
            throw Self.labelTooLong(snapshot, section, label?.count ?? 0, maximumLineLength)
          }
        }
        if let label {
          if !pageLabels.isEmpty { pageLabels.append(UInt8(ascii: ",")) }
          pageLabels.append(contentsOf: label)
        }
        if !body.isEmpty { body.append(UInt8(ascii: ",")) }
        body.append(UInt8(ascii: "["))
        try reader.expect(UInt8(ascii: "["))
        if !reader.consume(UInt8(ascii: "]")) {
          var item = 0
          repeat {
            reader.skipWhitespace()
            let start = reader.index
            try reader.skipValue()
            let value = UnsafeBufferPointer(rebasing: buffer[start..<reader.index])
            let segmentStarted = body.last != UInt8(ascii: "[")
            // The value, its comma, and the segment's closing bracket.
            if used() + (segmentStarted ? 1 : 0) + value.count + 1 > budget {
              flush(section: section, item: item, open: true)
              guard used() + value.count + 1 <= budget else {
                throw Self.tooLong(snapshot, section, item, value.count, maximumLineLength)
              }
            } else if segmentStarted {
              body.append(UInt8(ascii: ","))
            }
            body.append(contentsOf: value)
            item += 1
          } while try reader.next(close: UInt8(ascii: "]"))
        }
        body.append(UInt8(ascii: "]"))
        section += 1
      } while try reader.next(close: UInt8(ascii: "]"))
      flush(section: section, item: 0, open: false)
    }
    return bodies.enumerated().map { page, entry in
      var out: [UInt8] = []
      out.reserveCapacity(entry.body.count + entry.labels.count + envelope + 1)
      JSONWriter.appendRaw(#"{"first":["#, to: &out)
      JSONWriter.append(entry.section, to: &out)
      out.append(UInt8(ascii: ","))
      JSONWriter.append(entry.item, to: &out)
      if labelled {
        JSONWriter.appendRaw(#"],"labels":["#, to: &out)
        out.append(contentsOf: entry.labels)
      }
      JSONWriter.appendRaw(#"],"page":"#, to: &out)
      JSONWriter.append(page, to: &out)
      JSONWriter.appendRaw(#","pages":"#, to: &out)
      JSONWriter.append(bodies.count, to: &out)
      JSONWriter.appendRaw(#","sections":["#, to: &out)
      out.append(contentsOf: entry.body)
      JSONWriter.appendRaw(#"],"seq":"#, to: &out)
      JSONWriter.append(snapshot.sequence, to: &out)
      JSONWriter.appendRaw(#","stream":"#, to: &out)
      out.append(contentsOf: stream)
      JSONWriter.appendRaw(#","type":"snapshotPage","v":5}"#, to: &out)
      out.append(UInt8(ascii: "\n"))
      return out
    }
  }
}
