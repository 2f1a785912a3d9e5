import Foundation
import SectionKit

/// The updates of one model, served to any number of subscribers: each gets a snapshot first,
/// then every changeset in order, with no gap and no duplicate.
///
/// An ``UpdatePublisher`` — the model's adapter — feeds it; hand ``UpdatePublisher/stream``
/// (it is `Sendable`) to whoever serves clients:
///
/// ```swift
/// for await update in stream.subscribe() {      // a snapshot, then changesets
///   try mirror.apply(update)
/// }
/// ```
///
/// **Resuming.** ``subscribe(after:)`` with the last position a client saw continues with the
/// changesets it missed while they are still among the last ``StreamPolicy/replayCapacity``;
/// otherwise (too old, another stream, a reload since) the subscription starts with a snapshot.
///
/// **Slow subscribers.** Publishing never waits for a subscriber. Each one has a queue of at
/// most ``StreamPolicy/subscriberCapacity`` changesets; when one more arrives, the queue is
/// dropped and the subscriber's next update is a snapshot of the model as it is when it asks.
/// Memory is therefore bounded by the policy, whatever the subscribers do.
///
/// **Ending.** ``finish()`` — called when the publisher goes away, with its coordinator — ends
/// every subscription once it has delivered what it holds. Cancelling the task that iterates a
/// subscription, or releasing the subscription, removes the subscriber.
///
/// - Complexity: publishing a changeset costs O(p) for p subscribers, plus O(s + c log c) for s
///   sections and c changes (checking that it fits; twice when the replay buffer is full).
public final class UpdateStream<Value: Sendable>: Sendable {
  /// The stream's identifier, new for each stream (``StreamPosition/stream``).
  public let id: String
  /// The bounds.
  public let policy: StreamPolicy

  /// A changeset shared by every queue that holds it.
  final class Shared: Sendable {
    let update: StreamChangeset<Value>
    /// The elements the changeset deletes that the model kept (moved and updated in one batch,
    /// say): old path → new path. ``resolve(_:at:)`` follows them; subscribers never see them.
    let survivors: [IndexPath: IndexPath]
    /// The changeset's JSON line, encoded once for every subscriber that wants bytes
    /// (``StreamSubscription/encodedLines()``).
    let line = Locked<Data?>(nil)
    init(_ update: StreamChangeset<Value>, survivors: [IndexPath: IndexPath] = [:]) {
      self.update = update
      self.survivors = survivors
    }
  }

  /// The last snapshot encoded as a line, shared by the subscribers that want bytes: every
  /// subscriber that catches up at the same sequence number gets the same bytes.
  let snapshotLine = Locked<(sequence: Int, line: Data)?>(nil)

  /// What a subscriber takes: a changeset shared by every queue, or a snapshot.
  enum Delivery {
    case changeset(Shared)
    case snapshot(StreamSnapshot<Value>)

    var update: StreamUpdate<Value> {
      switch self {
      case .changeset(let shared): .changeset(shared.update)
      case .snapshot(let snapshot): .snapshot(snapshot)
      }
    }
  }

  /// A class, so that the publisher's loop over every subscriber mutates in place and copies
  /// nothing; only touched under the lock.
  final class Subscriber {
    var queue = Ring<Shared>()
    /// The next update is a snapshot of the state at the time it is taken.
    var needsSnapshot = true
    /// The consumer waiting in `next()`, with an empty queue and no snapshot owed: woken when
    /// one is due, it takes it under the lock (see `next`).
    var waiting: CheckedContinuation<Void, Never>?
  }

  struct State {
    var sequence = 0
    var sections: [[Value]] = []
    /// The label of each section, or none (``StreamSectionLabel``).
    var labels: [StreamSectionLabel] = []
    /// The last changesets, consecutive, the newest being `sequence`.
    var replay = Ring<Shared>()
    /// The counts of each section at sequence `sequence - replay.count` (when `replay` is not
    /// empty).
    var replayBaseCounts: [Int] = []
    var subscribers: [Int: Subscriber] = [:]
    var nextSubscriber = 0
    var isFinished = false
    var statistics = StreamStatistics()
    /// A wake-up pass (``wakeWaiting()``) is scheduled and has not yet taken the consumers.
    var wakeScheduled = false
  }

