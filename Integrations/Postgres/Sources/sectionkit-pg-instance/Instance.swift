// sectionkit-pg-instance: one server instance in a process of its own, for the tests that run
// several (Tests/SectionKitPostgresTests/InstanceProcess.swift). It runs a relay of one stream
// and serves its subscriptions over standard input and output; asked to, it takes the stream's
// lease and runs writers on the model. Not a product.
//
//   sectionkit-pg-instance STREAM NAME   (the connection in SECTIONKIT_PG_HOST, _PORT, _USER,
//                                         _DATABASE, as scripts/with-postgres.sh sets them)
//
// Input, one command a line:
//   sub ID -               a subscription that starts with a snapshot
//   sub ID EPOCH SEQ       a subscription that resumes after EPOCH#SEQ
//   cancel ID              ends subscription ID
//   own SEED WRITERS BATCHES PAUSE_MS
//                          takes the stream's lease (waiting for a held one to run out) and runs
//                          WRITERS concurrent writers of BATCHES random batches each, PAUSE_MS
//                          between two batches of a writer; then answers `owned`
// Output, one line each:
//   ready                  the relay has read the stream
//   ID LINE                an update of subscription ID: its stream line (Docs/Streaming.md)
//   end ID                 subscription ID ended (the client subscribes again with its position)
//   refused ID TEXT        subscription ID could not start (PostgreSQL unreachable); `end` follows
//   owned HEAD LINE        every batch is durable up to HEAD; LINE is the model, as a snapshot line
//   failed TEXT            a command failed
//
// It exits when its input closes (the test ended, or died) or when its parent process is gone.

import Foundation
import PostgresNIO
import PostgresTestSupport
import SectionKitPostgres
import SectionKitStreaming
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

@main
enum InstanceMain {
  static func main() async throws {
    let arguments = CommandLine.arguments
    let environment = ProcessInfo.processInfo.environment
    guard arguments.count == 3, let host = environment["SECTIONKIT_PG_HOST"],
      let port = environment["SECTIONKIT_PG_PORT"].flatMap(Int.init)
    else {
      FileHandle.standardError.write(
        Data(
          "usage: sectionkit-pg-instance STREAM NAME, with SECTIONKIT_PG_HOST and _PORT set\n".utf8)
      )
      exit(2)
    }
    let database = PostgresStreamDatabase(
      configuration: PostgresConnection.Configuration(
        host: host, port: port, username: environment["SECTIONKIT_PG_USER"] ?? "sk", password: nil,
        database: environment["SECTIONKIT_PG_DATABASE"] ?? "postgres", tls: .disable),
      options: PostgresStreamOptions(
        lease: .seconds(3), renewal: .milliseconds(500), reconnectDelay: .milliseconds(200)))
    let server = Server(stream: arguments[1], name: arguments[2], database: database)

    // Reads the commands until standard input closes, then exits.
    Thread {
      while let line = readLine() { server.perform(line) }
      exit(0)
    }.start()
    // Exits when the parent process is gone (another child may hold its input open).
    let parent = getppid()
    Thread {
      while getppid() == parent { Thread.sleep(forTimeInterval: 0.2) }
      exit(0)
    }.start()
    try await server.run()
  }
}

/// The instance: a relay, the subscriptions it serves, and the model when it owns the stream.
final class Server: Sendable {
  let stream: String
  let name: String
  let database: PostgresStreamDatabase
  let relay: PostgresStreamRelay<Card>
  /// Standard output, one whole line at a time.
  let output = Mutex(FileHandle.standardOutput)
  /// The subscriptions being served, by the client's identifier.
  let serving = Mutex<[String: Task<Void, Never>]>([:])

  init(stream: String, name: String, database: PostgresStreamDatabase) {
    self.stream = stream
    self.name = name
    self.database = database
    relay = PostgresStreamRelay<Card>(stream: stream, in: database)
  }

  /// Runs the relay; says `ready` once it has read the stream (which the owner creates).
  func run() async throws {
    try await database.install()
    let relay = self.relay
    let running = Task { await relay.run() }
    while relay.follower == nil { try await Task.sleep(for: .milliseconds(20)) }
    send("ready")
    await running.value
  }

  func send(_ line: String) {
    output.withLock { _ = try? $0.write(contentsOf: Data((line + "\n").utf8)) }
  }

  /// Performs one command.
  func perform(_ line: String) {
    let words = line.split(separator: " ").map(String.init)
    switch (words.first ?? "", words.count) {
    case ("sub", 3) where words[2] == "-":
      subscribe(words[1], after: nil)
    case ("sub", 4) where Int(words[3]) != nil:
      subscribe(words[1], after: StreamPosition(stream: words[2], sequence: Int(words[3])!))
    case ("cancel", 2):
      serving.withLock { $0[words[1]] }?.cancel()
    case ("own", 5) where words.dropFirst().allSatisfy { UInt64($0) != nil }:
      let numbers = words.dropFirst().map { Int($0)! }
      Task {
        await own(
          seed: UInt64(numbers[0]), writers: numbers[1], batches: numbers[2],
          pause: .milliseconds(numbers[3]))
      }
    default:
      send("failed unknown command: \(line)")
    }
  }

  /// Serves subscription `id` after `position` until it ends or is cancelled.
  func subscribe(_ id: String, after position: StreamPosition?) {
    let task = Task {
      do {
        let subscription = try await relay.subscribe(after: position)
        let encoder = StreamLineEncoder<Card>()
        for await update in subscription {
          let line = try encoder.encode(update).dropLast()
          send("\(id) " + String(decoding: line, as: UTF8.self))
        }
        subscription.cancel()
      } catch {
        send("refused \(id) \(error)")
      }
      send("end \(id)")
      _ = serving.withLock { $0.removeValue(forKey: id) }
    }
    serving.withLock { $0[id] = task }
  }

  /// Takes the stream and runs the writers; answers `owned HEAD LINE`.
  func own(seed: UInt64, writers: Int, batches: Int, pause: Duration) async {
    do {
      try await database.install()
      let owner = try await acquire(stream, name, database)
      let board = await OwnedBoard(owner, seed: seed)
      try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<writers {
          group.addTask {
            for _ in 0..<batches {
              try await board.batch()
              try await Task.sleep(for: pause)
            }
          }
        }
        try await group.waitForAll()
      }
      let head = try await owner.commit()
      let model = StreamSnapshot(
        stream: owner.start.stream, sequence: head, sections: await board.content)
      let line = try StreamLineEncoder<Card>().encode(.snapshot(model)).dropLast()
      send("owned \(head) " + String(decoding: line, as: UTF8.self))
    } catch {
      send("failed own: \(error)")
    }
  }
}
