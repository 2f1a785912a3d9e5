import Foundation
import SectionKit

/// A snapshot being received in pages (``SnapshotPage``): what the pages so far hold.
struct PageAssembly<Value: Sendable>: Sendable {
  var stream: String
  var sequence: Int
  var pages: Int
  /// The number of the page expected next.
  var next: Int
  /// The sections received so far; the last one may go on in the next page.
  var sections: [[Value]]
  /// Whether the pages carry labels (page 0 says): then every page does.
  var labelled: Bool
  /// The labels received so far, one per section that started.
  var labels: [StreamSectionLabel] = []
}

/// The envelope of a page line, as read: every field but the values.
struct PageEnvelope {
  var v: Int?
  var type: String?
  var seq: Int?
  var stream: String?
  var page: Int?
  var pages: Int?
  var first: [Int]?
  /// Where the `sections` array is in the line.
  var sections: Range<Int>?
  /// Where the `labels` array is in the line, when there is one.
  var labels: Range<Int>?
}

extension StreamLineDecoder {
  /// Whether `bytes` is a page line as this library writes it (its first key is `first`).
  static func startsAsPage(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    bytes.count > SnapshotPage.prefix.count
      && zip(bytes, SnapshotPage.prefix).allSatisfy { $0 == $1 }
  }

  /// Whether the object on `bytes` has the `type` of a page line (its keys in any order).
  static func isPage(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var reader = JSONReader(bytes)
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { reader.index = 3 }
    guard (try? reader.expect(UInt8(ascii: "{"))) != nil, !reader.consume(UInt8(ascii: "}"))
    else { return false }
    repeat {
      guard let key = try? reader.readString(), (try? reader.expect(UInt8(ascii: ":"))) != nil
      else { return false }
      if key == "type" {
        return reader.peek() == UInt8(ascii: "\"")
          && (try? reader.readString()) == SnapshotPage.type
      }
      // (`try?` of `skipValue()`, which returns an optional, would be `nil` for a good value.)
      do { try reader.skipValue() } catch { return false }
    } while (try? reader.next(close: UInt8(ascii: "}"))) == true
    return false
  }

