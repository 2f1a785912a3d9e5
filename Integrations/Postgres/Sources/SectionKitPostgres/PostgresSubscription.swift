import SectionKitStreaming

/// A client's subscription on one instance (``PostgresStreamRelay/subscribe(after:)``): the
/// updates read from the log first, when it resumed from there, then the follower's — a
/// snapshot first unless it resumed, then every changeset in order.
///
/// It ends when the follower finishes (the relay stopped, or started over from a snapshot: the
/// client subscribes again with its position), when the iterating task is cancelled, or with
/// ``cancel()``.
public struct PostgresSubscription<Value: Codable & Sendable>: AsyncSequence, Sendable {
  /// A snapshot or a changeset.
  public typealias Element = StreamUpdate<Value>
  /// Iterating never throws.
  public typealias Failure = Never

  let subscription: StreamSubscription<Value>
  let fromLog: [StreamUpdate<Value>]

  init(_ subscription: StreamSubscription<Value>, after fromLog: [StreamUpdate<Value>] = []) {
    self.subscription = subscription
    self.fromLog = fromLog
  }

  /// Whether the subscription resumed from the log's lines.
  public var resumedFromLog: Bool { !fromLog.isEmpty }

  /// Ends the subscription now.
  public func cancel() { subscription.cancel() }

  /// The iterator.
  public struct AsyncIterator: AsyncIteratorProtocol {
    var fromLog: IndexingIterator<[StreamUpdate<Value>]>
    let rest: StreamSubscription<Value>.AsyncIterator

    /// The next update; `nil` when the subscription ended.
    public mutating func next() async -> StreamUpdate<Value>? {
      if let update = fromLog.next() { return update }
      return await rest.next()
    }
  }

  /// An iterator over the updates.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(fromLog: fromLog.makeIterator(), rest: subscription.makeAsyncIterator())
  }
}
