import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// Seeds for a randomized test: `SECTIONKIT_SEED=n` replays one seed; otherwise `count` seeds from
/// `base`.
func randomizedSeeds(base: UInt64, count: Int) -> [UInt64] {
  if let text = ProcessInfo.processInfo.environment["SECTIONKIT_SEED"], let seed = UInt64(text) {
    return [seed]
  }
  return (0..<UInt64(count)).map { base &+ $0 }
}

/// Removes steps from a failing sequence while it still fails, one at a time from the end, then
/// flattens the batches that need not be batches.
func shrink(_ steps: [TreeOperation], failure: ([TreeOperation]) -> String?) -> [TreeOperation] {
  var steps = shrinkSteps(steps, failure: failure)
  // Flatten batches where the smaller sequence still fails.
  for index in steps.indices.reversed() {
    guard case .batch(_, _, let inner) = steps[index] else { continue }
    var candidate = steps
    candidate.replaceSubrange(index...index, with: inner)
    if failure(candidate) != nil { steps = candidate }
  }
  return steps
}

/// Records a randomized failure with its seed and a minimal failing sequence.
func recordRandomizedFailure(
  seed: UInt64, failure: String, steps: [TreeOperation], minimal: [TreeOperation],
  sourceLocation: SourceLocation = #_sourceLocation
) {
  Issue.record(
    """
    seed \(seed) (replay with SECTIONKIT_SEED=\(seed)): \(failure)
    failing sequence of \(steps.count) steps shrunk to \(minimal.count):
    \(minimal.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n"))
    """, sourceLocation: sourceLocation)
}

/// Removes steps from a failing sequence of any kind while it still fails, one at a time from
/// the end.
func shrinkSteps<Step>(_ steps: [Step], failure: ([Step]) -> String?) -> [Step] {
  var steps = steps
  var index = steps.count - 1
  while index >= 0 {
    var candidate = steps
    candidate.remove(at: index)
    if failure(candidate) != nil { steps = candidate }
    index -= 1
  }
  return steps
}
