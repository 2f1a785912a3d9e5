import Foundation
import SectionKit

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
  /// Whether the reader found that ``changeset`` keeps its invariants
  /// (`Changeset.invariantViolation()` finds none), so that they are not checked again.
  var changesetChecked = false
  var newSections: [(index: Int, elements: [ReadValue<Value>], label: StreamSectionLabel)]?
  var newElements: ReadElements<Value>?
  var digest: StreamDigest?
  /// A snapshot's labels (version 4).
  var labels: [StreamSectionLabel]?
  /// The first field of a label read (`labels`, `newSections[2].id`): refused in a line of a
  /// version before 4.
  var labelField: String?
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
  /// The first field of a label read (``LineFields/labelField``).
  var labelField: String?
  /// What the reader saw of the changeset's element lists.
  private var elementLists = ElementLists()

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
    var seen = WireKeys.Found<WireField.Line>()
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
        let read = try reader.readKey(WireField.Line.self)
        try reader.expect(UInt8(ascii: ":"))
        let key: WireField.Line
        switch read {
        case .known(let known): key = known
        case .other(let name):
          // Another key is refused where it first comes: whether it repeats changes nothing.
          if reader.isNull() {
            refuse("\(name): null where a value was expected (leave the field out instead)")
          }
          refuse("\(name): no such field in version \(StreamLine.version)")
          try skip()
          continue
        }
        guard seen.insert(key) else {
          refuse("\(key.name): the key \(key.name) is repeated")
          try skip()
          continue
        }
        if reader.isNull() {
          refuse("\(key.name): null where a value was expected (leave the field out instead)")
        }
        switch key {
        case .v: fields.v = integer("v")
        case .seq: fields.seq = integer("seq")
        case .type: fields.type = string("type")
        case .stream: fields.stream = string("stream")
        case .sections: fields.sections = try sections("sections")
        case .changeset:
          fields.changeset = try changeset()
          fields.changesetChecked = fields.changeset != nil && elementLists.checked
        case .newSections: fields.newSections = try newSections()
        case .newElements: fields.newElements = try newElements()
        case .digest: fields.digest = try digest()
        case .labels:
          fields.labels = try labels()
          labelField = labelField ?? "labels"
        }
        try checkPending()
      } while try reader.next(close: UInt8(ascii: "}"))
    }
    reader.skipWhitespace()
    guard reader.atEnd else { throw reader.syntax("bytes after the object") }
    if fields.v == nil, !seen.contains(.v) { refuse("missing field v (the format version)") }
    if fields.type == nil, !seen.contains(.type) { refuse("missing field type") }
    if fields.seq == nil, !seen.contains(.seq) { refuse("missing field seq") }
    fields.labelField = labelField
    return fields
  }

  mutating func skip() throws(JSONReadError) {
    if let problem = try reader.skipValue() { refuse(problem) }
  }

  // MARK: Fields

  /// An integer field, or `nil` (with the problem recorded).
  mutating func integer(_ field: @autoclosure () -> String) -> Int? {
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

  mutating func checkPending() throws(JSONReadError) {
    if let error = pending {
      pending = nil
      throw error
    }
  }

  mutating func string(_ field: String) -> String? {
    do {
      if reader.peek() == UInt8(ascii: "\"") { return try reader.readString() }
      try skip()
      refuse("\(field): expected a string")
    } catch {
      pending = error
    }
    return nil
  }

  /// The room reserved in a list of values, paths or new elements when its first element is
  /// read: a list of a few grows without reallocating (growing from one, a list of ten took
  /// four allocations).
  static var firstCapacity: Int { 16 }

  /// Reads an array, calling `element` for each element; refuses anything else.
  mutating func array(
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

  /// Reads an object of the format's, with exactly the keys of `Key` (those it finds are
  /// handed to `member`); returns the keys it found, or `nil` when it is not an object.
  mutating func object<Key: WireKey>(
    _ field: @autoclosure () -> String, fields: Key.Type,
    _ member: (inout Self, Key) throws(JSONReadError) -> Void
  ) throws(JSONReadError) -> WireKeys.Found<Key>? {
    guard reader.peek() == UInt8(ascii: "{") else {
      try skip()
      refuse("\(field()): expected an object")
      return nil
    }
    reader.index += 1
    var found = WireKeys.Found<Key>()
    if reader.consume(UInt8(ascii: "}")) { return found }
    repeat {
      let read = try reader.readKey(Key.self)
      try reader.expect(UInt8(ascii: ":"))
      switch read {
      case .other(let name):
        // An unknown key is refused where it first comes: whether it repeats changes nothing.
        refuse("\(field()).\(name): no such field in version \(StreamLine.version)")
        try skip()
      case .known(let key):
        if found.insert(key) {
          try member(&self, key)
          try checkPending()
        } else {
          refuse("\(field()).\(key.name): the key \(key.name) is repeated")
          try skip()
        }
      }
    } while try reader.next(close: UInt8(ascii: "}"))
    return found
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
    let ok = try array(field()) { (this, position) throws(JSONReadError) in
      if position == 0 { result.reserveCapacity(Self.firstCapacity) }
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

  /// `[a, b]`, two integers written plainly (``JSONReader/readPlainInteger()``), read without
  /// building an array: the common shape of an index path and of a range. `nil`, the reader
  /// where it was, for anything else, which ``path(_:)`` then reads and judges.
  private mutating func pair() -> (Int, Int)? {
    if let pair = reader.readTightPair() { return pair }
    let start = reader.index
    guard reader.consume(UInt8(ascii: "[")),
      let first = reader.readPlainInteger(),
      reader.consume(UInt8(ascii: ",")),
      let second = reader.readPlainInteger(),
      reader.consume(UInt8(ascii: "]"))
    else {
      reader.index = start
      return nil
    }
    return (first, second)
  }

  /// An index path: ``pair()``, or any array of integers ``path(_:)`` reads.
  private mutating func indexPath(_ field: @autoclosure () -> String) throws(JSONReadError)
    -> IndexPath?
  {
    if let (section, item) = pair() { return IndexPath(item: item, section: section) }
    return try path(field()).map { IndexPath(indexes: $0) }
  }

  /// The paths of a changeset's element list, `list` (``ElementLists/List``), followed in
  /// ``elementLists`` as they are read.
  private mutating func paths(_ field: @autoclosure () -> String, list: ElementLists.List)
    throws(JSONReadError) -> [IndexPath]
  {
    if let paths = tightPaths(list: list) { return paths }
    var result: [IndexPath] = []
    var last = (-1, -1)
    _ = try array(field()) { (this, position) throws(JSONReadError) in
      if position == 0 { result.reserveCapacity(Self.firstCapacity) }
      if let pair = this.pair() {
        this.elementLists.follow(pair, after: &last, in: list)
        result.append(IndexPath(item: pair.1, section: pair.0))
        return
      }
      this.elementLists.checked = false
      if let path = try this.indexPath("\(field())[\(position)]") { result.append(path) }
    }
    return result
  }

  /// A list of paths as the encoder writes it, `[[a,b],[c,d]]` without whitespace, read in one
  /// loop (no closure and no checks of the general reader per path); `nil`, the reader and
  /// ``elementLists`` as they were, for anything else, which ``paths(_:list:)`` then reads the
  /// general way and judges.
  private mutating func tightPaths(list: ElementLists.List) -> [IndexPath]? {
    let (start, mark) = (reader.index, elementLists.mark)
    guard reader.consume(literal: "[") else { return nil }
    var result: [IndexPath] = []
    if reader.consume(literal: "]") { return result }
    result.reserveCapacity(Self.firstCapacity)
    var last = (-1, -1)
    while let pair = reader.readTightPair() {
      elementLists.follow(pair, after: &last, in: list)
      result.append(IndexPath(item: pair.1, section: pair.0))
      if reader.consume(literal: ",") { continue }
      if reader.consume(literal: "]") { return result }
      break
    }
    reader.index = start
    elementLists.reset(to: mark)
    return nil
  }

  private mutating func ranges(_ field: @autoclosure () -> String) throws(JSONReadError)
    -> [Range<Int>]
  {
    var result: [Range<Int>] = []
    _ = try array(field()) { (this, position) throws(JSONReadError) in
      func name() -> String { "\(field())[\(position)]" }
      let start = this.reader.index
      if let (lower, upper) = this.pair() {
        if lower <= upper {
          result.append(lower..<upper)
          return
        }
        this.reader.index = start  // not a range: read again below, to say why
      }
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
    let seen = try object("changeset", fields: WireField.Changeset.self) {
      (this, key) throws(JSONReadError) in
      func field() -> String { "changeset.\(key.name)" }
      if this.reader.isNull() {
        this.refuse("\(field()): null where a value was expected (leave the field out instead)")
        try this.skip()
        return
      }
      switch key {
      case .deletedSectionRanges, .insertedSectionRanges, .reloadedSectionRanges, .movedSections,
        .movedElements:
        // Checked by `Changeset.invariantViolation()`, unless every one is empty.
        let start = this.reader.index
        if !this.reader.consume(literal: "[]") { this.elementLists.checked = false }
        this.reader.index = start
      default: break
      }
      switch key {
      case .deletedSectionRanges: deletedSectionRanges = try this.ranges(field())
      case .insertedSectionRanges: insertedSectionRanges = try this.ranges(field())
      case .reloadedSectionRanges: reloadedSectionRanges = try this.ranges(field())
      case .deletedElements: deletedElements = try this.paths(field(), list: .deleted)
      case .insertedElements: insertedElements = try this.paths(field(), list: .inserted)
      case .reloadedElements: reloadedElements = try this.paths(field(), list: .reloaded)
      case .movedSections:
        _ = try this.array(field()) { (this, position) throws(JSONReadError) in
          func name() -> String { "\(field())[\(position)]" }
          var from: Int?
          var to: Int?
          guard
            let keys = try this.object(
              name(), fields: WireField.Move.self,
              { (this, key) in
                if this.reader.isNull() { this.refuse("\(name()).\(key.name): null") }
                switch key {
                case .from: from = this.integer("\(name()).from")
                case .to: to = this.integer("\(name()).to")
                }
              })
          else { return }
          guard let from, let to else {
            this.refuse("\(name()): missing field \(keys.contains(.from) ? "to" : "from")")
            return
          }
          movedSections.append(Changeset.SectionMove(from: from, to: to))
        }
      case .movedElements:
        _ = try this.array(field()) { (this, position) throws(JSONReadError) in
          func name() -> String { "\(field())[\(position)]" }
          var from: IndexPath?
          var to: IndexPath?
          guard
            let keys = try this.object(
              name(), fields: WireField.Move.self,
              {
                (this, key) throws(JSONReadError) in
                if this.reader.isNull() { this.refuse("\(name()).\(key.name): null") }
                switch key {
                case .from: from = try this.indexPath("\(name()).from")
                case .to: to = try this.indexPath("\(name()).to")
                }
              })
          else { return }
          guard let from, let to else {
            this.refuse("\(name()): missing field \(keys.contains(.from) ? "to" : "from")")
            return
          }
          movedElements.append(Changeset.Move(from: from, to: to))
        }
      }
    }
    guard seen != nil else { return nil }
    elementLists.checkDisjoint()
    // From the ranges as read: no `IndexSet` built, and a single element part held without a box.
    return Changeset(
      deletedSectionRanges: deletedSectionRanges, insertedSectionRanges: insertedSectionRanges,
      reloadedSectionRanges: reloadedSectionRanges, movedSections: movedSections,
      deletedElements: deletedElements, insertedElements: insertedElements,
      reloadedElements: reloadedElements, movedElements: movedElements)
  }

  private mutating func newSections() throws(JSONReadError)
    -> [(index: Int, elements: [ReadValue<Value>], label: StreamSectionLabel)]?
  {
    var result: [(index: Int, elements: [ReadValue<Value>], label: StreamSectionLabel)] = []
    let ok = try array("newSections") { (this, position) throws(JSONReadError) in
      func name() -> String { "newSections[\(position)]" }
      var index: Int?
      var elements: [ReadValue<Value>]?
      var label = StreamSectionLabel()
      guard
        try this.object(
          name(), fields: WireField.SectionElements.self,
          {
            (this, key) throws(JSONReadError) in
            if this.reader.isNull() { this.refuse("\(name()).\(key.name): null") }
            switch key {
            case .index: index = this.integer("\(name()).index")
            case .elements: elements = try this.values("\(name()).elements")
            case .id, .header:
              this.labelField = this.labelField ?? "\(name()).\(key.name)"
              let text = this.string("\(name()).\(key.name)")
              if key == .id { label.id = text } else { label.header = text }
            }
          }) != nil
      else { return }
      guard let index, let elements else {
        this.refuse("\(name()): missing field index or elements")
        return
      }
      result.append((index, elements, label))
    }
    return ok ? result : nil
  }

  private mutating func newElements() throws(JSONReadError) -> ReadElements<Value>? {
    var result = ReadElements<Value>()
    let ok = try array("newElements") { (this, position) throws(JSONReadError) in
      if position == 0 {
        result.reserveCapacity(this.estimatedCount(), direct: this.coding != .codable)
      }
      if let (pair, value) = try this.writtenElement() {
        if let value {
          result.append(value, at: IndexPath(item: pair.1, section: pair.0), pair: pair)
        }
        return
      }
      func name() -> String { "newElements[\(position)]" }
      var path: IndexPath?
      var value: ReadValue<Value>?
      guard
        try this.object(
          name(), fields: WireField.Element.self,
          { (this, key) throws(JSONReadError) in
            switch key {
            case .path:
              if this.reader.isNull() { this.refuse("\(name()).path: null") }
              path = try this.indexPath("\(name()).path")
            case .value: value = try this.value()
            }
          }) != nil
      else { return }
      guard let path, let value else {
        this.refuse("\(name()): missing field path or value")
        return
      }
      result.append(value, at: path, pair: nil)
    }
    return ok ? result : nil
  }

  /// About how many elements the array the reader is in holds, from the bytes left (at least
  /// ``firstCapacity``, at most 4,096 more): room reserved once, where growing a list of a
  /// thousand new elements from a few reallocated it eight times. A new element as the encoder
  /// writes it takes at least 20 bytes.
  private func estimatedCount() -> Int {
    max(Self.firstCapacity, min((reader.bytes.count - reader.index) / 24, 4_096))
  }

  /// `{"path":[a,b],"value":…}`, a new element as this library writes it, read without the
  /// general object reader: its path, and its value (`nil` when refused). `nil`, the reader as
  /// it was, for any other shape, which ``object(_:fields:_:)`` then reads and judges; what is
  /// read here is read as it would read it, in the same order, so a value's error is the same.
  /// What it reads is undone by restoring the reader's position, the problem of shape and the
  /// count of raw values (copying the whole reader retained and released its strings).
  private mutating func writtenElement() throws(JSONReadError)
    -> (pair: (Int, Int), value: ReadValue<Value>?)?
  {
    let (start, hadShape, savedRaws) = (reader.index, shape != nil, raws)
    reader.skipWhitespace()
    guard reader.consume(literal: #"{"path":"#), let pair = pair(),
      reader.consume(literal: #","value":"#)
    else {
      reader.index = start
      return nil
    }
    let value = try self.value()
    try checkPending()
    guard reader.consume(literal: "}") else {
      reader.index = start
      if !hadShape { shape = nil }
      raws = savedRaws
      return nil
    }
    return (pair, value)
  }
}
