import Foundation
import SectionKit

/// Reads JSON lines (``StreamLine``) into updates, checking each line as it reads: the syntax,
/// the version, the fields (exactly the format's, none repeated, every number an integer), the
/// changeset's own invariants, and the order of the sequence numbers. A line that fails gives a ``StreamLineError`` naming its number and what is wrong;
/// nothing of it is returned, and the decoder goes on with the next line.
///
/// ```swift
/// var decoder = StreamLineDecoder<String>()
/// var mirror = StreamMirror<String>()
/// for try await chunk in chunks {                // any chunks: lines may span them
///   decoder.append(chunk)
///   while let update = try decoder.next() {
///     try mirror.apply(update, line: decoder.lineNumber)
///   }
/// }
/// try decoder.finish()                           // a last line without its newline: truncated
/// ```
///
/// Whether a changeset fits the client's state (its index paths in range) is the mirror's check:
/// ``StreamMirror/apply(_:line:)`` reports it with the line number too.
public struct StreamLineDecoder<Value: Codable & Sendable>: Sendable {
  /// The number of the last line read (1-based); 0 before the first.
  public private(set) var lineNumber = 0
  /// The longest line accepted, in bytes; a longer one is an error, and at most this many bytes
  /// of a line are ever buffered.
  public let maximumLineLength: Int
  /// A line received whole and not yet read.
  private enum Line {
    case bytes([UInt8])
    case tooLong(Int)
  }
  /// Lines received whole and not yet read.
  private var complete = Ring<Line>()
  /// The bytes of the line being received.
  private var partial: [UInt8] = []
  /// The length of the line being received once it exceeds ``maximumLineLength`` (its bytes
  /// are then dropped).
  private var partialOverflow: Int?
  /// The order of the lines read so far.
  var order: SequenceCheck
  /// The pages of a snapshot received so far, while its last page has not come.
  var assembly: PageAssembly<Value>?

  /// Creates a decoder for a stream that starts with a snapshot, or — given the `position` a
  /// resumed subscription continues from — with the changeset after it.
  public init(after position: StreamPosition? = nil, maximumLineLength: Int = 16 << 20) {
    self.order = SequenceCheck(position: position)
    self.maximumLineLength = maximumLineLength
  }

  /// Reads every line with `JSONDecoder`, as this library did before its own codec (version 1
  /// only): the reference the one-pass reader is tested and measured against.
  @_spi(Reference) public var usesFoundationReference = false

  /// The position of the last update decoded.
  public var position: StreamPosition? { order.position }

  // MARK: Lines

  /// Decodes one line (without its newline) that is not a page of a snapshot (``read(line:)``
  /// reads those too).
  ///
  /// - Throws: ``StreamLineError`` naming the line; ``StreamLineError/Kind/malformed`` for a
  ///   page that is not a snapshot's last (the page is kept: read the next ones with
  ///   ``read(line:)`` or ``next()``).
  /// - Complexity: O(n) for a line of n bytes, plus O(k log k) for a changeset of k changes.
  public mutating func decode(line: some DataProtocol) throws(StreamLineError) -> StreamUpdate<
    Value
  > {
    guard let update = try read(line: line) else {
      throw StreamLineError(
        line: lineNumber, kind: .malformed,
        detail: "a page of a snapshot, not its last: read page lines with read(line:) or next()")
    }
    return update
  }

