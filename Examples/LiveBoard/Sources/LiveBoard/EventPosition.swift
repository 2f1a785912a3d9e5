import SectionKitStreaming

/// A stream position written as an event id, `stream#sequence`: in `id:` lines, the
/// `Last-Event-ID` header, `?after=` and a command batch's `seenAt`.
public enum EventPosition {
  /// The id of the update at `position`.
  public static func format(_ position: StreamPosition) -> String {
    "\(position.stream)#\(position.sequence)"
  }

  /// The position in `text`, or `nil` for anything else: garbage, a negative or huge sequence
  /// number, a stream identifier longer than 256 bytes or with characters a stream's never has.
  /// A client with such an id is sent a snapshot, never an error.
  public static func parse(_ text: some StringProtocol) -> StreamPosition? {
    guard text.utf8.count <= 300, let hash = text.lastIndex(of: "#") else { return nil }
    let stream = text[..<hash]
    let digits = text[text.index(after: hash)...]
    guard (1...256).contains(stream.utf8.count),
      stream.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || isAlphanumeric($0) }),
      (1...16).contains(digits.utf8.count),
      digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
      let sequence = Int(digits), sequence <= StreamLine.maximumSequence
    else { return nil }
    return StreamPosition(stream: String(stream), sequence: sequence)
  }

  private static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
  }
}
