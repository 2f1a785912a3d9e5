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
/// Memory is therefore bounded by the policy, whatever the subscribers do. The queues are one log
/// of changesets shared by every subscriber, each reading it with a cursor (`Docs/Streaming.md`,
/// "Delivery"): publishing costs the same for a thousand subscribers as for one.
///
/// **Ending.** ``finish()`` — called when the publisher goes away, with its coordinator — ends
/// every subscription once it has delivered what it holds. Cancelling the task that iterates a
/// subscription, or releasing the subscription, removes the subscriber.
///
/// **The state.** The stream holds the state of its last update, the one copy of it (an
/// ``UpdatePublisher`` keeps none), and applies each changeset to it in place; snapshots share
/// its storage, so a section a changeset changes is copied only while a snapshot that holds it
/// is alive.
///
/// - Complexity: publishing a changeset costs O(1) whatever the number of subscribers (O(p) for
///   p subscribers once every 64 changesets, trimming the log, and O(w) in a later pass that
///   wakes the w consumers waiting), plus applying it to the state in place: O(c log c + s + m)
///   for c changes, s sections and m elements an array must move, whatever the length of the
///   sections (O(s + c) more when the replay buffer is full).
public final class UpdateStream<Value: Sendable>: Sendable {
  /// The stream's identifier, new for each stream (``StreamPosition/stream``).
  public let id: String
  /// The bounds.
  public let policy: StreamPolicy

  /// A changeset, held once in the log and the replay buffer and handed to every subscriber.
  final class Shared: @unchecked Sendable {
    let update: StreamChangeset<Value>
    /// The elements the changeset deletes that the model kept (moved and updated in one batch,
    /// say): old path → new path. ``resolve(_:at:)`` follows them; subscribers never see them.
    let survivors: [IndexPath: IndexPath]
    /// The changeset's JSON line, encoded once for every subscriber that wants bytes
    /// (``StreamSubscription/encodedLines()``). Only touched under the stream's lock, which a
    /// consumer takes anyway to take its batch (hence `@unchecked Sendable`).
    var line: Data?
    init(_ update: StreamChangeset<Value>, survivors: [IndexPath: IndexPath] = [:]) {
      self.update = update
      self.survivors = survivors
    }
  }

  /// The last snapshot encoded as a line, shared by the subscribers that want bytes: every
  /// subscriber that catches up at the same sequence number gets the same bytes.
  let snapshotLine = Locked<(sequence: Int, line: Data)?>(nil)

