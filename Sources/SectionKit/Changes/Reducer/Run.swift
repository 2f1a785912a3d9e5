/// A run of slots of one of the reducer's sequences (see ``RunPool``): old slots
/// `start..<start + count`, unchanged or updated in the batch, or `count` slots inserted in it.
///
/// A slot is either *old* — it existed when the batch began, and knows its old index — or
/// *inserted* during the batch. Runs keep the cost proportional to the number of events, not to
/// the number of slots: the section list of a 10,000-section tree starts as a single run
/// `old(0..<10000)`.
struct Run: Equatable {
  enum Kind: UInt8 {
    /// Old slots `start..<start + count`, unchanged so far.
    case old
    /// Old slots `start..<start + count` whose content was updated in the batch.
    case updated
    /// `count` slots inserted in the batch.
    case inserted
  }

  var kind: Kind
  var start: Int
  var count: Int

  static func old(_ range: Range<Int>) -> Run {
    Run(kind: .old, start: range.lowerBound, count: range.count)
  }
  static func inserted(_ count: Int) -> Run { Run(kind: .inserted, start: 0, count: count) }

  var isOld: Bool { kind != .inserted }

  /// The run cut after `offset` slots.
  func split(at offset: Int) -> (Run, Run) {
    var left = self
    var right = self
    left.count = offset
    right.count = count - offset
    if isOld { right.start = start + offset }
    return (left, right)
  }
}
