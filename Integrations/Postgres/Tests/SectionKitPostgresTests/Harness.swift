import Foundation
import Logging
import PostgresNIO
import PostgresTestSupport
import SectionKit
import SectionKitPostgres
import SectionKitStreaming
import Synchronization
import Testing

/// The private cluster `scripts/with-postgres.sh` started, from its environment; `nil` outside it.
let environment = ProcessInfo.processInfo.environment
let postgresConfiguration: PostgresConnection.Configuration? = {
  guard let host = environment["SECTIONKIT_PG_HOST"],
    let port = environment["SECTIONKIT_PG_PORT"].flatMap(Int.init)
  else { return nil }
  return PostgresConnection.Configuration(
    host: host, port: port, username: environment["SECTIONKIT_PG_USER"] ?? "sk", password: nil,
    database: environment["SECTIONKIT_PG_DATABASE"] ?? "postgres", tls: .disable)
}()

/// Every test needs the cluster: run them through `scripts/with-postgres.sh` (as `.ci/run`
/// does). One at a time: a fault test cuts connections, and the machine is small.
@Suite(
  "PostgreSQL", .serialized,
  .enabled(
    if: postgresConfiguration != nil, "run through Integrations/Postgres/scripts/with-postgres.sh"))
struct PostgresTests {}

/// The database with `options`, its schema installed.
func database(_ options: PostgresStreamOptions = .init()) async throws -> PostgresStreamDatabase {
  let database = PostgresStreamDatabase(configuration: postgresConfiguration!, options: options)
  try await database.install()
  return database
}

/// A new stream name for one test.
func streamName(_ test: String) -> String { "\(test)-\(UUID().uuidString.prefix(8))" }

/// One server instance: a relay running until ``stop()``.
final class Instance: Sendable {
  let relay: PostgresStreamRelay<Card>
  let task: Task<Void, Never>

  init(_ stream: String, _ database: PostgresStreamDatabase, policy: StreamPolicy = .init()) {
    let relay = PostgresStreamRelay<Card>(stream: stream, in: database, policy: policy)
    self.relay = relay
    task = Task { await relay.run() }
  }

  func stop() async {
    task.cancel()
    await task.value
  }
}

/// Where a client subscribes: a relay in this process, or an instance in another one.
protocol StreamServer: Sendable {
  associatedtype Feed: ClientFeed
  /// The updates after `position` (a snapshot first without one).
  func feed(after position: StreamPosition?) async throws -> Feed
}

/// A client's subscription: it ends with ``cancel()`` or when the iterating task is cancelled.
protocol ClientFeed: AsyncSequence, Sendable where Element == StreamUpdate<Card> {
  func cancel()
}

extension PostgresSubscription: ClientFeed where Value == Card {}

extension PostgresStreamRelay: StreamServer where Value == Card {
  func feed(after position: StreamPosition?) async throws -> PostgresSubscription<Card> {
    try await subscribe(after: position)
  }
}

/// A client: its mirror, and what went wrong (a gap, a duplicate, a changeset that does not fit).
struct Client: Sendable {
  var mirror = StreamMirror<Card>()
  var problems: [String] = []
  var snapshots = 0
  var updates = 0
  var subscriptions = 0

  var sequence: Int { mirror.position?.sequence ?? -1 }

  /// Subscribes on `server` after the mirror's position and applies at most `limit` updates,
  /// or until the mirror reaches `target` (of `epoch`, when given) — subscribing again when a
  /// subscription ends before — for at most `timeout`.
  mutating func follow(
    _ server: some StreamServer, limit: Int = .max, until target: Int? = nil,
    epoch: String? = nil, timeout: Duration = .seconds(10)
  ) async throws {
    let deadline = ContinuousClock.now + timeout
    func reached(_ client: Client) -> Bool {
      guard let target else { return false }
      return client.sequence >= target && (epoch == nil || client.mirror.position?.stream == epoch)
    }
    repeat {
      if reached(self) { return }
      let subscription = try await server.feed(after: mirror.position)
      subscriptions += 1
      let start = self
      let consumer = Task { () -> Client in
        var client = start
        var taken = 0
        do {
          for try await update in subscription {
            try client.mirror.apply(update)
            if case .snapshot = update { client.snapshots += 1 }
            client.updates += 1
            taken += 1
            if taken >= limit || reached(client) { break }
          }
        } catch {
          client.problems.append("\(error)")
        }
        return client
      }
      let timer = Task {
        try? await Task.sleep(until: deadline)
        consumer.cancel()
      }
      self = await consumer.value
      timer.cancel()
      subscription.cancel()
    } while target != nil && !reached(self) && problems.isEmpty && ContinuousClock.now < deadline
  }
}

/// Runs `body` with a fresh connection to the test cluster.
func withConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
  let connection = try await PostgresConnection.connect(
    configuration: postgresConfiguration!, id: 0, logger: Logger(label: "tests"))
  do {
    let value = try await body(connection)
    try await connection.close()
    return value
  } catch {
    try? await connection.close()
    throw error
  }
}

/// A value shared by tasks.
final class Shared<Value: Sendable>: Sendable {
  let mutex: Mutex<Value>
  init(_ value: Value) { mutex = Mutex(value) }
  var value: Value {
    get { mutex.withLock { $0 } }
    set { mutex.withLock { $0 = newValue } }
  }
}
