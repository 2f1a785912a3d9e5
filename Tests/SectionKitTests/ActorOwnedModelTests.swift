import Foundation
import SectionKit
import SectionKitTesting
import Testing

// The everyday split: the model — a tree, its coordinator and an adapter — lives on an actor of
// its own; the view lives on the main actor and keeps a mirror of what the model presents. Only
// `Sendable` values cross: changesets, and the new elements they need.

/// What the model's adapter sends to the main actor.
enum ModelUpdate: Sendable {
  /// Everything presented, one array per section (when the adapter is attached).
  case reload([[String]])
  /// One batch: the changeset, the number of elements of each section after it, and the new
  /// element at each index path that a view configures anew (inserts, every element of an
  /// inserted section, and the index paths UIKit reloads).
  case batch(Changeset, newCounts: [Int], newElements: [IndexPath: String])
}

/// An adapter that forwards each reload and changeset, as `Sendable` values, to a stream.
final class StreamingAdapter: ViewAdapter {
  let updates: AsyncStream<ModelUpdate>.Continuation

  init(_ updates: AsyncStream<ModelUpdate>.Continuation) {
    self.updates = updates
  }

  func reloadData(from coordinator: Coordinator) {
    let counts = Self.counts(coordinator)
    updates.yield(
      .reload(
        counts.indices.map { section in
          (0..<counts[section]).map { Self.element(at: [section, $0], coordinator) }
        }))
  }

  func apply(
    _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
  ) {
    updateData()
    let counts = Self.counts(coordinator)
    var paths = changeset.insertedElements
    paths += BatchValidator().reloadDestinations(in: changeset).values
    for section in changeset.insertedSections {
      paths += (0..<counts[section]).map { [section, $0] }
    }
    var newElements: [IndexPath: String] = [:]
    for path in paths { newElements[path] = Self.element(at: path, coordinator) }
    updates.yield(.batch(changeset, newCounts: counts, newElements: newElements))
  }

  private static func counts(_ coordinator: Coordinator) -> [Int] {
    (0..<coordinator.numberOfSections).map { coordinator.numberOfElements(inSection: $0) }
  }

  private static func element(at path: IndexPath, _ coordinator: Coordinator) -> String {
    let (section, index) = coordinator.sectionAndIndex(for: path)
    return describeElement(of: section, at: index) ?? "?"
  }
}

/// A model owned by its actor: the tree, the coordinator and the adapter are created inside it
/// and never leave it.
actor ActorOwnedModel {
  private let fixture: TreeFixture
  private let coordinator: Coordinator
  private let generator = TreeFixture()
  private var rng: SeededGenerator
  private let updates: AsyncStream<ModelUpdate>.Continuation

  init(seed: UInt64, updates: AsyncStream<ModelUpdate>.Continuation) {
    let fixture = TreeFixture()
    let coordinator = Coordinator(sectionProvider: fixture.root)
    coordinator.adapter = StreamingAdapter(updates)
    self.fixture = fixture
    self.coordinator = coordinator
    self.rng = SeededGenerator(seed: seed)
    self.updates = updates
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
  func finish() { updates.finish() }
}

/// The view's side: a mirror of what the model presents, kept on the main actor.
@MainActor final class MainActorMirror {
  private(set) var sections: [[String]] = []
  private(set) var reloads = 0
  private(set) var batches = 0
  private(set) var problems: [String] = []

  func receive(_ update: ModelUpdate) {
    switch update {
    case .reload(let sections):
      reloads += 1
      self.sections = sections
    case .batch(let changeset, let newCounts, let newElements):
      batches += 1
      if let problem = applyToMirror(
        changeset, to: &sections, newCounts: newCounts, newElements: newElements)
      {
        problems.append("batch \(batches): \(problem)")
      }
    }
  }
}

// LOCAL STAND-IN for SectionKit's public changeset applier (being written): switch to it when it
// lands. Applies `changeset` to `mirror` as UIKit shows a batch (BatchValidator's replay); returns
// why it does not fit, leaving `mirror` as it was.
private func applyToMirror(
  _ changeset: Changeset, to mirror: inout [[String]], newCounts: [Int],
  newElements: [IndexPath: String]
) -> String? {
  let validator = BatchValidator()
  let errors = validator.validate(
    oldCounts: mirror.map(\.count), newCounts: newCounts, changeset: changeset
  ).filter(\.isError)
  guard errors.isEmpty else { return "\(changeset) does not fit: \(errors)" }
  mirror = validator.replay(
    old: mirror, changeset: changeset, newValues: { newElements[$0] ?? "missing \($0)" },
    newCounts: newCounts)
  return nil
}

@Suite("A model on its own actor, mirrored on the main actor")
struct ActorOwnedModelTests {
  @Test(arguments: randomizedSeeds(base: 5_000, count: 4))
  @MainActor func randomBatchesReachTheMirror(seed: UInt64) async {
    let (updates, continuation) = AsyncStream.makeStream(of: ModelUpdate.self)
    let model = ActorOwnedModel(seed: seed, updates: continuation)
    let mirror = MainActorMirror()
    let consumer = Task { @MainActor in
      for await update in updates { mirror.receive(update) }
    }

    for _ in 0..<300 { await model.performRandomStep() }
    await model.finish()
    await consumer.value

    #expect(mirror.problems.isEmpty, "seed \(seed)")
    #expect(mirror.reloads == 1, "seed \(seed): the coordinator reloaded")
    #expect(mirror.batches > 50, "seed \(seed): only \(mirror.batches) changesets arrived")
    let presented = await model.presented
    #expect(mirror.sections == presented, "seed \(seed)")
  }
}
