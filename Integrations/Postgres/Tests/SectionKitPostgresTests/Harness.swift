import Foundation
import Logging
import PostgresNIO
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

/// An element: an identity and a version bumped by each update.
struct Card: Hashable, Codable, Sendable {
  var id: Int
  var version = 0
}

/// SplitMix64, so that a run can be repeated.
struct SplitMix: RandomNumberGenerator, Sendable {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// The model an owner keeps in memory: sections of cards, a coordinator, a publisher, built
/// from the log's state at its head.
final class Board {
  let root = ComposedSectionProvider()
  private(set) var sections: [ArraySection<Card>] = []
  let coordinator: Coordinator
  let publisher: UpdatePublisher<Card>
  private var nextID: Int

  init(_ content: [[Card]]) {
    publisher = UpdatePublisher { section, index in (section as! ArraySection<Card>)[index] }
    coordinator = Coordinator(sectionProvider: root)
    nextID = content.joined().map(\.id).max() ?? 0
    for cards in content {
      let section = ArraySection(cards)
      sections.append(section)
      root.append(section)
    }
    coordinator.adapter = publisher
  }

  var content: [[Card]] { sections.map { Array($0) } }

  private func newCard() -> Card {
    nextID += 1
    return Card(id: nextID)
  }

  /// One batch of 1 to 5 random changes: cards inserted, removed, moved, updated; sections
  /// inserted and removed.
  func randomBatch(using random: inout SplitMix) {
    root.performBatchUpdates {
      for _ in 0..<Int.random(in: 1...5, using: &random) {
        let index = Int.random(in: 0..<sections.count, using: &random)
        let section = sections[index]
        switch Int.random(in: 0..<20, using: &random) {
        case 0 where sections.count < 6:
          let new = ArraySection([newCard()])
          sections.insert(new, at: index)
          root.insert(new, at: index)
        case 1 where sections.count > 1:
          sections.remove(at: index)
          _ = root.remove(at: index)
        case 2..<7 where !section.isEmpty:
          section.remove(at: Int.random(in: 0..<section.count, using: &random))
        case 7..<10 where section.count > 1:
          section.move(
            from: Int.random(in: 0..<section.count, using: &random),
            to: Int.random(in: 0..<section.count, using: &random))
        case 10..<13 where !section.isEmpty:
          section[Int.random(in: 0..<section.count, using: &random)].version += 1
        default:
          section.insert(newCard(), at: Int.random(in: 0...section.count, using: &random))
        }
      }
    }
  }
}

/// An owner's model, on its own actor: writers call ``batch()`` concurrently.
actor OwnedBoard {
  let board: Board
  let owner: PostgresStreamOwner<Card>
  var random: SplitMix

  init(_ owner: PostgresStreamOwner<Card>, seed: UInt64) async {
    self.owner = owner
    board = Board(owner.start.sections)
    random = SplitMix(state: seed)
    await owner.attach(board.publisher.stream)
  }

  /// One random batch, durable: returns its sequence number in the log.
  @discardableResult
  func batch() async throws -> Int {
    board.randomBatch(using: &random)
    return try await owner.commit()
  }

  var content: [[Card]] { board.content }
}

/// Takes the stream for `instance`, retrying while another instance's lease runs.
func acquire(
  _ stream: String, _ instance: String, _ database: PostgresStreamDatabase, reset: Bool = false,
  initial: [[Card]] = [[Card(id: 1)], [Card(id: 2)], []], within limit: Duration = .seconds(20)
) async throws -> PostgresStreamOwner<Card> {
  let deadline = ContinuousClock.now + limit
  while true {
    do {
      return try await PostgresStreamOwner<Card>.acquire(
        stream: stream, instance: instance, in: database, reset: reset, initial: { initial })
    } catch PostgresStreamError.leaseHeld where ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(100))
    }
  }
}

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

/// A client: its mirror, and what went wrong (a gap, a duplicate, a changeset that does not fit).
struct Client: Sendable {
  var mirror = StreamMirror<Card>()
  var problems: [String] = []
  var snapshots = 0
  var updates = 0

  var sequence: Int { mirror.position?.sequence ?? -1 }

  /// Subscribes on `relay` after the mirror's position and applies at most `limit` updates,
  /// or until the mirror reaches `target` (of `epoch`, when given) — subscribing again when a
  /// subscription ends before — for at most `timeout`.
  mutating func follow(
    _ relay: PostgresStreamRelay<Card>, limit: Int = .max, until target: Int? = nil,
    epoch: String? = nil, timeout: Duration = .seconds(10)
  ) async throws {
    let deadline = ContinuousClock.now + timeout
    func reached(_ client: Client) -> Bool {
      guard let target else { return false }
      return client.sequence >= target && (epoch == nil || client.mirror.position?.stream == epoch)
    }
    repeat {
      let subscription = try await relay.subscribe(after: mirror.position)
      let start = self
      let consumer = Task { () -> Client in
        var client = start
        var taken = 0
        for await update in subscription {
          do {
            try client.mirror.apply(update)
          } catch {
            client.problems.append("\(error)")
            break
          }
          if case .snapshot = update { client.snapshots += 1 }
          client.updates += 1
          taken += 1
          if taken >= limit || reached(client) { break }
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
