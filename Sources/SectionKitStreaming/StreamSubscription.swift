import Foundation

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

  /// The updates in batches: each time the consumer asks, every update due to it — one or more,
  /// in order: the changesets of its queue (at most ``StreamPolicy/subscriberCapacity``), or the
  /// snapshot it is owed. A consumer that falls behind takes what piled up in one wake-up
  /// instead of one per update, which is what bounds the cost of serving many subscribers.
  ///
  /// ```swift
  /// for await batch in stream.subscribe().batches() {
  ///   for update in batch { try mirror.apply(update) }
  /// }
  /// ```
  ///
  /// Iterate either the subscription or its batches, not both.
  public func batches() -> Batches {
    Batches(handle: handle)
  }

  /// A subscription's updates, in batches of those due together (``batches()``).
  public struct Batches: AsyncSequence, Sendable {
    /// One or more updates, in order.
    public typealias Element = [StreamUpdate<Value>]
    /// Iterating never throws.
    public typealias Failure = Never

    let handle: Handle

    /// The iterator.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
      let handle: Handle

      /// Every update due now, waiting for one; `nil` when the subscription ended.
      public func next() async -> [StreamUpdate<Value>]? {
        switch await handle.stream.nextBatch(handle.id) {
        case .changesets(let taken):
          var updates: [StreamUpdate<Value>] = []
          updates.reserveCapacity(taken.count)
          for shared in taken { updates.append(.changeset(shared.update)) }
          return updates
        case .snapshot(let snapshot): return [.snapshot(snapshot)]
        case nil: return nil
        }
      }
    }

    /// An iterator over the batches.
    public func makeAsyncIterator() -> AsyncIterator {
      AsyncIterator(handle: handle)
    }
  }
}

extension StreamSubscription where Value: Codable {
  /// The updates as JSON lines (``StreamLineEncoder``), each ending with a newline: for a
  /// subscriber that writes bytes to a socket. Each changeset is encoded once, by the first
  /// subscriber that asks, and the same bytes are handed to every other one (a reference each);
  /// a snapshot is encoded once for all the subscribers that catch up at the same sequence
  /// number.
  ///
  /// ```swift
  /// for try await line in stream.subscribe().encodedLines() {
  ///   try await socket.write(line)
  /// }
  /// ```
  public func encodedLines() -> EncodedLines {
    EncodedLines(handle: handle)
  }

  /// The next update as a JSON line if one is due now, without waiting (``poll()``, encoded
  /// once for every subscriber as ``encodedLines()`` is).
  ///
  /// - Throws: what encoding a value throws (`EncodingError`).
  public func pollLine() throws -> Data? {
    guard let delivery = handle.stream.pollDelivery(handle.id) else { return nil }
    return try handle.stream.line(for: delivery, encoder: StreamLineEncoder())
  }

  /// The updates as JSON lines in batches (``batches()``): every line due to the subscriber
  /// each time it asks, each line encoded once for every subscriber as ``encodedLines()`` does.
  /// A server writes a batch to its socket in one call.
  ///
  /// ```swift
  /// for try await lines in stream.subscribe().encodedLineBatches() {
  ///   try await socket.write(contentsOf: lines)
  /// }
  /// ```
  public func encodedLineBatches() -> EncodedLineBatches {
    EncodedLineBatches(handle: handle)
  }

  /// A subscription's updates as JSON lines, in batches of those due together.
  public struct EncodedLineBatches: AsyncSequence, Sendable {
    /// One or more lines, in order, each ending with a newline.
    public typealias Element = [Data]
    /// What encoding a value throws (`EncodingError`).
    public typealias Failure = any Error

    let handle: Handle

    /// The iterator.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
      let handle: Handle
      let encoder = StreamLineEncoder<Value>()

      /// Every line due now, waiting for one; `nil` when the subscription ended.
      ///
      /// - Throws: what encoding a value throws (`EncodingError`).
      public func next() async throws -> [Data]? {
        switch await handle.stream.nextBatch(handle.id) {
        case .changesets(let taken): return try handle.stream.lines(for: taken, encoder: encoder)
        case .snapshot(let snapshot):
          return [try handle.stream.line(for: snapshot, encoder: encoder)]
        case nil: return nil
        }
      }
    }

    /// An iterator over the batches.
    public func makeAsyncIterator() -> AsyncIterator {
      AsyncIterator(handle: handle)
    }
  }

  /// A subscription's updates as JSON lines, each encoded once for every subscriber.
  public struct EncodedLines: AsyncSequence, Sendable {
    /// One line, ending with a newline.
    public typealias Element = Data
    /// What encoding a value throws (`EncodingError`).
    public typealias Failure = any Error

    let handle: Handle

    /// The iterator.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
      let handle: Handle
      let encoder = StreamLineEncoder<Value>()

      /// The next line; `nil` when the subscription ended.
      ///
      /// - Throws: what encoding a value throws (`EncodingError`).
      public func next() async throws -> Data? {
        guard let delivery = await handle.stream.nextDelivery(handle.id) else { return nil }
        return try handle.stream.line(for: delivery, encoder: encoder)
      }
    }

    /// An iterator over the lines.
    public func makeAsyncIterator() -> AsyncIterator {
      AsyncIterator(handle: handle)
    }
  }
}

extension UpdateStream where Value: Codable {
  /// The lines of the changesets `batch`, each encoded once and kept with its changeset. The
  /// lines already encoded are read under the stream's lock once for the whole batch, the others
  /// encoded outside it (two subscribers asking at once may both encode one, and the bytes are
  /// the same) and kept under it once.
  ///
  /// - Complexity: O(k) for the k changesets of the batch, plus encoding those not yet encoded.
  func lines(for batch: [Shared], encoder: StreamLineEncoder<Value>) throws -> [Data] {
    var lines: [Data?] = []
    lines.reserveCapacity(batch.count)
    state.withLock { _ in
      for shared in batch { lines.append(shared.line) }
    }
    var encoded: [Int] = []
    for index in batch.indices where lines[index] == nil {
      lines[index] = try encoder.encode(.changeset(batch[index].update))
      encoded.append(index)
    }
    if !encoded.isEmpty {
      state.withLock { _ in
        for index in encoded { batch[index].line = lines[index] }
      }
    }
    return lines.map { $0! }
  }

  /// The line of one update: a changeset's kept with it (``lines(for:encoder:)``), a snapshot's
  /// kept for all the subscribers that catch up at its sequence number.
  func line(for delivery: Delivery, encoder: StreamLineEncoder<Value>) throws -> Data {
    switch delivery {
    case .changeset(let shared): try lines(for: [shared], encoder: encoder)[0]
    case .snapshot(let snapshot): try line(for: snapshot, encoder: encoder)
    }
  }

  /// The line of `snapshot`, encoded once for all the subscribers that catch up at its sequence
  /// number.
  func line(for snapshot: StreamSnapshot<Value>, encoder: StreamLineEncoder<Value>) throws -> Data {
    if let cached = snapshotLine.withLock({ $0 }), cached.sequence == snapshot.sequence {
      return cached.line
    }
    let line = try encoder.encode(.snapshot(snapshot))
    snapshotLine.withLock { $0 = (snapshot.sequence, line) }
    return line
  }
}
