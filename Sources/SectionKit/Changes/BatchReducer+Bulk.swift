import Foundation

/// The whole change of one section's elements, as a diff found it: which old element each new
/// element continues, and which of them changed. It climbs the tree as one event
/// (``TreeEvent/elements(_:inSection:)``) instead of one event per step, and the reducer reads it
/// off directly when it is the only change of its section in the batch.
///
/// Wherever one event per step is needed — a custom delegate, the mapping's public events, a
/// section that has other element events in the same batch — ``steps`` gives the step-semantics
/// events of the same change (in the order `replaceElements(with:)` always emitted them), so every
/// receiver sees what it saw before.
///
/// A class, so that the tree event stays one word wide.
final class ElementDiff {
  let matching: IdentityMatching

  /// Whether diffs send their steps one by one even to a link (the path before diffs were one
  /// event), for tests that compare the two paths.
  @TaskLocal static var sendsSteps = false

  init(_ matching: IdentityMatching) {
    self.matching = matching
  }

  /// The number of elements before the change.
  var oldCount: Int { matching.newOfOld.count }
  /// The number of elements after the change.
  var newCount: Int { matching.oldOfNew.count }

  /// The step-semantics element events of the change, made on first use.
  ///
  /// - Complexity: O(n + m + s log s), once.
  private(set) lazy var steps: [ElementChange] = matching.steps()

  /// The new index of old element `old`; `nil` when it was removed (or is out of range).
  func newIndex(ofOld old: Int) -> Int? {
    guard old >= 0, old < oldCount else { return nil }
    let new = matching.newOfOld[old]
    return new >= 0 ? new : nil
  }

  /// The section's slots in new order, as the reducer's run trees would hold them after the
  /// steps: maximal runs of old elements with consecutive old indexes and the same kind (updated
  /// or not), and runs of inserted elements.
  ///
  /// - Complexity: O(n + m).
  func runs() -> [Run] {
    var isUpdated = [Bool](repeating: false, count: oldCount)
    for old in matching.updated { isUpdated[old] = true }
    var runs: [Run] = []
    for old in matching.oldOfNew {
      let run: Run
      if old < 0 {
        run = .inserted(1)
      } else {
        run = Run(kind: isUpdated[old] ? .updated : .old, start: old, count: 1)
      }
      if let last = runs.last, last.kind == run.kind,
        !last.isOld || last.start + last.count == run.start
      {
        runs[runs.count - 1].count += 1
      } else {
        runs.append(run)
      }
    }
    return runs
  }
}

extension BatchEvents {
  /// The events in order, each diff (kept apart, see ``BatchEvents/diffs``) expanded into its
  /// step-semantics element events where it came.
  func expandingDiffs() -> [SectionProviderMapping.Event] {
    var plain: [SectionProviderMapping.Event] = []
    if let first { plain = [first] + rest }
    var result: [SectionProviderMapping.Event] = []
    var next = 0
    for entry in diffs {
      result += plain[next..<entry.position]
      next = entry.position
      result += entry.diff.steps.map { .element($0, inSection: entry.section) }
    }
    result += plain[next...]
    return result
  }
}
