import Foundation
import SectionKitConsole
import Testing

/// `ConsoleKeyDecoder`: keys, sequences split across reads, malformed sequences.
@Suite struct ConsoleKeyDecoderTests {
  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test func plainKeysAndControlBytes() {
    var decoder = ConsoleKeyDecoder()
    #expect(
      decoder.decode(Self.bytes("aZ 1\r\n\t") + [0x7F, 0x08, 0x03, 0x04, 0x00])
        == [
          .character("a"), .character("Z"), .character(" "), .character("1"), .enter, .enter,
          .tab, .backspace, .backspace, .control("c"), .control("d"), .control("@"),
        ])
    #expect(!decoder.hasPending)
  }

  @Test func escapeSequences() {
    var decoder = ConsoleKeyDecoder()
    let keys = decoder.decode(
      Self.bytes("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D\u{1B}OA\u{1B}[H\u{1B}[F\u{1B}OH\u{1B}OF"))
    #expect(keys == [.up, .down, .right, .left, .up, .home, .end, .home, .end])
    let tilde = decoder.decode(
      Self.bytes("\u{1B}[1~\u{1B}[2~\u{1B}[3~\u{1B}[4~\u{1B}[5~\u{1B}[6~\u{1B}[7~\u{1B}[8~"))
    #expect(tilde == [.home, .insert, .delete, .end, .pageUp, .pageDown, .home, .end])
    #expect(
      decoder.decode(Self.bytes("\u{1B}OP\u{1B}[15~\u{1B}[24~\u{1B}[1;5A\u{1B}[5;2~"))
        == [.function(1), .function(5), .function(12), .up, .pageUp])
  }

  @Test func utf8Characters() {
    var decoder = ConsoleKeyDecoder()
    #expect(
      decoder.decode(Self.bytes("é日😀")) == [.character("é"), .character("日"), .character("😀")])
  }

  /// Every sequence and multi-byte character cut at every place gives the same keys as whole.
  @Test func everySplitPoint_givesTheSameKeys() {
    let input = Self.bytes("j\u{1B}[5~é\u{1B}[1;5B日\u{1B}OHx\u{1B}[24~😀\u{1B}[6~")
    var whole = ConsoleKeyDecoder()
    let expected = whole.decode(input)
    #expect(expected.count == 10)
    for cut in 0...input.count {
      for secondCut in cut...input.count {
        var decoder = ConsoleKeyDecoder()
        var keys = decoder.decode(input[..<cut])
        keys += decoder.decode(input[cut..<secondCut])
        keys += decoder.decode(input[secondCut...])
        #expect(keys == expected, "cut at \(cut) and \(secondCut)")
        #expect(!decoder.hasPending)
      }
    }
  }

  @Test func aSplitSequence_isHeldUntilItsEnd() {
    var decoder = ConsoleKeyDecoder()
    #expect(decoder.decode(Self.bytes("j\u{1B}")) == [.character("j")])
    #expect(decoder.hasPending)
    #expect(decoder.decode(Self.bytes("[")).isEmpty)
    #expect(decoder.decode(Self.bytes("5")).isEmpty)
    #expect(decoder.decode(Self.bytes("~k")) == [.pageUp, .character("k")])
    #expect(!decoder.hasPending)
  }

  @Test func aLoneEscape_isEscapeOnceFlushed() {
    var decoder = ConsoleKeyDecoder()
    #expect(decoder.decode([0x1B]).isEmpty)
    #expect(decoder.flush() == [.escape])
    #expect(decoder.flush().isEmpty)
    // Escape followed by a plain key: Escape, then the key (no waiting needed).
    #expect(decoder.decode(Self.bytes("\u{1B}q")) == [.escape, .character("q")])
    // Two Escapes: the first is complete when the second starts.
    #expect(decoder.decode([0x1B, 0x1B]) == [.escape])
    #expect(decoder.flush() == [.escape])
  }

  @Test func malformedSequences_areUnknownAndDoNotSwallowTheNextKey() {
    var decoder = ConsoleKeyDecoder()
    // An unknown final byte, a private marker, an empty field, an unknown number.
    #expect(
      decoder.decode(Self.bytes("\u{1B}[99z\u{1B}[<1;2M\u{1B}[;A\u{1B}[9~x"))
        == [
          .unknown(Self.bytes("\u{1B}[99z")), .unknown(Self.bytes("\u{1B}[<1;2M")),
          .unknown(Self.bytes("\u{1B}[;A")), .unknown(Self.bytes("\u{1B}[9~")), .character("x"),
        ])
    // A control byte inside a sequence ends it; the byte is read afresh.
    #expect(
      decoder.decode(Self.bytes("\u{1B}[1\u{1B}[A"))
        == [.unknown(Self.bytes("\u{1B}[1")), .up])
    #expect(decoder.decode(Self.bytes("\u{1B}[1\r")) == [.unknown(Self.bytes("\u{1B}[1")), .enter])
    // An unknown SS3 key.
    #expect(decoder.decode(Self.bytes("\u{1B}Oz")) == [.unknown(Self.bytes("\u{1B}Oz"))])
    // A sequence that does not end within 32 bytes is unknown, not held for ever.
    let endless = [0x1B, 0x5B] + [UInt8](repeating: 0x31, count: 40)
    #expect(decoder.decode(endless.prefix(20)).isEmpty)
    #expect(decoder.decode(endless.dropFirst(20)) == [.unknown(endless)])
    #expect(!decoder.hasPending)
    // A sequence cut short by the end of input.
    var cut = ConsoleKeyDecoder()
    #expect(cut.decode(Self.bytes("\u{1B}[1;")).isEmpty)
    #expect(cut.flush() == [.unknown(Self.bytes("\u{1B}[1;"))])
  }

  @Test func invalidUTF8_isUnknown() {
    var decoder = ConsoleKeyDecoder()
    // A continuation byte alone, a lead byte cut by an ASCII one, an overlong encoding.
    #expect(
      decoder.decode([0x80, 0xE6, 0x97, 0x41, 0xC0, 0xAF])
        == [
          .unknown([0x80]), .unknown([0xE6, 0x97]), .character("A"), .unknown([0xC0]),
          .unknown([0xAF]),
        ])
    // A character cut by the end of input.
    #expect(decoder.decode([0xE6, 0x97]).isEmpty)
    #expect(decoder.flush() == [.unknown([0xE6, 0x97])])
  }

  @Test func descriptions() {
    #expect(ConsoleKey.up.description == "↑")
    #expect(ConsoleKey.control("c").description == "Ctrl-C")
    #expect(ConsoleKey.unknown([0x1B, 0x5B, 0x7A]).description == "unknown [1B 5B 7A]")
  }
}
