import Foundation
import PostgresTestSupport
import SectionKitPostgres
import SectionKitStreaming
import Testing

extension PostgresTests {
  /// Instances in processes of their own (`sectionkit-pg-instance`): the owner and its writers in
  /// one, relays in every one, the clients here.
  @Suite("Instances in separate processes", .timeLimit(.minutes(2)))
  struct InstanceProcessTests {
    /// Three instance processes, one owner with four concurrent writers, twenty-four clients that
    /// reconnect to a random instance with their position: every mirror ends equal to the model,
    /// and none ever saw a gap or a duplicate (its decoder and mirror would have refused it).
    @Test func clientsThatHopBetweenInstanceProcessesEndEqualToTheModel() async throws {
      let stream = streamName("processes")
      try await withInstanceProcesses(3, of: stream) { instances in
        instances[0].send("own 32 4 40 5")
        for instance in instances { _ = try await instance.wait { $0.ready ? true : nil } }
        let clients = await hop(24, over: instances)
        let model = try await instances[0].wait { $0.owned }
        #expect(model.sequence > 120, "empty batches publish nothing; most publish")
        try await expectEqual(clients, to: model, on: instances)
        #expect(clients.map { $0.subscriptions - $0.snapshots }.reduce(0, +) > 24, "resumes")
        for instance in instances { #expect(instance.failures.isEmpty, "\(instance.failures)") }
      }
    }

    /// PostgreSQL restarts while the owner writes and clients hop: the instances reconnect, the
    /// owner's publishes go through once it is back, and every client ends equal to the model,
    /// which the log holds whole.
    @Test func whenPostgreSQLRestartsInstancesReconnectAndNothingCommittedIsLost() async throws {
      let restart = try #require(
        environment["SECTIONKIT_PG_RESTART"], "run through scripts/with-postgres.sh")
      let stream = streamName("restart")
      let started = try await serverStartTime()
      try await withInstanceProcesses(3, of: stream) { instances in
        instances[0].send("own 33 2 100 20")
        for instance in instances { _ = try await instance.wait { $0.ready ? true : nil } }
        let restarted = Task {
          // Once the writers are under way.
          var watcher = Client()
          try await watcher.follow(instances[1], until: 30, timeout: .seconds(30))
          try await run(restart)
          return watcher.sequence
        }
        let clients = await hop(12, over: instances)
        let restartedAt = try await restarted.value
        let model = try await instances[0].wait { $0.owned }
        #expect(model.sequence > restartedAt + 20, "writes continued after the restart")
        try await expectEqual(clients, to: model, on: instances)
        let heads = try await withConnection { connection in
          var found: [Int] = []
          for try await value in try await connection.query(
            "SELECT head_seq FROM sectionkit_streams WHERE stream_id = \(stream)",
            logger: .init(label: "t")
          ).decode(Int.self) { found.append(value) }
          return found
        }
        #expect(heads == [model.sequence])
        #expect(try await serverStartTime() > started, "PostgreSQL restarted")
        for instance in instances { #expect(instance.failures.isEmpty, "\(instance.failures)") }
      }
    }
  }
}

/// `count` clients that subscribe to a random instance with their position, take a few updates,
/// go away for a while and come back elsewhere, until the first instance's writers are done (or
/// it failed, or a minute passed).
func hop(_ count: Int, over instances: [InstanceProcess]) async -> [Client] {
  let deadline = ContinuousClock.now + .seconds(60)
  let owner = instances[0]
  @Sendable func done() -> Bool {
    ContinuousClock.now > deadline || Task.isCancelled
      || owner.heard.withLock { $0.owned != nil || !$0.failures.isEmpty || $0.exited }
  }
  return await withTaskGroup(of: Client.self) { group in
    for index in 0..<count {
      group.addTask {
        var random = SplitMix(state: UInt64(index))
        var client = Client()
        while !done() {
          let instance = instances.randomElement(using: &random)!
          do {
            try await client.follow(
              instance, limit: Int.random(in: 1...12, using: &random), timeout: .milliseconds(300))
          } catch {
            client.problems.append("subscribe: \(error)")
          }
          // Away for a while: some come back further behind than the replay buffer.
          try? await Task.sleep(for: .milliseconds(Int.random(in: 0...120, using: &random)))
        }
        return client
      }
    }
    var clients: [Client] = []
    for await client in group { clients.append(client) }
    return clients
  }
}

/// Each client followed to the model's position on one of the instances: no problem seen, the
/// model's sections.
func expectEqual(
  _ clients: [Client], to model: StreamSnapshot<Card>, on instances: [InstanceProcess]
)
  async throws
{
  for (index, var client) in clients.enumerated() {
    try await client.follow(
      instances[index % instances.count], until: model.sequence, timeout: .seconds(30))
    #expect(client.problems.isEmpty, "client \(index): \(client.problems)")
    #expect(
      client.mirror.position == StreamPosition(stream: model.stream, sequence: model.sequence),
      "client \(index)")
    #expect(client.mirror.sections == model.sections, "client \(index)")
  }
}

/// Runs the command line `command` (the cluster's restart script), waiting for it to end.
func run(_ command: String) async throws {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/bin/sh")
  process.arguments = ["-c", command]
  process.standardInput = FileHandle.nullDevice
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  try process.run()
  let deadline = ContinuousClock.now + .seconds(60)
  while process.isRunning && ContinuousClock.now < deadline {
    try await Task.sleep(for: .milliseconds(50))
  }
  #expect(!process.isRunning && process.terminationStatus == 0, "\(command)")
}

/// When the PostgreSQL server started.
func serverStartTime() async throws -> Date {
  try await withConnection { connection in
    var found = Date.distantPast
    for try await value in try await connection.query(
      "SELECT pg_postmaster_start_time()", logger: .init(label: "t")
    ).decode(Date.self) { found = value }
    return found
  }
}
