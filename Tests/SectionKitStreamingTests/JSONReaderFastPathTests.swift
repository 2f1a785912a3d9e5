import Foundation
import SectionKit
import SectionKitTesting
import Testing

@testable import SectionKitStreaming

/// The reader's fast paths against its general ones, on random input: a string without escapes
/// (ASCII taken as it is, other UTF-8 checked by comparing the repaired decoding with the bytes),
/// and a plain integer read in place; and whole lines of strings and integers written every way
/// JSON allows, read by the decoder and by the `JSONDecoder` reference.
///
/// Replay with `SECTIONKIT_SEED=<seed>`; run longer with `SECTIONKIT_FUZZ_ITERATIONS=<n>`.
@Suite struct JSONReaderFastPathTests {
  static let iterations = fuzzIterations(default: 3_000)

  static func makeGenerator(default seed: UInt64) -> SeededGenerator {
    SeededGenerator(seed: SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: seed))
  }

  /// Bytes that are mostly text: ASCII, UTF-8 of every length, and now and then a byte that
  /// breaks UTF-8 (a lone continuation, a truncated sequence, an overlong form, a surrogate).
  static func textBytes(using random: inout SeededGenerator) -> [UInt8] {
    var bytes: [UInt8] = []
    for _ in 0..<Int.random(in: 0...24, using: &random) {
      switch Int.random(in: 0..<12, using: &random) {
      case 0..<6: bytes.append(UInt8.random(in: 0x20...0x7E, using: &random))
      case 6: bytes += Array("é".utf8)
      case 7: bytes += Array("€".utf8)
      case 8: bytes += Array("😀".utf8)
      case 9: bytes.append(UInt8.random(in: 0...0x1F, using: &random))
      case 10: bytes.append([0x5C, 0x22][Int.random(in: 0..<2, using: &random)])  // \ or "
      default:
        let broken: [[UInt8]] = [
          [0x80], [0xBF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xC0, 0x80],
          [0xED, 0xA0, 0x80],
          [0xF4, 0x90, 0x80, 0x80], [0xFF], [0xFE],
        ]
        bytes += broken[Int.random(in: 0..<broken.count, using: &random)]
      }
    }
    return bytes
  }

  @Test func stringsOfUTF8AreTheOnesValidationGives() {
    var random = Self.makeGenerator(default: 0x5713_0001)
    var invalid = 0
    for iteration in 0..<Self.iterations {
      let bytes = Self.textBytes(using: &random)
      let fast = bytes.withUnsafeBufferPointer { JSONReader.string(utf8: $0) }
      let general = String(validating: bytes, as: UTF8.self)
      #expect(fast == general, "seed \(random.seed) iteration \(iteration): \(bytes)")
      invalid += general == nil ? 1 : 0
    }
    #expect(invalid > Self.iterations / 10 && invalid < Self.iterations * 9 / 10)
  }

  @Test func aStringReadFastIsTheStringReadByteByByte() {
    var random = Self.makeGenerator(default: 0x5713_0002)
    var escaped = 0
    for iteration in 0..<Self.iterations {
      var literal = [UInt8(ascii: "\"")] + Self.textBytes(using: &random)
      if Bool.random(using: &random) {
        let escapes = [
          #"\n"#, #"\""#, #"\\"#, #"\/"#, #"\u00e9"#, #"\ud83d\ude00"#, #"\ud800"#, #"\x"#,
        ]
        literal += Array(escapes[Int.random(in: 0..<escapes.count, using: &random)].utf8)
        literal += Self.textBytes(using: &random)
      }
      if Int.random(in: 0..<8, using: &random) > 0 { literal.append(UInt8(ascii: "\"")) }
      literal += Array(#",1]"#.utf8)
      let (fast, general) = literal.withUnsafeBufferPointer { buffer in
        var fast = JSONReader(buffer)
        var general = JSONReader(buffer)
        general.index = 1
        return (
          (Result { () throws(JSONReadError) in try fast.readString() }, fast.index),
          (
            Result { () throws(JSONReadError) in try general.readEscapedString(from: 1) },
            general.index
          )
        )
      }
      let context = "seed \(random.seed) iteration \(iteration): \(literal)"
      switch (fast.0, general.0) {
      case (.success(let a), .success(let b)):
        #expect(a == b, "\(context)")
        #expect(fast.1 == general.1, "\(context)")
      case (.failure(let a), .failure(let b)): #expect(a.text == b.text, "\(context)")
      default: Issue.record("\(context): \(fast.0) against \(general.0)")
      }
      escaped += literal.contains(UInt8(ascii: "\\")) ? 1 : 0
    }
    #expect(escaped > Self.iterations / 4)
  }

  /// A number as JSON may write it, or almost: signs, leading zeros, fractions, exponents, up to
  /// 22 digits (past the 18 read in place, and past `Int`).
  static func numberText(using random: inout SeededGenerator) -> String {
    var text = ""
    if Int.random(in: 0..<6, using: &random) == 0 { text += "-" }
    if Int.random(in: 0..<6, using: &random) == 0 { text += "0" }
    let digits = [0, 1, 1, 2, 3, 5, 17, 18, 19, 20, 22][Int.random(in: 0..<11, using: &random)]
    for _ in 0..<digits { text += String(Int.random(in: 0...9, using: &random)) }
    switch Int.random(in: 0..<8, using: &random) {
    case 0: text += ".\(Int.random(in: 0...99, using: &random))"
    case 1: text += ".0"
    case 2: text += ["e", "E", "e+", "e-"][Int.random(in: 0..<4, using: &random)] + "2"
    case 3: text += "."
    default: break
    }
    let after = [",", "]", "}", " ,", "", "x", "\"", "-"]
    return text + after[Int.random(in: 0..<after.count, using: &random)]
  }

  @Test func anIntegerReadInPlaceIsTheNumberReadAsAnInteger() {
    var random = Self.makeGenerator(default: 0x5713_0003)
    var plain = 0
    for iteration in 0..<Self.iterations {
      let text = Self.numberText(using: &random)
      let bytes = Array(text.utf8)
      let (fast, general) = bytes.withUnsafeBufferPointer { buffer in
        var fast = JSONReader(buffer)
        var general = JSONReader(buffer)
        return (
          (Result { () throws(JSONReadError) in try fast.readInteger() }, fast.index),
          (Result { () throws(JSONReadError) in try general.readNumberAsInteger() }, general.index)
        )
      }
      let context = "seed \(random.seed) iteration \(iteration): \(text)"
      switch (fast.0, general.0) {
      case (.success(let a), .success(let b)):
        #expect("\(a)" == "\(b)", "\(context)")
        #expect(fast.1 == general.1, "\(context)")
        if case .success = a { plain += 1 }
      case (.failure(let a), .failure(let b)): #expect(a.text == b.text, "\(context)")
      default: Issue.record("\(context): \(fast.0) against \(general.0)")
      }
    }
    #expect(plain > Self.iterations / 4)
  }

  /// Lines of strings and integers written every way JSON allows, each read by the decoder and by
  /// the `JSONDecoder` reference: the same update or an error of the same kind on the same line.
  @Test func linesOfStringsAgreeWithTheReference() {
    var random = Self.makeGenerator(default: 0x5713_0004)
    func literal() -> String {
      let bytes = Self.textBytes(using: &random).filter { $0 >= 0x20 && $0 != 0x5C && $0 != 0x22 }
      var text = "\"" + String(decoding: bytes, as: UTF8.self)
      if Bool.random(using: &random) { text += #"\u00e9\n\"\\\/"# }
      return text + "\""
    }
    func number(_ value: Int) -> String {
      switch Int.random(in: 0..<10, using: &random) {
      case 0: "\(value).0"
      case 1: "\(value)e0"
      case 2: " \(value)"
      default: "\(value)"
      }
    }
    for iteration in 0..<Self.iterations / 10 {
      let values = (0..<Int.random(in: 0...6, using: &random)).map { _ in literal() }
      var lines = [
        #"{"sections":[[\#(values.joined(separator: ","))]],"seq":\#(number(1)),"#
          + #""stream":"s","type":"snapshot","v":\#(number(1))}"#
      ]
      for sequence in 2..<6 {
        let count = Int.random(in: 0...4, using: &random)
        let items = Array(Set((0..<count).map { _ in Int.random(in: 0...30, using: &random) }))
          .sorted()
        let paths = items.map { "[\(number(0)),\(number($0))]" }.joined(separator: ",")
        let elements = items.map { #"{"path":[0,\#(number($0))],"value":\#(literal())}"# }
        lines.append(
          #"{"changeset":{"insertedElements":[\#(paths)]},"newElements":[\#(elements.joined(separator: ","))],"#
            + #""seq":\#(number(sequence)),"type":"changeset","v":1}"#)
      }
      let problems = StreamCodecTests.disagreements(lines.map { Array($0.utf8) }, as: String.self)
      #expect(problems.isEmpty, "seed \(random.seed) iteration \(iteration): \(problems.prefix(2))")
    }
  }

  /// `[a,b]` as text near the encoder's: each integer as ``numberText(using:)`` writes it or
  /// plain, now and then with whitespace, another separator or closer, or a third index.
  static func pairText(using random: inout SeededGenerator) -> String {
    func index() -> String {
      Int.random(in: 0..<3, using: &random) == 0
        ? String(Self.numberText(using: &random).dropLast())
        : String(Int.random(in: 0...99_999, using: &random))
    }
    func space() -> String { Int.random(in: 0..<8, using: &random) == 0 ? " " : "" }
    let open = Int.random(in: 0..<20, using: &random) == 0 ? "{" : "["
    let comma = Int.random(in: 0..<20, using: &random) == 0 ? ":" : ","
    let third = Int.random(in: 0..<20, using: &random) == 0 ? ",\(index())" : ""
    let close = ["]", "]", "]", "]", "]", "}", ""][Int.random(in: 0..<7, using: &random)]
    return space() + open + space() + index() + space() + comma + space() + index() + third
      + space() + close + [",", "}", ""][Int.random(in: 0..<3, using: &random)]
  }

  /// A pair read through the buffer's pointer (``JSONReader/readTightPair()``) is the pair read
  /// the general way (`[`, an integer, `,`, an integer, `]`, whitespace allowed), and it ends at
  /// the same byte; where it reads nothing, the reader has not moved.
  @Test func aTightPairIsThePairReadTheGeneralWay() {
    var random = Self.makeGenerator(default: 0x5713_0005)
    var tight = 0
    for iteration in 0..<Self.iterations {
      let text = Self.pairText(using: &random)
      let context = "seed \(random.seed) iteration \(iteration): \(text)"
      Array(text.utf8).withUnsafeBufferPointer { buffer in
        var fast = JSONReader(buffer)
        var general = JSONReader(buffer)
        func integer() -> Int? {
          guard case .success(let value)? = try? general.readInteger() else { return nil }
          return value
        }
        let read: (Int, Int)? =
          general.consume(UInt8(ascii: "["))
          ? integer().flatMap { first in
            guard general.consume(UInt8(ascii: ",")), let second = integer(),
              general.consume(UInt8(ascii: "]"))
            else { return nil }
            return (first, second)
          } : nil
        guard let pair = fast.readTightPair() else {
          #expect(fast.index == 0, "\(context)")
          return
        }
        tight += 1
        #expect(read.map { [$0.0, $0.1] } == [pair.0, pair.1], "\(context)")
        #expect(fast.index == general.index, "\(context)")
      }
    }
    #expect(tight > Self.iterations / 10 && tight < Self.iterations * 9 / 10, "\(tight) tight")
  }

  /// Lines whose new elements come in any order (ascending, descending, a path twice), written
  /// as the encoder writes them or not (spaces, keys swapped, a path of one or three indexes, a
  /// negative index): the decoder, which takes ascending paths read as two plain integers without
  /// checking them again, and the `JSONDecoder` reference give the same update or an error of the
  /// same kind on the same line.
  @Test func newElementsInAnyOrderAgreeWithTheReference() {
    var random = Self.makeGenerator(default: 0x5713_0006)
    var kept = 0
    for iteration in 0..<Self.iterations / 10 {
      var lines = [#"{"sections":[[]],"seq":1,"stream":"s","type":"snapshot","v":1}"#]
      for sequence in 2..<6 {
        var items = Array(
          Set(
            (0..<Int.random(in: 0...6, using: &random)).map { _ in
              Int.random(in: 0...30, using: &random)
            })
        ).sorted()
        switch Int.random(in: 0..<6, using: &random) {
        case 0: items.reverse()
        case 1 where !items.isEmpty: items.insert(items[0], at: 1)
        case 2: items.shuffle(using: &random)
        default: break
        }
        let paths = items.sorted().map { "[0,\($0)]" }.joined(separator: ",")
        let elements = items.map { item -> String in
          let path: String
          switch Int.random(in: 0..<30, using: &random) {
          case 0: path = "[\(item)]"
          case 1: path = "[0,\(item),1]"
          case 2: path = "[0,-\(item)]"
          case 3: path = "[0, \(item)]"
          case 4: return #"{"value":"v\#(item)","path":[0,\#(item)]}"#
          default: path = "[0,\(item)]"
          }
          return #"{"path":\#(path),"value":"v\#(item)"}"#
        }
        lines.append(
          #"{"changeset":{"insertedElements":[\#(paths)]},"newElements":[\#(elements.joined(separator: ","))],"#
            + #""seq":\#(sequence),"type":"changeset","v":1}"#)
      }
      let problems = StreamCodecTests.disagreements(lines.map { Array($0.utf8) }, as: String.self)
      #expect(problems.isEmpty, "seed \(random.seed) iteration \(iteration): \(problems.prefix(2))")
      var decoder = StreamLineDecoder<String>()
      for line in lines { if (try? decoder.decode(line: Array(line.utf8))) != nil { kept += 1 } }
    }
    #expect(kept > Self.iterations / 10 * 2, "\(kept) lines read")
  }

  /// ``JSONReader/holdsSpecialByte(_:)``, eight bytes tested at once, against the bytes tested
  /// one by one, on words of bytes near each boundary.
  @Test func aWordHoldsASpecialByteExactlyWhenOneOfItsBytesIs() {
    var random = Self.makeGenerator(default: 0x5713_0007)
    let near: [UInt8] = [
      0, 1, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0xFF,
    ]
    var special = 0
    for iteration in 0..<Self.iterations * 10 {
      let bytes = (0..<8).map { _ in
        Int.random(in: 0..<12, using: &random) == 0
          ? near.randomElement(using: &random)! : UInt8.random(in: 0x23...0x5B, using: &random)
      }
      let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
      let expected = bytes.contains { $0 < 0x20 || $0 >= 0x80 || $0 == 0x22 || $0 == 0x5C }
      #expect(
        JSONReader.holdsSpecialByte(word) == expected,
        "seed \(random.seed) iteration \(iteration): \(bytes)")
      special += expected ? 1 : 0
    }
    #expect(special > Self.iterations && special < Self.iterations * 9, "\(special) special")
  }
}
