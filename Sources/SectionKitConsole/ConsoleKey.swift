/// A key read from a terminal in raw mode, decoded by ``ConsoleKeyDecoder``.
public enum ConsoleKey: Hashable, Sendable, CustomStringConvertible {
  /// A printable character (UTF-8 decoded; one grapheme's scalar at a time).
  case character(Character)
  /// The arrow keys.
  case up, down, left, right
  /// Page Up and Page Down.
  case pageUp, pageDown
  /// Home and End.
  case home, end
  /// Insert and the forward Delete key.
  case insert, delete
  /// Return (CR or LF), Tab, Backspace (DEL or BS) and a lone Escape.
  case enter, tab, backspace, escape
  /// Ctrl with a letter (`control("c")` for Ctrl-C, byte 3), for the control bytes that are not
  /// Return, Tab, Backspace or Escape.
  case control(Character)
  /// A function key, F1 to F12.
  case function(Int)
  /// Bytes that form no key: an escape sequence this decoder does not know or that is malformed,
  /// or invalid UTF-8. Kept whole, so an app can log them.
  case unknown([UInt8])

  /// `↑`, `PageDown`, `"a"`, `Ctrl-C`, `unknown [1B 5B 39 39 7A]`, and so on.
  public var description: String {
    switch self {
    case .character(let character): "\"\(character)\""
    case .up: "↑"
    case .down: "↓"
    case .left: "←"
    case .right: "→"
    case .pageUp: "PageUp"
    case .pageDown: "PageDown"
    case .home: "Home"
    case .end: "End"
    case .insert: "Insert"
    case .delete: "Delete"
    case .enter: "Enter"
    case .tab: "Tab"
    case .backspace: "Backspace"
    case .escape: "Escape"
    case .control(let letter): "Ctrl-\(letter.uppercased())"
    case .function(let number): "F\(number)"
    case .unknown(let bytes):
      "unknown [" + bytes.map { String($0, radix: 16, uppercase: true) }.joined(separator: " ")
        + "]"
    }
  }
}

/// Decodes the bytes a terminal in raw mode sends into ``ConsoleKey``s, across reads: a sequence
/// split between two reads (`ESC [` then `A`) is held until its end arrives.
///
/// ```swift
/// var decoder = ConsoleKeyDecoder()
/// decoder.decode(Array("j\u{1B}[".utf8))   // [.character("j")]; `ESC [` is held
/// decoder.decode(Array("5~".utf8))         // [.pageUp]
/// decoder.decode([0x1B])                   // []: Escape, or the start of a sequence?
/// decoder.flush()                          // [.escape]: nothing followed in time
/// ```
///
/// A lone Escape cannot be told from the start of a sequence until more bytes come or none do:
/// call ``flush()`` when no byte followed for a moment (``ConsoleApp`` waits 50 ms). Sequences
/// understood: CSI (`ESC [`) and SS3 (`ESC O`) arrows, Home, End, Page Up/Down, Insert, Delete
/// and F1–F12, with or without modifier parameters (`ESC [ 1 ; 5 A` is ↑); anything else that
/// is a complete sequence, or is malformed, is one ``ConsoleKey/unknown(_:)`` holding its bytes.
/// `ESC` followed by a plain character is Escape, then that character (Alt is not decoded).
public struct ConsoleKeyDecoder: Sendable {
  /// Bytes of a sequence or character not complete yet.
  private var pending: [UInt8] = []

  /// The longest CSI sequence kept waiting for its final byte; a longer one is malformed.
  static let maximumSequenceLength = 32

  /// Creates a decoder with nothing pending.
  public init() {}

  /// Whether bytes of an unfinished key are held (a lone Escape among them).
  public var hasPending: Bool { !pending.isEmpty }

  /// The keys `bytes` complete, in order, with any bytes held from earlier reads before them.
  ///
  /// - Complexity: O(n) for the n bytes held and given.
  public mutating func decode(_ bytes: some Sequence<UInt8>) -> [ConsoleKey] {
    pending.append(contentsOf: bytes)
    var keys: [ConsoleKey] = []
    var start = 0
    while start < pending.count {
      guard let (key, length) = Self.key(at: start, in: pending) else { break }
      if let key { keys.append(key) }
      start += length
    }
    pending.removeFirst(start)
    return keys
  }

  /// The keys held: no more bytes came, so a held Escape is the Escape key and an unfinished
  /// sequence or character is ``ConsoleKey/unknown(_:)`` (after a lone Escape, the rest is
  /// decoded as keys of its own).
  public mutating func flush() -> [ConsoleKey] {
    guard !pending.isEmpty else { return [] }
    let held = pending
    pending = []
    if held[0] == 0x1B {
      if held.count == 1 { return [.escape] }
      if held[1] == UInt8(ascii: "[") || held[1] == UInt8(ascii: "O") { return [.unknown(held)] }
      return [.escape] + decode(held.dropFirst()) + flush()
    }
    return [.unknown(held)]
  }

