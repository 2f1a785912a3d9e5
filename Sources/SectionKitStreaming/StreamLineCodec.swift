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

// MARK: - Writing

extension StreamLineEncoder {
  /// The line for `update`, written byte by byte; the same bytes as ``referenceBytes(_:)`` for a
  /// line of version 1.
  @_specialize(where Value == String)
  func bytes(_ update: StreamUpdate<Value>) throws -> [UInt8] {
    var out: [UInt8] = []
    switch update {
    case .snapshot(let snapshot):
      out.reserveCapacity(64 + snapshot.sections.count * 16)
      JSONWriter.appendRaw(#"{"sections":"#, to: &out)
      try appendSections(snapshot.sections, to: &out)
      JSONWriter.appendRaw(#","seq":"#, to: &out)
      JSONWriter.append(snapshot.sequence, to: &out)
      JSONWriter.appendRaw(#","stream":"#, to: &out)
      JSONWriter.append(snapshot.stream, to: &out)
      JSONWriter.appendRaw(#","type":"snapshot","v":1}"#, to: &out)
    case .changeset(let update):
      let changeset = update.changeset
      out.reserveCapacity(
        320 + 16 * (changeset.deletedElements.count + changeset.insertedElements.count)
          + 24 * (update.elements.count + (update.digest?.sections.count ?? 0)))
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
          JSONWriter.append(StreamDigest.hex(section.hash), to: &out)
          out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "]"))
      }
      let elements = update.elements.sorted { $0.key < $1.key }
      let sections = update.sections.sorted { $0.key < $1.key }
      JSONWriter.appendRaw(#","newElements":["#, to: &out)
      let values = try encodedValues(elements.map(\.value))
      for (position, element) in elements.enumerated() {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        JSONWriter.appendRaw(#"{"path":"#, to: &out)
        appendPath(element.key, to: &out)
        JSONWriter.appendRaw(#","value":"#, to: &out)
        values.append(position, element.value, to: &out)
        out.append(UInt8(ascii: "}"))
      }
      JSONWriter.appendRaw(#"],"newSections":["#, to: &out)
      for (position, section) in sections.enumerated() {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        JSONWriter.appendRaw(#"{"elements":"#, to: &out)
        try appendSections([section.value], to: &out, unwrapped: true)
        JSONWriter.appendRaw(#","index":"#, to: &out)
        JSONWriter.append(section.key, to: &out)
        out.append(UInt8(ascii: "}"))
      }
      JSONWriter.appendRaw(#"],"seq":"#, to: &out)
      JSONWriter.append(update.sequence, to: &out)
      JSONWriter.appendRaw(#","type":"changeset","v":"#, to: &out)
      JSONWriter.append(update.digest == nil ? 1 : 2, to: &out)
      out.append(UInt8(ascii: "}"))
    }
    out.append(UInt8(ascii: "\n"))
    return out
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

// MARK: - Reading

/// A value read from a line: decoded directly, or the bytes of a value for the value type's
/// `Codable` conformance, decoded with the other values of the line in one call.
enum ReadValue<Value> {
  case value(Value)
  case raw(Range<Int>)
}

/// The fields of one line, as read, before the checks that need them all.
struct LineFields<Value> {
  var v: Int?
  var type: String?
  var seq: Int?
  var stream: String?
  var sections: [[ReadValue<Value>]]?
  var changeset: Changeset?
  var newSections: [(index: Int, elements: [ReadValue<Value>])]?
  var newElements: [(path: [Int], value: ReadValue<Value>)]?
  var digest: StreamDigest?
}

/// The one-pass reader of a line: the envelope, the index paths and the ranges read from the
/// bytes; the values directly (strings, integers) or with one `JSONDecoder` call for the line.
struct LineReader<Value: Decodable> {
  var reader: JSONReader
  let coding: ValueCoding
  /// The first problem of shape (the line is JSON the format refuses); reading goes on to check
  /// the syntax of the rest.
  var shape: String?
  var raws = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    reader = JSONReader(bytes)
    coding = ValueCoding.of(Value.self)
  }

  mutating func refuse(_ problem: @autoclosure () -> String) {
    if shape == nil { shape = problem() }
  }

  /// Reads the whole line; throws a syntax error when it is not JSON, and records the first
  /// problem of shape in ``shape``.
  mutating func read() throws(JSONReadError) -> LineFields<Value> {
    var fields = LineFields<Value>()
    var seen: Set<String> = []
    if reader.bytes.count >= 3, reader.bytes[0] == 0xEF, reader.bytes[1] == 0xBB,
      reader.bytes[2] == 0xBF
    {
      reader.index = 3  // a byte order mark, as `JSONDecoder` allows
    }
    guard reader.peek() == UInt8(ascii: "{") else {
      if reader.peek() == nil { throw reader.syntax("an empty line") }
      try reader.skipValue()
      reader.skipWhitespace()
      guard reader.atEnd else { throw reader.syntax("bytes after the value") }
      throw .shape("not a JSON object: the line is not an object")
    }
    reader.index += 1
    if !reader.consume(UInt8(ascii: "}")) {
      repeat {
        let key = try reader.readString()
        try reader.expect(UInt8(ascii: ":"))
        let repeated = !seen.insert(key).inserted
        if repeated { refuse("\(key): the key \(key) is repeated") }
        if reader.isNull() && !repeated {
          refuse("\(key): null where a value was expected (leave the field out instead)")
        }
        switch key {
        case "v" where !repeated: fields.v = integer("v")
        case "seq" where !repeated: fields.seq = integer("seq")
        case "type" where !repeated: fields.type = string("type")
        case "stream" where !repeated: fields.stream = string("stream")
        case "sections" where !repeated: fields.sections = try sections("sections")
        case "changeset" where !repeated: fields.changeset = try changeset()
        case "newSections" where !repeated: fields.newSections = try newSections()
        case "newElements" where !repeated: fields.newElements = try newElements()
        case "digest" where !repeated: fields.digest = try digest()
        case "v", "seq", "type", "stream", "sections", "changeset", "newSections", "newElements",
          "digest":
          try skip()
        default:
          refuse("\(key): no such field in version \(StreamLine.version)")
          try skip()
        }
        try checkPending()
      } while try reader.next(close: UInt8(ascii: "}"))
    }
    reader.skipWhitespace()
    guard reader.atEnd else { throw reader.syntax("bytes after the object") }
    if fields.v == nil, !seen.contains("v") { refuse("missing field v (the format version)") }
    if fields.type == nil, !seen.contains("type") { refuse("missing field type") }
    if fields.seq == nil, !seen.contains("seq") { refuse("missing field seq") }
    return fields
  }

  private mutating func skip() throws(JSONReadError) {
    if let problem = try reader.skipValue() { refuse(problem) }
  }

  // MARK: Fields

  /// An integer field, or `nil` (with the problem recorded).
  private mutating func integer(_ field: @autoclosure () -> String) -> Int? {
    do {
      switch try reader.readInteger() {
      case .success(let value): return value
      case .failure(.notANumber): refuse("\(field()): expected an integer")
      case .failure(.number(let text)):
        let number = Double(text) ?? .nan
        refuse(
          "\(field()): \(number) "
            + (number.rounded() == number ? "is out of the range of integers" : "is not an integer")
        )
      }
    } catch {
      pending = error
    }
    return nil
  }

  /// A syntax error met inside a helper that does not throw; rethrown by the callers.
  private var pending: JSONReadError?

  private mutating func checkPending() throws(JSONReadError) {
    if let error = pending {
      pending = nil
      throw error
    }
  }

  private mutating func string(_ field: String) -> String? {
    do {
      if reader.peek() == UInt8(ascii: "\"") { return try reader.readString() }
      try skip()
      refuse("\(field): expected a string")
    } catch {
      pending = error
    }
    return nil
  }

  /// Reads an array, calling `element` for each element; refuses anything else.
  private mutating func array(
    _ field: @autoclosure () -> String, _ element: (inout Self, Int) throws(JSONReadError) -> Void
  ) throws(JSONReadError) -> Bool {
    guard reader.peek() == UInt8(ascii: "[") else {
      try skip()
      refuse("\(field()): expected an array")
      return false
    }
    reader.index += 1
    if reader.consume(UInt8(ascii: "]")) { return true }
    var position = 0
    repeat {
      try element(&self, position)
      try checkPending()
      position += 1
    } while try reader.next(close: UInt8(ascii: "]"))
    return true
  }

  /// Reads an object of the format's, with exactly the keys in `fields` (those it finds are
  /// handed to `member`).
  private mutating func object(
    _ field: @autoclosure () -> String, fields: Set<String>,
    _ member: (inout Self, String) throws(JSONReadError) -> Void
  ) throws(JSONReadError) -> Set<String>? {
    guard reader.peek() == UInt8(ascii: "{") else {
      try skip()
      refuse("\(field()): expected an object")
      return nil
    }
    reader.index += 1
    var seen: Set<String> = []
    if reader.consume(UInt8(ascii: "}")) { return seen }
    repeat {
      let key = try reader.readString()
      try reader.expect(UInt8(ascii: ":"))
      if !seen.insert(key).inserted {
        refuse("\(field()).\(key): the key \(key) is repeated")
        try skip()
      } else if !fields.contains(key) {
        refuse("\(field()).\(key): no such field in version \(StreamLine.version)")
        try skip()
      } else {
        try member(&self, key)
        try checkPending()
      }
    } while try reader.next(close: UInt8(ascii: "}"))
    return seen
  }

  private mutating func value() throws(JSONReadError) -> ReadValue<Value>? {
    switch coding {
    case .string:
      guard reader.peek() == UInt8(ascii: "\"") else {
        try skip()
        refuse("a value: expected a string")
        return nil
      }
      return .value(try reader.readString() as! Value)
    case .integer:
      guard let value = integer("a value") else { return nil }
      return .value(value as! Value)
    case .codable:
      reader.skipWhitespace()
      let start = reader.index
      try skip()
      raws += 1
      return .raw(start..<reader.index)
    }
  }

  private mutating func values(_ field: @autoclosure () -> String) throws(JSONReadError)
    -> [ReadValue<Value>]?
  {
    var result: [ReadValue<Value>] = []
    let ok = try array(field()) { (this, _) throws(JSONReadError) in
      if let value = try this.value() { result.append(value) }
    }
    return ok ? result : nil
  }

  private mutating func sections(_ field: String) throws(JSONReadError) -> [[ReadValue<Value>]]? {
    var result: [[ReadValue<Value>]] = []
    let ok = try array(field) { (this, position) throws(JSONReadError) in
      if let section = try this.values("\(field)[\(position)]") { result.append(section) }
    }
    return ok ? result : nil
  }

  private mutating func path(_ field: @autoclosure () -> String) throws(JSONReadError) -> [Int]? {
    var result: [Int] = []
    result.reserveCapacity(2)
    let ok = try array(field()) { (this, position) throws(JSONReadError) in
      if let index = this.integer("\(field())[\(position)]") { result.append(index) }
    }
    return ok ? result : nil
  }

  private mutating func paths(_ field: @autoclosure () -> String) throws(JSONReadError)
    -> [IndexPath]
  {
    var result: [IndexPath] = []
    _ = try array(field()) { (this, position) throws(JSONReadError) in
      if let path = try this.path("\(field())[\(position)]") {
        result.append(IndexPath(indexes: path))
      }
    }
    return result
  }

  private mutating func ranges(_ field: @autoclosure () -> String) throws(JSONReadError)
    -> [Range<Int>]
  {
    var result: [Range<Int>] = []
    _ = try array(field()) { (this, position) throws(JSONReadError) in
      func name() -> String { "\(field())[\(position)]" }
      guard let bounds = try this.path(name()) else { return }
      guard bounds.count == 2 else {
        let shown = bounds.count <= 4 ? "\(bounds)" : "an array of \(bounds.count) numbers"
        this.refuse("\(name()): \(shown) is not a range [lower, upper]")
        return
      }
      guard bounds[0] <= bounds[1] else {
        this.refuse(
          "\(name()): \(bounds) is not a range: the lower bound is greater than the upper bound")
        return
      }
      result.append(bounds[0]..<bounds[1])
    }
    return result
  }

  private mutating func changeset() throws(JSONReadError) -> Changeset? {
    var deletedSectionRanges: [Range<Int>] = []
    var insertedSectionRanges: [Range<Int>] = []
    var reloadedSectionRanges: [Range<Int>] = []
    var movedSections: [Changeset.SectionMove] = []
    var deletedElements: [IndexPath] = []
    var insertedElements: [IndexPath] = []
    var reloadedElements: [IndexPath] = []
    var movedElements: [Changeset.Move] = []
    let seen = try object("changeset", fields: WireFields.changeset) {
      (this, key) throws(JSONReadError) in
      func field() -> String { "changeset.\(key)" }
      if this.reader.isNull() {
        this.refuse("\(field()): null where a value was expected (leave the field out instead)")
        try this.skip()
        return
      }
      switch key {
      case "deletedSectionRanges": deletedSectionRanges = try this.ranges(field())
      case "insertedSectionRanges": insertedSectionRanges = try this.ranges(field())
      case "reloadedSectionRanges": reloadedSectionRanges = try this.ranges(field())
      case "deletedElements": deletedElements = try this.paths(field())
      case "insertedElements": insertedElements = try this.paths(field())
      case "reloadedElements": reloadedElements = try this.paths(field())
      case "movedSections":
        _ = try this.array(field()) { (this, position) throws(JSONReadError) in
          func name() -> String { "\(field())[\(position)]" }
          var from: Int?
          var to: Int?
          guard
            let keys = try this.object(
              name(), fields: WireFields.move,
              { (this, key) in
                if this.reader.isNull() { this.refuse("\(name()).\(key): null") }
                if key == "from" { from = this.integer("\(name()).from") }
                if key == "to" { to = this.integer("\(name()).to") }
              })
          else { return }
          guard let from, let to else {
            this.refuse("\(name()): missing field \(keys.contains("from") ? "to" : "from")")
            return
          }
          movedSections.append(Changeset.SectionMove(from: from, to: to))
        }
      default:  // movedElements
        _ = try this.array(field()) { (this, position) throws(JSONReadError) in
          func name() -> String { "\(field())[\(position)]" }
          var from: [Int]?
          var to: [Int]?
          guard
            let keys = try this.object(
              name(), fields: WireFields.move,
              {
                (this, key) throws(JSONReadError) in
                if this.reader.isNull() { this.refuse("\(name()).\(key): null") }
                if key == "from" { from = try this.path("\(name()).from") }
                if key == "to" { to = try this.path("\(name()).to") }
              })
          else { return }
          guard let from, let to else {
            this.refuse("\(name()): missing field \(keys.contains("from") ? "to" : "from")")
            return
          }
          movedElements.append(
            Changeset.Move(from: IndexPath(indexes: from), to: IndexPath(indexes: to)))
        }
      }
    }
    guard seen != nil else { return nil }
    var changeset = Changeset(
      movedSections: movedSections, deletedElements: deletedElements,
      insertedElements: insertedElements, reloadedElements: reloadedElements,
      movedElements: movedElements)
    changeset.deletedSectionRanges = deletedSectionRanges
    changeset.insertedSectionRanges = insertedSectionRanges
    changeset.reloadedSectionRanges = reloadedSectionRanges
    return changeset
  }

  private mutating func newSections() throws(JSONReadError)
    -> [(index: Int, elements: [ReadValue<Value>])]?
  {
    var result: [(index: Int, elements: [ReadValue<Value>])] = []
    let ok = try array("newSections") { (this, position) throws(JSONReadError) in
      func name() -> String { "newSections[\(position)]" }
      var index: Int?
      var elements: [ReadValue<Value>]?
      guard
        try this.object(
          name(), fields: WireFields.sectionElements,
          {
            (this, key) throws(JSONReadError) in
            if this.reader.isNull() { this.refuse("\(name()).\(key): null") }
            if key == "index" { index = this.integer("\(name()).index") }
            if key == "elements" { elements = try this.values("\(name()).elements") }
          }) != nil
      else { return }
      guard let index, let elements else {
        this.refuse("\(name()): missing field index or elements")
        return
      }
      result.append((index, elements))
    }
    return ok ? result : nil
  }

  private mutating func newElements() throws(JSONReadError)
    -> [(path: [Int], value: ReadValue<Value>)]?
  {
    var result: [(path: [Int], value: ReadValue<Value>)] = []
    let ok = try array("newElements") { (this, position) throws(JSONReadError) in
      func name() -> String { "newElements[\(position)]" }
      var path: [Int]?
      var value: ReadValue<Value>?
      guard
        try this.object(
          name(), fields: WireFields.element,
          { (this, key) throws(JSONReadError) in
            if key == "path" {
              if this.reader.isNull() { this.refuse("\(name()).path: null") }
              path = try this.path("\(name()).path")
            }
            if key == "value" { value = try this.value() }
          }) != nil
      else { return }
      guard let path, let value else {
        this.refuse("\(name()): missing field path or value")
        return
      }
      result.append((path, value))
    }
    return ok ? result : nil
  }

  private mutating func digest() throws(JSONReadError) -> StreamDigest? {
    var sections: [StreamDigest.Section] = []
    let ok = try array("digest") { (this, position) throws(JSONReadError) in
      func name() -> String { "digest[\(position)]" }
      guard this.reader.peek() == UInt8(ascii: "[") else {
        try this.skip()
        this.refuse("\(name()): expected [count, \"hash\"]")
        return
      }
      this.reader.index += 1
      let count = this.integer("\(name())[0]")
      try this.checkPending()
      try this.reader.expect(UInt8(ascii: ","))
      let text = this.string("\(name())[1]")
      try this.checkPending()
      try this.reader.expect(UInt8(ascii: "]"))
      guard let count, let text else { return }
      guard count >= 0, let hash = StreamDigest.hash(hex: text) else {
        this.refuse("\(name()): [\(count), \"\(text)\"] is not a count and 16 hexadecimal digits")
        return
      }
      sections.append(StreamDigest.Section(count: count, hash: hash))
    }
    return ok ? StreamDigest(sections: sections) : nil
  }
}

/// The fields of the format's own objects.
enum WireFields {
  static let changeset: Set<String> = [
    "deletedSectionRanges", "insertedSectionRanges", "reloadedSectionRanges", "movedSections",
    "deletedElements", "insertedElements", "reloadedElements", "movedElements",
  ]
  static let move: Set<String> = ["from", "to"]
  static let sectionElements: Set<String> = ["index", "elements"]
  static let element: Set<String> = ["path", "value"]
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
      if let version = Self.firstVersion(bytes), version != 1, version != 2 {
        throw fail(.unsupportedVersion, "version \(version); this reader reads versions 1 and 2")
      }
      throw fail(.malformed, problem)
    }
    guard let v = fields.v, let type = fields.type, let seq = fields.seq else {
      throw fail(.malformed, "missing field v, type or seq")
    }
    guard v == 1 || v == 2 else {
      throw fail(.unsupportedVersion, "version \(v); this reader reads versions 1 and 2")
    }
    if v == 1, fields.digest != nil {
      throw fail(.malformed, "digest: no such field in version 1")
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
      for entry in fields.newElements ?? [] { add(entry.value) }
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
    let sectionValues = fields.sections.map { $0.map { $0.map(resolve) } }
    let newSectionValues = fields.newSections.map {
      $0.map { ($0.index, $0.elements.map(resolve)) }
    }
    let newElementValues = fields.newElements.map { $0.map { ($0.path, resolve($0.value)) } }

    guard (0...StreamLine.maximumSequence).contains(seq) else {
      throw fail(.outOfRange, "seq \(seq) is out of range 0...\(StreamLine.maximumSequence)")
    }
    switch type {
    case "snapshot":
      guard let stream = fields.stream, !stream.isEmpty, stream.utf8.count <= 256 else {
        throw fail(.malformed, "a snapshot needs field stream, 1 to 256 bytes")
      }
      guard let sections = sectionValues else {
        throw fail(.malformed, "a snapshot needs field sections")
      }
      guard fields.changeset == nil, fields.newSections == nil, fields.newElements == nil,
        fields.digest == nil
      else {
        throw fail(.malformed, "a snapshot has no changeset, newSections, newElements or digest")
      }
      return .snapshot(StreamSnapshot(stream: stream, sequence: seq, sections: sections))
    case "changeset":
      guard let changeset = fields.changeset else {
        throw fail(.malformed, "a changeset line needs field changeset")
      }
      if let violation = changeset.invariantViolation() {
        throw fail(
          .malformed,
          "changeset.\(violation.fieldDescription) = \(violation.value) \(violation.reason)")
      }
      guard fields.sections == nil, fields.stream == nil else {
        throw fail(.malformed, "a changeset line has no sections or stream (a snapshot's fields)")
      }
      var sections: [Int: [Value]] = [:]
      var previousIndex = -1
      for (position, entry) in (newSectionValues ?? []).enumerated() {
        guard entry.0 > previousIndex else {
          throw fail(
            .malformed,
            "newSections[\(position)]: index \(entry.0) is negative, repeated or not ascending")
        }
        previousIndex = entry.0
        sections[entry.0] = entry.1
      }
      var elements: [IndexPath: Value] = [:]
      elements.reserveCapacity(newElementValues?.count ?? 0)
      var previousPath: IndexPath?
      for (position, entry) in (newElementValues ?? []).enumerated() {
        let path = entry.0
        guard path.count == 2, path[0] >= 0, path[1] >= 0 else {
          throw fail(
            .outOfRange,
            "newElements[\(position)]: path \(path) is not [section, element] with both 0 or more")
        }
        let indexPath = IndexPath(item: path[1], section: path[0])
        guard previousPath.map({ $0 < indexPath }) ?? true else {
          throw fail(
            .malformed, "newElements[\(position)]: path \(path) is repeated or not ascending")
        }
        previousPath = indexPath
        elements[indexPath] = entry.1
      }
      return .changeset(
        StreamChangeset(
          sequence: seq, changeset: changeset, sections: sections, elements: elements,
          digest: fields.digest))
    default:
      throw fail(.malformed, "type \"\(type)\" is neither snapshot nor changeset")
    }
  }

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
      guard (try? reader.skipValue()) != nil else { return nil }
    } while (try? reader.next(close: UInt8(ascii: "}"))) == true
    return nil
  }
}
