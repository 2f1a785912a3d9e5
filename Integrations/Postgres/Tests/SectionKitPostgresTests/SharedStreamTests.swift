import Foundation
import SectionKit
import SectionKitPostgres
import SectionKitStreaming
import Testing

extension PostgresTests {
  @Suite("Several instances share one stream")
  struct SharedStreamTests {
    /// Three instances, one owner, four writers, twelve clients that reconnect to a random instance
    /// with their position: every mirror ends equal to the model, and none ever saw a gap or a
    /// duplicate (its mirror would have refused the update).
    @Test func clientsThatHopBetweenInstancesEndEqualToTheModel() async throws {
      let stream = streamName("shared")
      let database = try await database()
      // A small replay buffer: many resumes come from the log, some from memory.
      let instances = (0..<3).map { _ in
        Instance(stream, database, policy: StreamPolicy(replayCapacity: 8, subscriberCapacity: 64))
      }
      let owner = try await acquire(stream, "instance-0", database)
      let board = await OwnedBoard(owner, seed: 32)
      let done = Shared(false)

      let writers = Task {
        try await withThrowingTaskGroup(of: Void.self) { group in
          for _ in 0..<4 {
            group.addTask { for _ in 0..<40 { try await board.batch() } }
          }
          try await group.waitForAll()
        }
      }
      let clients = await withTaskGroup(of: Client.self) { group in
        for index in 0..<12 {
          group.addTask {
            var random = SplitMix(state: UInt64(index))
            var client = Client()
            while !done.value {
              let instance = instances.randomElement(using: &random)!
              do {
                try await client.follow(
                  instance.relay, limit: Int.random(in: 1...12, using: &random),
                  timeout: .milliseconds(300))
              } catch {
                client.problems.append("subscribe: \(error)")
              }
              // Away for a while: some come back further behind than the replay buffer.
              try? await Task.sleep(for: .milliseconds(Int.random(in: 0...120, using: &random)))
            }
            return client
          }
        }
        try? await writers.value
        done.value = true
        var clients: [Client] = []
        for await client in group { clients.append(client) }
        return clients
      }
      try await writers.value
      let head = try await owner.commit()
      #expect(head > 120, "empty batches publish nothing; most publish")
      let model = await board.content
      for (index, var client) in clients.enumerated() {
        try await client.follow(instances[index % 3].relay, until: head)
        #expect(client.problems.isEmpty, "client \(index): \(client.problems)")
        #expect(client.sequence == head, "client \(index)")
        #expect(client.mirror.sections == model, "client \(index)")
      }
      let statistics = instances.map(\.relay.statistics)
      #expect(statistics.map(\.resumedFromMemory).reduce(0, +) > 0, "\(statistics)")
      #expect(statistics.map(\.resumedFromLog).reduce(0, +) > 0, "\(statistics)")
      for instance in instances {
        #expect(instance.relay.follower?.snapshot.sections == model)
        await instance.stop()
      }
      await owner.stop(release: true)
    }
  }
}