  /// Reads the page line `bytes` (line number ``lineNumber``): the snapshot once its last page
  /// came, `nil` before. A page that does not follow the pages before it — a page missing, repeated
  /// or of another update — is refused, and the pages so far are dropped: the snapshot cannot be
  /// completed, and the client subscribes again.
  mutating func readPage(_ bytes: UnsafeBufferPointer<UInt8>) throws(StreamLineError)
    -> StreamUpdate<Value>?
  {
    let line = lineNumber
    let pending = assembly
    assembly = nil
    func fail(_ kind: StreamLineError.Kind, _ detail: String) -> StreamLineError {
      StreamLineError(line: line, kind: kind, detail: detail)
    }
    let envelope = try Self.pageEnvelope(bytes, line: line)
    guard let v = envelope.v, let type = envelope.type, let seq = envelope.seq,
      let stream = envelope.stream, let page = envelope.page, let pages = envelope.pages,
      let first = envelope.first, let range = envelope.sections
    else {
      throw fail(
        .malformed, "a snapshot page needs v, type, seq, stream, page, pages, first, sections")
    }
    guard v == SnapshotPage.version else {
      throw fail(
        .unsupportedVersion, "version \(v) for a snapshot page; this reader reads version 5")
    }
    guard type == SnapshotPage.type else {
      throw fail(.malformed, "type \"\(type)\" is not \(SnapshotPage.type)")
    }
    guard (0...StreamLine.maximumSequence).contains(seq) else {
      throw fail(.outOfRange, "seq \(seq) is out of range 0...\(StreamLine.maximumSequence)")
    }
    guard !stream.isEmpty, stream.utf8.count <= 256 else {
      throw fail(.malformed, "stream: 1 to 256 bytes")
    }
    guard pages >= 1, (0..<pages).contains(page) else {
      throw fail(.malformed, "page \(page) of \(pages) pages is not a page 0 ..< pages")
    }
    guard first.count == 2, first[0] >= 0, first[1] >= 0 else {
      throw fail(.malformed, "first: \(first) is not [section, element] with both 0 or more")
    }
    let sections = try Self.pageSections(bytes, range, line: line)
    var assembled: PageAssembly<Value>
    if let pending {
      guard pending.stream == stream, pending.sequence == seq, pending.pages == pages else {
        throw fail(
          .outOfOrder,
          "a page of update \(seq) (\(pages) pages) where page \(pending.next) of update "
            + "\(pending.sequence) (\(pending.pages) pages) was expected")
      }
      guard page == pending.next else {
        throw fail(
          .outOfOrder,
          "page \(page) of update \(seq) where page \(pending.next) was expected"
            + (page < pending.next ? " (a page repeated)" : " (a page missing)"))
      }
      assembled = pending
    } else {
      guard page == 0 else {
        throw fail(
          .outOfOrder, "page \(page) of update \(seq) without the pages before it (page 0 first)")
      }
      let start = StreamUpdate<Value>.snapshot(
        StreamSnapshot(stream: stream, sequence: seq, sections: []))
      do {
        try order.check(start)
      } catch {
        throw fail(.outOfOrder, error.description)
      }
      assembled = PageAssembly(
        stream: stream, sequence: seq, pages: pages, next: 0, sections: [],
        labelled: envelope.labels != nil)
    }
    // Where this page may start: where the last section stopped, or at the next section.
    let last = assembled.sections.count - 1
    let continues = last >= 0 && first == [last, assembled.sections[last].count]
    guard continues || first == [last + 1, 0] else {
      let expected =
        last >= 0 ? "[\(last), \(assembled.sections[last].count)] or [\(last + 1), 0]" : "[0, 0]"
      throw fail(.malformed, "first: page \(page) starts at \(first), not at \(expected)")
    }
    // One label per section that starts on this page, on every page of a labelled snapshot.
    if let range = envelope.labels {
      guard assembled.labelled else {
        throw fail(.malformed, "labels: page \(page) has labels, and page 0 had none")
      }
      let labels = try Self.pageLabels(bytes, range, line: line)
      let starting = sections.count - (continues && !sections.isEmpty ? 1 : 0)
      guard labels.count == starting else {
        throw fail(
          .malformed,
          "labels: \(labels.count) labels for the \(starting) sections that start on page \(page) "
            + "(one each)")
      }
      assembled.labels += labels
    } else if assembled.labelled {
      throw fail(.malformed, "labels: page \(page) has none, and page 0 had labels")
    }
    for (offset, section) in sections.enumerated() {
      if offset == 0, continues {
        assembled.sections[last].append(contentsOf: section)
      } else {
        assembled.sections.append(section)
      }
    }
    assembled.next = page + 1
    guard assembled.next == pages else {
      assembly = assembled
      return nil
    }
    let update = StreamUpdate<Value>.snapshot(
      StreamSnapshot(
        stream: stream, sequence: seq, sections: assembled.sections, labels: assembled.labels))
    order.advance(past: update)
    return update
  }

  /// What a line that is not a page says while a paged snapshot is incomplete.
  static func interrupted(_ pending: PageAssembly<Value>, line: Int) -> StreamLineError {
    StreamLineError(
      line: line, kind: .outOfOrder,
      detail: "update \(pending.sequence) is a snapshot of \(pending.pages) pages and "
        + "\(pending.next) came before this line: the snapshot is incomplete")
  }

