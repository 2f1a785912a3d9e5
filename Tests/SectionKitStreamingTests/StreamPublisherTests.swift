import Foundation
import SectionKit
import SectionKitStreaming
import SectionKitTesting
import Testing

@Suite("Streaming: subscribers, resuming, slow subscribers, ending")
struct StreamPublisherTests {
  @Test func aNewSubscriberGetsASnapshotThenEveryChangesetInOrder() throws {
    var random = SeededGenerator(seed: 1)
    let board = RandomBoard()
    board.randomBatch(using: &random)
    let subscription = board.stream.subscribe()
    for _ in 0..<20 { board.randomBatch(using: &random) }

    let updates = drain(subscription)
    guard case .snapshot(let snapshot) = updates.first else {
      Issue.record("the first update is not a snapshot: \(updates)")
      return
    }
    // The snapshot is taken when the subscriber asks: it shows the model as it is then.
    #expect(snapshot.sequence == board.stream.position.sequence)
    #expect(updates.count == 1)
    var mirror = StreamMirror<Card>()
    try mirror.apply(snapshot: snapshot)
    board.randomBatch(using: &random)
    board.randomBatch(using: &random)
    let more = drain(subscription)
    #expect(more.map(\.sequence) == [snapshot.sequence + 1, snapshot.sequence + 2])
    for update in more { try mirror.apply(update) }
    #expect(mirror.sections == board.content)
    #expect(mirror.position == board.stream.position)
  }

  /// A reconfigure goes on the wire as the reload it is placed as: the format has no
  /// reconfigures, and a mirror follows it as a reload.
  @Test func aReconfigureIsSentAsAReload() throws {
    let board = RandomBoard(sections: 1, cards: 3)
    let subscription = board.stream.subscribe()
    var mirror = StreamMirror<Card>()
    for update in drain(subscription) { try mirror.apply(update) }
    let section = board.sections[0]
    section.performBatchUpdates {
      section.remove(at: 0)
      var card = section[1]
      card.version += 1
      section.reconfigure(at: 1, with: card)
    }
    let updates = drain(subscription)
    guard updates.count == 1, case .changeset(let sent) = updates[0] else {
      Issue.record("\(updates)")
      return
    }
    #expect(sent.changeset == Changeset(deletedElements: [[0, 0]], reloadedElements: [[0, 2]]))
    let line = String(decoding: try JSONEncoder().encode(sent.changeset), as: UTF8.self)
    #expect(!line.contains("reconfigured"))
    try mirror.apply(updates[0])
    #expect(mirror.sections == board.content)
  }

  /// A changeset published directly with a reconfigure goes out as a reload too.
  @Test func aReconfigurePublishedDirectlyIsSentAsAReload() throws {
    let stream = UpdateStream<String>()
    stream.publishSnapshot([["a", "b"]])
    let subscription = stream.subscribe()
    var mirror = StreamMirror<String>()
    for update in drain(subscription) { try mirror.apply(update) }
    stream.publish(
      Changeset(reconfiguredElements: [[0, 1]]), elements: [[0, 1]: "B"], state: [["a", "B"]])
    let updates = drain(subscription)
    guard updates.count == 1, case .changeset(let sent) = updates[0] else {
      Issue.record("\(updates)")
      return
    }
    #expect(sent.changeset == Changeset(reloadedElements: [[0, 1]]))
    try mirror.apply(updates[0])
    #expect(mirror.sections == [["a", "B"]])
  }

  @Test func aSubscriberThatResumesWithinTheReplayBufferGetsOnlyWhatItMissed() throws {
    var random = SeededGenerator(seed: 2)
    let board = RandomBoard(policy: StreamPolicy(replayCapacity: 8))
    var mirror = StreamMirror<Card>()
    do {
      let first = board.stream.subscribe()
      for update in drain(first) { try mirror.apply(update) }
    }
    #expect(board.stream.statistics.subscribers == 0)
    for _ in 0..<8 { board.randomBatch(using: &random) }

    let resumed = board.stream.subscribe(after: mirror.position)
    let updates = drain(resumed)
    #expect(updates.count == 8)
    #expect(updates.allSatisfy { if case .changeset = $0 { true } else { false } })
    for update in updates { try mirror.apply(update) }
    #expect(mirror.sections == board.content)
    #expect(board.stream.statistics.resumed == 1)
  }

