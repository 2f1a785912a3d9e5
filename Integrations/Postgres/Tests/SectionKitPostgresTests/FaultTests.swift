import Foundation
import SectionKit
import SectionKitPostgres
import SectionKitStreaming
import Testing

/// Short leases, so that a test waits little for one to run out.
let faultOptions = PostgresStreamOptions(
  lease: .milliseconds(1_500), renewal: .milliseconds(300), pollInterval: .seconds(1),
  reconnectDelay: .milliseconds(200))

extension PostgresTests {
  @Suite("Faults")
  struct FaultTests {
    @Test func whenTheOwnerDiesAnotherInstanceTakesTheStreamAndClientsResume() async throws {
      let stream = streamName("killed")
      let database = try await database(faultOptions)
      let instances = (0..<2).map { _ in Instance(stream, database) }
      let first = try await acquire(stream, "instance-0", database)
      let before = await OwnedBoard(first, seed: 1)
      var client = Client()
      for _ in 0..<20 { try await before.batch() }
      let crashed = try await first.commit()
      try await client.follow(instances[0].relay, until: crashed)
      for _ in 0..<5 { try await before.batch() }
      // Killed: the lease is neither renewed nor given up.
      await first.stop(release: false)
      await #expect(throws: PostgresStreamError.self) {
        _ = try await PostgresStreamOwner<Card>.acquire(
          stream: stream, instance: "instance-1", in: database, initial: { [] })
      }
      let second = try await acquire(stream, "instance-1", database)
      #expect(second.start.sequence == crashed + 5)
      #expect(second.start.sections == (await before.content))
      let after = await OwnedBoard(second, seed: 2)
      for _ in 0..<20 { try await after.batch() }
      let head = try await second.commit()
      try await client.follow(instances[1].relay, until: head)
      #expect(client.problems.isEmpty, "\(client.problems)")
      #expect(client.snapshots == 1)
      #expect(client.mirror.sections == (await after.content))
      for instance in instances { await instance.stop() }
      await second.stop(release: true)
    }

