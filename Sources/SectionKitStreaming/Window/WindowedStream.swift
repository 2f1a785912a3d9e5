import Foundation
import SectionKit

/// Serves windows of an ``UpdateStream``: each windowed subscriber gets the rows of its window
/// and the counts outside, then every batch clipped to its window (``WindowUpdate``), and moves
/// its window as it scrolls.
///
/// It follows the stream as one subscriber of its own, keeps one copy of the whole list (the
/// rows entering a window come from it), and clips each batch once per window, so that a server
/// holding 10⁶ rows sends each client only the rows it shows.
///
/// ```swift
/// let windows = WindowedStream(following: publisher.stream)
/// Task { await windows.run() }                         // follows the stream until it ends
/// let subscription = windows.subscribe(window: StreamWindow(start: 0, length: 50))
/// subscription.move(to: 50)                             // one screen down
/// for await update in subscription { … }               // a snapshot, then clipped batches
/// ```
///
/// **Bounds.** Each windowed subscriber has a queue of at most the stream's
/// ``StreamPolicy/subscriberCapacity`` updates; when one more arrives, the queue is dropped and
/// its next update is a snapshot of its window, as for the stream's own subscribers. A snapshot
/// of a window holds only its rows, so a subscriber that reconnects asks for its window again
/// (``subscribe(window:)``) rather than resuming.
///
/// - Complexity: each batch of c changes costs O(s + c log c) once, plus O(s + w log c) for each
///   window of w rows (s sections).
public final class WindowedStream<Value: Sendable>: Sendable {
  /// The stream followed.
  public let stream: UpdateStream<Value>
  private let source: StreamSubscription<Value>

  final class Subscriber {
    var window: StreamWindow
    var queue = Ring<WindowUpdate<Value>>()
    var needsSnapshot = true
    var waiting: CheckedContinuation<Void, Never>?
    init(window: StreamWindow) { self.window = window }
  }

  struct State {
    var mirror = StreamMirror<Value>(identity: nil)
    var counts: [Int] = []
    var subscribers: [Int: Subscriber] = [:]
    var nextSubscriber = 0
    var isFinished = false
  }

  let state = Locked(State())

  /// Follows `stream` from its current state.
  public init(following stream: UpdateStream<Value>) {
    self.stream = stream
    self.source = stream.subscribe()
    pump()
  }

  /// Opens a windowed subscription: a snapshot of `window` first (its start limited to the rows
  /// there are), then every batch clipped to it.
  ///
  /// - Complexity: O(1); the snapshot is made when it is taken.
  public func subscribe(window: StreamWindow) -> WindowSubscription<Value> {
    let id = state.withLock { state in
      let id = state.nextSubscriber
      state.nextSubscriber += 1
      state.subscribers[id] = Subscriber(window: window)
      return id
    }
    return WindowSubscription(windows: self, id: id)
  }

  /// Takes every update of the stream ready now and clips it for each window; returns how many
  /// it took. ``run()`` calls it as updates arrive; call it yourself when you feed the stream
  /// and read windows from the same task (a test, a loop that is not async).
  @discardableResult
  public func pump() -> Int {
    var taken = 0
    while let update = source.poll() {
      take(update)
      taken += 1
    }
    return taken
  }

  /// Follows the stream until it finishes, then ends every windowed subscription once it has
  /// delivered what it holds.
  public func run() async {
    for await update in source { take(update) }
    let woken = state.withLock { state in
      state.isFinished = true
      return state.subscribers.values.compactMap { subscriber in
        defer { subscriber.waiting = nil }
        return subscriber.waiting
      }
    }
    for continuation in woken { continuation.resume() }
  }

