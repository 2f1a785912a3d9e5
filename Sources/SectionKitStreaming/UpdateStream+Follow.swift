import Foundation
import SectionKit

/// A stream fed by the updates of another one — decoded from its lines, read from a log that
/// several servers share — rather than by an ``UpdatePublisher``: a follower.
///
/// A follower has the identifier and the sequence numbers of the stream it follows, so that a
/// client's position (`stream#sequence`) means the same on every server that follows it, and
/// serves its own subscribers exactly as the original does (snapshot, replay, resume, bounded
/// queues).
///
/// ```swift
/// let follower = UpdateStream(following: snapshot)        // the state at `snapshot.sequence`
/// for try await line in lines {                           // the original's changesets, in order
///   try follower.follow(decoder.decode(line: line))
/// }
/// ```
///
/// Feed a follower from one task, with updates in order. Its ``resolve(_:at:)`` follows index
/// paths by position only: the elements a changeset deletes that the model kept (the survivors
/// an ``UpdatePublisher`` records) are not on the wire.
extension UpdateStream {
  /// A follower of the stream of `snapshot`: identifier `snapshot.stream`, at sequence number
  /// `snapshot.sequence` with its sections; feed it with ``follow(_:)``.
  ///
  /// - Parameters:
  ///   - snapshot: the state the follower starts from.
  ///   - policy: the follower's own bounds.
  public convenience init(following snapshot: StreamSnapshot<Value>, policy: StreamPolicy = .init())
  {
    self.init(id: snapshot.stream, policy: policy)
    state.withLock { state in
      state.sequence = snapshot.sequence
      state.sections = snapshot.sections
    }
  }

  /// Publishes an update of the stream followed: a changeset, the one after this stream's
  /// position, checked against the state as a ``StreamMirror`` checks it; or a snapshot of this
  /// stream (a reload), at this stream's position or later, which every subscriber is then owed.
  /// A stream that finished ignores it.
  ///
  /// - Parameter update: the next update of the stream followed, as its publisher published it.
  /// - Throws: ``StreamMirrorError``, and the stream is unchanged: ``StreamMirrorError/gap(expected:received:)``
  ///   or ``StreamMirrorError/outOfOrder(expected:received:)`` for a changeset that is not the
  ///   next one or an older snapshot, ``StreamMirrorError/mismatch(sequence:_:)`` for a changeset
  ///   that does not fit (or labels a section it does not send, field `labels`), or a snapshot
  ///   of another stream (field `stream`).
  /// - Complexity: a changeset costs what
  ///   ``publish(_:sections:elements:survivors:digest:labels:)`` costs — applied to the state in
  ///   place, with no copy of a section unless a snapshot of it is still alive; a snapshot O(p)
  ///   for p subscribers.
  public func follow(_ update: StreamUpdate<Value>) throws(StreamMirrorError) {
    switch update {
    case .snapshot(let snapshot):
      let sequence = state.withLock { $0.sequence }
      guard snapshot.stream == id else {
        throw .mismatch(
          sequence: snapshot.sequence,
          ChangesetMismatch(
            field: "stream", value: snapshot.stream, reason: "this stream follows \(id)"))
      }
      guard snapshot.sequence >= sequence else {
        throw .outOfOrder(expected: sequence + 1, received: snapshot.sequence)
      }
      publishSnapshot(snapshot.sections, labels: snapshot.labels, at: snapshot.sequence)
    case .changeset(let changeset):
      if let index = changeset.labels.keys.sorted().first(where: { changeset.sections[$0] == nil })
      {
        throw .mismatch(
          sequence: changeset.sequence,
          ChangesetMismatch(
            field: "labels", value: "\(index)",
            reason: "a label for a section the changeset does not send"))
      }
      // Applied to the state in place, checked as a mirror checks it (the stream unchanged when
      // it does not fit).
      try publishApplying(
        StreamChangeset(
          sequence: changeset.sequence, changeset: changeset.changeset.reconfiguresAsReloads(),
          sections: changeset.sections, paths: changeset.elementPaths,
          values: changeset.elementValues, digest: changeset.digest,
          labels: changeset.labels.filter { !$0.value.isEmpty }),
        labels: changeset.labels, numbered: changeset.sequence)
    }
  }

  /// A subscription that resumes after `position` from the replay buffer, or `nil` when the
  /// stream cannot resume from it (another stream, too old, ahead, more changesets than a
  /// subscriber's queue holds), where ``subscribe(after:)`` would start with a snapshot: for a
  /// server that has another place to continue from (a log it keeps).
  ///
  /// - Parameter position: the position of the subscriber's last update.
  /// - Complexity: O(m) for the m changesets replayed.
  public func resume(after position: StreamPosition) -> StreamSubscription<Value>? {
    let id = state.withLock { state -> Int? in
      guard let missed = resumable(position, state) else { return nil }
      let subscriber = StreamSubscriber(next: position.sequence + 1, needsSnapshot: false)
      extendLog(toHold: missed, &state)
      state.statistics.resumed += 1
      return register(subscriber, &state)
    }
    return id.map { StreamSubscription(stream: self, id: $0) }
  }

  /// A subscription that starts with the changeset after the stream's position now, with that
  /// position: for a server that sends a subscriber what comes before it from elsewhere (a log
  /// it keeps).
  ///
  /// - Complexity: O(1).
  public func subscribeAtPosition() -> (
    position: StreamPosition, subscription: StreamSubscription<Value>
  ) {
    let (sequence, id) = state.withLock { state in
      let subscriber = StreamSubscriber(next: state.sequence + 1, needsSnapshot: false)
      return (state.sequence, register(subscriber, &state))
    }
    return (
      StreamPosition(stream: self.id, sequence: sequence), StreamSubscription(stream: self, id: id)
    )
  }
}
