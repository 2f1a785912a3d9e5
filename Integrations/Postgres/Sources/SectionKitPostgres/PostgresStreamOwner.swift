import Foundation
import Logging
import PostgresNIO
import SectionKitStreaming

/// The one instance that owns a shared stream: it holds the stream's lease, keeps the model in
/// memory as a single server does, and appends every update its ``UpdatePublisher`` publishes to
/// the log in PostgreSQL, where every instance's ``PostgresStreamRelay`` reads it.
///
/// ```swift
/// let owner = try await PostgresStreamOwner<Card>.acquire(
///   stream: "board", instance: "web-1", in: database, initial: { [[], [], []] })
/// let model = Board(sections: owner.start.sections)     // the log's state at its head
/// model.coordinator.adapter = model.publisher
/// try await owner.attach(model.publisher.stream)
/// // After each batch (on the model's actor):
/// try await owner.commit()                              // durable; throws once not the owner
/// ```
///
/// **Publishing.** ``commit()`` takes every update the publisher published since the last call
/// and appends them in one transaction (`sectionkit_append`): it locks the stream's row, checks
/// the owner's fence and that the head is where this owner left it, inserts the lines, advances
/// the head, renews the lease and sends the wake-up `NOTIFY sectionkit, 'stream#seq'`. Concurrent
/// calls share the transaction under way (group commit) and return in order.
///
/// **Ownership.** The lease lasts ``PostgresStreamOptions/lease`` after the last publish or
/// renewal. Taking the stream increments its fence; an owner whose fence is no longer the row's
/// is refused (``PostgresStreamError/notOwner(stream:)``) and must drop its model: the stream
/// never forks.
///
/// **Snapshots.** Every ``PostgresStreamOptions/snapshotInterval`` changesets, it stores a
/// snapshot and deletes the changes older than ``PostgresStreamOptions/retainedChanges`` before
/// it.
public actor PostgresStreamOwner<Value: Codable & Sendable> {
  /// The stream's name in the log.
  public nonisolated let stream: String
  /// The state the model must start from: the log's state at its head (the epoch is
  /// `start.stream`).
  public nonisolated let start: StreamSnapshot<Value>
  /// This instance's name, stored as the owner.
  public nonisolated let instance: String
  let database: PostgresStreamDatabase
  let fence: Int
  var connection: PostgresConnection?
  /// The publisher's stream and the offset from its sequence numbers to the log's.
  var source: (subscription: StreamSubscription<Value>, offset: Int)?
  /// The log's state at ``durable``, for the snapshots.
  var mirror: StreamMirror<Value>
  var lastSnapshot: Int
  /// Updates taken from the publisher, not yet appended: the log's sequence number and line.
  var pending: [(update: StreamUpdate<Value>, line: String)] = []
  var collected: Int
  /// The head of the log as this owner appended it.
  public private(set) var durable: Int
  var writing = false
  var waiters: [CheckedContinuation<Void, Never>] = []
  /// Set once this owner cannot publish any more.
  var failure: PostgresStreamError?
  var renewer: Task<Void, Never>?
  let encoder = StreamLineEncoder<Value>()

  init(
    stream: String, instance: String, database: PostgresStreamDatabase, fence: Int,
    start: StreamSnapshot<Value>, snapshotSequence: Int, connection: PostgresConnection
  ) {
    self.stream = stream
    self.instance = instance
    self.database = database
    self.fence = fence
    self.start = start
    self.connection = connection
    self.mirror = StreamMirror(
      sections: start.sections,
      position: StreamPosition(stream: start.stream, sequence: start.sequence))
    self.durable = start.sequence
    self.collected = start.sequence
    self.lastSnapshot = snapshotSequence
  }

  deinit {
    renewer?.cancel()
    // An owner let go without `stop(release:)`: its connection closes, kept alive until it is.
    if let connection, !connection.isClosed {
      let closing: EventLoopFuture<Void> = connection.close()
      closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }
  }

  /// Whether this owner can still publish, as far as it knows.
  public var isOwner: Bool { failure == nil }

  /// Takes the lease of `stream` for `instance` — creating the stream with `initial()` when it
  /// does not exist — and reads the log's state at its head (``start``).
  ///
  /// - Parameters:
  ///   - stream: the stream's name.
  ///   - instance: this instance's name, stored as the owner.
  ///   - database: the database, with ``PostgresStreamDatabase/install()`` done.
  ///   - reset: start a new epoch from `initial()` instead of continuing the log: every client
  ///     then gets a snapshot. For a model that does not come from the log.
  ///   - initial: the sections of a new stream.
  /// - Throws: ``PostgresStreamError/leaseHeld(stream:owner:)`` while another instance's lease
  ///   runs, what PostgreSQL answers, ``PostgresStreamError/badLine(stream:sequence:_:)``.
  public static func acquire(
    stream: String, instance: String, in database: PostgresStreamDatabase, reset: Bool = false,
    initial: @Sendable () -> [[Value]]
  ) async throws -> PostgresStreamOwner {
    let connection = try await database.connect()
    do {
      let logger = database.logger
      let lease = database.options.lease.seconds
      let fence = try await PostgresStreamDatabase.transaction(on: connection, logger: logger) {
        () -> Int in
        let rows = try await connection.query(
          """
          SELECT owner, fence, lease_until > now() FROM sectionkit_streams
          WHERE stream_id = \(stream) FOR UPDATE
          """, logger: logger)
        var found: (String?, Int, Bool)?
        for try await row in rows.decode((String?, Int, Bool).self) { found = row }
        if let (owner, _, held) = found, held, let owner, owner != instance {
          throw PostgresStreamError.leaseHeld(stream: stream, owner: owner)
        }
        let fence = (found?.1 ?? 0) + 1
        if found == nil || reset {
          let epoch = UUID().uuidString
          let line = try lineText(
            StreamLineEncoder<Value>().encode(
              .snapshot(StreamSnapshot(stream: epoch, sequence: 0, sections: initial()))))
          try await connection.query(
            "DELETE FROM sectionkit_changes WHERE stream_id = \(stream)", logger: logger)
          try await connection.query(
            """
            INSERT INTO sectionkit_streams AS s (stream_id, epoch, head_seq, snapshot_seq, snapshot,
              trimmed_seq, owner, fence, lease_until)
            VALUES (\(stream), \(epoch), 0, 0, \(line), 0, \(instance), \(fence),
              now() + make_interval(secs => \(lease)))
            ON CONFLICT (stream_id) DO UPDATE SET epoch = excluded.epoch, head_seq = 0,
              snapshot_seq = 0, snapshot = excluded.snapshot, trimmed_seq = 0,
              owner = excluded.owner, fence = excluded.fence, lease_until = excluded.lease_until
            """, logger: logger)
        } else {
          try await connection.query(
            """
            UPDATE sectionkit_streams SET owner = \(instance), fence = \(fence),
              lease_until = now() + make_interval(secs => \(lease))
            WHERE stream_id = \(stream)
            """, logger: logger)
        }
        return fence
      }
      guard
        let state = try await PostgresStreamLog.state(
          of: stream, as: Value.self, on: connection, logger: logger)
      else { throw PostgresStreamError.notOwner(stream: stream) }
      let owner = PostgresStreamOwner(
        stream: stream, instance: instance, database: database, fence: fence,
        start: try state.head(), snapshotSequence: state.snapshot.sequence, connection: connection)
      await owner.startRenewing()
      return owner
    } catch {
      try? await connection.close()
      throw error
    }
  }

  /// Follows `stream` — the stream of the ``UpdatePublisher`` attached to the model built from
  /// ``start`` — from its position now, which stands for ``start``'s.
  ///
  /// - Parameter stream: the publisher's stream, showing ``start``'s sections.
  /// - Precondition: not attached yet.
  public func attach(_ stream: UpdateStream<Value>) {
    precondition(source == nil, "PostgresStreamOwner.attach(_:): already attached")
    let position = stream.position
    source = (stream.subscribe(after: position), start.sequence - position.sequence)
  }

  /// Appends every update published since the last call to the log and returns the log's
  /// sequence number of the last one, once it is durable.
  ///
  /// - Throws: ``PostgresStreamError/notOwner(stream:)`` once another instance took the
  ///   stream (the updates were not appended: drop the model),
  ///   ``PostgresStreamError/unavailable(stream:_:)`` when PostgreSQL stayed unreachable.
  /// - Precondition: ``attach(_:)`` was called.
  @discardableResult
  public func commit() async throws -> Int {
    try collect()
    let target = collected
    while durable < target {
      if let failure { throw failure }
      if writing {
        await withCheckedContinuation { waiters.append($0) }
        continue
      }
      writing = true
      let batch = pending
      pending = []
      do {
        try await append(batch)
        durable = batch.last?.update.sequence ?? durable
        for (update, _) in batch { try mirror.apply(update) }
        if durable - lastSnapshot >= database.options.snapshotInterval { try await storeSnapshot() }
      } catch let error as PostgresStreamError {
        await fail(error)
      } catch {
        await fail(.unavailable(stream: stream, "\(error)"))
      }
      writing = false
      let woken = waiters
      waiters = []
      for waiter in woken { waiter.resume() }
    }
    if let failure, durable < target { throw failure }
    return target
  }

  /// Takes the updates the publisher published since the last call, in the log's numbers.
  func collect() throws {
    guard let source else {
      preconditionFailure("PostgresStreamOwner.commit(): attach(_:) was not called")
    }
    let subscription = source.subscription
    var offset = source.offset
    while let update = subscription.poll() {
      let renumbered: StreamUpdate<Value>
      switch update {
      case .snapshot(let snapshot):
        // A reload, or the snapshot owed after the subscription's queue overflowed (which skips
        // sequence numbers): the log's next number either way, so that the log stays consecutive.
        offset = collected + 1 - snapshot.sequence
        renumbered = .snapshot(
          StreamSnapshot(
            stream: start.stream, sequence: collected + 1, sections: snapshot.sections))
      case .changeset(var changeset):
        changeset.sequence += offset
        renumbered = .changeset(changeset)
      }
      precondition(
        renumbered.sequence == collected + 1,
        "PostgresStreamOwner.commit(): update \(renumbered.sequence) after \(collected)")
      pending.append((renumbered, try Self.lineText(encoder.encode(renumbered))))
      collected = renumbered.sequence
    }
    self.source = (subscription, offset)
  }

  /// One transaction appending `batch`, retried through lost connections.
  func append(_ batch: [(update: StreamUpdate<Value>, line: String)]) async throws {
    guard let first = batch.first, let last = batch.last else { return }
    let after = first.update.sequence - 1
    let sequences = batch.map(\.update.sequence)
    let lines = batch.map(\.line)
    let lease = database.options.lease.seconds
    let deadline = ContinuousClock.now + database.options.publishTimeout
    while true {
      do {
        let connection = try await connected()
        let rows = try await connection.query(
          """
          SELECT sectionkit_append(\(stream), \(fence), \(after), \(sequences), \(lines), \(lease))
          """, logger: database.logger)
        var head = -1
        for try await (value) in rows.decode(Int.self) { head = value }
        if head == -1 { throw PostgresStreamError.notOwner(stream: stream) }
        // The head is past `after` by this very batch when an earlier try committed.
        guard head == last.update.sequence else {
          throw PostgresStreamError.headMoved(
            stream: stream, expected: after, found: head)
        }
        return
      } catch let error as PostgresStreamError {
        throw error
      } catch {
        try? await connection?.close()
        connection = nil
        guard ContinuousClock.now < deadline else {
          throw PostgresStreamError.unavailable(stream: stream, "\(error)")
        }
        try await Task.sleep(for: database.options.reconnectDelay)
      }
    }
  }

  /// Stores the snapshot at ``durable`` and trims the log.
  func storeSnapshot() async throws {
    guard let position = mirror.position else { return }
    let line = try Self.lineText(
      encoder.encode(
        .snapshot(
          StreamSnapshot(
            stream: start.stream, sequence: position.sequence, sections: mirror.sections))))
    let rows = try await connected().query(
      """
      SELECT sectionkit_snapshot(\(stream), \(fence), \(position.sequence), \(line),
        \(database.options.retainedChanges))
      """, logger: database.logger)
    var stored = false
    for try await value in rows.decode(Bool.self) { stored = value }
    guard stored else { throw PostgresStreamError.notOwner(stream: stream) }
    lastSnapshot = position.sequence
  }

  /// The connection, opened again if it was lost.
  func connected() async throws -> PostgresConnection {
    if let connection, !connection.isClosed { return connection }
    let connection = try await database.connect()
    self.connection = connection
    return connection
  }

  /// Renews the lease every ``PostgresStreamOptions/renewal`` until stopped.
  func startRenewing() {
    let interval = database.options.renewal
    renewer = Task { [weak self] in
      while !Task.isCancelled {
        try? await Task.sleep(for: interval)
        guard let self, !Task.isCancelled else { return }
        await self.renew()
      }
    }
  }

  /// Extends the lease, or notes that it was lost.
  func renew() async {
    guard failure == nil else { return }
    do {
      let rows = try await connected().query(
        """
        UPDATE sectionkit_streams
        SET lease_until = now() + make_interval(secs => \(database.options.lease.seconds))
        WHERE stream_id = \(stream) AND fence = \(fence) RETURNING fence
        """, logger: database.logger)
      var renewed = false
      for try await _ in rows.decode(Int.self) { renewed = true }
      if !renewed { await fail(.notOwner(stream: stream)) }
    } catch {
      // The next renewal or publish tries again; the lease may run out meanwhile.
      try? await connection?.close()
      connection = nil
    }
  }

  /// Stops publishing for good: later commits throw `error`, the renewals stop, the connection
  /// closes.
  func fail(_ error: PostgresStreamError) async {
    if failure == nil { failure = error }
    pauseRenewal()
    try? await connection?.close()
    connection = nil
  }

  /// Stops renewing the lease without giving it up: what a paused or frozen process looks
  /// like to the others. Publishing goes on until another instance takes the stream.
  public func pauseRenewal() {
    renewer?.cancel()
    renewer = nil
  }

  /// Stops: no more publishes, no more renewals; the lease is given up when `release` is true,
  /// otherwise it runs out (what a crash looks like).
  ///
  /// - Parameter release: whether to let another instance take the stream at once.
  public func stop(release: Bool) async {
    pauseRenewal()
    if failure == nil { failure = .notOwner(stream: stream) }
    if release, let connection = try? await connected() {
      _ = try? await connection.query(
        """
        UPDATE sectionkit_streams SET owner = NULL, lease_until = now()
        WHERE stream_id = \(stream) AND fence = \(fence)
        """, logger: database.logger)
    }
    try? await connection?.close()
    connection = nil
  }

  /// A line as stored: its text, without the newline.
  static func lineText(_ line: Data) throws -> String {
    String(decoding: line.dropLast(), as: UTF8.self)
  }
}