  private func take(_ update: StreamUpdate<Value>) {
    let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      let oldCounts = state.counts
      do {
        try state.mirror.apply(update)
      } catch {
        // The stream's own updates always fit; a copy that diverged starts over.
        preconditionFailure("WindowedStream: the stream's update \(update.sequence) \(error)")
      }
      state.counts = state.mirror.sections.map(\.count)
      guard case .changeset(let changeset) = update,
        let follower = RowFollower(
          changeset.changeset, oldCounts: oldCounts, newCounts: state.counts)
      else {
        for subscriber in state.subscribers.values {
          subscriber.queue.removeAll()
          subscriber.needsSnapshot = true
        }
        return Self.wake(state.subscribers.values)
      }
      let clipper = WindowClipper(follower: follower)
      let sections = state.mirror.sections
      for subscriber in state.subscribers.values where !subscriber.needsSnapshot {
        let clip = clipper.clip(subscriber.window) {
          sections[$0][$1]
        }
        subscriber.window = clip.window
        enqueue(
          .changeset(
            WindowChangeset(
              sequence: changeset.sequence, window: clip.window, changeset: clip.changeset,
              sections: clip.sections, elements: clip.elements,
              counts: clipper.changedCounts(clipped: clip.changeset),
              labels: clipper.changedLabels(clipped: clip.changeset, labels: state.mirror.labels))),
          to: subscriber)
      }
      return Self.wake(state.subscribers.values)
    }
    for continuation in woken { continuation.resume() }
  }

  private func enqueue(_ update: WindowUpdate<Value>, to subscriber: Subscriber) {
    if subscriber.queue.count >= stream.policy.subscriberCapacity {
      subscriber.queue.removeAll()
      subscriber.needsSnapshot = true
    } else {
      subscriber.queue.append(update)
    }
  }

  private static func wake(_ subscribers: some Sequence<Subscriber>)
    -> [CheckedContinuation<Void, Never>]
  {
    subscribers.compactMap { subscriber in
      guard subscriber.needsSnapshot || !subscriber.queue.isEmpty else { return nil }
      defer { subscriber.waiting = nil }
      return subscriber.waiting
    }
  }

  // MARK: Subscribers

  func move(_ id: Int, to start: Int) {
    precondition(start >= 0, "WindowSubscription.move(to: \(start)): a start must be 0 or more")
    let woken = state.withLock { state -> CheckedContinuation<Void, Never>? in
      guard let subscriber = state.subscribers[id] else { return nil }
      let total = state.counts.reduce(0, +)
      guard !subscriber.needsSnapshot else {
        subscriber.window.start = min(start, total)
        return nil
      }
      let clipper = WindowClipper(follower: RowFollower(counts: state.counts))
      let sections = state.mirror.sections
      let clip = clipper.clip(subscriber.window, movedTo: start) {
        sections[$0][$1]
      }
      subscriber.window = clip.window
      enqueue(
        .moved(
          WindowChangeset(
            sequence: state.mirror.position?.sequence ?? 0, window: clip.window,
            changeset: clip.changeset, sections: clip.sections, elements: clip.elements,
            labels: clipper.changedLabels(clipped: clip.changeset, labels: state.mirror.labels))),
        to: subscriber)
      defer { subscriber.waiting = nil }
      return subscriber.waiting
    }
    woken?.resume()
  }

  func poll(_ id: Int) -> WindowUpdate<Value>? {
    state.withLock { state in poll(id, &state) }
  }

  private func poll(_ id: Int, _ state: inout State) -> WindowUpdate<Value>? {
    guard let subscriber = state.subscribers[id] else { return nil }
    if subscriber.needsSnapshot {
      guard let position = state.mirror.position else { return nil }
      subscriber.needsSnapshot = false
      subscriber.queue.removeAll()
      let offsets = RowFollower.offsets(state.counts)
      subscriber.window.start = min(subscriber.window.start, offsets.last!)
      let window = subscriber.window
      let end = min(window.start + window.length, offsets.last!)
      let rows = state.mirror.sections.indices.map { section in
        let inside = WindowClipper.rows(
          ofSection: section, offsets: offsets, start: window.start, end: end)
        return inside.isEmpty ? [] : Array(state.mirror.sections[section][inside])
      }
      return .snapshot(
        WindowSnapshot(
          stream: position.stream, sequence: position.sequence, window: window,
          counts: state.counts, rows: rows, labels: state.mirror.labels))
    }
    return subscriber.queue.popFirst()
  }

  func next(_ id: Int) async -> WindowUpdate<Value>? {
    while true {
      if Task.isCancelled {
        remove(id)
        return nil
      }
      let (update, ended) = state.withLock { state -> (WindowUpdate<Value>?, Bool) in
        if let update = poll(id, &state) { return (update, false) }
        return (nil, state.isFinished || state.subscribers[id] == nil)
      }
      if let update { return update }
      if ended { return nil }
      await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          let ready = state.withLock { state -> Bool in
            guard let subscriber = state.subscribers[id], !state.isFinished,
              !subscriber.needsSnapshot || state.mirror.position == nil,
              subscriber.queue.isEmpty
            else { return true }
            subscriber.waiting = continuation
            return false
          }
          if ready { continuation.resume() }
        }
      } onCancel: {
        self.remove(id)
      }
    }
  }

  func remove(_ id: Int) {
    let waiting = state.withLock { state in state.subscribers.removeValue(forKey: id)?.waiting }
    waiting?.resume()
  }
}

/// One windowed subscriber of a ``WindowedStream``: an `AsyncSequence` of ``WindowUpdate``s, and
/// the way to move its window.
///
/// Iterate it once, from one task. It ends when the stream finishes, when the iterating task is
/// cancelled, or when the subscription and its iterator are released.
public struct WindowSubscription<Value: Sendable>: AsyncSequence, Sendable {
  /// A snapshot, a clipped changeset or a move.
  public typealias Element = WindowUpdate<Value>
  /// Iterating never throws.
  public typealias Failure = Never

  final class Handle: Sendable {
    let windows: WindowedStream<Value>
    let id: Int
    init(windows: WindowedStream<Value>, id: Int) {
      self.windows = windows
      self.id = id
    }
    deinit { windows.remove(id) }
  }

  let handle: Handle

  init(windows: WindowedStream<Value>, id: Int) {
    handle = Handle(windows: windows, id: id)
  }

  /// Moves the window to start at global row `start` (limited to the rows there are): the
  /// subscriber's next update after those already queued is a ``WindowUpdate/moved(_:)`` that
  /// deletes the rows leaving and inserts only the rows entering; the clipped batches go on from
  /// there, with no gap.
  ///
  /// - Precondition: `start` is 0 or more.
  /// - Complexity: O(s + w) for s sections and w rows in the window.
  public func move(to start: Int) {
    handle.windows.move(handle.id, to: start)
  }

  /// The next update if one is due now, without waiting; `nil` when nothing is ready.
  public func poll() -> WindowUpdate<Value>? {
    handle.windows.poll(handle.id)
  }

  /// Ends the subscription now.
  public func cancel() {
    handle.windows.remove(handle.id)
  }

  /// The iterator.
  public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
    let handle: Handle

    /// The next update; `nil` when the subscription ended.
    public func next() async -> WindowUpdate<Value>? {
      await handle.windows.next(handle.id)
    }
  }

  /// An iterator over the updates.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(handle: handle)
  }
}
