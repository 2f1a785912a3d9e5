import Foundation
import SectionKit
import SectionKitStreaming
import SectionKitTesting
import Testing

@Suite("Streaming: a follower fed by decoded updates")
struct StreamFollowerTests {
  /// The original's updates as its lines, decoded: what a follower on another server reads.
  static func lines(_ updates: [StreamUpdate<Card>]) throws -> [Data] {
    let encoder = StreamLineEncoder<Card>()
    return try updates.map { try encoder.encode($0).dropLast() }
  }

  @Test(arguments: streamSeeds(base: 3_200, count: 8))
  func aFollowerFedFromLinesServesItsSubscribersWhatTheOriginalServes(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let board = RandomBoard(policy: StreamPolicy(replayCapacity: 16, subscriberCapacity: 16))
    let source = board.stream.subscribe()
    let start = board.stream.snapshot
    let follower = UpdateStream(
      following: start, policy: StreamPolicy(replayCapacity: 16, subscriberCapacity: 16))
    #expect(follower.id == board.stream.id)
    #expect(follower.position == board.stream.position)
    var decoder = StreamLineDecoder<Card>(after: follower.position)
    var mirrors: [(StreamMirror<Card>, StreamSubscription<Card>)] = []
    for round in 0..<30 {
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        if Int.random(in: 0..<25, using: &random) == 0 {
          board.coordinator.replace(sectionProvider: board.root)  // a reload
        } else {
          board.randomBatch(using: &random)
        }
      }
      for line in try Self.lines(drain(source).filter { $0.sequence > start.sequence }) {
        try follower.follow(decoder.decode(line: line))
      }
      #expect(follower.position == board.stream.position)
      #expect(follower.snapshot.sections == board.content)
      if round % 5 == 0 { mirrors.append((StreamMirror(), follower.subscribe())) }
      // A subscriber that left resumes from its position, from the follower's replay buffer.
      if round % 7 == 3, let last = mirrors.indices.last, let position = mirrors[last].0.position {
        mirrors[last].1.cancel()
        if let resumed = follower.resume(after: position) {
          mirrors[last].1 = resumed
        } else {
          mirrors[last].1 = follower.subscribe(after: position)
        }
      }
      for index in mirrors.indices {
        for update in drain(mirrors[index].1) { try mirrors[index].0.apply(update) }
        #expect(mirrors[index].0.sections == board.content)
      }
    }
  }

  @Test func aChangesetOutOfOrderOrThatDoesNotFitIsRefusedAndChangesNothing() throws {
    var random = SeededGenerator(seed: 7)
    let board = RandomBoard()
    let source = board.stream.subscribe()
    let follower = UpdateStream(following: board.stream.snapshot)
    _ = drain(source)
    for _ in 0..<3 { board.randomBatch(using: &random) }
    let updates = drain(source)
    #expect(updates.count == 3)
    // A gap: the second before the first.
    #expect(
      throws: StreamMirrorError.gap(expected: updates[0].sequence, received: updates[1].sequence)
    ) {
      try follower.follow(updates[1])
    }
    try follower.follow(updates[0])
    // A duplicate.
    #expect(
      throws: StreamMirrorError.outOfOrder(
        expected: updates[1].sequence, received: updates[0].sequence)
    ) {
      try follower.follow(updates[0])
    }
    // A changeset that does not fit: the third's changeset numbered as the second.
    guard case .changeset(var misfit) = updates[2] else {
      Issue.record("not a changeset: \(updates[2])")
      return
    }
    misfit.sequence = updates[1].sequence
    misfit.changeset = Changeset(deletedSections: [40])
    #expect(throws: StreamMirrorError.self) { try follower.follow(.changeset(misfit)) }
    #expect(follower.position.sequence == updates[0].sequence)
    // A snapshot of another stream.
    let other = StreamSnapshot<Card>(stream: "other", sequence: 99, sections: [])
    #expect(throws: StreamMirrorError.self) { try follower.follow(.snapshot(other)) }
    try follower.follow(updates[1])
    try follower.follow(updates[2])
    #expect(follower.snapshot.sections == board.content)
  }

  @Test func aSnapshotLaterThanThePositionMovesEverySubscriberToIt() throws {
    let follower = UpdateStream(
      following: StreamSnapshot<Card>(stream: "s", sequence: 10, sections: [[Card(id: 1)]]))
    let subscriber = follower.subscribe()
    #expect(drain(subscriber).map(\.sequence) == [10])
    try follower.follow(
      .snapshot(StreamSnapshot(stream: "s", sequence: 500, sections: [[Card(id: 2)]])))
    let updates = drain(subscriber)
    #expect(
      updates == [.snapshot(StreamSnapshot(stream: "s", sequence: 500, sections: [[Card(id: 2)]]))])
    #expect(follower.resume(after: StreamPosition(stream: "s", sequence: 10)) == nil)
    #expect(follower.resume(after: StreamPosition(stream: "s", sequence: 500)) != nil)
  }

  @Test func subscribingAtThePositionDeliversOnlyWhatComesAfterIt() throws {
    var random = SeededGenerator(seed: 9)
    let board = RandomBoard()
    let source = board.stream.subscribe()
    let follower = UpdateStream(following: board.stream.snapshot)
    _ = drain(source)
    board.randomBatch(using: &random)
    for update in drain(source) { try follower.follow(update) }
    let (position, subscription) = follower.subscribeAtPosition()
    #expect(position == board.stream.position)
    #expect(drain(subscription).isEmpty)
    board.randomBatch(using: &random)
    for update in drain(source) { try follower.follow(update) }
    #expect(drain(subscription).map(\.sequence) == [position.sequence + 1])
    // Too old for the replay buffer of a follower with none.
    let bare = UpdateStream(
      following: board.stream.snapshot, policy: StreamPolicy(replayCapacity: 0))
    #expect(bare.resume(after: StreamPosition(stream: board.stream.id, sequence: 0)) == nil)
    #expect(bare.resume(after: board.stream.position) != nil)
  }
}
