/// One subscriber of an ``UpdateStream``: an `AsyncSequence` of updates — a snapshot first
/// (unless it resumed), then every changeset in order, a snapshot again whenever it fell too
/// far behind.
///
/// Iterate it once, from one task. It ends when the stream finishes (after delivering what it
/// holds), when the iterating task is cancelled, or — for the updates not yet taken — when the
/// subscription and its iterator are released; either of the last two removes the subscriber
/// from the stream.
public struct StreamSubscription<Value: Sendable>: AsyncSequence, Sendable {
  /// A snapshot or a changeset.
  public typealias Element = StreamUpdate<Value>
  /// Iterating never throws.
  public typealias Failure = Never

  /// Removes the subscriber when the last copy of the subscription and its iterators go away.
  final class Handle: Sendable {
    let stream: UpdateStream<Value>
    let id: Int

    init(stream: UpdateStream<Value>, id: Int) {
      self.stream = stream
      self.id = id
    }

    deinit { stream.remove(id) }
  }

  let handle: Handle

  init(stream: UpdateStream<Value>, id: Int) {
    self.handle = Handle(stream: stream, id: id)
  }

  /// The next update if one is due now, without waiting: for a server loop that is not async,
  /// or one that drains what is ready before writing to a socket. `nil` when nothing is ready
  /// or the subscription ended.
  public func poll() -> StreamUpdate<Value>? {
    handle.stream.poll(handle.id)
  }

  /// Ends the subscription now: the stream forgets it, and a consumer waiting gets `nil`.
  public func cancel() {
    handle.stream.remove(handle.id)
  }

  /// The iterator.
  public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
    let handle: Handle

    /// The next update; `nil` when the subscription ended.
    public func next() async -> StreamUpdate<Value>? {
      await handle.stream.next(handle.id)
    }
  }

  /// An iterator over the updates.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(handle: handle)
  }
}
