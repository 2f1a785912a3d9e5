import Foundation
import SectionKit
import SectionKitStreaming
import SectionKitTesting
import Testing

/// A model owned by its actor: the board — tree, coordinator, publisher — is created inside it
/// and never leaves it; only its `Sendable` stream does.
actor BoardModel {
  private let board: RandomBoard
  private var random: SeededGenerator
  nonisolated let stream: UpdateStream<Card>
  private(set) var batches = 0

  init(seed: UInt64, policy: StreamPolicy) {
    let board = RandomBoard(policy: policy)
    self.board = board
    self.stream = board.publisher.stream
    self.random = SeededGenerator(seed: seed)
  }

  func randomBatch() {
    board.randomBatch(using: &random)
    batches += 1
  }

  var content: [[Card]] { board.content }

  func finish() { stream.finish() }
}

/// How a subscriber behaves.
enum SubscriberKind: String, CaseIterable, Sendable {
  /// From the start, taking every update at once.
  case steady
  /// Joins after the model has made `joinAfter` batches.
  case late
  /// Yields many times after each update: falls behind and catches up with snapshots.
  case slow
  /// Cancels its subscription now and then and resumes from its mirror's position.
  case reconnecting
  /// Takes every update due at once (`batches()`), slowly: its batches grow.
  case batched
}

@Suite("Streaming: an actor-owned model, concurrent writers, many subscribers")
struct StreamConcurrencyTests {
  /// Follows `model`'s stream as `kind` does, until the stream ends; returns the mirror and the
  /// problems met.
  static func follow(_ model: BoardModel, _ kind: SubscriberKind, seed: UInt64) async -> (
    StreamMirror<Card>, [String], reconnections: Int
  ) {
    var random = SeededGenerator(seed: seed)
    var mirror = StreamMirror<Card>()
    var problems: [String] = []
    var reconnections = 0
    if kind == .late {
      let joinAfter = Int.random(in: 10..<80, using: &random)
      while await model.batches < joinAfter { await Task.yield() }
    }
    while true {
      let subscription = model.stream.subscribe(after: mirror.position)
      var taken = 0
      let leaveAfter =
        kind == .reconnecting ? Int.random(in: 1..<15, using: &random) : Int.max
      if kind == .batched {
        for await batch in subscription.batches() {
          #expect(!batch.isEmpty)
          for update in batch {
            do {
              try mirror.apply(update)
            } catch {
              problems.append("\(kind): \(error)")
              return (mirror, problems, reconnections)
            }
          }
          for _ in 0..<Int.random(in: 0..<40, using: &random) { await Task.yield() }
        }
        break
      }
      for await update in subscription {
        do {
          try mirror.apply(update)
        } catch {
          problems.append("\(kind): \(error)")
          return (mirror, problems, reconnections)
        }
        taken += 1
        if kind == .slow {
          for _ in 0..<Int.random(in: 0..<40, using: &random) { await Task.yield() }
        }
        if taken == leaveAfter { break }
      }
      // The stream ended, or this subscriber leaves and comes back (even when the stream has
      // finished meanwhile: it still gets what it missed).
      guard taken == leaveAfter else { break }
      reconnections += 1
    }
    return (mirror, problems, reconnections)
  }

  @Test(arguments: streamSeeds(base: 12_000, count: 2))
  func everyLiveMirrorEndsEqualToTheModel(seed: UInt64) async {
    let model = BoardModel(
      seed: seed, policy: StreamPolicy(replayCapacity: 32, subscriberCapacity: 8))
    let kinds = SubscriberKind.allCases.flatMap { Array(repeating: $0, count: 4) }
    let writers = 3
    let batchesPerWriter = 80
    let results = await withTaskGroup(
      of: (SubscriberKind, StreamMirror<Card>, [String], Int)?.self
    ) { group in
      for (index, kind) in kinds.enumerated() {
        group.addTask {
          let (mirror, problems, reconnections) = await Self.follow(
            model, kind, seed: seed &+ UInt64(index))
          return (kind, mirror, problems, reconnections)
        }
      }
      for _ in 0..<writers {
        group.addTask {
          for _ in 0..<batchesPerWriter {
            await model.randomBatch()
            await Task.yield()
          }
          return nil
        }
      }
      // Finish once every writer is done.
      group.addTask {
        while await model.batches < writers * batchesPerWriter { await Task.yield() }
        await model.finish()
        return nil
      }
      var results: [(SubscriberKind, StreamMirror<Card>, [String], Int)] = []
      for await result in group { if let result { results.append(result) } }
      return results
    }

    let content = await model.content
    let statistics = model.stream.statistics
    #expect(results.count == kinds.count)
    for (kind, mirror, problems, _) in results {
      #expect(problems.isEmpty, "seed \(seed): \(problems)")
      #expect(mirror.sections == content, "seed \(seed): a \(kind) subscriber")
      #expect(mirror.position == model.stream.position, "seed \(seed): a \(kind) subscriber")
    }
    #expect(
      results.filter { $0.0 == .reconnecting }.allSatisfy { $0.3 > 0 },
      "seed \(seed): a reconnecting subscriber never reconnected")
    #expect(statistics.subscribers == 0, "seed \(seed): \(statistics)")
  }

  @Test func aBatchIsEveryUpdateDueInOrderAndASnapshotAfterAnOverflow() async {
    var random = SeededGenerator(seed: 0xBA7C_0001)
    let board = RandomBoard(policy: StreamPolicy(subscriberCapacity: 5))
    let subscription = board.stream.subscribe()
    let batches = subscription.batches().makeAsyncIterator()
    var mirror = StreamMirror<Card>()
    let first = await batches.next()
    #expect(first?.count == 1)
    for update in first ?? [] { try? mirror.apply(update) }
    var published = 0
    while published < 4 {
      board.randomBatch(using: &random)
      published = board.stream.position.sequence - mirror.position!.sequence
    }
    let batch = await batches.next() ?? []
    #expect(batch.count == published)
    #expect(
      batch.map(\.sequence) == Array(mirror.position!.sequence + 1...board.stream.position.sequence)
    )
    for update in batch { #expect(throws: Never.self) { try mirror.apply(update) } }
    #expect(mirror.sections == board.content)
    // More than the queue holds: one snapshot of the state now.
    while board.stream.statistics.overflows == 0 { board.randomBatch(using: &random) }
    let caughtUp = await batches.next() ?? []
    #expect(caughtUp.count == 1)
    if case .snapshot = caughtUp.first {} else { Issue.record("expected a snapshot: \(caughtUp)") }
    for update in caughtUp { try? mirror.apply(update) }
    #expect(mirror.sections == board.content)
  }
}