  let state = Locked(State())

  /// Creates a stream with no sections, at sequence number 0.
  public convenience init(policy: StreamPolicy = StreamPolicy()) {
    self.init(id: UUID().uuidString, policy: policy)
  }

  /// A stream of identifier `id`, for a follower (``init(following:policy:)``).
  init(id: String, policy: StreamPolicy) {
    self.id = id
    self.policy = policy
  }

  /// The position of the last update published.
  public var position: StreamPosition {
    StreamPosition(stream: id, sequence: state.withLock { $0.sequence })
  }

  /// A snapshot of the last state published.
  public var snapshot: StreamSnapshot<Value> {
    state.withLock {
      StreamSnapshot(stream: id, sequence: $0.sequence, sections: $0.sections, labels: $0.labels)
    }
  }

  /// Counters and the memory held, for monitoring.
  public var statistics: StreamStatistics {
    state.withLock { state in
      var statistics = state.statistics
      statistics.subscribers = state.subscribers.count
      statistics.queuedChangesets = state.subscribers.values.reduce(0) { $0 + $1.queue.count }
      statistics.replayedChangesets = state.replay.count
      statistics.subscribersNeedingSnapshot = state.subscribers.values.count(where: \.needsSnapshot)
      return statistics
    }
  }

  /// Whether ``finish()`` was called.
  public var isFinished: Bool { state.withLock { $0.isFinished } }

  // MARK: Publishing

  /// Publishes a new state as a whole (a reload): every subscriber's next update is a snapshot,
  /// and the replay buffer starts afresh.
  ///
  /// ``UpdatePublisher`` calls it; call it yourself only for a stream you feed by hand.
  ///
  /// - Parameters:
  ///   - sections: the elements of each section.
  ///   - labels: the label of each section (``StreamSectionLabel``), or none.
  /// - Complexity: O(p) for p subscribers.
  public func publishSnapshot(_ sections: [[Value]], labels: [StreamSectionLabel] = []) {
    publishSnapshot(sections, labels: labels, at: nil)
  }

  /// ``publishSnapshot(_:labels:)`` at sequence number `sequence` — a follower's, the number the
  /// stream it follows gave the snapshot — or, when `nil`, at the next one.
  func publishSnapshot(_ sections: [[Value]], labels: [StreamSectionLabel], at sequence: Int?) {
    Self.checkLabels(labels, sections: sections.count)
    var woken: [CheckedContinuation<Void, Never>] = []
    state.withLock { state in
      guard !state.isFinished else { return }
      state.sequence = sequence ?? state.sequence + 1
      state.sections = sections
      state.labels = labels
      state.replay.removeAll()
      state.statistics.published += 1
      for subscriber in state.subscribers.values {
        subscriber.queue.removeAll()
        subscriber.needsSnapshot = true
        if let waiting = subscriber.waiting {
          subscriber.waiting = nil
          woken.append(waiting)
        }
      }
    }
    for continuation in woken { continuation.resume() }
  }

