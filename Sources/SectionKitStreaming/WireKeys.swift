import Foundation

/// The keys of one of the format's objects, as an enumeration whose raw values are the positions
/// of its cases: a key read from a line is matched against their bytes, and the reader switches
/// on the case, so that reading a known key builds no string and compares none (building one
/// cost about a thousand instructions a key; comparing a key with each case of a `switch` over
/// strings, about a hundred a case).
protocol WireKey: RawRepresentable, CaseIterable where RawValue == Int {
  /// The keys' names and bytes, in the order of the raw values.
  static var keys: WireKeys { get }
}

extension WireKey {
  /// The key as it is written on the wire.
  var name: String { Self.keys.names[rawValue] }
}

/// The names of a ``WireKey`` type's cases, as strings and as bytes.
struct WireKeys: Sendable {
  let names: [String]
  let bytes: [[UInt8]]

  /// The keys of `type`, named as its cases are (the wire's spelling).
  init<Key: WireKey>(_ type: Key.Type) {
    let cases = Array(Key.allCases)
    precondition(cases.count <= 64, "WireKeys: \(cases.count) keys, more than the 64 Found holds")
    for (position, key) in cases.enumerated() {
      precondition(key.rawValue == position, "WireKeys: \(key) has raw value \(key.rawValue)")
    }
    names = cases.map { "\($0)" }
    bytes = names.map { Array($0.utf8) }
  }

  /// The position of the key whose bytes are `raw`, or `nil`.
  @inline(__always)
  func position(of raw: UnsafeBufferPointer<UInt8>) -> Int? {
    for position in bytes.indices where bytes[position].count == raw.count {
      let equal = bytes[position].withUnsafeBufferPointer {
        memcmp($0.baseAddress!, raw.baseAddress!, raw.count) == 0
      }
      if equal { return position }
    }
    return nil
  }

  /// The keys of an object read so far: a bit per key (no allocation).
  struct Found<Key: WireKey> {
    private var bits: UInt64 = 0

    /// Records `key`; `false` when it was already found.
    @inline(__always)
    mutating func insert(_ key: Key) -> Bool {
      let bit: UInt64 = 1 << UInt64(key.rawValue)
      defer { bits |= bit }
      return bits & bit == 0
    }

    /// Whether `key` was found.
    func contains(_ key: Key) -> Bool { bits & (1 << UInt64(key.rawValue)) != 0 }
  }
}

/// A key read from a line: one of the object's, or another string (which the format refuses).
enum ReadKey<Key: WireKey> {
  case known(Key)
  case other(String)
}

extension JSONReader {
  /// The key at the reader: one of `Key`'s, read without building a string, when it is written
  /// without escapes; otherwise any string, as ``readString()`` reads it, matched by name.
  ///
  /// - Complexity: O(n + k) for a key of n bytes and k keys.
  mutating func readKey<Key: WireKey>(_ type: Key.Type) throws(JSONReadError) -> ReadKey<Key> {
    if peek() == UInt8(ascii: "\"") {
      let start = index + 1
      var end = start
      while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") {
        end += 1
      }
      if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if let position = Key.keys.position(of: raw) {
          index = end + 1
          return .known(Key(rawValue: position)!)
        }
      }
    }
    let name = try readString()
    guard let position = Key.keys.names.firstIndex(of: name) else { return .other(name) }
    return .known(Key(rawValue: position)!)
  }
}