  /// Reads one line (without its newline): its update, or `nil` for a page of a snapshot that is
  /// not its last (`Docs/Streaming.md`, "Large snapshots in pages"); the snapshot comes with its
  /// last page.
  ///
  /// - Throws: ``StreamLineError`` naming the line: ``StreamLineError/Kind/outOfOrder`` for a
  ///   page missing, repeated or of another update, or for another line before a snapshot's last
  ///   page (the pages so far are dropped).
  /// - Complexity: O(n) for a line of n bytes, plus O(k log k) for a changeset of k changes.
  public mutating func read(line: some DataProtocol) throws(StreamLineError) -> StreamUpdate<
    Value
  >? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(line.count)
    for region in line.regions {
      region.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }
    return try decode(bytes: bytes)
  }

  /// ``read(line:)`` for a line's bytes.
  private mutating func decode(bytes: [UInt8]) throws(StreamLineError) -> StreamUpdate<Value>? {
    lineNumber += 1
    guard bytes.count <= maximumLineLength else {
      assembly = nil
      throw StreamLineError(
        line: lineNumber, kind: .tooLong,
        detail: "\(bytes.count) bytes, more than the \(maximumLineLength) accepted")
    }
    // A page line: recognized by its first key as this library writes it, or, its keys in
    // another order, when it does not read as a snapshot or a changeset.
    if bytes.withUnsafeBufferPointer(Self.startsAsPage) {
      return try bytes.withUnsafeBufferPointer { (buffer) throws(StreamLineError) in
        try readPage(buffer)
      }
    }
    let update: StreamUpdate<Value>
    do {
      update =
        try usesFoundationReference
        ? Self.parseReference(Data(bytes), line: lineNumber)
        : bytes.withUnsafeBufferPointer { (buffer) throws(StreamLineError) in
          try Self.parseFast(buffer, line: lineNumber)
        }
    } catch {
      guard bytes.withUnsafeBufferPointer(Self.isPage) else {
        assembly = nil
        throw error
      }
      return try bytes.withUnsafeBufferPointer { (buffer) throws(StreamLineError) in
        try readPage(buffer)
      }
    }
    if let pending = assembly {
      assembly = nil
      throw Self.interrupted(pending, line: lineNumber)
    }
    do {
      try order.check(update)
    } catch {
      throw StreamLineError(line: lineNumber, kind: .outOfOrder, detail: error.description)
    }
    order.advance(past: update)
    return update
  }

  // MARK: Bytes

  /// Adds bytes received; read the complete lines with ``next()``. At most
  /// ``maximumLineLength`` bytes of a line are kept: the rest of a longer one is dropped, and
  /// ``next()`` reports it.
  ///
  /// - Complexity: O(n) for n bytes.
  public mutating func append(_ bytes: some DataProtocol) {
    for region in bytes.regions {
      region.withUnsafeBytes { append(contiguous: $0.assumingMemoryBound(to: UInt8.self)) }
    }
  }

  /// ``append(_:)`` for bytes in one piece: scanned as a buffer, not byte by byte through a
  /// generic collection.
  private mutating func append(contiguous bytes: UnsafeBufferPointer<UInt8>) {
    var start = 0
    while start < bytes.count {
      let rest = UnsafeBufferPointer(rebasing: bytes[start...])
      let newline = rest.firstIndex(of: UInt8(ascii: "\n")).map { $0 + start }
      let chunk = UnsafeBufferPointer(rebasing: bytes[start..<(newline ?? bytes.count)])
      if let overflow = partialOverflow {
        // A length, counted saturating: the bytes of one line come from outside, without bound.
        let (sum, overflowed) = overflow.addingReportingOverflow(chunk.count)
        partialOverflow = overflowed ? .max : sum
      } else if partial.count + chunk.count > maximumLineLength {
        partialOverflow = partial.count + chunk.count
        partial = []
      } else {
        partial.append(contentsOf: chunk)
      }
      guard let newline else { return }
      if let overflow = partialOverflow {
        complete.append(.tooLong(overflow))
      } else {
        if partial.last == UInt8(ascii: "\r") { partial.removeLast() }
        complete.append(.bytes(partial))
      }
      partial = []
      partialOverflow = nil
      start = newline + 1
    }
  }

  /// The next complete line's update, or `nil` when no complete line is buffered. Empty lines
  /// are skipped; a carriage return before the newline is ignored.
  ///
  /// - Throws: ``StreamLineError`` for a line that fails; the next call reads the line after it.
  @_specialize(where Value == String)
  public mutating func next() throws(StreamLineError) -> StreamUpdate<Value>? {
    while let line = complete.popFirst() {
      switch line {
      case .tooLong(let length):
        lineNumber += 1
        assembly = nil
        throw StreamLineError(
          line: lineNumber, kind: .tooLong,
          detail: "\(length) bytes, more than the \(maximumLineLength) accepted")
      case .bytes(let bytes) where bytes.isEmpty:
        lineNumber += 1
      case .bytes(let bytes):
        if let update = try decode(bytes: bytes) { return update }
      }
    }
    return nil
  }

  /// Checks that the input ended with a complete line, and not inside a snapshot in pages.
  ///
  /// - Throws: ``StreamLineError/Kind/truncated`` when bytes of an unfinished line remain, or a
  ///   snapshot's last page did not come.
  public func finish() throws(StreamLineError) {
    let length = partialOverflow ?? partial.count
    guard length == 0 else {
      throw StreamLineError(
        line: lineNumber + complete.count + 1, kind: .truncated,
        detail: "the input ends inside a line (\(length) bytes without a newline)")
    }
    if let pending = assembly, complete.count == 0 {
      throw StreamLineError(
        line: lineNumber, kind: .truncated,
        detail: "the input ends inside update \(pending.sequence), a snapshot of "
          + "\(pending.pages) pages: \(pending.next) came")
    }
  }

  // MARK: Parsing

  /// The update on one line, checked for everything that needs no state, with `JSONDecoder`:
  /// the reference for ``parseFast(_:line:)``. Version 1 only.
  static func parseReference(_ data: Data, line: Int) throws(StreamLineError) -> StreamUpdate<Value>
  {
    func fail(_ kind: StreamLineError.Kind, _ detail: String) -> StreamLineError {
      StreamLineError(line: line, kind: kind, detail: detail)
    }
    let decoder = JSONDecoder()
    let wire: WireLine<Value>
    do {
      wire = try decoder.decode(WireLine<Value>.self, from: data)
    } catch {
      // Why: not JSON, another version (whose fields may differ), or a bad field.
      let version: Version
      do {
        version = try decoder.decode(Version.self, from: data)
      } catch {
        throw fail(.malformed, "not a JSON object: \(describe(error))")
      }
      guard version.isInteger else { throw fail(.malformed, describe(error)) }
      guard let v = version.v else {
        throw fail(.malformed, "missing field v (the format version)")
      }
      guard v == StreamLine.version else {
        throw fail(
          .unsupportedVersion, "version \(v); this reader reads version \(StreamLine.version)")
      }
      throw fail(.malformed, describe(error))
    }
    guard wire.v == StreamLine.version else {
      throw fail(
        .unsupportedVersion, "version \(wire.v); this reader reads version \(StreamLine.version)")
    }
    if let problem = WireShape.problem(in: [UInt8](data)) { throw fail(.malformed, problem) }
    guard (0...StreamLine.maximumSequence).contains(wire.seq) else {
      throw fail(
        .outOfRange, "seq \(wire.seq) is out of range 0...\(StreamLine.maximumSequence)")
    }
    switch wire.type {
    case "snapshot":
      guard let stream = wire.stream, !stream.isEmpty, stream.utf8.count <= 256 else {
        throw fail(.malformed, "a snapshot needs field stream, 1 to 256 bytes")
      }
      guard let sections = wire.sections else {
        throw fail(.malformed, "a snapshot needs field sections")
      }
      guard wire.changeset == nil, wire.insertedSections == nil, wire.elements == nil else {
        throw fail(.malformed, "a snapshot has no changeset, newSections or newElements")
      }
      return .snapshot(StreamSnapshot(stream: stream, sequence: wire.seq, sections: sections))
    case "changeset":
      guard let wireChangeset = wire.changeset else {
        throw fail(.malformed, "a changeset line needs field changeset")
      }
      let changeset: Changeset
      switch wireChangeset.changeset() {
      case .success(let valid): changeset = valid
      case .failure(let error): throw fail(.malformed, error.text)
      }
      guard wire.sections == nil, wire.stream == nil else {
        throw fail(.malformed, "a changeset line has no sections or stream (a snapshot's fields)")
      }
      var sections: [Int: [Value]] = [:]
      var previousIndex = -1
      for (position, entry) in (wire.insertedSections ?? []).enumerated() {
        guard entry.index > previousIndex else {
          throw fail(
            .malformed,
            "newSections[\(position)]: index \(entry.index) is negative, repeated or not ascending")
        }
        previousIndex = entry.index
        sections[entry.index] = entry.elements
      }
      var elements: [IndexPath: Value] = [:]
      var previousPath: IndexPath?
      for (position, entry) in (wire.elements ?? []).enumerated() {
        let path = entry.path.indexPath
        guard path.count == 2, path[0] >= 0, path[1] >= 0 else {
          throw fail(
            .outOfRange,
            "newElements[\(position)]: path \(path.map { $0 }) is not [section, element] "
              + "with both 0 or more")
        }
        guard previousPath.map({ $0 < path }) ?? true else {
          throw fail(
            .malformed,
            "newElements[\(position)]: path \(path.map { $0 }) is repeated or not ascending")
        }
        previousPath = path
        elements[path] = entry.value
      }
      return .changeset(
        StreamChangeset(
          sequence: wire.seq, changeset: changeset, sections: sections, elements: elements))
    default:
      throw fail(.malformed, "type \"\(wire.type)\" is neither snapshot nor changeset")
    }
  }
}

