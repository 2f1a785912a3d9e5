import Foundation
import Logging
import PostgresNIO
import SectionKitStreaming
import Synchronization

/// One instance's copy of a shared stream: it reads the log in PostgreSQL and feeds a follower
/// ``UpdateStream`` (``UpdateStream/init(following:policy:)``) that this instance's clients
/// subscribe to, with the log's positions (`epoch#seq`), so that a client resumes on any
/// instance.
///
/// ```swift
/// let relay = PostgresStreamRelay<Card>(stream: "board", in: database)
/// let running = Task { await relay.run() }               // until cancelled
/// for try await update in try await relay.subscribe(after: clientPosition) {
///   // send it to the client
/// }
/// ```
///
/// **Reading.** ``run()`` reads the lines after the follower's head when a wake-up arrives
/// (`LISTEN sectionkit`, payload `stream#seq`), every ``PostgresStreamOptions/pollInterval``
/// whatever arrives (a wake-up is lost when its connection is), and after it connects again.
/// At first, when the stream's epoch changes, or when the lines it needs were trimmed, it
/// starts over from the stored snapshot: a new follower, whose subscribers' subscriptions end.
///
/// **Resuming.** ``subscribe(after:)`` continues after a position from the follower's replay
/// buffer, else from the log's lines, else with a snapshot: never a gap, never a duplicate.
public final class PostgresStreamRelay<Value: Codable & Sendable>: Sendable {
  /// The stream's name in the log.
  public let stream: String
  let database: PostgresStreamDatabase
  let policy: StreamPolicy

  struct State {
    var follower: UpdateStream<Value>?
    var serving: PostgresConnection?
    var listener: Int?
    var statistics = PostgresRelayStatistics()
  }
  let state = Mutex(State())
  let wakes: AsyncStream<Wake>
  let wake: AsyncStream<Wake>.Continuation

  /// Why the relay reads the log.
  enum Wake { case notification, timer, asked }

  /// Creates a relay; ``run()`` it.
  ///
  /// - Parameters:
  ///   - stream: the stream's name.
  ///   - database: the database.
  ///   - policy: the follower's bounds (its replay buffer serves resumes from memory).
  public init(stream: String, in database: PostgresStreamDatabase, policy: StreamPolicy = .init()) {
    self.stream = stream
    self.database = database
    self.policy = policy
    (wakes, wake) = AsyncStream.makeStream(of: Wake.self, bufferingPolicy: .bufferingNewest(1))
  }

  /// The follower this instance's clients subscribe to, once the relay has read the log.
  public var follower: UpdateStream<Value>? { state.withLock { $0.follower } }

  /// Counters, for monitoring and tests.
  public var statistics: PostgresRelayStatistics { state.withLock { $0.statistics } }

  /// The PostgreSQL process id of the connection that listens for wake-ups, while it is up.
  public var listenerProcessID: Int? { state.withLock { $0.listener } }

  /// Reads the log until the task is cancelled: on each wake-up, on a timer, after connecting
  /// again. Errors (a lost connection, PostgreSQL restarting) are retried.
  public func run() async {
    await withTaskGroup(of: Void.self) { group in
      group.addTask { await self.listen() }
      group.addTask {
        while !Task.isCancelled {
          try? await Task.sleep(for: self.database.options.pollInterval)
          self.wake.yield(.timer)
        }
      }
      group.addTask { await self.read() }
      await group.next()
      group.cancelAll()
    }
    let (follower, serving) = state.withLock { state in
      defer { (state.follower, state.serving) = (nil, nil) }
      return (state.follower, state.serving)
    }
    follower?.finish()
    try? await serving?.close()
  }

