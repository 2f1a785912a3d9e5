// sectionkit-pg-bench: the figures of Docs/RunningSeveralServers.md, against the cluster that
// scripts/with-postgres.sh starts (SECTIONKIT_PG_HOST, _PORT, _USER, _DATABASE).
//
//   scripts/with-postgres.sh .build/release/sectionkit-pg-bench [--publishes 2000] [--behind 10000]
//
// 1. The floor: a plain loop of INSERT + NOTIFY, one autocommitted statement each.
// 2. Durable publishes per second, 1 and 4 writers: a batch on the owner's model, then commit().
// 3. The delay from commit() to a client of another instance (p50, p99), one writer, paced.
// 4. The catch-up of a client `--behind` updates back: resumed from the log on another instance.

import Foundation
import Logging
import PostgresNIO
import SectionKit
import SectionKitPostgres
import SectionKitStreaming
import Synchronization

let arguments = CommandLine.arguments
func option(_ name: String, _ fallback: Int) -> Int {
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
    let value = Int(arguments[index + 1])
  else { return fallback }
  return value
}
let publishes = option("--publishes", 2_000)
let behind = option("--behind", 10_000)
let environment = ProcessInfo.processInfo.environment
guard let host = environment["SECTIONKIT_PG_HOST"],
  let port = environment["SECTIONKIT_PG_PORT"].flatMap(Int.init)
else {
  print("run through scripts/with-postgres.sh (SECTIONKIT_PG_HOST and _PORT are not set)")
  exit(2)
}
let configuration = PostgresConnection.Configuration(
  host: host, port: port, username: environment["SECTIONKIT_PG_USER"] ?? "sk", password: nil,
  database: environment["SECTIONKIT_PG_DATABASE"] ?? "postgres", tls: .disable)
let database = PostgresStreamDatabase(
  configuration: configuration,
  options: PostgresStreamOptions(snapshotInterval: 1_000, retainedChanges: 20_000))
try await database.install()

/// A model of cards the owner changes: one element updated or inserted per batch.
final class Model {
  let root = ComposedSectionProvider()
  let section: ArraySection<Int>
  let publisher = UpdatePublisher<Int> { section, index in (section as! ArraySection<Int>)[index] }
  let coordinator: Coordinator
  init(_ content: [[Int]]) {
    section = ArraySection(content.first ?? [])
    root.append(section)
    coordinator = Coordinator(sectionProvider: root)
    coordinator.adapter = publisher
  }
  func batch(_ n: Int) {
    if section.count < 200 { section.append(n) } else { section[n % section.count] = n }
  }
}

actor Owner {
  let model: Model
  let owner: PostgresStreamOwner<Int>
  var n = 0
  init(_ owner: PostgresStreamOwner<Int>) async {
    self.owner = owner
    model = Model(owner.start.sections)
    await owner.attach(model.publisher.stream)
  }
  var content: [Int] { Array(model.section) }
  func batch() async throws -> Int {
    n += 1
    model.batch(n)
    return try await owner.commit()
  }
}

/// When each sequence number was published.
final class Times: Sendable {
  let times = Mutex<[Int: ContinuousClock.Instant]>([:])
  func withLock<T: Sendable>(_ body: (inout [Int: ContinuousClock.Instant]) -> T) -> T {
    times.withLock { body(&$0) }
  }
}

func rate(_ count: Int, _ elapsed: Duration) -> String {
  String(format: "%.0f/s", Double(count) / elapsed.seconds)
}

extension Duration {
  var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
  var milliseconds: String { String(format: "%.2f ms", seconds * 1000) }
}

