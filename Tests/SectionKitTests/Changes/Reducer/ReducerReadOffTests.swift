import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// The shortcuts of the reducer's read-off against what they replace, on random inputs on both
/// sides of each threshold: old runs already in old order skip the longest increasing
/// subsequence.
///
/// Reproduce a failure with `SECTIONKIT_SEED=<seed> swift test --filter ReducerReadOffTests`;
/// run longer with `SECTIONKIT_FUZZ_ITERATIONS=<n>` (default 2,000).
@Suite struct ReducerReadOffTests {
  static let iterations =
    ProcessInfo.processInfo.environment["SECTIONKIT_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 2_000

  /// 1 to `maxCount` disjoint runs in old order, some updated (single slots, as `markUpdated`
  /// leaves them).
  static func runsInOldOrder(upTo maxCount: Int, using random: inout SeededGenerator) -> [Run] {
    var runs: [Run] = []
    var start = 0
    for _ in 0..<Int.random(in: 1...maxCount, using: &random) {
      start += Int.random(in: 0...3, using: &random)
      let updated = Bool.random(using: &random)
      let count = updated ? 1 : Int.random(in: 1...5, using: &random)
      runs.append(Run(kind: updated ? .updated : .old, start: start, count: count))
      start += count
    }
    return runs
  }

  /// The subsequence is increasing and the heaviest there is, found by trying every subset, for
  /// up to 10 runs, under both weightings of `ElementPlan`.
  @Test func longestIncreasingRunsIsTheHeaviestIncreasingSubset() {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0x11E5)
    var random = SeededGenerator(seed: seed)
    for _ in 0..<Self.iterations {
      // Disjoint runs in a random order, some updated.
      var runs = Self.runsInOldOrder(upTo: 10, using: &random)
      runs.shuffle(using: &random)
      let weightings: [(Run) -> Int] = [
        { $0.count }, { $0.kind == .updated ? 0 : $0.count },
      ]
      for weight in weightings {
        let staying = longestIncreasingRuns(runs, weight: weight)
        let chosen = runs.indices.filter { staying[$0] }
        #expect(
          chosen.indices.dropFirst().allSatisfy {
            runs[chosen[$0 - 1]].start < runs[chosen[$0]].start
          },
          "seed \(seed): \(runs) → \(staying) is not increasing")
        var heaviest = 0
        for subset in 0..<(1 << runs.count) {
          let members = runs.indices.filter { subset & (1 << $0) != 0 }
          guard
            members.indices.dropFirst().allSatisfy({
              runs[members[$0 - 1]].start < runs[members[$0]].start
            })
          else { continue }
          heaviest = max(heaviest, members.reduce(0) { $0 + weight(runs[$1]) })
        }
        #expect(
          chosen.reduce(0) { $0 + weight(runs[$1]) } == heaviest,
          "seed \(seed): \(runs) → \(staying), the heaviest weighs \(heaviest)")
      }
    }
  }

  @Test func oldRunsInOldOrderAllStayWhateverTheWeights() {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0x5108)
    var random = SeededGenerator(seed: seed)
    for _ in 0..<Self.iterations {
      let runs = Self.runsInOldOrder(upTo: 12, using: &random)
      let scale = runs.reduce(0) { $0 + $1.count } + 1
      // The two weightings of `ElementPlan`.
      let unchangedOnly = longestIncreasingRuns(runs) { $0.kind == .updated ? 0 : $0.count }
      let lengthFirst = longestIncreasingRuns(runs) {
        $0.count * scale + ($0.kind == .updated ? 0 : $0.count)
      }
      #expect(lengthFirst.allSatisfy { $0 }, "seed \(seed): \(runs)")
      for (run, stays) in zip(runs, unchangedOnly) where run.kind == .old {
        #expect(stays, "seed \(seed): \(runs)")
      }
    }
  }
}