  @Test(arguments: ["too old", "other stream", "future"])
  func aSubscriberThatCannotResumeGetsASnapshot(case name: String) throws {
    var random = SeededGenerator(seed: 3)
    let board = RandomBoard(policy: StreamPolicy(replayCapacity: 4))
    let start = board.stream.position
    for _ in 0..<5 { board.randomBatch(using: &random) }
    let position =
      switch name {
      case "too old": start
      case "other stream": StreamPosition(stream: "another run", sequence: 5)
      default: StreamPosition(stream: start.stream, sequence: 99)
      }
    let updates = drain(board.stream.subscribe(after: position))
    guard updates.count == 1, case .snapshot(let snapshot) = updates[0] else {
      Issue.record("\(name): \(updates)")
      return
    }
    #expect(snapshot.sections == board.content)
  }

  /// A position comes from a client (a `Last-Event-ID` read with `Int(_:)`): whatever its number,
  /// it resumes or starts with a snapshot, and never traps.
  @Test(arguments: [Int.min, .min + 1, -1, -2, .max - 1, .max])
  func aHostilePositionGetsASnapshotAndNeverTraps(sequence: Int) throws {
    var random = SeededGenerator(seed: 8)
    let board = RandomBoard(policy: StreamPolicy(replayCapacity: 4))
    for _ in 0..<3 { board.randomBatch(using: &random) }
    let position = StreamPosition(stream: board.stream.id, sequence: sequence)
    let updates = drain(board.stream.subscribe(after: position))
    guard updates.count == 1, case .snapshot(let snapshot) = updates[0] else {
      Issue.record("\(sequence): \(updates)")
      return
    }
    #expect(snapshot.sections == board.content)
    #expect(board.stream.statistics.resumed == 0)
    // The same position given with an index path is refused, never a trap.
    #expect(throws: PathResolutionError.self) { try board.stream.resolve([0, 0], at: position) }
  }