  /// What a subscriber takes: a changeset of the log, or a snapshot.
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
    /// The last changesets, consecutive, the newest being `sequence`: every changeset a
    /// subscriber has yet to take, shared by all of them (``StreamSubscriber``). It holds at most
    /// max(``StreamPolicy/subscriberCapacity``, 1), and is trimmed to what the subscribers need
    /// every ``logTrimInterval`` changesets.
    var log = Ring<Shared>()
    var subscribers: [Int: StreamSubscriber] = [:]
    /// The subscribers whose consumer waits, registered since the last wake-up pass (some may
    /// have been woken otherwise since: their `waiting` is then `nil`).
    var waiters: [StreamSubscriber] = []
    var nextSubscriber = 0
    var isFinished = false
    var statistics = StreamStatistics()
    /// A wake-up pass (``wakeWaiting()``) is scheduled and has not yet taken the consumers.
    var wakeScheduled = false
  }

  /// How often, in changesets, the log is trimmed to what the subscribers still need: a pass
  /// over the subscribers, so O(p / 64) a changeset.
  static var logTrimInterval: Int { 64 }

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
      statistics.replayedChangesets = state.replay.count
      for subscriber in state.subscribers.values {
        if subscriber.needsSnapshot {
          statistics.subscribersNeedingSnapshot += 1
        } else if isOverflowed(subscriber, state) {
          // Overflowed, not yet found: counted as it will be when it is.
          statistics.subscribersNeedingSnapshot += 1
          statistics.overflows += 1
        } else {
          statistics.queuedChangesets += subscriber.pending(at: state.sequence)
        }
      }
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
  /// stream it follows gave the snapshot — or, when `nil`, at the next one. Returns the
  /// sequence number of the snapshot (the stream's, unchanged, once finished).
  @discardableResult
  func publishSnapshot(_ sections: [[Value]], labels: [StreamSectionLabel], at sequence: Int?)
    -> Int
  {
    Self.checkLabels(labels, sections: sections.count)
    var woken: [CheckedContinuation<Void, Never>] = []
    let published = state.withLock { state -> Int in
      guard !state.isFinished else { return state.sequence }
      for subscriber in state.subscribers.values {
        // One that overflowed before the snapshot, not yet found, is counted now.
        if isOverflowed(subscriber, state) { state.statistics.overflows += 1 }
        subscriber.needsSnapshot = true
        subscriber.allowance = 0
        if let waiting = subscriber.waiting {
          subscriber.waiting = nil
          woken.append(waiting)
        }
      }
      state.sequence = sequence ?? state.sequence + 1
      state.sections = sections
      state.labels = labels
      state.replay.removeAll()
      state.log.removeAll()
      state.waiters.removeAll()
      state.statistics.published += 1
      return state.sequence
    }
    for continuation in woken { continuation.resume() }
    return published
  }

  /// Wakes every consumer waiting with something due. Publishing schedules one such pass and
  /// does not wake the consumers itself: while a pass runs, later changesets join the log,
  /// and a consumer woken once takes them all (``StreamSubscription/batches()``). With many
  /// subscribers this is what bounds the wake-ups: one per consumer per pass, not one per
  /// consumer per changeset.
  func wakeWaiting() {
    let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.wakeScheduled = false
      var woken: [CheckedContinuation<Void, Never>] = []
      var still: [StreamSubscriber] = []
      for subscriber in state.waiters {
        guard let waiting = subscriber.waiting else { continue }  // woken otherwise, or gone
        guard hasSomethingDue(subscriber, state) else {
          still.append(subscriber)  // began waiting after the changeset that scheduled the pass
          continue
        }
        subscriber.waiting = nil
        woken.append(waiting)
      }
      state.waiters = still
      return woken
    }
    for continuation in woken { continuation.resume() }
  }

  /// Ends the stream: each subscription delivers what it holds (and the snapshot it is owed),
  /// then ends. Later publications are ignored. Called when the ``UpdatePublisher`` goes away.
  public func finish() {
    let waiting = state.withLock { state in
      state.isFinished = true
      state.waiters.removeAll()
      var waiting: [CheckedContinuation<Void, Never>] = []
      for (id, subscriber) in state.subscribers {
        guard let continuation = subscriber.waiting else { continue }
        waiting.append(continuation)
        subscriber.waiting = nil
        // One waiting with changesets due (a wake-up pass not yet run) takes them first.
        if !subscriber.needsSnapshot && subscriber.pending(at: state.sequence) == 0 {
          state.subscribers[id] = nil
        }
      }
      return waiting
    }
    for continuation in waiting { continuation.resume() }
  }

  // MARK: The log

  /// Appends `shared`, the changeset just published, to the log, and keeps the log within its
  /// bounds: at most max(``StreamPolicy/subscriberCapacity``, 1) changesets (a subscriber that
  /// needs an older one has overflowed), and every ``logTrimInterval`` changesets, none older
  /// than the oldest a subscriber still needs.
  ///
  /// - Complexity: O(1), plus O(p) for p subscribers every ``logTrimInterval`` changesets.
  func append(_ shared: Shared, toLogOf state: inout State) {
    if policy.subscriberCapacity == 0 {
      // A consumer that waits with nothing due takes this one whatever the capacity.
      for subscriber in state.waiters
      where subscriber.waiting != nil && !subscriber.needsSnapshot
        && subscriber.next == state.sequence
      {
        subscriber.allowance = 1
      }
    }
    state.log.append(shared)
    if state.log.count > max(policy.subscriberCapacity, 1) { _ = state.log.popFirst() }
    guard state.sequence % Self.logTrimInterval == 0, state.log.count > 1 else { return }
    var oldest = state.sequence + 1
    for subscriber in state.subscribers.values where !subscriber.needsSnapshot {
      if isOverflowed(subscriber, state) { continue }
      oldest = min(oldest, subscriber.next)
    }
    while state.log.count > 0, state.sequence - state.log.count + 1 < oldest {
      _ = state.log.popFirst()
    }
  }

  /// Makes the log hold the last `count` changesets of the replay buffer (at least), for a
  /// subscriber that resumes after them.
  ///
  /// - Complexity: O(count).
  func extendLog(toHold count: Int, _ state: inout State) {
    guard state.log.count < count else { return }
    state.log.removeAll()
    for shared in state.replay.suffix(count) { state.log.append(shared) }
  }

  /// Whether `subscriber` has more changesets due than its queue would hold: it is owed a
  /// snapshot, though not yet marked (``StreamSubscriber``).
  func isOverflowed(_ subscriber: StreamSubscriber, _ state: State) -> Bool {
    !subscriber.needsSnapshot
      && subscriber.pending(at: state.sequence)
        > max(policy.subscriberCapacity, subscriber.allowance)
  }

  /// Whether `subscriber` has an update due (a changeset, a snapshot), or the stream ended.
  func hasSomethingDue(_ subscriber: StreamSubscriber, _ state: State) -> Bool {
    subscriber.needsSnapshot || subscriber.pending(at: state.sequence) > 0 || state.isFinished
  }

  /// Traps unless `labels` is empty or has one label per section.
  static func checkLabels(_ labels: [StreamSectionLabel], sections: Int) {
    precondition(
      labels.isEmpty || labels.count == sections,
      "UpdateStream.publishSnapshot(_:labels:): \(labels.count) labels for \(sections) sections (give one "
        + "per section, or none)")
  }

  /// The section counts after `update`, given those before it (an update this stream published).
  ///
  /// - Complexity: O(s + c) for s sections and c changes when the changeset changes no section,
  ///   O(s + c log c) otherwise.
  static func counts(after update: StreamChangeset<Value>, from counts: [Int]) -> [Int] {
    let changeset = update.changeset
    if changeset.deletedSectionRanges.isEmpty && changeset.insertedSectionRanges.isEmpty
      && changeset.reloadedSectionRanges.isEmpty && changeset.movedSections.isEmpty
    {
      // Elements only, of a changeset that fits (it was published): each section's count moves
      // by what arrives in it less what leaves it.
      var counts = counts
      for path in changeset.deletedElements { counts[path[0]] -= 1 }
      for path in changeset.insertedElements { counts[path[0]] += 1 }
      for move in changeset.movedElements {
        counts[move.from[0]] -= 1
        counts[move.to[0]] += 1
      }
      return counts
    }
    do {
      return try update.changeset.newCounts(
        from: counts, insertedSectionCounts: update.sections.mapValues(\.count))
    } catch {
      preconditionFailure(
        "UpdateStream: published changeset \(update.sequence) does not fit the state before it: "
          + "\(error)")
    }
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