  /// Publishes one batch: `changeset` with the values it needs, and `sections`, the state after
  /// it. Returns the sequence number given to it.
  ///
  /// ``UpdatePublisher`` calls it; call it yourself only for a stream you feed by hand, with a
  /// changeset that fits the state before it and `sections` the state it leaves.
  ///
  /// - Parameters:
  ///   - changeset: the batch, in UIKit's coordinates, from the state of the last update.
  ///   - newSections: the elements of each section `changeset` inserts or reloads, by its new
  ///     index (`sections:`).
  ///   - elements: the value of each element it inserts and of each reload destination, by new
  ///     index path.
  ///   - survivors: the elements `changeset` deletes that the model kept, by their old index
  ///     path, with the index path each of them has now — an element moved and updated in one
  ///     batch, which a changeset gives as a delete and an insert, or an element of a section it
  ///     deletes and inserts when you know it is the same element. ``resolve(_:at:)`` follows
  ///     them instead of answering that they are gone; subscribers never see them.
  ///     ``UpdatePublisher`` finds them by identity, through its coordinator.
  ///   - sections: the state after `changeset` (`state:`), which new subscribers get as a
  ///     snapshot.
  ///   - digest: the digest of `sections` to send with the changeset, if any
  ///     (``StreamChangeset/digest``).
  ///   - labels: the label of each section `changeset` inserts or reloads that has one, by its
  ///     new index (``StreamChangeset/labels``); the stream follows the others' through it.
  /// - Returns: the sequence number of the changeset (the stream's, unchanged, once finished).
  /// - Precondition: `changeset`, with the elements of the `sections` it inserts, takes the
  ///   section counts of the state before it to those of `state` (a changeset that does not fit
  ///   traps here, naming both); every survivor is an element it deletes (itself or with its
  ///   section) and goes to one it inserts (itself or with its section).
  /// - Complexity: O(p) for p subscribers, plus O(s + c log c) for s sections and c changes
  ///   (checking that the changeset fits, and again when the replay buffer is full).
  ///
  /// Reconfigures (``/SectionKit/Changeset/reconfiguredElements``) are published as reloads: the
  /// wire format has no field for them.
  @discardableResult
  public func publish(
    _ changeset: Changeset, sections newSections: [Int: [Value]] = [:],
    elements: [IndexPath: Value] = [:], survivors: [IndexPath: IndexPath] = [:],
    state sections: [[Value]], digest: StreamDigest? = nil,
    labels: [Int: StreamSectionLabel] = [:]
  ) -> Int {
    // The wire has no reconfigures: each goes out as the reload it is placed as (rule B3).
    let changeset = changeset.reconfiguresAsReloads()
    if !survivors.isEmpty { Self.checkSurvivors(survivors, of: changeset) }
    for index in labels.keys {
      precondition(
        newSections[index] != nil,
        "UpdateStream.publish(_:sections:elements:survivors:state:digest:labels:): a label for section \(index), which the changeset does not insert "
          + "or reload (sections sent: \(newSections.keys.sorted()))")
    }
    var scheduleWake = false
    let sequence = state.withLock { state -> Int in
      guard !state.isFinished else { return state.sequence }
      Self.checkFits(
        changeset, sequence: state.sequence + 1, before: state.sections, sections: newSections,
        after: sections)
      let update = StreamChangeset(
        sequence: state.sequence + 1, changeset: changeset, sections: newSections,
        elements: elements, digest: digest, labels: labels.filter { !$0.value.isEmpty })
      let shared = Shared(update, survivors: survivors)
      state.labels = StreamSectionLabel.follow(
        state.labels, through: changeset, newSectionCount: sections.count, new: labels)
      if state.replay.isEmpty { state.replayBaseCounts = state.sections.map { $0.count } }
      state.sequence += 1
      state.sections = sections
      state.statistics.published += 1
      if policy.replayCapacity > 0 {
        if state.replay.count == policy.replayCapacity, let oldest = state.replay.popFirst() {
          state.replayBaseCounts = Self.counts(after: oldest.update, from: state.replayBaseCounts)
        }
        state.replay.append(shared)
      }
      var anyWaiting = false
      for subscriber in state.subscribers.values where !subscriber.needsSnapshot {
        if subscriber.waiting != nil { anyWaiting = true }
        if subscriber.queue.count < policy.subscriberCapacity
          || (subscriber.waiting != nil && subscriber.queue.isEmpty)
        {
          // A waiting consumer's first changeset goes in whatever the capacity.
          subscriber.queue.append(shared)
        } else {
          subscriber.queue.removeAll()
          subscriber.needsSnapshot = true
          state.statistics.overflows += 1
        }
      }
      if anyWaiting && !state.wakeScheduled {
        state.wakeScheduled = true
        scheduleWake = true
      }
      return state.sequence
    }
    if scheduleWake { Task { self.wakeWaiting() } }
    return sequence
  }

