/// Where one subscriber of an ``UpdateStream`` is: a cursor into the stream's log of changesets,
/// not a queue of its own (`Docs/Streaming.md`, "Delivery").
///
/// The changesets due to a subscriber are those of the log from ``next`` to the newest, so that
/// publishing a changeset costs the same for one subscriber as for a thousand: it is appended to
/// the log once, and nothing is written per subscriber. A subscriber whose changesets due are
/// more than its queue would hold (``StreamPolicy/subscriberCapacity``) has overflowed: it is
/// owed a snapshot, found as soon as anyone looks (``UpdateStream/isOverflowed(_:_:)``).
///
/// Not generic, so that the bookkeeping of many subscribers runs without generic metadata.
/// A class, so that a loop over the subscribers mutates them in place; only touched under the
/// stream's lock.
final class StreamSubscriber {
  /// The sequence number of the next changeset it takes: it holds the state `next - 1`.
  var next: Int
  /// Its next update is a snapshot of the state at the time it is taken.
  var needsSnapshot: Bool
  /// The consumer waiting with nothing due, woken when something is (``UpdateStream/wakeWaiting()``).
  var waiting: CheckedContinuation<Void, Never>?
  /// With a capacity of 0, a changeset that arrives while the consumer waits with nothing due
  /// goes in whatever the capacity: 1 then, until the consumer takes it.
  var allowance = 0

  init(next: Int, needsSnapshot: Bool) {
    self.next = next
    self.needsSnapshot = needsSnapshot
  }

  /// The number of changesets due (published after the one it holds) when the stream is at
  /// `sequence`; meaningful when it is not owed a snapshot.
  @inline(__always)
  func pending(at sequence: Int) -> Int { sequence - next + 1 }
}
