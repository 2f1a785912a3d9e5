/// The keys of one of the format's objects, as strings and as bytes: a key read from a line is
/// matched against the bytes, and the string of the key it matches is handed on, so that reading
/// a known key builds no string (building one cost about a thousand instructions a key, a
/// fifth of reading a changeset line).
struct WireKeys {
  let names: [String]
  let bytes: [[UInt8]]

  init(_ names: [String]) {
    self.names = names
    bytes = names.map { Array($0.utf8) }
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