  /// Listens for wake-ups, connecting again whenever the connection is lost.
  func listen() async {
    while !Task.isCancelled {
      var connection: PostgresConnection?
      do {
        let listening = try await database.connect()
        connection = listening
        var found: Int?
        for try await value in try await listening.query(
          "SELECT pg_backend_pid()", logger: database.logger
        ).decode(Int.self) { found = value }
        let pid = found
        try await listening.listen(on: PostgresStreamDatabase.channel) { notifications in
          state.withLock { $0.listener = pid }
          wake.yield(.asked)  // what was missed while not listening
          let prefix = stream + "#"
          for try await notification in notifications where notification.payload.hasPrefix(prefix) {
            wake.yield(.notification)
          }
        }
      } catch {
        // Connect again below.
      }
      state.withLock { $0.listener = nil }
      try? await connection?.close()
      try? await Task.sleep(for: database.options.reconnectDelay)
    }
  }

  /// Reads the log on every wake-up.
  func read() async {
    var connection: PostgresConnection?
    wake.yield(.asked)
    for await reason in wakes {
      if Task.isCancelled { break }
      do {
        if connection?.isClosed ?? true { connection = try await database.connect() }
        let read = try await catchUp(on: connection!)
        state.withLock { state in
          state.statistics.reads += 1
          if read > 0 {
            switch reason {
            case .notification: state.statistics.readsOnNotification += 1
            case .timer: state.statistics.readsOnTimer += 1
            case .asked: break
            }
          }
        }
      } catch {
        try? await connection?.close()
        connection = nil
        state.withLock { $0.statistics.failedReads += 1 }
      }
    }
    try? await connection?.close()
  }

  /// Reads every line after the follower's head; returns how many.
  func catchUp(on connection: PostgresConnection) async throws -> Int {
    var total = 0
    while true {
      guard let follower = self.follower else {
        try await startOver(on: connection)
        if self.follower == nil { return total }
        continue
      }
      let after = follower.position.sequence
      let rows = try await connection.query(
        """
        SELECT s.epoch, c.seq, c.line FROM sectionkit_streams s
        LEFT JOIN LATERAL (
          SELECT seq, line FROM sectionkit_changes
          WHERE stream_id = s.stream_id AND seq > \(after) ORDER BY seq LIMIT \(database.options.readBatch)
        ) c ON true
        WHERE s.stream_id = \(stream)
        """, logger: database.logger)
      var epoch: String?
      var lines: [(Int, String)] = []
      for try await (found, sequence, line) in rows.decode((String, Int?, String?).self) {
        epoch = found
        if let sequence, let line { lines.append((sequence, line)) }
      }
      guard let epoch else { return total }
      // Another epoch, or the lines after the head trimmed: from the stored snapshot.
      if epoch != follower.id || (lines.first.map { $0.0 != after + 1 } ?? false) {
        try await startOver(on: connection)
        continue
      }
      var decoder = StreamLineDecoder<Value>(after: follower.position)
      for (sequence, line) in lines {
        let update = try PostgresStreamLog.decode(line, stream, sequence, &decoder)
        try follower.follow(update)
      }
      total += lines.count
      if lines.count < database.options.readBatch { return total }
    }
  }

  /// A new follower from the stored snapshot and the lines after it; the old one finishes.
  func startOver(on connection: PostgresConnection) async throws {
    guard
      let log = try await PostgresStreamLog.state(
        of: stream, as: Value.self, on: connection, logger: database.logger)
    else { return }
    let follower = UpdateStream(following: log.snapshot, policy: policy)
    for update in log.updates { try follower.follow(update) }
    let old = state.withLock { state in
      defer {
        state.follower = follower
        state.statistics.startedOver += 1
      }
      return state.follower
    }
    old?.finish()
  }