/// The format version of a line, read when the line does not decode: `v` missing, present but
/// not an integer (the decoding error says why), or the version.
private struct Version: Decodable {
  var v: Int?
  var isInteger = true

  enum CodingKeys: String, CodingKey { case v }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    guard container.contains(.v) else { return }
    v = try? container.decode(Int.self, forKey: .v)
    isInteger = v != nil
  }
}

/// `field.path[2]: what is wrong` for a decoding error.
func describe(_ error: any Error) -> String {
  func path(_ keys: [any CodingKey]) -> String {
    guard !keys.isEmpty else { return "the line" }
    return keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
      .trimmingPrefix(".").description
  }
  guard let error = error as? DecodingError else { return "\(error)" }
  switch error {
  case .dataCorrupted(let context):
    let underlying = (context.underlyingError as? NSError)?.debugDescription
    return "\(path(context.codingPath)): \(context.debugDescription)"
      + (underlying.map { " (\($0))" } ?? "")
  case .keyNotFound(let key, let context):
    return "missing field \(path(context.codingPath + [key]))"
  case .typeMismatch(let type, let context):
    return "\(path(context.codingPath)): expected \(type)"
  case .valueNotFound(let type, let context):
    return "\(path(context.codingPath)): null where \(type) was expected"
  @unknown default:
    return "\(error)"
  }
}

