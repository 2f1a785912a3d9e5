import Foundation

/// The whole change of one section's elements, as a diff found it or a bulk mutator made it:
/// which old element each new element continues, and which of them changed. It climbs the tree as
/// one event (``TreeEvent/elements(_:inSection:)``) instead of one event per step, and the reducer
/// reads it off directly when it is the only change of its section in the batch.
///
/// Wherever one event per step is needed — a custom delegate, the mapping's public events, a
/// section that has other element events in the same batch — ``steps`` gives the step-semantics
/// events of the same change (in the order `replaceElements(with:)` and the bulk mutators always
/// emitted them), so every receiver sees what it saw before.
///
/// A class, so that the tree event stays one word wide.
final class ElementDiff {
  /// How the change is held.
  enum Form {
    /// A diff by identity.
    case matching(IdentityMatching)
    /// A bulk mutator's change (see ``ElementReplacement``).
    case replacement(ElementReplacement)
  }

  let form: Form

  /// Whether diffs send their steps one by one even to a link (the path before diffs were one
  /// event), for tests that compare the two paths.
  @TaskLocal static var sendsSteps = false

  init(_ matching: IdentityMatching) {
    form = .matching(matching)
  }

  init(_ replacement: ElementReplacement) {
    form = .replacement(replacement)
  }

  /// The number of elements before the change.
  var oldCount: Int {
    switch form {
    case .matching(let matching): matching.newOfOld.count
    case .replacement(let replacement): replacement.oldCount
    }
  }
  /// The number of elements after the change.
  var newCount: Int {
    switch form {
    case .matching(let matching): matching.oldOfNew.count
    case .replacement(let replacement): replacement.newCount
    }
  }

  /// The step-semantics element events of the change, made on first use.
  ///
  /// - Complexity: O(n + m + s log s), once, for a diff by identity; O(k) for a replacement of
  ///   k steps.
  private(set) lazy var steps: [ElementChange] =
    switch form {
    case .matching(let matching): matching.steps()
    case .replacement(let replacement): replacement.steps()
    }

  /// The new index of old element `old`; `nil` when it was removed (or is out of range).
  func newIndex(ofOld old: Int) -> Int? {
    guard old >= 0, old < oldCount else { return nil }
    switch form {
    case .matching(let matching):
      let new = matching.newOfOld[old]
      return new >= 0 ? new : nil
    case .replacement(let replacement):
      return replacement.newIndex(ofOld: old)
    }
  }

  /// The section's slots in new order, as the reducer's run trees would hold them after the
  /// steps: maximal runs of old elements with consecutive old indexes and the same kind (updated
  /// or not), and runs of inserted elements.
  ///
  /// - Complexity: O(n + m) for a diff by identity; O(u) for a replacement that updates u
  ///   elements.
  func runs() -> [Run] {
    var runs: [Run] = []
    switch form {
    case .matching(let matching):
      var isUpdated = [Bool](repeating: false, count: oldCount)
      for old in matching.updated { isUpdated[old] = true }
      for old in matching.oldOfNew {
        if old < 0 {
          Self.append(.inserted(1), to: &runs)
        } else {
          Self.append(Run(kind: isUpdated[old] ? .updated : .old, start: old, count: 1), to: &runs)
        }
      }
    case .replacement(let replacement):
      replacement.runs(into: &runs)
    }
    return runs
  }

  /// Appends `run` to `runs`, extending the last run instead when `run` continues it.
  static func append(_ run: Run, to runs: inout [Run]) {
    guard run.count > 0 else { return }
    if let last = runs.last, last.kind == run.kind,
      !last.isOld || last.start + last.count == run.start
    {
      runs[runs.count - 1].count += run.count
    } else {
      runs.append(run)
    }
  }
}

/// The change a bulk mutator of a section makes: the old elements in ``range`` replaced by
/// ``replacementCount`` new ones, the first ``shared`` of which continue the old elements at
/// their places, updated where ``updated`` says.
struct ElementReplacement {
  /// The old elements replaced.
  let range: Range<Int>
  /// How many elements replace them.
  let replacementCount: Int
  /// The number of elements before the change.
  let oldCount: Int
  /// The indexes, ascending, among the first ``shared`` of ``range``, whose element was updated.
  let updated: [Int]

  /// How many of the replaced elements continue at their places.
  var shared: Int { Swift.min(range.count, replacementCount) }

  /// The number of elements after the change.
  var newCount: Int { oldCount - range.count + replacementCount }

  /// The number of step-semantics events: the updates, and the removals or insertions.
  var stepCount: Int { updated.count + range.count + replacementCount - 2 * shared }

  /// The step-semantics element events: the updates, then removals of the surplus old elements
  /// (highest first) or insertions of the surplus new ones.
  ///
  /// - Complexity: O(k) for k steps.
  func steps() -> [ElementChange] {
    var steps = updated.map { ElementChange.update($0) }
    steps.reserveCapacity(stepCount)
    let surplus = range.lowerBound + shared
    for index in (surplus..<range.upperBound).reversed() { steps.append(.remove(index)) }
    for index in surplus..<(range.lowerBound + replacementCount) { steps.append(.insert(index)) }
    return steps
  }

  /// The new index of old element `old` (`0..<oldCount`); `nil` when it was removed.
  func newIndex(ofOld old: Int) -> Int? {
    if old < range.lowerBound + shared { return old }
    if old < range.upperBound { return nil }
    return old - range.count + replacementCount
  }

  /// Appends the section's slots in new order to `runs`, as ``ElementDiff/runs()`` describes.
  ///
  /// - Complexity: O(u) for u updated elements.
  func runs(into runs: inout [Run]) {
    var next = 0
    for index in updated {
      ElementDiff.append(.old(next..<index), to: &runs)
      ElementDiff.append(Run(kind: .updated, start: index, count: 1), to: &runs)
      next = index + 1
    }
    ElementDiff.append(.old(next..<(range.lowerBound + shared)), to: &runs)
    ElementDiff.append(.inserted(replacementCount - shared), to: &runs)
    ElementDiff.append(.old(range.upperBound..<oldCount), to: &runs)
  }
}