  /// Wakes every consumer waiting with something due. Publishing schedules one such pass and
  /// does not wake the consumers itself: while a pass runs, later changesets join the queues,
  /// and a consumer woken once takes them all (``StreamSubscription/batches()``). With many
  /// subscribers this is what bounds the wake-ups: one per consumer per pass, not one per
  /// consumer per changeset.
  func wakeWaiting() {
    let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.wakeScheduled = false
      var woken: [CheckedContinuation<Void, Never>] = []
      for subscriber in state.subscribers.values {
        guard let waiting = subscriber.waiting,
          !subscriber.queue.isEmpty || subscriber.needsSnapshot || state.isFinished
        else { continue }
        subscriber.waiting = nil
        woken.append(waiting)
      }
      return woken
    }
    for continuation in woken { continuation.resume() }
  }

  /// Ends the stream: each subscription delivers what it holds (and the snapshot it is owed),
  /// then ends. Later publications are ignored. Called when the ``UpdatePublisher`` goes away.
  public func finish() {
    let waiting = state.withLock { state in
      state.isFinished = true
      var waiting: [CheckedContinuation<Void, Never>] = []
      for (id, subscriber) in state.subscribers {
        guard let continuation = subscriber.waiting else { continue }
        waiting.append(continuation)
        subscriber.waiting = nil
        // One waiting with changesets queued (a wake-up pass not yet run) takes them first.
        if subscriber.queue.isEmpty && !subscriber.needsSnapshot { state.subscribers[id] = nil }
      }
      return waiting
    }
    for continuation in waiting { continuation.resume() }
  }

  /// Traps unless `changeset`, with the `sections` it inserts, takes the section counts of
  /// `before` to those of `after`: a changeset that does not fit the state would otherwise be
  /// published, refused by every mirror, and trap later (when the replay buffer drops it, or in
  /// ``resolve(_:at:)``). A programming error of the server.
  ///
  /// - Complexity: O(s + c log c) for s sections and c changes.
  static func checkFits(
    _ changeset: Changeset, sequence: Int, before: [[Value]], sections: [Int: [Value]],
    after: [[Value]]
  ) {
    let oldCounts = before.map { $0.count }
    let newCounts: [Int]
    do {
      newCounts = try changeset.newCounts(
        from: oldCounts, insertedSectionCounts: sections.mapValues(\.count))
    } catch {
      preconditionFailure(
        "UpdateStream.publish(_:sections:elements:survivors:state:digest:labels:): changeset \(sequence) does "
          + "not fit the state before it, of section counts \(describe(counts: oldCounts)): "
          + "\(error)")
    }
    let givenCounts = after.map { $0.count }
    precondition(
      newCounts == givenCounts,
      "UpdateStream.publish(_:sections:elements:survivors:state:digest:labels:): changeset \(sequence) takes "
        + "section counts \(describe(counts: oldCounts)) to \(describe(counts: newCounts)), "
        + "but the state given has section counts \(describe(counts: givenCounts))")
  }

  /// Traps unless `labels` is empty or has one label per section.
  static func checkLabels(_ labels: [StreamSectionLabel], sections: Int) {
    precondition(
      labels.isEmpty || labels.count == sections,
      "UpdateStream.publishSnapshot(_:labels:): \(labels.count) labels for \(sections) sections (give one "
        + "per section, or none)")
  }

  /// Traps unless every survivor goes from an element `changeset` deletes (itself or with its
  /// section) to one it inserts (itself or with its section).
  static func checkSurvivors(_ survivors: [IndexPath: IndexPath], of changeset: Changeset) {
    let deleted = Set(changeset.deletedElements)
    let inserted = Set(changeset.insertedElements)
    let (deletedSections, insertedSections) = (
      changeset.deletedSections, changeset.insertedSections
    )
    for (old, new) in survivors.sorted(by: { $0.key < $1.key }) {
      precondition(
        old.count == 2 && new.count == 2
          && (deleted.contains(old) || deletedSections.contains(old[0]))
          && (inserted.contains(new) || insertedSections.contains(new[0])),
        "UpdateStream.publish(_:sections:elements:survivors:state:digest:labels:): survivor \(describe(old)) → "
          + "\(describe(new)) is not a deleted element going to an inserted one of the changeset")
    }
  }

  /// The section counts after `update`, given those before it (an update this stream published).
  static func counts(after update: StreamChangeset<Value>, from counts: [Int]) -> [Int] {
    do {
      return try update.changeset.newCounts(
        from: counts, insertedSectionCounts: update.sections.mapValues(\.count))
    } catch {
      preconditionFailure(
        "UpdateStream: published changeset \(update.sequence) does not fit the state before it: "
          + "\(error)")
    }
  }

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
      let id = state.nextSubscriber
      state.nextSubscriber += 1
      let subscriber = Subscriber()
      // The position comes from a client: compare it with the range the replay buffer covers
      // before subtracting, so that no number (negative, `Int.min`, ahead) can overflow.
      let oldest = state.sequence - state.replay.count
      if let position, position.stream == self.id,
        (oldest...state.sequence).contains(position.sequence)
      {
        let missed = state.sequence - position.sequence
        if missed <= policy.subscriberCapacity {
          subscriber.needsSnapshot = false
          for shared in state.replay.suffix(missed) { subscriber.queue.append(shared) }
          state.statistics.resumed += 1
        }
      }
      state.subscribers[id] = subscriber
      return id
    }
    return StreamSubscription(stream: self, id: id)
  }

  /// What `next` finds.
  enum Poll {
    case ready(Delivery?)
    case wait
  }

  /// What `nextDeliveries` finds.
  enum BatchPoll {
    case ready([Delivery]?)
    case wait
  }

  /// Every update due to the subscriber (at least one), `nil` if it ended, or `.wait`: the
  /// changesets of its queue in order — at most ``StreamPolicy/subscriberCapacity`` — or the
  /// snapshot it is owed.
  func pollAll(_ id: Int, _ state: inout State) -> BatchPoll {
    guard let subscriber = state.subscribers[id], !subscriber.queue.isEmpty else {
      switch poll(id, &state) {
      case .ready(let delivery): return .ready(delivery.map { [$0] })
      case .wait: return .wait
      }
    }
    var batch: [Delivery] = []
    batch.reserveCapacity(subscriber.queue.count)
    while let shared = subscriber.queue.popFirst() { batch.append(.changeset(shared)) }
    return .ready(batch)
  }

  /// The subscriber's next update if one is due, `nil` if it ended, or `.wait`.
  func poll(_ id: Int, _ state: inout State) -> Poll {
    guard let subscriber = state.subscribers[id] else { return .ready(nil) }
    if let shared = subscriber.queue.popFirst() {
      return .ready(.changeset(shared))
    }
    if subscriber.needsSnapshot {
      subscriber.needsSnapshot = false
      state.statistics.snapshotsServed += 1
      let snapshot = StreamSnapshot(
        stream: self.id, sequence: state.sequence, sections: state.sections, labels: state.labels)
      return .ready(.snapshot(snapshot))
    }
    if state.isFinished {
      state.subscribers[id] = nil
      return .ready(nil)
    }
    return .wait
  }

  /// Whether the subscriber `id` has nothing due: it is there, its queue is empty, it is owed no
  /// snapshot and the stream goes on.
  func hasNothingDue(_ id: Int, _ state: State) -> Bool {
    guard let subscriber = state.subscribers[id] else { return false }
    return subscriber.queue.isEmpty && !subscriber.needsSnapshot && !state.isFinished
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
  func nextDeliveries(_ id: Int) async -> [Delivery]? {
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
          guard hasNothingDue(id, state) else { return false }
          state.subscribers[id]?.waiting = continuation
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
    let waiting = state.withLock { $0.subscribers.removeValue(forKey: id)?.waiting }
    waiting?.resume()
  }
}

/// Counters of an ``UpdateStream``, for monitoring and benchmarks.
public struct StreamStatistics: Hashable, Sendable {
  /// Updates published (snapshots and changesets).
  public var published = 0
  /// Snapshots handed to subscribers.
  public var snapshotsServed = 0
  /// Times a subscriber's queue overflowed and it was moved to "needs snapshot".
  public var overflows = 0
  /// Subscriptions that resumed from a position without a snapshot.
  public var resumed = 0
  /// Subscribers now.
  public var subscribers = 0
  /// Changesets waiting in subscribers' queues now, all queues together.
  public var queuedChangesets = 0
  /// Changesets in the replay buffer now.
  public var replayedChangesets = 0
  /// Subscribers whose next update is a snapshot.
  public var subscribersNeedingSnapshot = 0
}

/// `[2, 0, 5]`, or `1000 sections` for a long list: counts for a message.
func describe(counts: [Int]) -> String {
  counts.count <= 20 ? "\(counts)" : "(\(counts.count) sections)"
}
