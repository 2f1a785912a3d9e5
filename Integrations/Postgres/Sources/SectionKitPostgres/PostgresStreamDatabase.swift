import Foundation
import Logging
import PostgresNIO

/// Where the shared streams live: a PostgreSQL database, and how owners and relays use it.
///
/// Every instance of a server makes one (they are values) and hands it to a
/// ``PostgresStreamOwner`` and a ``PostgresStreamRelay``. ``install()`` creates the two tables
/// and the two functions the log needs (`Docs/RunningSeveralServers.md` lists them); it is
/// idempotent and safe to call from every instance at once.
public struct PostgresStreamDatabase: Sendable {
  /// The connection every owner and relay opens (each opens its own).
  public var configuration: PostgresConnection.Configuration
  /// The timings and bounds.
  public var options: PostgresStreamOptions
  /// Where the connections log.
  public var logger: Logger

  /// Creates a description of the database.
  ///
  /// - Parameters:
  ///   - configuration: how to connect.
  ///   - options: the timings and bounds.
  ///   - logger: where the connections log; quiet by default.
  public init(
    configuration: PostgresConnection.Configuration, options: PostgresStreamOptions = .init(),
    logger: Logger = Logger(label: "SectionKitPostgres", factory: { _ in SwiftLogNoOpLogHandler() })
  ) {
    self.configuration = configuration
    self.options = options
    self.logger = logger
  }

  /// The channel every append notifies, with the payload `stream#seq`.
  static let channel = "sectionkit"

  /// A new connection.
  func connect() async throws -> PostgresConnection {
    try await PostgresConnection.connect(
      configuration: configuration, id: Int.random(in: 0..<Int(Int32.max)), logger: logger)
  }

  /// Creates the tables and functions of the log when they are missing. Every instance may call
  /// it at once: a transaction-scoped advisory lock orders them.
  ///
  /// - Throws: what PostgreSQL answers (`PSQLError`).
  public func install() async throws {
    let connection = try await connect()
    do {
      try await Self.transaction(on: connection, logger: logger) {
        try await connection.query(
          "SELECT pg_advisory_xact_lock(hashtext('sectionkit_schema'))", logger: logger)
        for statement in Self.schema {
          try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
      }
    } catch {
      try? await connection.close()
      throw error
    }
    try await connection.close()
  }

  /// `body` in a transaction: committed when it returns, rolled back when it throws (its error
  /// is thrown as it is).
  static func transaction<Result: Sendable>(
    on connection: PostgresConnection, logger: Logger, _ body: () async throws -> Result
  ) async throws -> Result {
    try await connection.query("BEGIN", logger: logger)
    do {
      let result = try await body()
      try await connection.query("COMMIT", logger: logger)
      return result
    } catch {
      _ = try? await connection.query("ROLLBACK", logger: logger)
      throw error
    }
  }

  /// The tables and functions, in the order they are created.
  static let schema = [
    """
    CREATE TABLE IF NOT EXISTS sectionkit_streams (
      stream_id text PRIMARY KEY,
      epoch text NOT NULL,
      head_seq bigint NOT NULL,
      snapshot_seq bigint NOT NULL,
      snapshot text NOT NULL,
      trimmed_seq bigint NOT NULL,
      owner text,
      fence bigint NOT NULL,
      lease_until timestamptz NOT NULL
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS sectionkit_changes (
      stream_id text NOT NULL REFERENCES sectionkit_streams ON DELETE CASCADE,
      seq bigint NOT NULL,
      line text NOT NULL,
      PRIMARY KEY (stream_id, seq)
    )
    """,
    // One publish: the head row locked, the owner's fence and the expected head checked, the
    // lines inserted, the head advanced, the lease renewed, the wake-up sent; one transaction.
    // Returns the head after it, or -1 when the fence is not the owner's.
    """
    CREATE OR REPLACE FUNCTION sectionkit_append(
      p_stream text, p_fence bigint, p_after bigint, p_seqs bigint[], p_lines text[],
      p_lease double precision
    ) RETURNS bigint LANGUAGE plpgsql AS $$
    DECLARE
      h bigint;
      f bigint;
    BEGIN
      SELECT head_seq, fence INTO h, f FROM sectionkit_streams
        WHERE stream_id = p_stream FOR UPDATE;
      IF f IS NULL OR f <> p_fence THEN RETURN -1; END IF;
      IF h <> p_after THEN RETURN h; END IF;
      INSERT INTO sectionkit_changes (stream_id, seq, line)
        SELECT p_stream, s, l FROM unnest(p_seqs, p_lines) AS t(s, l);
      h := p_seqs[array_upper(p_seqs, 1)];
      UPDATE sectionkit_streams
        SET head_seq = h, lease_until = now() + make_interval(secs => p_lease)
        WHERE stream_id = p_stream;
      PERFORM pg_notify('sectionkit', p_stream || '#' || h);
      RETURN h;
    END $$
    """,
    // A snapshot at `p_seq` (not after the head), and the changes older than the retention
    // trimmed. Refused (false) for a fence that is not the owner's.
    """
    CREATE OR REPLACE FUNCTION sectionkit_snapshot(
      p_stream text, p_fence bigint, p_seq bigint, p_snapshot text, p_retain bigint
    ) RETURNS boolean LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE sectionkit_streams
        SET snapshot = p_snapshot, snapshot_seq = p_seq,
          trimmed_seq = GREATEST(trimmed_seq, p_seq - p_retain)
        WHERE stream_id = p_stream AND fence = p_fence AND snapshot_seq < p_seq
          AND head_seq >= p_seq;
      IF NOT FOUND THEN RETURN false; END IF;
      DELETE FROM sectionkit_changes WHERE stream_id = p_stream AND seq <= p_seq - p_retain;
      RETURN true;
    END $$
    """,
  ]
}

/// The timings and bounds of the shared streams.
public struct PostgresStreamOptions: Sendable, Hashable {
  /// How long an owner's lease lasts without a publish or a renewal; another instance may take
  /// the stream after it. Default 10 s.
  public var lease: Duration
  /// How often an owner renews its lease (well under ``lease``). Default 3 s.
  public var renewal: Duration
  /// How often a relay reads the log without a notification: the longest a lost wake-up delays
  /// a client. Default 1 s.
  public var pollInterval: Duration
  /// How long an owner or a relay waits before connecting again after losing its connection.
  /// Default 0.5 s.
  public var reconnectDelay: Duration
  /// How long an owner retries a publish through lost connections before it gives up (and
  /// stops being the owner). Default 30 s.
  public var publishTimeout: Duration
  /// An owner stores a snapshot after this many changesets. Default 1,000.
  public var snapshotInterval: Int
  /// The changesets kept before the last snapshot, for clients that resume from the log;
  /// older ones are deleted when a snapshot is stored. Default 10,000.
  public var retainedChanges: Int
  /// The most lines a relay reads in one query. Default 1,000.
  public var readBatch: Int

