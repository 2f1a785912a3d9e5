import Foundation
import SectionKit
import SectionKitStreaming
import SectionKitTesting
import Testing

// The everyday split: the model — a tree, its coordinator and an adapter — lives on an actor of
// its own; the view lives on the main actor and keeps a mirror of what the model presents. The
// adapter is SectionKitStreaming's `UpdatePublisher`; only its `Sendable` stream crosses, and the
// view follows it with a `StreamMirror` (the library's applier).

/// A model owned by its actor: the tree, the coordinator and the adapter are created inside it
/// and never leave it.
actor ActorOwnedModel {
  private let fixture: TreeFixture
  private let coordinator: Coordinator
  private let generator = TreeFixture()
  private var rng: SeededGenerator
  /// What the model presents, for any domain to follow.
  nonisolated let stream: UpdateStream<String>

  init(seed: UInt64) {
    let fixture = TreeFixture()
    let coordinator = Coordinator(sectionProvider: fixture.root)
    let publisher = UpdatePublisher { section, index in
      describeElement(of: section, at: index) ?? "?"
    }
    coordinator.adapter = publisher
    self.fixture = fixture
    self.coordinator = coordinator
    self.rng = SeededGenerator(seed: seed)
    self.stream = publisher.stream
  }

  /// One random batch (or single mutation) of the randomized pipeline tests.
  func performRandomStep() {
    let step = RandomizedPipelineTests.randomStep(generator, using: &rng)
    if case .batch = step {} else { generator.apply(step) }
    fixture.apply(step, coordinator: coordinator)
  }

  /// What the model presents, one array per section.
  var presented: [[String]] { fixture.reference.flattened.map { $0.items.map(\.description) } }

  /// Ends the stream of updates.
  func finish() { stream.finish() }
}

/// The view's side: a mirror of what the model presents, kept on the main actor.
@MainActor final class MainActorMirror {
  private(set) var mirror = StreamMirror<String>()
  private(set) var snapshots = 0
  private(set) var changesets = 0
  private(set) var problems: [String] = []

  func receive(_ update: StreamUpdate<String>) {
    switch update {
    case .snapshot: snapshots += 1
    case .changeset: changesets += 1
    }
    do {
      try mirror.apply(update)
    } catch {
      problems.append("update \(update.sequence): \(error)")
    }
  }
}

@Suite("A model on its own actor, mirrored on the main actor")
struct ActorOwnedModelTests {
  @Test(arguments: randomizedSeeds(base: 5_000, count: 4))
  @MainActor func randomBatchesReachTheMirror(seed: UInt64) async {
    let model = ActorOwnedModel(seed: seed)
    let mirror = MainActorMirror()
    // The snapshot is taken when the subscriber asks for it: take it before the first batch, so
    // that every batch reaches the mirror as a changeset.
    let updates = model.stream.subscribe().makeAsyncIterator()
    if let snapshot = await updates.next() { mirror.receive(snapshot) }
    let consumer = Task { @MainActor in
      while let update = await updates.next() { mirror.receive(update) }
    }

    for _ in 0..<300 { await model.performRandomStep() }
    await model.finish()
    await consumer.value

    #expect(mirror.problems.isEmpty, "seed \(seed)")
    #expect(mirror.snapshots == 1, "seed \(seed): the coordinator reloaded")
    #expect(mirror.changesets > 50, "seed \(seed): only \(mirror.changesets) changesets arrived")
    let presented = await model.presented
    #expect(mirror.mirror.sections == presented, "seed \(seed)")
  }
}
