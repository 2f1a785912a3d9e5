import Foundation

/// JSON written by hand, byte by byte, the way `JSONEncoder` writes it (with `.sortedKeys` and
/// `.withoutEscapingSlashes`): the same bytes for the same values.
enum JSONWriter {
  static func append(_ value: Int, to bytes: inout [UInt8]) {
    if value >= 0 && value < 10 {  // the most common: an index, a count
      bytes.append(UInt8(truncatingIfNeeded: value) &+ UInt8(ascii: "0"))
      return
    }
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    // The digits from the most significant one, each appended in place.
    var divisor: UInt = 1
    while magnitude / divisor >= 10 { divisor &*= 10 }
    while divisor > 0 {
      bytes.append(UInt8(truncatingIfNeeded: magnitude / divisor) &+ UInt8(ascii: "0"))
      magnitude %= divisor
      divisor /= 10
    }
  }

  private static let hex = Array("0123456789abcdef".utf8)

  /// A string, escaped as `JSONEncoder` escapes it: `"`, `\`, and the control characters
  /// (`\b`, `\t`, `\n`, `\f`, `\r`, otherwise `\u00xx`); everything else as it is.
  static func append(_ string: String, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    var string = string
    string.withUTF8 { utf8 in
      var start = 0
      for index in 0..<utf8.count {
        let byte = utf8[index]
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
          continue
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
        start = index + 1
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        default:
          bytes.append(contentsOf: [
            UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
            hex[Int(byte & 0xF)],
          ])
        }
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
    }
    bytes.append(UInt8(ascii: "\""))
  }

  static func appendRaw(_ text: StaticString, to bytes: inout [UInt8]) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }
}

/// Why a line is not read: `syntax` when it is not JSON at all, `shape` when it is JSON that the
/// format refuses (a missing, mistyped, unknown, repeated or `null` field).
enum JSONReadError: Error {
  case syntax(String)
  case shape(String)

  var text: String {
    switch self {
    case .syntax(let text): "not a JSON object: \(text)"
    case .shape(let text): text
    }
  }
}

/// A reader of JSON over the bytes of one line: one pass, no allocation but for the strings and
/// numbers it returns. Every method leaves `index` after what it read, whitespace skipped.
struct JSONReader {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0
  /// How deep arrays and objects nest inside a value read with ``skipValue(depth:)``.
  static let maximumDepth = 512

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  var atEnd: Bool { index >= bytes.count }

  func syntax(_ what: String) -> JSONReadError {
    .syntax("\(what) at byte \(index)")
  }

  @inline(__always)
  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  /// The next byte, whitespace skipped; `nil` at the end.
  @inline(__always)
  mutating func peek() -> UInt8? {
    skipWhitespace()
    return index < bytes.count ? bytes[index] : nil
  }

  @inline(__always)
  mutating func expect(_ byte: UInt8) throws(JSONReadError) {
    guard peek() == byte else {
      throw syntax("expected '\(Character(Unicode.Scalar(byte)))'")
    }
    index += 1
  }

  /// Consumes `byte` if it is next.
  @inline(__always)
  mutating func consume(_ byte: UInt8) -> Bool {
    guard peek() == byte else { return false }
    index += 1
    return true
  }

  /// Consumes `literal` if its bytes are next (whitespace not skipped).
  @inline(__always)
  mutating func consume(literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard index + count <= bytes.count,
      memcmp(bytes.baseAddress! + index, literal.utf8Start, count) == 0
    else { return false }
    index += count
    return true
  }

  /// After an element of an array or a member of an object: `true` when another follows
  /// (a comma), `false` at `close`. A comma before `close` is read as `JSONDecoder` reads it:
  /// as nothing.
  @inline(__always)
  mutating func next(close: UInt8) throws(JSONReadError) -> Bool {
    switch peek() {
    case UInt8(ascii: ","):
      index += 1
      if peek() == close {
        index += 1
        return false
      }
      return true
    case close:
      index += 1
      return false
    default: throw syntax("expected ',' or '\(Character(Unicode.Scalar(close)))'")
    }
  }

