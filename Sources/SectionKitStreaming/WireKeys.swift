/// The keys of one of the format's objects, as strings and as bytes: a key read from a line is
/// matched against the bytes, and the string of the key it matches is handed on, so that reading
/// a known key builds no string (building one cost about a thousand instructions a key, a
/// fifth of reading a changeset line).
struct WireKeys {
  let names: [String]
  let bytes: [[UInt8]]

  init(_ names: [String]) {
    precondition(names.count <= 64, "WireKeys: \(names.count) keys, more than the 64 Found holds")
    self.names = names
    bytes = names.map { Array($0.utf8) }
  }

  /// The keys of an object read so far: a bit per key of its ``WireKeys`` (no allocation).
  struct Found {
    let keys: WireKeys
    private var bits: UInt64 = 0

    init(keys: WireKeys) {
      self.keys = keys
    }

    /// Records the key at `position` of ``keys``; `false` when it was already found.
    mutating func insert(_ position: Int) -> Bool {
      let bit: UInt64 = 1 << position
      defer { bits |= bit }
      return bits & bit == 0
    }

    /// Whether the key `name` was found.
    func contains(_ name: String) -> Bool {
      keys.names.firstIndex(of: name).map { bits & (1 << $0) != 0 } ?? false
    }
  }
}

extension JSONReader {
  /// The key at the reader: one of `keys`, read without building a string, when it is written
  /// without escapes; otherwise any string, as ``readString()`` reads it.
  ///
  /// - Complexity: O(n + k) for a key of n bytes and k keys.
  mutating func readKey(_ keys: WireKeys) throws(JSONReadError) -> String {
    if peek() == UInt8(ascii: "\"") {
      let start = index + 1
      var end = start
      while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") {
        end += 1
      }
      if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
        for (position, key) in keys.bytes.enumerated()
        where key.count == raw.count && key.elementsEqual(raw) {
          index = end + 1
          return keys.names[position]
        }
      }
    }
    return try readString()
  }
}
