import Foundation
import SectionKit
import SectionKitTesting
import Testing

@testable import SectionKitStreaming

/// The changeset's invariants followed while its element lists are read (``ElementLists``),
/// against `Changeset.invariantViolation()`: on random changesets (lists ascending or not, a path
/// twice, an element both deleted and reloaded, indexes at the limits, section changes, moves,
/// spaces), a changeset the reader finds keeping them has no violation. The decoder checks only
/// the others.
///
/// Replay with `SECTIONKIT_SEED=<seed>`; run longer with `SECTIONKIT_FUZZ_ITERATIONS=<n>`.
@Suite struct ChangesetCheckedWhileReadTests {
  static let iterations = fuzzIterations(default: 3_000)

  static func changesetText(using random: inout SeededGenerator) -> String {
    func index(limit: Int) -> Int {
      switch Int.random(in: 0..<40, using: &random) {
      case 0: limit
      case 1: limit - 1
      case 2: Int.max
      default: Int.random(in: 0...6, using: &random)
      }
    }
    func list() -> String {
      var pairs = (0..<Int.random(in: 0...5, using: &random)).map { _ in
        (index(limit: Changeset.sectionLimit), index(limit: Changeset.elementLimit))
      }
      if Int.random(in: 0..<4, using: &random) > 0 { pairs.sort { $0 < $1 } }
      let text = pairs.map { pair in
        Int.random(in: 0..<30, using: &random) == 0
          ? "[\(pair.0), \(pair.1)]" : "[\(pair.0),\(pair.1)]"
      }
      return "[" + text.joined(separator: ",") + "]"
    }
    var fields = [
      #""deletedElements":\#(list())"#, #""insertedElements":\#(list())"#,
      #""reloadedElements":\#(list())"#,
    ]
    switch Int.random(in: 0..<12, using: &random) {
    case 0: fields.append(#""deletedSectionRanges":[[1,2]]"#)
    case 1: fields.append(#""insertedSectionRanges":[[0,1]]"#)
    case 2: fields.append(#""movedElements":[{"from":[0,1],"to":[0,2]}]"#)
    case 3: fields.append(#""movedSections":[{"from":0,"to":1}]"#)
    case 4: fields.append(#""reloadedSectionRanges":[]"#)
    default: break
    }
    fields.shuffle(using: &random)
    return "{" + fields.joined(separator: ",") + "}"
  }

  @Test func aChangesetCheckedWhileReadKeepsItsInvariants() {
    var random = SeededGenerator(
      seed: SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0xC4EC_0001))
    var (checked, violating) = (0, 0)
    for iteration in 0..<Self.iterations {
      let text = Self.changesetText(using: &random)
      let line = #"{"changeset":\#(text),"seq":2,"type":"changeset","v":1}"#
      let fields = Array(line.utf8).withUnsafeBufferPointer { buffer in
        var reader = LineReader<String>(buffer)
        return try? reader.read()
      }
      guard let fields, let changeset = fields.changeset else {
        Issue.record("seed \(random.seed) iteration \(iteration): \(line) not read")
        continue
      }
      let violation = changeset.invariantViolation()
      if fields.changesetChecked {
        checked += 1
        #expect(violation == nil, "seed \(random.seed) iteration \(iteration): \(line)")
      } else if violation != nil {
        violating += 1
      }
    }
    #expect(checked > Self.iterations / 8, "\(checked) checked while read")
    #expect(violating > Self.iterations / 5, "\(violating) with a violation")
  }
}
