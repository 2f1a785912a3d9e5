import Foundation
import SectionKit
import SectionKitStreaming
import SectionKitTesting
import Testing

/// The stream's delivery (one shared log read with a cursor per subscriber) against a reference
/// model of what it replaced: a queue per subscriber, which each changeset joins, dropped for a
/// snapshot when one more arrives than it holds.
@Suite("Streaming: delivery from the shared log, against a queue per subscriber")
struct StreamDeliveryTests {
  /// The reference: one subscriber's queue of sequence numbers, as the old delivery kept it.
  struct ReferenceQueue {
    var queue: [Int] = []
    var needsSnapshot = true
  }

  /// How a subscriber takes its updates.
  enum Taker: CaseIterable {
    case one, batch, line
  }

  /// One subscriber of the test: its subscription, how it takes updates, its mirror, its
  /// reference queue.
  final class Client {
    let subscription: StreamSubscription<Card>
    let taker: Taker
    var batches: StreamSubscription<Card>.Batches.AsyncIterator
    var decoder = StreamLineDecoder<Card>()
    var mirror = StreamMirror<Card>(identity: Card.identity)
    var reference = ReferenceQueue()

    init(_ subscription: StreamSubscription<Card>, taker: Taker) {
      self.subscription = subscription
      self.taker = taker
      batches = subscription.batches().makeAsyncIterator()
    }
  }

  /// The reference's statistics.
  struct Counters {
    var overflows = 0
    var snapshotsServed = 0
    var resumed = 0
  }