  /// A changeset that does not fit the stream's state is the server's programming error: it traps
  /// when published, naming the counts, not later when the replay buffer drops it.
  @Test func publishingAChangesetThatDoesNotFitTrapsNamingTheCounts() async {
    // The state given does not match what the changeset leaves.
    let wrongState = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let stream = UpdateStream<String>(policy: StreamPolicy(replayCapacity: 1))
      stream.publishSnapshot([["a", "b"], []])
      stream.publish(
        Changeset(insertedElements: [[0, 2]]), elements: [[0, 2]: "c"], state: [["a", "b"], []])
    }
    let wrongText = String(decoding: wrongState?.standardErrorContent ?? [], as: UTF8.self)
    #expect(wrongText.contains("takes section counts [2, 0] to [3, 0]"), "\(wrongText)")
    #expect(wrongText.contains("the state given has section counts [2, 0]"), "\(wrongText)")
    // The changeset does not fit the state before it.
    let misfit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let stream = UpdateStream<String>(policy: StreamPolicy(replayCapacity: 1))
      stream.publishSnapshot([["a", "b"]])
      stream.publish(Changeset(deletedElements: [[0, 5]]), state: [["a"]])
    }
    let misfitText = String(decoding: misfit?.standardErrorContent ?? [], as: UTF8.self)
    #expect(misfitText.contains("does not fit the state before it, of section counts [2]"))
    // A survivor that is not a deleted element going to an inserted one.
    let survivor = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let stream = UpdateStream<String>()
      stream.publishSnapshot([["a", "b"]])
      stream.publish(
        Changeset(deletedElements: [[0, 0]]), survivors: [[0, 1]: [0, 0]], state: [["b"]])
    }
    let survivorText = String(decoding: survivor?.standardErrorContent ?? [], as: UTF8.self)
    #expect(survivorText.contains("survivor [0, 1] → [0, 0] is not a deleted element"))
  }

  @Test func aSlowSubscriberIsMovedToNeedsSnapshotAndMemoryStaysBounded() throws {
    var random = SeededGenerator(seed: 4)
    let board = RandomBoard(policy: StreamPolicy(replayCapacity: 16, subscriberCapacity: 5))
    let slow = board.stream.subscribe()
    var mirror = StreamMirror<Card>()
    for update in drain(slow) { try mirror.apply(update) }
    var maximumQueued = 0
    for _ in 0..<500 {
      board.randomBatch(using: &random)
      maximumQueued = max(maximumQueued, board.stream.statistics.queuedChangesets)
    }
    let statistics = board.stream.statistics
    #expect(maximumQueued == 5)
    #expect(statistics.replayedChangesets == 16)
    #expect(statistics.overflows == 1)
    #expect(statistics.subscribersNeedingSnapshot == 1)

    let updates = drain(slow)
    #expect(updates.count == 1)
    for update in updates { try mirror.apply(update) }
    #expect(mirror.sections == board.content)
  }

  @Test func aReloadSendsEverySubscriberASnapshot() throws {
    var random = SeededGenerator(seed: 5)
    let board = RandomBoard()
    let subscription = board.stream.subscribe()
    var mirror = StreamMirror<Card>()
    for update in drain(subscription) { try mirror.apply(update) }
    board.randomBatch(using: &random)
    board.coordinator.replace(sectionProvider: board.root)  // a forced reload
    board.randomBatch(using: &random)
    // The changesets before the reload and after it are covered by one snapshot, taken when the
    // subscriber asks.
    let updates = drain(subscription)
    #expect(updates.count == 1)
    if case .snapshot = updates.first {} else { Issue.record("no snapshot: \(updates)") }
    #expect(updates.first?.sequence == board.stream.position.sequence)
    for update in updates { try mirror.apply(update) }
    #expect(mirror.sections == board.content)
  }

  @Test func theSubscriptionsEndWhenThePublisherGoesAway() async throws {
    var random = SeededGenerator(seed: 6)
    var board: RandomBoard? = RandomBoard()
    let subscription = board!.stream.subscribe()
    let consumer = Task {
      var mirror = StreamMirror<Card>()
      for await update in subscription { try mirror.apply(update) }
      return mirror
    }
    for _ in 0..<30 { board!.randomBatch(using: &random) }
    let content = board!.content
    board = nil  // the coordinator and its publisher go away
    let mirror = try await consumer.value
    #expect(mirror.sections == content)
  }

  @Test func cancellingTheConsumingTaskReleasesTheSubscription() async {
    let board = RandomBoard()
    let stream = board.stream
    let consumer = Task {
      var count = 0
      for await _ in stream.subscribe() { count += 1 }
      return count
    }
    // The consumer takes its snapshot and waits for more.
    while stream.statistics.snapshotsServed == 0 { await Task.yield() }
    consumer.cancel()
    #expect(await consumer.value == 1)
    #expect(stream.statistics.subscribers == 0)
  }

  @Test func releasingOrCancellingASubscriptionRemovesTheSubscriber() {
    let board = RandomBoard()
    do {
      let subscription = board.stream.subscribe()
      #expect(board.stream.statistics.subscribers == 1)
      _ = subscription.poll()
    }
    #expect(board.stream.statistics.subscribers == 0)
    let kept = board.stream.subscribe()
    kept.cancel()
    #expect(board.stream.statistics.subscribers == 0)
    #expect(kept.poll() == nil)
  }

  @Test func aForwardedAdapterSeesEveryBatchAsIfAttachedItself() {
    var random = SeededGenerator(seed: 7)
    let adapter = TestAdapter()
    let root = ComposedSectionProvider()
    let cards: ArraySection<Int> = [1, 2, 3]
    root.append(cards)
    let publisher = UpdatePublisher(forwardingTo: adapter) { section, index in
      (section as! ArraySection<Int>)[index]
    }
    let coordinator = Coordinator(sectionProvider: root)
    coordinator.adapter = publisher
    for _ in 0..<50 {
      switch Int.random(in: 0..<3, using: &random) {
      case 0: cards.append(Int.random(in: 0..<100, using: &random))
      case 1 where !cards.isEmpty: cards.remove(at: 0)
      default: if cards.count > 1 { cards.move(from: 0, to: cards.count - 1) }
      }
    }
    #expect(adapter.failures.isEmpty)
    #expect(adapter.mirrorValues == [cards.map(String.init)])
    // One reload, then one update per changeset the adapter was given.
    #expect(adapter.changesets.count + 1 == publisher.stream.statistics.published)
    #expect(publisher.stream.snapshot.sections == [Array(cards)])
  }
}

extension StreamMirror {
  mutating func apply(snapshot: StreamSnapshot<Value>) throws {
    try apply(.snapshot(snapshot))
  }
}
