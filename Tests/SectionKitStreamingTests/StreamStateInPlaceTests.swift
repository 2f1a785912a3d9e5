import Dispatch
import Foundation
import SectionKit
import SectionKitStreaming
import SectionKitTesting
import Testing

/// The stream holds the only copy of the state and applies each changeset to it in place: what
/// a snapshot taken before a batch shows must not change (copy on write), whoever holds it and
/// on whatever thread.
struct StreamStateInPlaceTests {
  @Test func aSnapshotTakenBeforeABatchStillShowsTheStateItWasTakenOf() throws {
    let list: ArraySection<String> = ["a", "b", "c"]
    let root = ComposedSectionProvider()
    root.append(list)
    let publisher = UpdatePublisher { section, index in (section as! ArraySection<String>)[index] }
    let coordinator = Coordinator(sectionProvider: root)
    coordinator.adapter = publisher
    let stream = publisher.stream
    let taken = stream.snapshot
    let delivered = stream.subscribe().poll()
    var mirror = StreamMirror<String>()
    try mirror.apply(#require(delivered))
    list.insert("x", at: 0)
    list[2] = "B"
    list.remove(at: 3)
    #expect(taken.sections == [["a", "b", "c"]])
    #expect(delivered == .snapshot(taken))
    #expect(mirror.sections == [["a", "b", "c"]])
    #expect(stream.snapshot.sections == [["x", "a", "B"]])
    // The mirror made from the old snapshot follows on its own storage.
    for update in drain(stream.subscribe(after: mirror.position!)) { try mirror.apply(update) }
    #expect(mirror.sections == [["x", "a", "B"]])
    #expect(taken.sections == [["a", "b", "c"]])
  }

  @Test func aStreamFedByHandAppliesTheValuesGivenToItsState() {
    let stream = UpdateStream<String>()
    stream.publishSnapshot([["a", "b"]], labels: [StreamSectionLabel(id: "s")])
    let before = stream.snapshot
    stream.publish(
      Changeset(insertedSections: [1], insertedElements: [[0, 0]], reloadedElements: [[0, 1]]),
      sections: [1: ["c"]], elements: [[0, 0]: "x", [0, 2]: "B"],
      labels: [1: StreamSectionLabel(id: "t")])
    #expect(stream.snapshot.sections == [["x", "a", "B"], ["c"]])
    #expect(stream.snapshot.labels == [StreamSectionLabel(id: "s"), StreamSectionLabel(id: "t")])
    #expect(stream.position.sequence == before.sequence + 1)
    #expect(before.sections == [["a", "b"]])
  }

  @Test func publishingInPlaceWhatDoesNotFitTrapsNamingTheField() async {
    let outOfRange = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let stream = UpdateStream<String>()
      stream.publishSnapshot([["a", "b"]])
      stream.publish(Changeset(deletedElements: [[0, 5]]))
    }
    let text = String(decoding: outOfRange?.standardErrorContent ?? [], as: UTF8.self)
    #expect(text.contains("does not fit the state of the last update"), "\(text)")
    #expect(text.contains("[0, 5]"), "\(text)")
    let missing = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let stream = UpdateStream<String>()
      stream.publishSnapshot([["a", "b"]])
      stream.publish(Changeset(insertedElements: [[0, 0]]))
    }
    let missingText = String(decoding: missing?.standardErrorContent ?? [], as: UTF8.self)
    #expect(missingText.contains("the value of the new element is missing"), "\(missingText)")
  }

  @Test func aFollowerAppliesInPlaceAndKeepsItsSnapshots() throws {
    let board = RandomBoard(sections: 2, cards: 3)
    let follower = UpdateStream(following: board.stream.snapshot)
    let subscription = board.stream.subscribe(after: board.stream.position)
    var random = SeededGenerator(seed: 3)
    for _ in 0..<30 {
      let before = follower.snapshot
      let content = before.sections
      board.randomBatch(using: &random)
      for update in drain(subscription) { try follower.follow(update) }
      #expect(before.sections == content)
      #expect(follower.snapshot.sections == board.content)
      #expect(follower.position == board.stream.position)
    }
    // One that does not fit leaves the follower as it was.
    let position = follower.position
    let misfit = StreamChangeset<Card>(
      sequence: position.sequence + 1, changeset: Changeset(deletedElements: [[0, 99]]))
    #expect(throws: StreamMirrorError.self) { try follower.follow(.changeset(misfit)) }
    #expect(follower.position == position)
    #expect(follower.snapshot.sections == board.content)
  }

  /// Random batches (sections inserted, removed, moved and reloaded; elements inserted, removed,
  /// moved, updated, reconfigured) published through the strict `TestAdapter`, with snapshots
  /// taken and kept, subscribers joining and resuming: after every step the stream's state, every
  /// mirror and every snapshot kept are what the model showed when they were taken.
  @Test(arguments: streamSeeds(base: 0x9B5C_0001, count: 16))
  func publishingWithSnapshotsAndSubscribersMatchesTheModel(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let board = RandomBoard(
      sections: Int.random(in: 1...4, using: &random), cards: Int.random(in: 0...5, using: &random),
      labelled: seed % 3 == 0)
    // Reloads beside moves are the model's own batches (an update and a move): a strict warning
    // about UIKit's cells, tolerated as the core's randomized tests do.
    let validator = TestAdapter(strict: true, tolerating: [.reloadCombinedWithMoves])
    validator.keepsChangesets = seed % 2 == 0  // adapters that keep changesets and that do not
    let digests: StreamDigestPolicy = [.never, .everyUpdate, .every(3)][Int(seed % 3)]
    let names = board.names
    let publisher = UpdatePublisher<Card>(
      policy: StreamPolicy(replayCapacity: 5, subscriberCapacity: 4), digests: digests,
      identity: Card.identity, forwardingTo: validator,
      label: names.map { names in { section, _ in names.labels[ObjectIdentifier(section)] } }
    ) { section, index in
      (section as! ArraySection<Card>)[index]
    }
    board.coordinator.adapter = publisher
    let stream = publisher.stream
    var kept: [(snapshot: StreamSnapshot<Card>, content: [[Card]])] = []
    var followers: [(mirror: StreamMirror<Card>, subscription: StreamSubscription<Card>)] = []
    for step in 0..<80 {
      switch Int.random(in: 0..<12, using: &random) {
      case 0:
        kept.append((stream.snapshot, board.content))
      case 1 where !kept.isEmpty:
        kept.remove(at: Int.random(in: 0..<kept.count, using: &random))
      case 2 where followers.count < 4:
        followers.append((StreamMirror(identity: Card.identity), stream.subscribe()))
      case 3 where !followers.isEmpty:
        // A follower that leaves and comes back from its position: a replay or a snapshot.
        let index = Int.random(in: 0..<followers.count, using: &random)
        if let position = followers[index].mirror.position {
          followers[index].subscription = stream.subscribe(after: position)
        }
      case 4:
        // A section reloaded as a whole, in a batch with other changes.
        board.root.performBatchUpdates {
          board.randomStep(using: &random)
          board.root.reloadChild(
            at: Int.random(in: 0..<board.root.children.count, using: &random))
        }
      default:
        board.randomBatch(maximum: 8, using: &random)
      }
      // A follower that did not read for a while overflows and gets a snapshot.
      for index in followers.indices where Int.random(in: 0..<3, using: &random) > 0 {
        for update in drain(followers[index].subscription) {
          try followers[index].mirror.apply(update)
        }
        #expect(followers[index].mirror.sections == board.content, "seed \(seed), step \(step)")
        #expect(followers[index].mirror.labels == board.labels, "seed \(seed), step \(step)")
      }
      #expect(stream.snapshot.sections == board.content, "seed \(seed), step \(step)")
      #expect(stream.snapshot.labels == board.labels, "seed \(seed), step \(step)")
      for (snapshot, content) in kept {
        #expect(snapshot.sections == content, "seed \(seed), step \(step)")
      }
      #expect(validator.failures.isEmpty, "seed \(seed), step \(step)")
    }
    #expect(validator.mirrorValues == board.content.map { $0.map(\.description) })
  }

  /// Snapshots taken on other threads while the model publishes: each is the state of its
  /// sequence number, read at once and again once publishing is over (the thread sanitizer
  /// watches the stream editing its state in place meanwhile).
  @Test func snapshotsTakenOnOtherThreadsWhilePublishingAreTheStatesOfTheirSequence() throws {
    let board = RandomBoard(sections: 3, cards: 30)
    let stream = board.stream
    let done = Flag()
    let readers = 2
    let started = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    let taken = Collected()
    for _ in 0..<readers {
      // Threads of their own: the tests running beside this one may keep Dispatch's busy.
      Thread {
        var snapshots: [StreamSnapshot<Card>] = []
        var ids = 0
        while !done.isSet {
          let snapshot = stream.snapshot
          // Read every element now, while the publisher edits the stream's state.
          ids &+= snapshot.sections.joined().reduce(0) { $0 &+ $1.id }
          snapshots.append(snapshot)
          if snapshots.count == 1 { started.signal() }
          if snapshots.count > 64 { snapshots.removeFirst(32) }
          if snapshots.count % 8 == 0 { taken.add(snapshots.suffix(4)) }
        }
        taken.add(snapshots)
        precondition(ids != 42)  // the reads are not optimized away
        finished.signal()
      }.start()
    }
    for _ in 0..<readers { started.wait() }
    var states = [stream.position.sequence: board.content]
    var random = SeededGenerator(seed: 0x7A5_0001)
    for _ in 0..<300 {
      board.randomBatch(maximum: 8, using: &random)
      states[stream.position.sequence] = board.content
    }
    done.set()
    for _ in 0..<readers { finished.wait() }
    let snapshots = taken.all
    #expect(!snapshots.isEmpty)
    for snapshot in snapshots {
      #expect(snapshot.sections == states[snapshot.sequence], "sequence \(snapshot.sequence)")
    }
  }
}

/// A flag set once, read from other threads.
private final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}

/// Snapshots gathered from other threads.
private final class Collected: @unchecked Sendable {
  private let lock = NSLock()
  private var snapshots: [StreamSnapshot<Card>] = []
  func add(_ more: some Sequence<StreamSnapshot<Card>>) { lock.withLock { snapshots += more } }
  var all: [StreamSnapshot<Card>] { lock.withLock { snapshots } }
}