  /// The envelope of a page line, every field checked for its type; the first problem throws.
  private static func pageEnvelope(_ bytes: UnsafeBufferPointer<UInt8>, line: Int)
    throws(StreamLineError) -> PageEnvelope
  {
    var reader = JSONReader(bytes)
    var envelope = PageEnvelope()
    var problem: String?
    func refuse(_ text: @autoclosure () -> String) {
      if problem == nil { problem = text() }
    }
    func integer(_ field: String) throws(JSONReadError) -> Int? {
      guard case .success(let value) = try reader.readInteger() else {
        refuse("\(field): expected an integer")
        return nil
      }
      return value
    }
    func string(_ field: String) throws(JSONReadError) -> String? {
      guard reader.peek() == UInt8(ascii: "\"") else {
        try reader.skipValue()
        refuse("\(field): expected a string")
        return nil
      }
      return try reader.readString()
    }
    do throws(JSONReadError) {
      if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { reader.index = 3 }
      try reader.expect(UInt8(ascii: "{"))
      var seen: [String] = []
      if !reader.consume(UInt8(ascii: "}")) {
        repeat {
          let key = try reader.readString()
          try reader.expect(UInt8(ascii: ":"))
          if seen.contains(key) {
            refuse("\(key): the key \(key) is repeated")
            try reader.skipValue()
            continue
          }
          seen.append(key)
          if reader.isNull() {
            refuse("\(key): null where a value was expected (leave the field out instead)")
          }
          switch key {
          case "v": envelope.v = try integer(key)
          case "seq": envelope.seq = try integer(key)
          case "page": envelope.page = try integer(key)
          case "pages": envelope.pages = try integer(key)
          case "type": envelope.type = try string(key)
          case "stream": envelope.stream = try string(key)
          case "first":
            guard reader.peek() == UInt8(ascii: "[") else {
              try reader.skipValue()
              refuse("first: expected [section, element]")
              break
            }
            reader.index += 1
            var first: [Int] = []
            if !reader.consume(UInt8(ascii: "]")) {
              repeat {
                if let index = try integer("first[\(first.count)]") { first.append(index) }
              } while try reader.next(close: UInt8(ascii: "]"))
            }
            envelope.first = first
          case "sections":
            reader.skipWhitespace()
            let start = reader.index
            if reader.peek() != UInt8(ascii: "[") { refuse("sections: expected an array") }
            if let inner = try reader.skipValue() { refuse("sections: \(inner)") }
            envelope.sections = start..<reader.index
          case "labels":
            reader.skipWhitespace()
            let start = reader.index
            if let inner = try reader.skipValue() { refuse("labels: \(inner)") }
            envelope.labels = start..<reader.index
          default:
            refuse("\(key): no such field in a snapshot page")
            try reader.skipValue()
          }
        } while try reader.next(close: UInt8(ascii: "}"))
      }
      reader.skipWhitespace()
      guard reader.atEnd else { throw reader.syntax("bytes after the object") }
    } catch {
      throw StreamLineError(line: line, kind: .malformed, detail: error.text)
    }
    if let problem { throw StreamLineError(line: line, kind: .malformed, detail: problem) }
    return envelope
  }

  /// A page's `labels`, read and checked as a snapshot line's `labels` are.
  private static func pageLabels(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, line: Int
  ) throws(StreamLineError) -> [StreamSectionLabel] {
    var reader = LineReader<Value>(UnsafeBufferPointer(rebasing: bytes[..<range.upperBound]))
    reader.reader.index = range.lowerBound
    let labels: [StreamSectionLabel]?
    do {
      labels = try reader.labels()
    } catch {
      throw StreamLineError(line: line, kind: .malformed, detail: error.text)
    }
    guard let labels, reader.shape == nil else {
      throw StreamLineError(
        line: line, kind: .malformed, detail: reader.shape ?? "labels: expected an array")
    }
    return labels
  }

  /// The values of a page's `sections`, read and checked as a snapshot line's `sections` are.
  private static func pageSections(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, line: Int
  ) throws(StreamLineError) -> [[Value]] {
    var snapshot: [UInt8] = []
    snapshot.reserveCapacity(range.count + 64)
    JSONWriter.appendRaw(#"{"sections":"#, to: &snapshot)
    snapshot.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
    JSONWriter.appendRaw(#","seq":0,"stream":"page","type":"snapshot","v":1}"#, to: &snapshot)
    let update = try snapshot.withUnsafeBufferPointer { (buffer) throws(StreamLineError) in
      try parseFast(buffer, line: line)
    }
    guard case .snapshot(let parsed) = update else { preconditionFailure("a snapshot line") }
    return parsed.sections
  }
}
