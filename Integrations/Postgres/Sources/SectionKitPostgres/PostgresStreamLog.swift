import Foundation
import Logging
import PostgresNIO
import SectionKitStreaming

/// What the log holds for a stream: its last snapshot and every changeset after it.
struct LogState<Value: Codable & Sendable>: Sendable {
  /// The stream's epoch: the identifier of every position in it (`epoch#seq`).
  var epoch: String
  /// The changes with a sequence number up to this one are deleted.
  var trimmed: Int
  /// The last snapshot stored.
  var snapshot: StreamSnapshot<Value>
  /// The updates after the snapshot, in order.
  var updates: [StreamUpdate<Value>]

  /// The state at the head: the snapshot with every update applied.
  func head() throws -> StreamSnapshot<Value> {
    var mirror = StreamMirror<Value>()
    do {
      try mirror.apply(.snapshot(snapshot))
      for update in updates { try mirror.apply(update) }
    } catch {
      throw PostgresStreamError.badLine(
        stream: snapshot.stream, sequence: mirror.position?.sequence ?? snapshot.sequence,
        "\(error)")
    }
    return StreamSnapshot(
      stream: epoch, sequence: mirror.position?.sequence ?? snapshot.sequence,
      sections: mirror.sections)
  }
}

/// The queries that read the log.
enum PostgresStreamLog {
  /// The stream's row and the changes after its snapshot, read in one snapshot of the database;
  /// `nil` when the stream does not exist.
  static func state<Value>(
    of stream: String, as: Value.Type, on connection: PostgresConnection, logger: Logger
  ) async throws -> LogState<Value>? {
    try await PostgresStreamDatabase.transaction(on: connection, logger: logger) {
      try await connection.query(
        "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
      let rows = try await connection.query(
        """
        SELECT epoch, snapshot_seq, snapshot, trimmed_seq FROM sectionkit_streams
        WHERE stream_id = \(stream)
        """, logger: logger)
      var found: (String, Int, String, Int)?
      for try await row in rows.decode((String, Int, String, Int).self) { found = row }
      guard let (epoch, snapshotSequence, snapshotLine, trimmed) = found else { return nil }
      var decoder = StreamLineDecoder<Value>()
      let snapshot: StreamSnapshot<Value>
      guard
        case .snapshot(let decoded) = try decode(snapshotLine, stream, snapshotSequence, &decoder)
      else {
        throw PostgresStreamError.badLine(
          stream: stream, sequence: snapshotSequence, "the stored snapshot is a changeset")
      }
      snapshot = decoded
      let lines = try await changes(
        of: stream, after: snapshotSequence, through: nil, on: connection, logger: logger)
      var updates: [StreamUpdate<Value>] = []
      for (sequence, line) in lines {
        updates.append(try decode(line, stream, sequence, &decoder))
      }
      return LogState(epoch: epoch, trimmed: trimmed, snapshot: snapshot, updates: updates)
    }
  }

  /// The lines after `after`, up to `through` (or the head), in order.
  static func changes(
    of stream: String, after: Int, through: Int?, limit: Int = Int(Int32.max),
    on connection: PostgresConnection, logger: Logger
  ) async throws -> [(Int, String)] {
    let rows = try await connection.query(
      """
      SELECT seq, line FROM sectionkit_changes
      WHERE stream_id = \(stream) AND seq > \(after) AND seq <= \(through ?? Int.max)
      ORDER BY seq LIMIT \(limit)
      """, logger: logger)
    var lines: [(Int, String)] = []
    for try await row in rows.decode((Int, String).self) { lines.append(row) }
    return lines
  }

  /// The update of a stored line, checked to follow the decoder's position.
  static func decode<Value>(
    _ line: String, _ stream: String, _ sequence: Int, _ decoder: inout StreamLineDecoder<Value>
  ) throws -> StreamUpdate<Value> {
    do {
      let update = try decoder.decode(line: Array(line.utf8))
      guard update.sequence == sequence else {
        throw PostgresStreamError.badLine(
          stream: stream, sequence: sequence, "the line says sequence \(update.sequence)")
      }
      return update
    } catch let error as PostgresStreamError {
      throw error
    } catch {
      throw PostgresStreamError.badLine(stream: stream, sequence: sequence, "\(error)")
    }
  }
}
