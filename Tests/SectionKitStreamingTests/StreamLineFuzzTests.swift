import Foundation
import SectionKit
import SectionKitStreaming
import SectionKitTesting
import Testing

/// Random bytes and mutated valid lines, read by the decoder into a mirror: every line either
/// applies whole or throws a `StreamLineError` naming it, leaving the mirror as it was; nothing
/// crashes or hangs.
///
/// Reproduce a failure with `SECTIONKIT_SEED=<seed> swift test --filter StreamLineFuzzTests`;
/// run longer with `SECTIONKIT_FUZZ_ITERATIONS=<n>` (default 300 streams per test).
@Suite struct StreamLineFuzzTests {
  static let iterations = fuzzIterations(default: 300)

  static func makeGenerator(default seed: UInt64) -> SeededGenerator {
    SeededGenerator(seed: SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: seed))
  }

  /// Reads `lines` into a mirror; returns the mirror and the problems with the property.
  static func read(_ lines: [Data]) -> (StreamMirror<Card>, [String]) {
    var decoder = StreamLineDecoder<Card>(maximumLineLength: 1 << 16)
    var mirror = StreamMirror<Card>()
    var problems: [String] = []
    for line in lines { decoder.append(line + [10]) }
    while true {
      let before = mirror
      do {
        guard let update = try decoder.next() else { break }
        try mirror.apply(update, line: decoder.lineNumber)
      } catch {
        if mirror != before { problems.append("half-applied \(error)") }
        if !(1...lines.count).contains(error.line) {
          problems.append("\(error) names line \(error.line) of \(lines.count)")
        }
      }
    }
    return (mirror, problems)
  }

  @Test func randomBytesNeverCrashAndAreNamed() {
    var random = Self.makeGenerator(default: 0x5eed_0001)
    for iteration in 0..<Self.iterations {
      let lines = (0..<Int.random(in: 1...4, using: &random)).map { _ in
        Data(
          (0..<Int.random(in: 0..<200, using: &random)).map { _ in
            // Mostly JSON punctuation, digits and the format's words.
            let alphabet = Array(#"{}[],:"0123456789-vseqtypnaphodlcgk "#.utf8)
            return Bool.random(using: &random)
              ? alphabet.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
          }.filter { $0 != 10 })
      }
      let (_, problems) = Self.read(lines)
      #expect(problems.isEmpty, "seed \(random.seed) iteration \(iteration): \(problems)")
    }
  }

  @Test func mutatedValidStreamsNeverHalfApply() throws {
    var random = Self.makeGenerator(default: 0x5eed_0002)
    let (valid, content) = try StreamLineTests.lines(seed: random.seed, batches: 40)
    let (clean, cleanProblems) = Self.read(valid)
    #expect(cleanProblems.isEmpty && clean.sections == content)
    var refused = 0
    for iteration in 0..<Self.iterations {
      var lines = valid
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        mutate(&lines, using: &random)
      }
      let (_, problems) = Self.read(lines)
      #expect(
        problems.isEmpty,
        "seed \(random.seed) (replay with SECTIONKIT_SEED=\(random.seed)), iteration \(iteration)")
      refused += lines == valid ? 0 : 1
    }
    #expect(refused > Self.iterations / 2)
  }

  /// One random mutation: bytes flipped, cut or inserted in a line, a number changed, a line
  /// dropped, repeated or swapped with another.
  func mutate(_ lines: inout [Data], using random: inout SeededGenerator) {
    let index = Int.random(in: 0..<lines.count, using: &random)
    var line = [UInt8](lines[index])
    switch Int.random(in: 0..<7, using: &random) {
    case 0 where !line.isEmpty:
      line[Int.random(in: 0..<line.count, using: &random)] = UInt8.random(
        in: 32...126, using: &random)
    case 1 where !line.isEmpty:
      let start = Int.random(in: 0..<line.count, using: &random)
      line.removeSubrange(start..<min(line.count, start + Int.random(in: 1...20, using: &random)))
    case 2:
      line.insert(
        contentsOf: Array(#"[0,1],"#.utf8), at: Int.random(in: 0...line.count, using: &random))
    case 3:
      // A digit changed: an index, a count or a sequence number.
      let digits = line.indices.filter { (48...57).contains(line[$0]) }
      if let position = digits.randomElement(using: &random) {
        line[position] = UInt8.random(in: 48...57, using: &random)
      }
    case 4 where lines.count > 1:
      lines.remove(at: index)
      return
    case 5:
      lines.insert(lines[index], at: index)
      return
    default:
      lines.swapAt(index, Int.random(in: 0..<lines.count, using: &random))
      return
    }
    lines[index] = Data(line)
  }
}