  /// Creates options.
  ///
  /// - Precondition: every duration is positive; ``snapshotInterval`` and ``readBatch`` are 1 or
  ///   more, ``retainedChanges`` 0 or more.
  public init(
    lease: Duration = .seconds(10), renewal: Duration = .seconds(3),
    pollInterval: Duration = .seconds(1), reconnectDelay: Duration = .milliseconds(500),
    publishTimeout: Duration = .seconds(30), snapshotInterval: Int = 1_000,
    retainedChanges: Int = 10_000, readBatch: Int = 1_000
  ) {
    precondition(
      [lease, renewal, pollInterval, reconnectDelay, publishTimeout].allSatisfy { $0 > .zero },
      "PostgresStreamOptions.init: every duration must be positive")
    precondition(
      snapshotInterval >= 1 && readBatch >= 1 && retainedChanges >= 0,
      "PostgresStreamOptions.init: snapshotInterval \(snapshotInterval) and readBatch "
        + "\(readBatch) must be 1 or more, retainedChanges \(retainedChanges) 0 or more")
    self.lease = lease
    self.renewal = renewal
    self.pollInterval = pollInterval
    self.reconnectDelay = reconnectDelay
    self.publishTimeout = publishTimeout
    self.snapshotInterval = snapshotInterval
    self.retainedChanges = retainedChanges
    self.readBatch = readBatch
  }
}

/// Why an owner cannot publish.
public enum PostgresStreamError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Another instance holds the stream's lease until it expires.
  case leaseHeld(stream: String, owner: String)
  /// This owner lost the stream (its lease expired and another instance took it, or it was
  /// stopped): its publishes are refused, and its model must be dropped.
  case notOwner(stream: String)
  /// The log's head is not where this owner left it (a bug, or the tables edited by hand).
  case headMoved(stream: String, expected: Int, found: Int)
  /// A line of the log cannot be read (the tables edited by hand, or another `Value` type).
  case badLine(stream: String, sequence: Int, String)
  /// A publish kept failing for ``PostgresStreamOptions/publishTimeout``.
  case unavailable(stream: String, String)

  /// What went wrong.
  public var description: String {
    switch self {
    case .leaseHeld(let stream, let owner): "stream \(stream) is owned by \(owner)"
    case .notOwner(let stream): "this instance no longer owns stream \(stream)"
    case .headMoved(let stream, let expected, let found):
      "stream \(stream): the log's head is \(found), not \(expected)"
    case .badLine(let stream, let sequence, let detail):
      "stream \(stream): line \(sequence) cannot be read: \(detail)"
    case .unavailable(let stream, let detail): "stream \(stream): PostgreSQL unavailable: \(detail)"
    }
  }
}

extension Duration {
  /// The duration in seconds, for SQL.
  var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
