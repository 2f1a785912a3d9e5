import Foundation
import SectionKit

// MARK: A snapshot's labels and a changeset's digest

extension LineReader {
  /// A snapshot's `labels`: an array of objects with an optional `id` and `header`, strings.
  /// (Also read alone, for a snapshot page's `labels`.)
  mutating func labels() throws(JSONReadError) -> [StreamSectionLabel]? {
    var result: [StreamSectionLabel] = []
    let ok = try array("labels") { (this, position) throws(JSONReadError) in
      func name() -> String { "labels[\(position)]" }
      var label = StreamSectionLabel()
      guard
        try this.object(
          name(), fields: WireField.Label.self,
          { (this, key) throws(JSONReadError) in
            if this.reader.isNull() { this.refuse("\(name()).\(key.name): null") }
            let text = this.string("\(name()).\(key.name)")
            if key == .id { label.id = text } else { label.header = text }
          }) != nil
      else { return }
      result.append(label)
    }
    return ok ? result : nil
  }

  mutating func digest() throws(JSONReadError) -> StreamDigest? {
    var sections: [StreamDigest.Section] = []
    let ok = try array("digest") { (this, position) throws(JSONReadError) in
      if let section = this.writtenDigestSection() {
        sections.append(section)
        return
      }
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

  /// `[count,"hash"]`, a section of a digest as this library writes it (a plain integer, 16
  /// lowercase hexadecimal digits, no whitespace), read from the bytes without a string; `nil`,
  /// the reader as it was, for any other shape, which ``digest()`` then reads and judges.
  private mutating func writtenDigestSection() -> StreamDigest.Section? {
    let saved = reader
    reader.skipWhitespace()
    guard reader.consume(literal: "["), let count = reader.readPlainInteger(),
      reader.index + 20 <= reader.bytes.count,
      reader.bytes[reader.index] == UInt8(ascii: ","),
      reader.bytes[reader.index + 1] == UInt8(ascii: "\""),
      reader.bytes[reader.index + 18] == UInt8(ascii: "\""),
      reader.bytes[reader.index + 19] == UInt8(ascii: "]"),
      let hash = StreamDigest.hash(
        hex: UnsafeBufferPointer(rebasing: reader.bytes[reader.index + 2..<reader.index + 18]))
    else {
      reader = saved
      return nil
    }
    reader.index += 20
    return StreamDigest.Section(count: count, hash: hash)
  }
}
