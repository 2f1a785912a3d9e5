import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

@Suite("Randomized: every changeset is valid under UIKit's rules and replays to the new state")
struct RandomizedPipelineTests {
  /// Replays `steps` (each a batch or a single mutation) through a coordinator and a strict
  /// `TestAdapter`; returns the first problem. `keepsChangesets`: whether the adapter keeps each
  /// changeset (a client mirror then follows them through the public applier too), or lets it go,
  /// as a UIKit adapter does, so that the coordinator reuses its storage.
  static func failure(of steps: [TreeOperation], keepsChangesets: Bool = true) -> String? {
    let fixture = TreeFixture()
    let coordinator = Coordinator(sectionProvider: fixture.root)
    var failures: [TestAdapterFailure] = []
    // Strict, except for one warning: the coordinator keeps a reload in a batch with moves when
    // UIKit's own arithmetic (which ignores moves) lands it on its true new path — the replay
    // below proves it does.
    let adapter = TestAdapter.toleratingReloadsWithMoves { failures.append($0) }
    adapter.keepsChangesets = keepsChangesets
    coordinator.adapter = adapter
    // A client's mirror, following the changesets through the public applier.
    var mirror = adapter.mirrorValues
    for (number, step) in steps.enumerated() {
      let before = adapter.applyCount
      let shown = adapter.mirrorValues
      fixture.updatedItems = []
      fixture.reconfiguredItems = []
      fixture.apply(step, coordinator: coordinator)
      if let failure = failures.first {
        return "step \(number + 1): \(failure)"
      }
      if adapter.applyCount > before, let changeset = adapter.lastChangeset,
        let problem = Self.reconfigureProblem(changeset, shown: shown, fixture: fixture)
      {
        return "step \(number + 1): \(problem) in \(changeset)"
      }
      if keepsChangesets, adapter.applyCount > before, let changeset = adapter.lastChangeset {
        let model = fixture.reference.flattened.map { $0.items.map(\.description) }
        do {
          try changeset.apply(
            to: &mirror, insertedSection: { model[$0] }, newElement: { model[$0[0]][$0[1]] })
        } catch {
          return "step \(number + 1): Changeset.apply(to:) rejected \(changeset): \(error)"
        }
        if mirror != model {
          return "step \(number + 1): Changeset.apply(to:) gives \(mirror), the model is \(model)"
        }
      }
      if adapter.applyCount > before + 1 {
        return
          "step \(number + 1): one batch delivered \(adapter.applyCount - before) changesets"
      }
      if adapter.reloadCount != 1 {
        return "step \(number + 1): the coordinator reloaded instead of sending a changeset"
      }
      let expected = fixture.reference.flattened.map { $0.items.map(\.description) }
      if adapter.mirrorValues != expected {
        return
          "step \(number + 1): the view shows \(adapter.mirrorValues), the reference holds \(expected)"
      }
      if keepsChangesets, let changeset = adapter.lastChangeset, adapter.applyCount > before,
        changeset.isEmpty
      {
        return "step \(number + 1): an empty changeset was delivered"
      }
    }
    return nil
  }

  /// Where `changeset` tells a reload from a reconfigure wrongly: each of its reconfigures must
  /// name an item only reconfigured in the batch, and none of its reloads such an item (an update
  /// wins over a reconfigure). `shown` is what the view showed before the batch (`"id@version"`).
  static func reconfigureProblem(_ changeset: Changeset, shown: [[String]], fixture: TreeFixture)
    -> String?
  {
    let only = fixture.reconfiguredItems.subtracting(fixture.updatedItems)
    func item(_ path: IndexPath) -> Int? {
      shown[path[0]][path[1]].split(separator: "@").first.flatMap { Int($0) }
    }
    for path in changeset.reconfiguredElements where !only.contains(item(path) ?? -1) {
      return "\(format(path)) (\(shown[path[0]][path[1]])) is a reconfigure, not only reconfigured"
    }
    for path in changeset.reloadedElements where only.contains(item(path) ?? -1) {
      return "\(format(path)) (\(shown[path[0]][path[1]])) was only reconfigured, but is a reload"
    }
    return nil
  }

  /// A random batch: one to six mutations, sometimes nested, on the coordinator or the root; or a
  /// single mutation outside any batch.
  static func randomStep<R: RandomNumberGenerator>(
    _ fixture: TreeFixture, using rng: inout R
  ) -> TreeOperation {
    if Int.random(in: 0..<4, using: &rng) == 0 { return fixture.randomOperation(using: &rng) }
    var inner: [TreeOperation] = []
    for _ in 0..<Int.random(in: 1...6, using: &rng) {
      let operation =
        Int.random(in: 0..<8, using: &rng) == 0
        ? .batch(on: 0, depth: 1, [fixture.randomOperation(using: &rng)])
        : fixture.randomOperation(using: &rng)
      // Apply while generating, so that later operations see the state earlier ones made.
      fixture.apply(operation)
      inner.append(operation)
    }
    // The coordinator or the root: a batch on anything lower would not group the other subtrees.
    let target: Int? = Bool.random(using: &rng) ? nil : 0
    return .batch(on: target, depth: Int.random(in: 1...3, using: &rng), inner)
  }

  /// Six children of the root, then `count` random steps of ``randomStep(_:using:)``;
  /// `movesChildren` also moves and reloads children.
  static func randomSteps(seed: UInt64, count: Int, movesChildren: Bool = false) -> [TreeOperation]
  {
    var rng = SeededGenerator(seed: seed)
    let generator = TreeFixture()
    generator.movesChildren = movesChildren
    var steps: [TreeOperation] = []
    for _ in 0..<6 {
      let step = TreeOperation.insertChild(
        parent: 0, at: generator.reference.children.count,
        child: generator.makeNode(depth: 1, using: &rng))
      generator.apply(step)
      steps.append(step)
    }
    for _ in 0..<count {
      let step = Self.randomStep(generator, using: &rng)
      if case .batch = step {} else { generator.apply(step) }
      steps.append(step)
    }
    return steps
  }

  /// Through an adapter that keeps every changeset and one that lets each go.
  @Test(arguments: [true, false])
  func randomBatches(keepsChangesets: Bool) {
    var batches = 0
    for seed in randomizedSeeds(base: 1_000, count: 60) {
      let steps = Self.randomSteps(seed: seed, count: 400)
      batches += steps.count
      if let failure = Self.failure(of: steps, keepsChangesets: keepsChangesets) {
        let minimal = shrink(steps) { Self.failure(of: $0, keepsChangesets: keepsChangesets) }
        recordRandomizedFailure(seed: seed, failure: failure, steps: steps, minimal: minimal)
        return
      }
    }
    #expect(batches >= 24_000 || ProcessInfo.processInfo.environment["SECTIONKIT_SEED"] != nil)
  }
}