/// A line of a stream that could not be read, or did not fit.
public struct StreamLineError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of problem.
  public enum Kind: String, Hashable, Sendable {
    /// Not JSON, a missing or mistyped field, a number that is not an integer, a range that is
    /// not `[lower, upper]`, a field the format does not define or a key repeated, or a changeset
    /// that breaks its own invariants.
    case malformed
    /// The input ended inside a line.
    case truncated
    /// A line longer than the decoder accepts.
    case tooLong
    /// A format version this reader does not read.
    case unsupportedVersion
    /// A number out of range: a sequence number, or an index path that does not fit the mirror.
    case outOfRange
    /// A sequence number that is not the next one: a gap, a duplicate, or a changeset before any
    /// snapshot. Subscribe again.
    case outOfOrder
  }

  /// The line's number, 1-based.
  public var line: Int
  /// What kind of problem.
  public var kind: Kind
  /// What exactly is wrong.
  public var detail: String

  /// Creates an error.
  public init(line: Int, kind: Kind, detail: String) {
    self.line = line
    self.kind = kind
    self.detail = detail
  }

  /// `line 7: out of order: gap: expected update 12, received 14 …`.
  public var description: String { "line \(line): \(kind.rawValue): \(detail)" }
}

extension StreamMirror where Value: Codable {
  /// Applies `update`, read from line `line`, reporting a refusal as a ``StreamLineError``
  /// (``StreamLineError/Kind/outOfRange`` when it does not fit the mirror,
  /// ``StreamLineError/Kind/outOfOrder`` for a gap or a duplicate). The mirror is unchanged on
  /// error.
  public mutating func apply(_ update: StreamUpdate<Value>, line: Int) throws(StreamLineError) {
    do {
      try apply(update)
    } catch {
      switch error {
      case .mismatch:
        throw StreamLineError(line: line, kind: .outOfRange, detail: error.description)
      default: throw StreamLineError(line: line, kind: .outOfOrder, detail: error.description)
      }
    }
  }
}
