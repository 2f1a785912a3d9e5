import Foundation
import SectionKit

/// The subscribers' side of an ``UpdateStream``: subscribing, and taking updates from the log
/// (`Docs/Streaming.md`, "Delivery").
extension UpdateStream {
  // MARK: Subscribing

  /// A new subscriber: a snapshot first, then every changeset; or, with the `position` of a
  /// subscriber that reconnects, the changesets after it when they are still in the replay
  /// buffer (and fit in a subscriber's queue), otherwise a snapshot. `position` usually comes
  /// from a client: any number is accepted, and one the stream cannot resume from (another
  /// stream, too old, ahead, negative) starts with a snapshot.
  ///
  /// The subscription is registered now: nothing published after this call is missed.
  ///
  /// - Complexity: O(m) for the m changesets replayed.
  public func subscribe(after position: StreamPosition? = nil) -> StreamSubscription<Value> {
    let id = state.withLock { state -> Int in
      let subscriber = StreamSubscriber(next: state.sequence + 1, needsSnapshot: true)
      if let position, let missed = resumable(position, state) {
        subscriber.needsSnapshot = false
        subscriber.next = position.sequence + 1
        extendLog(toHold: missed, &state)
        state.statistics.resumed += 1
      }
      return register(subscriber, &state)
    }
    return StreamSubscription(stream: self, id: id)
  }

  /// The number of changesets after `position`, when a subscriber can resume from it: they are
  /// all in the replay buffer, and no more than a subscriber's queue holds.
  func resumable(_ position: StreamPosition, _ state: State) -> Int? {
    // The position comes from a client: compare it with the range the replay buffer covers
    // before subtracting, so that no number (negative, `Int.min`, ahead) can overflow.
    let oldest = state.sequence - state.replay.count
    guard position.stream == id, (oldest...state.sequence).contains(position.sequence) else {
      return nil
    }
    let missed = state.sequence - position.sequence
    return missed <= policy.subscriberCapacity ? missed : nil
  }

  /// Adds `subscriber`, returning its identifier.
  func register(_ subscriber: StreamSubscriber, _ state: inout State) -> Int {
    let id = state.nextSubscriber
    state.nextSubscriber += 1
    state.subscribers[id] = subscriber
    return id
  }

  // MARK: Taking updates

  /// What `next` finds.
  enum Poll {
    case ready(Delivery?)
    case wait
  }

  /// What a subscriber takes at once: the changesets due, in order, or the snapshot it is owed.
  enum Batch {
    case changesets([Shared])
    case snapshot(StreamSnapshot<Value>)
  }

  /// What `nextBatch` finds.
  enum BatchPoll {
    case ready(Batch?)
    case wait
  }

  /// Every update due to the subscriber (at least one), `nil` if it ended, or `.wait`: the
  /// changesets due, in order — at most ``StreamPolicy/subscriberCapacity`` — or the snapshot
  /// it is owed.
  ///
  /// - Complexity: O(k) for the k changesets taken.
  func pollAll(_ id: Int, _ state: inout State) -> BatchPoll {
    guard let subscriber = state.subscribers[id], !subscriber.needsSnapshot,
      !isOverflowed(subscriber, state), subscriber.pending(at: state.sequence) > 1
    else {
      switch poll(id, &state) {
      case .ready(.changeset(let shared)): return .ready(.changesets([shared]))
      case .ready(.snapshot(let snapshot)): return .ready(.snapshot(snapshot))
      case .ready(nil): return .ready(nil)
      case .wait: return .wait
      }
    }
    let taken = state.log.suffix(subscriber.pending(at: state.sequence))
    subscriber.next = state.sequence + 1
    subscriber.allowance = 0
    return .ready(.changesets(taken))
  }

  /// The subscriber's next update if one is due, `nil` if it ended, or `.wait`.
  func poll(_ id: Int, _ state: inout State) -> Poll {
    guard let subscriber = state.subscribers[id] else { return .ready(nil) }
    if isOverflowed(subscriber, state) {
      subscriber.needsSnapshot = true
      state.statistics.overflows += 1
    }
    if subscriber.needsSnapshot {
      subscriber.needsSnapshot = false
      subscriber.allowance = 0
      subscriber.next = state.sequence + 1
      state.statistics.snapshotsServed += 1
      let snapshot = StreamSnapshot(
        stream: self.id, sequence: state.sequence, sections: state.sections, labels: state.labels)
      return .ready(.snapshot(snapshot))
    }
    let pending = subscriber.pending(at: state.sequence)
    if pending > 0 {
      let shared = state.log[state.log.count - pending]
      subscriber.next += 1
      subscriber.allowance = 0
      return .ready(.changeset(shared))
    }
    if state.isFinished {
      state.subscribers[id] = nil
      return .ready(nil)
    }
    return .wait
  }

  /// The subscriber's next update, waiting for one; `nil` when the stream ended or the task was
  /// cancelled (which removes the subscriber).
  ///
  /// A waiting consumer is only woken: it takes the update under the lock, as the publisher
  /// left it there. Handing the update through the continuation would be just as correct, but
  /// that handoff happens inside the concurrency runtime, which the thread sanitizer does not
  /// see, so it would report the changeset's storage as raced.
  func next(_ id: Int) async -> StreamUpdate<Value>? {
    await nextDelivery(id)?.update
  }

  /// ``next(_:)``, without making the update.
  func nextDelivery(_ id: Int) async -> Delivery? {
    while true {
      if case .ready(let update) = state.withLock({ poll(id, &$0) }) { return update }
      await wait(id)
    }
  }

  /// Every update due to the subscriber, waiting for one: a batch of one or more, in order;
  /// `nil` when the stream ended or the task was cancelled.
  func nextBatch(_ id: Int) async -> Batch? {
    while true {
      if case .ready(let batch) = state.withLock({ pollAll(id, &$0) }) { return batch }
      await wait(id)
    }
  }

  /// Waits until the subscriber `id` has something due (or ended), or the task is cancelled
  /// (which removes the subscriber).
  private func wait(_ id: Int) async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let registered = state.withLock { state -> Bool in
          guard let subscriber = state.subscribers[id], !hasSomethingDue(subscriber, state)
          else { return false }
          subscriber.waiting = continuation
          if state.waiters.count > 2 * state.subscribers.count + 16 {
            // Entries of subscribers woken otherwise (a snapshot, removed) since the last pass.
            state.waiters.removeAll { $0.waiting == nil }
          }
          state.waiters.append(subscriber)
          return true
        }
        if !registered { continuation.resume() }
      }
    } onCancel: {
      remove(id)
    }
  }

  /// The subscriber's next update if one is due now, without waiting.
  func poll(_ id: Int) -> StreamUpdate<Value>? {
    pollDelivery(id)?.update
  }

  /// ``poll(_:)``, without making the update.
  func pollDelivery(_ id: Int) -> Delivery? {
    guard case .ready(let delivery) = state.withLock({ poll(id, &$0) }) else { return nil }
    return delivery
  }

  /// Removes the subscriber; a consumer waiting for it gets `nil`.
  func remove(_ id: Int) {
    let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
      guard let subscriber = state.subscribers.removeValue(forKey: id) else { return nil }
      // One that overflowed, not yet found, is counted now.
      if isOverflowed(subscriber, state) { state.statistics.overflows += 1 }
      defer { subscriber.waiting = nil }
      return subscriber.waiting
    }
    waiting?.resume()
  }
}