  // MARK: Strings

  /// A string; the reader is at its opening quote.
  mutating func readString() throws(JSONReadError) -> String {
    guard peek() == UInt8(ascii: "\"") else { throw syntax("expected a string") }
    index += 1
    let start = index
    // Eight bytes at a time while they are plain ASCII (no quote, backslash, control character
    // or byte of multi-byte UTF-8): about a fifth of the instructions of reading them one by one.
    if let base = bytes.baseAddress {
      while index + 8 <= bytes.count {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        guard !Self.holdsSpecialByte(word) else { break }
        index += 8
      }
    }
    // The common case: no escape.
    var bits: UInt8 = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
        index += 1
        // ASCII is UTF-8 as it is.
        if bits < 0x80 { return String(decoding: raw, as: UTF8.self) }
        guard let string = Self.string(utf8: raw) else {
          throw syntax("a string that is not UTF-8")
        }
        return string
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 { throw syntax("a control character in a string") }
      bits |= byte
      index += 1
    }
    return try readEscapedString(from: start)
  }

  /// Whether one of the eight bytes of `word` is a quote, a backslash, a control character
  /// (below 0x20) or not ASCII (0x80 or more): the exact tests of "a byte is zero" and "a byte is
  /// below n" on a whole word.
  @inline(__always)
  static func holdsSpecialByte(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
    let below20 = (word &- ones &* 0x20) & ~word & highs != 0
    return word & highs != 0 || below20 || hasZeroByte(word ^ (ones &* 0x22))
      || hasZeroByte(word ^ (ones &* 0x5C))
  }

  /// The rest of a string whose bytes from `start` (after its opening quote) up to the reader
  /// hold no escape (all of it, for the test of ``readString()``'s fast path): decoded byte by
  /// byte.
  mutating func readEscapedString(from start: Int) throws(JSONReadError) -> String {
    var decoded = Array(bytes[start..<index])
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        let string = decoded.withUnsafeBufferPointer(Self.string(utf8:))
        guard let string else { throw syntax("a string that is not UTF-8") }
        return string
      case UInt8(ascii: "\\"):
        index += 1
        guard index < bytes.count else { break }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
          var scalar = try readHex4()
          if (0xD800..<0xDC00).contains(scalar) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
              bytes[index + 1] == UInt8(ascii: "u")
            else { throw syntax("a lone surrogate in a string") }
            index += 2
            let low = try readHex4()
            guard (0xDC00..<0xE000).contains(low) else {
              throw syntax("a lone surrogate in a string")
            }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          } else if (0xDC00..<0xE000).contains(scalar) {
            throw syntax("a lone surrogate in a string")
          }
          decoded.append(contentsOf: Array(String(Unicode.Scalar(scalar)!).utf8))
        default: throw syntax("an invalid escape in a string")
        }
      default:
        if byte < 0x20 { throw syntax("a control character in a string") }
        decoded.append(byte)
        index += 1
      }
    }
    throw syntax("an unterminated string")
  }

  /// The string of `utf8`, or `nil` when it is not valid UTF-8: decoded with the repairs of
  /// `String(decoding:as:)`, and valid when nothing was repaired (the same bytes came out).
  /// `String(validating:as:)` is generic over the encoding and, not specialized, looks up type
  /// metadata: about 450 instructions a string, against about 60.
  static func string(utf8: UnsafeBufferPointer<UInt8>) -> String? {
    var string = String(decoding: utf8, as: UTF8.self)
    let same = string.withUTF8 { decoded in
      decoded.count == utf8.count
        && (utf8.isEmpty || memcmp(decoded.baseAddress!, utf8.baseAddress!, utf8.count) == 0)
    }
    return same ? string : nil
  }

  private mutating func readHex4() throws(JSONReadError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw syntax("an invalid \\u escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw syntax("an invalid \\u escape")
      }
      value = value << 4 | UInt32(digit)
      index += 1
    }
    return value
  }

  /// Skips a string without decoding it, checking its syntax and its UTF-8.
  private mutating func skipString() throws(JSONReadError) {
    _ = try readString()
  }

  // MARK: Numbers

  /// The bytes of a number, its syntax checked: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
  /// Whether it is written as a plain integer (no fraction, no exponent).
  private mutating func scanNumber() throws(JSONReadError) -> (Range<Int>, plain: Bool) {
    skipWhitespace()
    let start = index
    func digit(_ at: Int) -> Bool {
      at < bytes.count && bytes[at] >= UInt8(ascii: "0") && bytes[at] <= UInt8(ascii: "9")
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard digit(index) else { throw syntax("an invalid number") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else {
      while digit(index) { index += 1 }
    }
    var plain = true
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      plain = false
      index += 1
      guard digit(index) else { throw syntax("an invalid number") }
      while digit(index) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      plain = false
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard digit(index) else { throw syntax("an invalid number") }
      while digit(index) { index += 1 }
    }
    if digit(index) { throw syntax("an invalid number") }  // `01`
    return (start..<index, plain)
  }

  /// What a number field holds when it is not an integer.
  enum NotInteger: Error {
    /// Not a number at all (a string, `null`, an array…): the JSON is valid.
    case notANumber
    /// A number with a fraction, or out of the range of `Int`: its text.
    case number(String)
  }

  /// An integer as `JSONDecoder` reads an `Int`: a number whose value is an integer that fits
  /// (`1.0` and `1e0` are 1). Throws a syntax error for invalid JSON, ``NotInteger`` otherwise
  /// (the number then skipped).
  mutating func readInteger() throws(JSONReadError) -> Result<Int, NotInteger> {
    if let value = readPlainInteger() { return .success(value) }
    return try readNumberAsInteger()
  }

  /// The common case of ``readInteger()``: a non-negative integer of at most 18 digits (it
  /// cannot overflow), without a leading zero, a fraction or an exponent, read in place; `nil`,
  /// the reader after the whitespace, for anything else.
  @inline(__always)
  mutating func readPlainInteger() -> Int? {
    if let first = peek(), first &- UInt8(ascii: "0") < 10 {
      var cursor = index
      var value = 0
      while cursor < bytes.count, cursor - index < 18 {
        let digit = bytes[cursor] &- UInt8(ascii: "0")
        guard digit < 10 else { break }
        value = value &* 10 &+ Int(digit)
        cursor += 1
      }
      let ends =
        cursor == bytes.count
        || !(bytes[cursor] &- UInt8(ascii: "0") < 10 || bytes[cursor] == UInt8(ascii: ".")
          || bytes[cursor] | 0x20 == UInt8(ascii: "e"))
      if ends && (first != UInt8(ascii: "0") || cursor == index + 1) {
        index = cursor
        return value
      }
    }
    return nil
  }

  /// `[a,b]` exactly as the encoder writes an index path or a range: two plain integers (as
  /// ``readPlainInteger()`` reads them) with no whitespace, read through the buffer's pointer;
  /// `nil`, the reader where it was, for anything else (which the callers then read the general
  /// way). About 60 instructions for a path of two 4-digit indexes, against about 190.
  @inline(__always)
  mutating func readTightPair() -> (Int, Int)? {
    guard index < bytes.count, let base = bytes.baseAddress, base[index] == UInt8(ascii: "[")
    else { return nil }
    guard let (first, comma) = Self.plainDigits(base, from: index + 1, end: bytes.count),
      comma < bytes.count, base[comma] == UInt8(ascii: ","),
      let (second, close) = Self.plainDigits(base, from: comma + 1, end: bytes.count),
      close < bytes.count, base[close] == UInt8(ascii: "]")
    else { return nil }
    index = close + 1
    return (first, second)
  }

  /// The value of the digits from `start`, and where they end, when they are 1 to 18 digits
  /// without a leading zero; `nil` otherwise.
  @inline(__always)
  private static func plainDigits(_ base: UnsafePointer<UInt8>, from start: Int, end: Int)
    -> (Int, Int)?
  {
    var cursor = start
    var value = 0
    while cursor < end {
      let digit = base[cursor] &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      value = value &* 10 &+ Int(digit)
      cursor += 1
    }
    let count = cursor - start
    guard count > 0, count <= 18, count == 1 || base[start] != UInt8(ascii: "0") else {
      return nil
    }
    return (value, cursor)
  }

  /// ``readInteger()`` without its fast path: the number's syntax checked, then its value.
  mutating func readNumberAsInteger() throws(JSONReadError) -> Result<Int, NotInteger> {
    guard let first = peek() else { throw syntax("the line ends where a value was expected") }
    switch first {
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): break
    default:
      try skipValue()
      return .failure(.notANumber)
    }
    let (range, plain) = try scanNumber()
    if plain {
      var value = 0
      var cursor = range.lowerBound
      let negative = bytes[cursor] == UInt8(ascii: "-")
      if negative { cursor += 1 }
      var overflow = false
      while cursor < range.upperBound {
        let digit = Int(bytes[cursor] - UInt8(ascii: "0"))
        let (times, o1) = value.multipliedReportingOverflow(by: 10)
        let (sum, o2) =
          negative
          ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
        if o1 || o2 {
          overflow = true
          break
        }
        value = sum
        cursor += 1
      }
      if !overflow { return .success(value) }
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    guard let number = Double(text), number.rounded() == number,
      number >= -9_223_372_036_854_775_808.0, number < 9_223_372_036_854_775_808.0
    else { return .failure(.number(text)) }
    return .success(Int(number))
  }

  // MARK: Any value

  /// Skips one value, checking its syntax (and that no object repeats a key, which the format
  /// refuses even inside the application's values: readers disagree on which value wins).
  /// Returns a shape problem found inside (a repeated key), the syntax being checked to the end.
  @discardableResult
  mutating func skipValue(depth: Int = 0) throws(JSONReadError) -> String? {
    guard depth < Self.maximumDepth else { throw syntax("values nested too deeply") }
    guard let byte = peek() else { throw syntax("the line ends where a value was expected") }
    var problem: String?
    switch byte {
    case UInt8(ascii: "\""): try skipString()
    case UInt8(ascii: "{"):
      index += 1
      if consume(UInt8(ascii: "}")) { return nil }
      var keys: Set<String> = []
      repeat {
        let key = try readString()
        if !keys.insert(key).inserted, problem == nil { problem = "the key \(key) is repeated" }
        try expect(UInt8(ascii: ":"))
        let inner = try skipValue(depth: depth + 1)
        if problem == nil { problem = inner }
      } while try next(close: UInt8(ascii: "}"))
    case UInt8(ascii: "["):
      index += 1
      if consume(UInt8(ascii: "]")) { return nil }
      repeat {
        let inner = try skipValue(depth: depth + 1)
        if problem == nil { problem = inner }
      } while try next(close: UInt8(ascii: "]"))
    case UInt8(ascii: "t"): try literal("true")
    case UInt8(ascii: "f"): try literal("false")
    case UInt8(ascii: "n"): try literal("null")
    default: _ = try scanNumber()
    }
    return problem
  }

  private mutating func literal(_ word: StaticString) throws(JSONReadError) {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { throw syntax("an invalid literal") }
    for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
      throw syntax("an invalid literal")
    }
    index += count
  }

  /// Whether `null` is next (not consumed).
  mutating func isNull() -> Bool { peek() == UInt8(ascii: "n") }
}