  @Test(arguments: streamSeeds(base: 2_800, count: 40))
  func everySubscriberGetsWhatAQueueOfItsOwnWouldHold(seed: UInt64) async throws {
    var random = SeededGenerator(seed: seed)
    let policy = StreamPolicy(
      replayCapacity: Int.random(in: 0...8, using: &random),
      subscriberCapacity: Int.random(in: 0...6, using: &random))
    let board = RandomBoard(policy: policy)
    let stream = board.stream
    var clients: [Client] = []
    var counters = Counters()
    // The model's content at each sequence number, and the sequence numbers in the replay buffer.
    var history: [Int: [[Card]]] = [stream.position.sequence: board.content]
    var replay: [Int] = []

    func publish(reload: Bool) {
      if reload {
        board.coordinator.replace(sectionProvider: board.root)
        replay = []
        for client in clients {
          client.reference.queue = []
          client.reference.needsSnapshot = true
        }
      } else {
        let before = stream.position.sequence
        board.randomBatch(using: &random)
        // A batch whose changes cancel out publishes nothing.
        guard stream.position.sequence == before + 1 else { return }
        if policy.replayCapacity > 0 {
          replay.append(stream.position.sequence)
          if replay.count > policy.replayCapacity { replay.removeFirst() }
        }
        for client in clients where !client.reference.needsSnapshot {
          if client.reference.queue.count < policy.subscriberCapacity {
            client.reference.queue.append(stream.position.sequence)
          } else {
            client.reference.queue = []
            client.reference.needsSnapshot = true
            counters.overflows += 1
          }
        }
      }
      history[stream.position.sequence] = board.content
    }

    /// What the reference says `client` takes now: sequence numbers, and whether the first is a
    /// snapshot.
    func expected(_ client: Client, all: Bool) -> (sequences: [Int], snapshot: Bool) {
      if !client.reference.queue.isEmpty {
        let count = all ? client.reference.queue.count : 1
        defer { client.reference.queue.removeFirst(count) }
        return (Array(client.reference.queue.prefix(count)), false)
      }
      if client.reference.needsSnapshot {
        client.reference.needsSnapshot = false
        counters.snapshotsServed += 1
        return ([stream.position.sequence], true)
      }
      return ([], false)
    }

    func take(_ client: Client) async throws {
      let (sequences, snapshot) = expected(client, all: client.taker == .batch)
      var updates: [StreamUpdate<Card>] = []
      switch client.taker {
      case .one:
        if let update = client.subscription.poll() { updates.append(update) }
      case .batch:
        // Asked only when something is due: `next()` does not wait.
        if !sequences.isEmpty { updates = await client.batches.next() ?? [] }
      case .line:
        if let line = try client.subscription.pollLine() {
          client.decoder.append(line)
          while let update = try client.decoder.next() { updates.append(update) }
        }
      }
      #expect(updates.map(\.sequence) == sequences, "seed \(seed)")
      if let first = updates.first {
        let isSnapshot = if case .snapshot = first { true } else { false }
        #expect(isSnapshot == snapshot, "seed \(seed): \(first.sequence)")
      }
      for update in updates {
        try client.mirror.apply(update)
        #expect(client.mirror.sections == history[update.sequence], "seed \(seed)")
      }
    }

    for _ in 0..<300 {
      switch Int.random(in: 0..<100, using: &random) {
      case 0..<35: publish(reload: false)
      case 35..<37: publish(reload: true)
      case 37..<45 where clients.count < 8:
        let client = Client(
          stream.subscribe(), taker: Taker.allCases.randomElement(using: &random)!)
        clients.append(client)
      case 45..<50 where !clients.isEmpty:
        // Leaves, and comes back after its position: resumed from the replay buffer if it can.
        let index = Int.random(in: 0..<clients.count, using: &random)
        let old = clients.remove(at: index)
        old.subscription.cancel()
        guard let position = old.mirror.position else { continue }
        let client = Client(
          stream.subscribe(after: position), taker: Taker.allCases.randomElement(using: &random)!)
        client.mirror = old.mirror
        if client.taker == .line { client.decoder = StreamLineDecoder(after: position) }
        let missed = stream.position.sequence - position.sequence
        if position.sequence >= stream.position.sequence - replay.count,
          missed <= policy.subscriberCapacity
        {
          client.reference = ReferenceQueue(
            queue: Array(replay.suffix(missed)), needsSnapshot: false)
          counters.resumed += 1
        }
        clients.append(client)
      case 50..<53 where !clients.isEmpty:
        clients.remove(at: Int.random(in: 0..<clients.count, using: &random)).subscription.cancel()
      default:
        // One subscriber takes; the others stall.
        guard let client = clients.randomElement(using: &random) else { continue }
        try await take(client)
      }
      let statistics = stream.statistics
      #expect(statistics.subscribers == clients.count, "seed \(seed)")
      #expect(statistics.overflows == counters.overflows, "seed \(seed)")
      #expect(statistics.snapshotsServed == counters.snapshotsServed, "seed \(seed)")
      #expect(statistics.resumed == counters.resumed, "seed \(seed)")
      #expect(
        statistics.queuedChangesets == clients.reduce(0) { $0 + $1.reference.queue.count },
        "seed \(seed)")
      #expect(
        statistics.subscribersNeedingSnapshot == clients.count(where: \.reference.needsSnapshot),
        "seed \(seed)")
      #expect(statistics.replayedChangesets == replay.count, "seed \(seed)")
    }
    // Everyone catches up: each mirror ends equal to the model.
    for client in clients {
      while !(client.reference.queue.isEmpty && !client.reference.needsSnapshot) {
        try await take(client)
      }
      #expect(client.mirror.sections == board.content, "seed \(seed)")
      #expect(client.mirror.position == stream.position, "seed \(seed)")
    }
  }

  /// Consumers that wait: many subscribers in their own tasks, some taking one update per
  /// `next()`, some in batches, some as lines; some stall, some leave and come back; a model
  /// publishing random batches meanwhile. Every mirror ends equal to the model.
  @Test(arguments: streamSeeds(base: 2_900, count: 4))
  func waitingConsumersEndEqualToTheModel(seed: UInt64) async throws {
    var random = SeededGenerator(seed: seed)
    let board = RandomBoard(policy: StreamPolicy(replayCapacity: 8, subscriberCapacity: 4))
    let stream = board.stream
    let consumers = (0..<24).map { index in
      let taker = Taker.allCases[index % 3]
      let stalls = index % 4 == 0
      let subscription = stream.subscribe()
      return Task { () -> StreamMirror<Card> in
        var mirror = StreamMirror<Card>(identity: Card.identity)
        var taken = 0
        func pause() async {
          if stalls && taken % 7 == 0 { try? await Task.sleep(for: .milliseconds(2)) }
          taken += 1
        }
        switch taker {
        case .one:
          for await update in subscription {
            try? mirror.apply(update)
            await pause()
          }
        case .batch:
          for await batch in subscription.batches() {
            for update in batch { try? mirror.apply(update) }
            await pause()
          }
        case .line:
          var decoder = StreamLineDecoder<Card>()
          for try await lines in subscription.encodedLineBatches() {
            for line in lines {
              decoder.append(line)
              while let update = try decoder.next() { try mirror.apply(update) }
            }
            await pause()
          }
        }
        return mirror
      }
    }
    for step in 0..<300 {
      board.randomBatch(using: &random)
      if step % 50 == 49 { board.coordinator.replace(sectionProvider: board.root) }
      if step % 10 == 0 { await Task.yield() }
    }
    let content = board.content
    let position = stream.position
    stream.finish()
    for consumer in consumers {
      let mirror = try await consumer.value
      #expect(mirror.sections == content, "seed \(seed)")
      #expect(mirror.position == position, "seed \(seed)")
    }
  }
}