  /// The key starting at `start` and its length in bytes (a `nil` key for bytes that make none),
  /// or `nil` when the bytes there do not finish a key yet.
  private static func key(at start: Int, in bytes: [UInt8]) -> (ConsoleKey?, Int)? {
    let byte = bytes[start]
    switch byte {
    case 0x1B: return escapeSequence(at: start, in: bytes)
    case 0x0D, 0x0A: return (.enter, 1)
    case 0x09: return (.tab, 1)
    case 0x7F, 0x08: return (.backspace, 1)
    case 0x00: return (.control("@"), 1)
    case 0x01...0x1A: return (.control(Character(UnicodeScalar(byte + 0x60))), 1)
    case 0x1C...0x1F: return (.unknown([byte]), 1)
    case 0x20..<0x7F: return (.character(Character(UnicodeScalar(byte))), 1)
    default: return utf8Character(at: start, in: bytes)
    }
  }

  /// A UTF-8 encoded scalar of two to four bytes, or ``ConsoleKey/unknown(_:)`` for a byte that
  /// starts none or a sequence cut by a byte that does not continue it.
  private static func utf8Character(at start: Int, in bytes: [UInt8]) -> (ConsoleKey?, Int)? {
    let lead = bytes[start]
    let length: Int
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return (.unknown([lead]), 1)
    }
    var end = start + 1
    while end < start + length {
      guard end < bytes.count else { return nil }
      guard bytes[end] & 0xC0 == 0x80 else {
        return (.unknown(Array(bytes[start..<end])), end - start)
      }
      end += 1
    }
    let slice = bytes[start..<end]
    guard let text = String(validating: slice, as: UTF8.self), let character = text.first else {
      return (.unknown(Array(slice)), length)
    }
    return (.character(character), length)
  }

  /// An escape sequence at `start` (an `ESC` byte).
  private static func escapeSequence(at start: Int, in bytes: [UInt8]) -> (ConsoleKey?, Int)? {
    guard start + 1 < bytes.count else { return nil }
    let introducer = bytes[start + 1]
    if introducer == UInt8(ascii: "O") {
      // SS3: ESC O <final>.
      guard start + 2 < bytes.count else { return nil }
      let key: ConsoleKey =
        switch bytes[start + 2] {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        case UInt8(ascii: "P")...UInt8(ascii: "S"): .function(Int(bytes[start + 2]) - 0x4F)
        default: .unknown(Array(bytes[start...start + 2]))
        }
      return (key, 3)
    }
    guard introducer == UInt8(ascii: "[") else {
      // ESC then another key (Alt-x, or Escape pressed before it): Escape, then that key.
      return (.escape, 1)
    }
    // CSI: ESC [ parameters (0x30–0x3F) intermediates (0x20–0x2F) final (0x40–0x7E).
    var end = start + 2
    while end < bytes.count, (0x20...0x3F).contains(bytes[end]) { end += 1 }
    guard end < bytes.count else {
      if end - start >= maximumSequenceLength {
        return (.unknown(Array(bytes[start..<end])), end - start)
      }
      return nil
    }
    let final = bytes[end]
    guard (0x40...0x7E).contains(final) else {
      // Malformed: a byte no CSI sequence holds. The sequence so far is unknown; the byte is
      // decoded afresh (it may be an ESC starting the next key).
      return (.unknown(Array(bytes[start..<end])), end - start)
    }
    let sequence = Array(bytes[start...end])
    // Parameters are numbers separated by `;` (`ESC [ 1 ; 5 A`: ↑ with Ctrl, read as ↑);
    // anything else in them (a private marker such as `<` or `?`, an empty field) makes the
    // sequence unknown.
    let fields = bytes[(start + 2)..<end].split(
      separator: UInt8(ascii: ";"), omittingEmptySubsequences: false
    ).map { Int(String(decoding: $0, as: UTF8.self)) }
    let plain = end == start + 2
    guard plain || fields.allSatisfy({ $0 != nil }) else {
      return (.unknown(sequence), sequence.count)
    }
    let key: ConsoleKey
    switch final {
    case UInt8(ascii: "A"): key = .up
    case UInt8(ascii: "B"): key = .down
    case UInt8(ascii: "C"): key = .right
    case UInt8(ascii: "D"): key = .left
    case UInt8(ascii: "H"): key = .home
    case UInt8(ascii: "F"): key = .end
    case UInt8(ascii: "~") where !plain:
      switch fields[0]! {
      case 1, 7: key = .home
      case 2: key = .insert
      case 3: key = .delete
      case 4, 8: key = .end
      case 5: key = .pageUp
      case 6: key = .pageDown
      case let number: key = functionKeys[number].map { .function($0) } ?? .unknown(sequence)
      }
    default: key = .unknown(sequence)
    }
    return (key, sequence.count)
  }

  /// The `ESC [ n ~` numbers of F1–F12.
  private static let functionKeys: [Int: Int] = [
    11: 1, 12: 2, 13: 3, 14: 4, 15: 5, 17: 6, 18: 7, 19: 8, 20: 9, 21: 10, 23: 11, 24: 12,
  ]
}