/// 1. The floor: a plain INSERT + NOTIFY loop, one autocommitted statement each.
func measureFloor() async throws {
  let connection = try await PostgresConnection.connect(
    configuration: configuration, id: 1, logger: database.logger)
  try await connection.query(
    "CREATE TABLE IF NOT EXISTS floor (id bigint PRIMARY KEY, line text NOT NULL)",
    logger: database.logger)
  try await connection.query("TRUNCATE floor", logger: database.logger)
  let line = String(repeating: "x", count: 120)
  let started = ContinuousClock.now
  for id in 0..<publishes {
    try await connection.query(
      "WITH i AS (INSERT INTO floor VALUES (\(id), \(line))) SELECT pg_notify('floor', \(String(id)))",
      logger: database.logger)
  }
  print("floor, INSERT + NOTIFY, 1 writer: \(rate(publishes, ContinuousClock.now - started))")
  try await connection.close()
}
try await measureFloor()

// 2. Durable publishes per second.
for writers in [1, 4] {
  let name = "bench-\(writers)-\(UUID().uuidString.prefix(6))"
  let owner = try await Owner(
    PostgresStreamOwner<Int>.acquire(stream: name, instance: "bench", in: database) { [[]] })
  let started = ContinuousClock.now
  try await withThrowingTaskGroup(of: Void.self) { group in
    for _ in 0..<writers {
      group.addTask { for _ in 0..<publishes / writers { _ = try await owner.batch() } }
    }
    try await group.waitForAll()
  }
  print(
    "durable publishes, \(writers) writer\(writers == 1 ? "" : "s"): "
      + rate(publishes / writers * writers, ContinuousClock.now - started))
  await owner.owner.stop(release: true)
}

// 3. Publish → client of another instance; 4. catch-up of a client far behind.
do {
  let name = "bench-delay-\(UUID().uuidString.prefix(6))"
  let owner = try await Owner(
    PostgresStreamOwner<Int>.acquire(stream: name, instance: "bench", in: database) { [[]] })
  let relays = (0..<2).map { _ in PostgresStreamRelay<Int>(stream: name, in: database) }
  let running = relays.map { relay in Task { await relay.run() } }
  let sent = Times()
  let subscription = try await relays[1].subscribe()
  let receiver = Task { () -> [Duration] in
    var delays: [Duration] = []
    for await update in subscription {
      let now = ContinuousClock.now
      if let start = sent.withLock({ $0[update.sequence] }) { delays.append(now - start) }
      if delays.count == publishes { break }
    }
    return delays
  }
  for _ in 0..<publishes {
    let next = await owner.owner.durable + 1
    sent.withLock { $0[next] = ContinuousClock.now }
    _ = try await owner.batch()
    try await Task.sleep(for: .milliseconds(2))
  }
  let delays = await receiver.value.sorted()
  print(
    "publish → client of another instance (\(delays.count)): p50 \(delays[delays.count / 2].milliseconds), "
      + "p99 \(delays[delays.count * 99 / 100].milliseconds)")

  // A client at `from` on instance 0 goes away while `behind` updates are published.
  let from = await owner.owner.durable
  while relays[0].follower?.position.sequence != from {
    try await Task.sleep(for: .milliseconds(5))
  }
  let start = relays[0].follower!.snapshot
  var mirror = StreamMirror<Int>(
    sections: start.sections,
    position: StreamPosition(stream: start.stream, sequence: start.sequence))
  for _ in 0..<behind { _ = try await owner.batch() }
  let head = await owner.owner.durable
  while relays[0].follower?.position.sequence != head {
    try await Task.sleep(for: .milliseconds(10))
  }
  let started = ContinuousClock.now
  let catchingUp = try await relays[0].subscribe(after: mirror.position)
  for await update in catchingUp {
    try mirror.apply(update)
    if update.sequence == head { break }
  }
  print(
    "catch-up of a client \(head - from) updates behind (resumed from the log: "
      + "\(catchingUp.resumedFromLog)): \((ContinuousClock.now - started).milliseconds), "
      + "mirror equal to the model: \(mirror.sections == [await owner.content])")
  for task in running { task.cancel() }
  for task in running { await task.value }
  await owner.owner.stop(release: true)
}
