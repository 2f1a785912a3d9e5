/// The events of a batch, for diagnostics: the first kept apart so that a batch of one event
/// allocates nothing for them.
struct BatchEvents {
  var first: SectionProviderMapping.Event?
  var rest: [SectionProviderMapping.Event] = []
  /// The diffs of the batch (each one event up the pipe), with the number of other events that
  /// came before each.
  var diffs: [(position: Int, section: Int, diff: ElementDiff)] = []

  /// The events in order.
  var events: [SectionProviderMapping.Event] {
    if !diffs.isEmpty { return expandingDiffs() }
    guard let first else { return [] }
    return [first] + rest
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