    @Test func anOwnerThatWakesAfterLosingItsLeaseIsRefusedAndTheStreamDoesNotFork() async throws {
      let stream = streamName("stale")
      let database = try await database(faultOptions)
      let instance = Instance(stream, database)
      let stale = try await acquire(stream, "instance-0", database)
      let staleBoard = await OwnedBoard(stale, seed: 3)
      for _ in 0..<10 { try await staleBoard.batch() }
      // Paused past its lease: another instance takes the stream.
      await stale.pauseRenewal()
      let second = try await acquire(stream, "instance-1", database)
      let board = await OwnedBoard(second, seed: 4)
      for _ in 0..<5 { try await board.batch() }
      // The stale owner wakes and publishes: refused.
      await #expect(throws: PostgresStreamError.notOwner(stream: stream)) {
        try await staleBoard.batch()
      }
      #expect(await stale.isOwner == false)
      for _ in 0..<5 { try await board.batch() }
      let head = try await second.commit()
      #expect(head == 20)
      var client = Client()
      try await client.follow(instance.relay, until: head)
      #expect(client.problems.isEmpty, "\(client.problems)")
      #expect(client.mirror.sections == (await board.content))
      let heads = try await withConnection { connection in
        var found: [Int] = []
        for try await value in try await connection.query(
          "SELECT head_seq FROM sectionkit_streams WHERE stream_id = \(stream)",
          logger: .init(label: "t")
        ).decode(Int.self) { found.append(value) }
        return found
      }
      #expect(heads == [20])
      await instance.stop()
      await second.stop(release: true)
    }

    @Test func whenTheListenConnectionIsCutTheTimerCatchesUp() async throws {
      let stream = streamName("unheard")
      // The listener comes back only after the test: the timer alone must deliver.
      var options = faultOptions
      options.reconnectDelay = .seconds(30)
      let database = try await database(options)
      let instance = Instance(stream, database)
      let owner = try await acquire(stream, "instance-0", database)
      let board = await OwnedBoard(owner, seed: 5)
      var client = Client()
      try await client.follow(instance.relay, until: try await owner.commit())
      var listener: Int?
      for _ in 0..<200 where listener == nil {
        listener = instance.relay.listenerProcessID
        try await Task.sleep(for: .milliseconds(20))
      }
      let pid = try #require(listener)
      _ = try await withConnection { connection in
        try await connection.query(
          "SELECT pg_terminate_backend(\(pid)::integer)", logger: .init(label: "t"))
      }
      let notifiedBefore = instance.relay.statistics.readsOnNotification
      for _ in 0..<10 { try await board.batch() }
      let head = try await owner.commit()
      // Well before the listener comes back (30 s): only the timer reads the log meanwhile.
      try await client.follow(instance.relay, until: head, timeout: .seconds(10))
      #expect(instance.relay.listenerProcessID == nil)
      #expect(client.sequence == head)
      #expect(client.mirror.sections == (await board.content))
      #expect(
        instance.relay.statistics.readsOnNotification == notifiedBefore,
        "\(instance.relay.statistics)")
      await instance.stop()
      await owner.stop(release: true)
    }

    @Test func aTrimmedPositionGetsASnapshotAndARetainedOneTheLogsLines() async throws {
      let stream = streamName("trimmed")
      var options = faultOptions
      options.snapshotInterval = 10
      options.retainedChanges = 5
      let database = try await database(options)
      let instance = Instance(stream, database, policy: StreamPolicy(replayCapacity: 2))
      let owner = try await acquire(stream, "instance-0", database)
      let board = await OwnedBoard(owner, seed: 6)
      var client = Client()
      var kept: [Int: Client] = [:]
      for _ in 0..<40 {
        let sequence = try await board.batch()
        try await client.follow(instance.relay, until: sequence)
        kept[client.sequence] = client
      }
      // Snapshots at 10, 20, 30, 40: the changes up to 35 are trimmed.
      let head = try await owner.commit()
      #expect(head == 40)
      var trimmed = try #require(kept[20])
      try await trimmed.follow(instance.relay, until: head)
      #expect(trimmed.snapshots == 2)
      var retained = try #require(kept[36])
      try await retained.follow(instance.relay, until: head)
      #expect(retained.snapshots == 1)
      for client in [trimmed, retained] {
        #expect(client.problems.isEmpty, "\(client.problems)")
        #expect(client.mirror.sections == (await board.content))
      }
      #expect(instance.relay.statistics.resumedFromLog == 1)
      let oldest = try await withConnection { connection in
        var found: [Int] = []
        for try await value in try await connection.query(
          "SELECT min(seq) FROM sectionkit_changes WHERE stream_id = \(stream)",
          logger: .init(label: "t")
        ).decode(Int.self) { found.append(value) }
        return found
      }
      #expect(oldest == [36])
      await instance.stop()
      await owner.stop(release: true)
    }

    @Test func aPositionOfAnOldEpochGetsASnapshot() async throws {
      let stream = streamName("epoch")
      let database = try await database(faultOptions)
      let instance = Instance(stream, database)
      let first = try await acquire(stream, "instance-0", database)
      let board = await OwnedBoard(first, seed: 7)
      for _ in 0..<10 { try await board.batch() }
      var client = Client()
      try await client.follow(instance.relay, until: try await first.commit())
      let oldEpoch = try #require(client.mirror.position?.stream)
      await first.stop(release: true)
      // A model that does not come from the log: a new epoch.
      let second = try await acquire(
        stream, "instance-1", database, reset: true, initial: [[Card(id: 500)], [Card(id: 501)]])
      #expect(second.start.stream != oldEpoch)
      #expect(second.start.sequence == 0)
      let newBoard = await OwnedBoard(second, seed: 8)
      for _ in 0..<3 { try await newBoard.batch() }
      let head = try await second.commit()
      try await client.follow(instance.relay, until: head, epoch: second.start.stream)
      #expect(client.problems.isEmpty, "\(client.problems)")
      #expect(client.snapshots == 2)
      #expect(client.mirror.position == StreamPosition(stream: second.start.stream, sequence: head))
      #expect(client.mirror.sections == (await newBoard.content))
      await instance.stop()
      await second.stop(release: true)
    }
  }
}