  /// A subscription after `position` — a client's, from any instance: from the follower's
  /// replay buffer, else from the log's lines, else (another epoch, trimmed, none) a snapshot.
  /// A position ahead of this instance waits until it has read that far.
  ///
  /// - Parameter position: the position of the client's last update, if any.
  /// - Throws: ``PostgresStreamError/unavailable(stream:_:)`` when the relay has not read the
  ///   stream, or not as far as `position`, within ``PostgresStreamOptions/publishTimeout``;
  ///   what PostgreSQL answers.
  public func subscribe(after position: StreamPosition? = nil) async throws
    -> PostgresSubscription<Value>
  {
    let deadline = ContinuousClock.now + database.options.publishTimeout
    while true {
      if let follower {
        guard let position, position.stream == follower.id else {
          return counted(.snapshot, PostgresSubscription(follower.subscribe()))
        }
        if position.sequence <= follower.position.sequence {
          if let resumed = follower.resume(after: position) {
            return counted(.memory, PostgresSubscription(resumed))
          }
          return try await resumeFromLog(after: position, follower)
        }
      }
      guard ContinuousClock.now < deadline else {
        throw PostgresStreamError.unavailable(
          stream: stream,
          "this instance has not read as far as \(position?.description ?? "a snapshot")")
      }
      wake.yield(.asked)
      try await Task.sleep(for: .milliseconds(5))
    }
  }

  /// The lines after `position` from the log, then the follower's changesets.
  func resumeFromLog(after position: StreamPosition, _ follower: UpdateStream<Value>) async throws
    -> PostgresSubscription<Value>
  {
    let (head, subscription) = follower.subscribeAtPosition()
    let lines: [(Int, String)]
    do {
      lines = try await PostgresStreamLog.changes(
        of: stream, after: position.sequence, through: head.sequence, on: serving(),
        logger: database.logger)
    } catch {
      subscription.cancel()
      let serving = state.withLock { state in
        defer { state.serving = nil }
        return state.serving
      }
      try? await serving?.close()
      throw error
    }
    guard lines.count == head.sequence - position.sequence,
      lines.first.map({ $0.0 == position.sequence + 1 }) ?? true
    else {
      // Trimmed: a snapshot.
      subscription.cancel()
      return counted(.snapshot, PostgresSubscription(follower.subscribe()))
    }
    var decoder = StreamLineDecoder<Value>(after: position)
    var updates: [StreamUpdate<Value>] = []
    updates.reserveCapacity(lines.count)
    for (sequence, line) in lines {
      updates.append(try PostgresStreamLog.decode(line, stream, sequence, &decoder))
    }
    return counted(.log, PostgresSubscription(subscription, after: updates))
  }

  /// The connection that serves resumes from the log.
  func serving() async throws -> PostgresConnection {
    if let connection = state.withLock({ $0.serving }), !connection.isClosed { return connection }
    let connection = try await database.connect()
    let old = state.withLock { state in
      defer { state.serving = connection }
      return state.serving
    }
    try? await old?.close()
    return connection
  }

  enum Source { case memory, log, snapshot }

  func counted(_ source: Source, _ subscription: PostgresSubscription<Value>)
    -> PostgresSubscription<Value>
  {
    state.withLock { state in
      switch source {
      case .memory: state.statistics.resumedFromMemory += 1
      case .log: state.statistics.resumedFromLog += 1
      case .snapshot: state.statistics.snapshots += 1
      }
    }
    return subscription
  }
}

/// Counters of a ``PostgresStreamRelay``.
public struct PostgresRelayStatistics: Hashable, Sendable {
  /// Reads of the log.
  public var reads = 0
  /// Reads that found lines after a wake-up.
  public var readsOnNotification = 0
  /// Reads that found lines on the timer: wake-ups that were lost or late.
  public var readsOnTimer = 0
  /// Reads that failed (a lost connection), retried on the next wake-up or tick.
  public var failedReads = 0
  /// Times the relay started over from the stored snapshot.
  public var startedOver = 0
  /// Subscriptions resumed from the follower's replay buffer.
  public var resumedFromMemory = 0
  /// Subscriptions resumed from the log's lines.
  public var resumedFromLog = 0
  /// Subscriptions that started with a snapshot.
  public var snapshots = 0
}
