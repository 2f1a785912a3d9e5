import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

private final class MovablePickable: ArraySection<String>, SelectionHandler {}

/// Counts what a custom delegate of a built-in provider receives.
private final class InvalidationCounter: SectionProviderUpdateDelegate {
  var invalidations = 0
  func willBeginUpdating(_ provider: any SectionProvider) {}
  func didEndUpdating(_ provider: any SectionProvider) {}
  func invalidateAll(_ provider: any SectionProvider) { invalidations += 1 }
  func provider(
    _ provider: any SectionProvider, didInsertSections sections: [any Section], at indexes: IndexSet
  ) {}
  func provider(
    _ provider: any SectionProvider, didRemoveSections sections: [any Section], at indexes: IndexSet
  ) {}
  func provider(
    _ provider: any SectionProvider, section: any Section, at sectionIndex: Int,
    didChange change: ElementChange
  ) {}
}

@Suite("Section moves and section reloads through the pipe")
struct SectionMoveTests {
  /// A root of `count` one-element sections `s0`, `s1`, … with a coordinator and a strict adapter.
  private static func fixture(_ count: Int) -> (
    ComposedSectionProvider, [ArraySection<String>], Coordinator, TestAdapter
  ) {
    let root = ComposedSectionProvider()
    let sections = (0..<count).map { ArraySection<String>(["s\($0)"]) }
    for section in sections { root.append(section) }
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = TestAdapter(strict: true)
    coordinator.adapter = adapter
    return (root, sections, coordinator, adapter)
  }

  @Test func aSectionThatOnlyMovedIsOneSectionMove() {
    let (root, _, coordinator, adapter) = Self.fixture(3)
    root.moveChild(at: 0, to: 2)
    #expect(adapter.lastChangeset == Changeset(movedSections: [.init(from: 0, to: 2)]))
    #expect(adapter.mirrorValues == [["s1"], ["s2"], ["s0"]])
    root.moveChild(at: 2, to: 0)
    #expect(adapter.lastChangeset == Changeset(movedSections: [.init(from: 2, to: 0)]))
    #expect(adapter.mirrorValues == [["s0"], ["s1"], ["s2"]])
    withExtendedLifetime(coordinator) {}
  }

  @Test func aMoveAndItsInverseInOneBatchAreNothing() {
    let (root, _, coordinator, adapter) = Self.fixture(3)
    coordinator.performBatchUpdates {
      root.moveChild(at: 0, to: 2)
      root.moveChild(at: 2, to: 0)
    }
    #expect(adapter.changesets.isEmpty)
  }

  @Test func movingAProviderMovesItsSectionsAsOneBlock() {
    let root = ComposedSectionProvider()
    let group = ComposedSectionProvider()
    for name in ["a", "b", "c"] { group.append(ArraySection<String>([name])) }
    root.append(group)
    root.append(ArraySection<String>(["d"]))
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = TestAdapter(strict: true)
    coordinator.adapter = adapter
    root.moveChild(at: 0, to: 1)
    // Three sections kept their order: only `d` moved.
    #expect(adapter.lastChangeset == Changeset(movedSections: [.init(from: 3, to: 0)]))
    #expect(adapter.mirrorValues == [["d"], ["a"], ["b"], ["c"]])
  }

  @Test func theMappingSendsOneStepPerMovedSection() {
    let root = ComposedSectionProvider()
    let group = ComposedSectionProvider()
    for name in ["a", "b"] { group.append(ArraySection<String>([name])) }
    root.append(ArraySection<String>(["x"]))
    root.append(group)
    root.append(ArraySection<String>(["y", "z"]))
    let mapping = SectionProviderMapping(sectionProvider: root)
    let recorder = MappingRecorder(mapping)
    root.moveChild(at: 1, to: 0)
    #expect(
      recorder.take() == [
        .willBeginUpdating, .moveSection(from: 1, to: 0), .moveSection(from: 2, to: 1),
        .didEndUpdating,
      ])
    root.moveChild(at: 0, to: 2)
    #expect(
      recorder.take() == [
        .willBeginUpdating, .moveSection(from: 0, to: 3), .moveSection(from: 0, to: 3),
        .didEndUpdating,
      ])
    #expect(recorder.counts == [1, 2, 1, 1])
    #expect(recorder.sections == mapping.sections.map { ObjectIdentifier($0) })
    #expect(mapping.sections.map(\.numberOfElements) == [1, 2, 1, 1])
    root.reloadChild(at: 2)
    #expect(recorder.take() == [.willBeginUpdating, .reloadSections([2, 3]), .didEndUpdating])
    #expect(
      SectionProviderMapping.Event.moveSection(from: 1, to: 0).description == "moveSection(1 → 0)")
  }

  @Test func aMovedSectionWhoseElementsChangedIsDeletedAndInserted() {
    let (root, sections, coordinator, adapter) = Self.fixture(3)
    coordinator.performBatchUpdates {
      root.moveChild(at: 0, to: 2)
      sections[0].append("x")
    }
    // No element change may touch a section that moves (rule B11).
    #expect(adapter.lastChangeset == Changeset(deletedSections: [0], insertedSections: [2]))
    #expect(adapter.mirrorValues == [["s1"], ["s2"], ["s0", "x"]])
  }

  @Test func elementChangesBesideASectionMoveStayElementChanges() {
    let (root, sections, coordinator, adapter) = Self.fixture(3)
    coordinator.performBatchUpdates {
      root.moveChild(at: 0, to: 2)
      sections[1].append("x")
    }
    #expect(
      adapter.lastChangeset
        == Changeset(movedSections: [.init(from: 0, to: 2)], insertedElements: [[0, 1]]))
    #expect(adapter.mirrorValues == [["s1", "x"], ["s2"], ["s0"]])
  }

  @Test func anElementReloadThatUIKitWouldPutInAnotherSectionIsDeletedAndInserted() {
    let (root, sections, coordinator, adapter) = Self.fixture(3)
    coordinator.performBatchUpdates {
      root.moveChild(at: 0, to: 2)
      sections[1][0] = "s1'"
    }
    // B3 ignores the move and would land the reload in section 1: a delete and an insert.
    #expect(
      adapter.lastChangeset
        == Changeset(
          movedSections: [.init(from: 0, to: 2)], deletedElements: [[1, 0]],
          insertedElements: [[0, 0]]))
    #expect(adapter.mirrorValues == [["s1'"], ["s2"], ["s0"]])
  }

  @Test func aReloadedSectionIsOneSectionReload() {
    let (root, sections, coordinator, adapter) = Self.fixture(3)
    coordinator.performBatchUpdates {
      sections[1].append("x")
      root.reloadChild(at: 1)
    }
    #expect(adapter.lastChangeset == Changeset(reloadedSections: [1]))
    #expect(adapter.mirrorValues == [["s0"], ["s1", "x"], ["s2"]])
    root.reloadChild(at: 2)
    #expect(adapter.lastChangeset == Changeset(reloadedSections: [2]))
  }

  @Test func aReloadBesideASectionMoveIsADeleteAndAnInsert() {
    let (root, _, coordinator, adapter) = Self.fixture(3)
    coordinator.performBatchUpdates {
      root.moveChild(at: 0, to: 2)
      root.reloadChild(at: 0)
    }
    // B3 ignores moves (and the validator warns about a reload beside a section move).
    #expect(
      adapter.lastChangeset
        == Changeset(
          deletedSections: [1], insertedSections: [0], movedSections: [.init(from: 0, to: 2)]))
    #expect(adapter.mirrorValues == [["s1"], ["s2"], ["s0"]])
  }

  @Test func theSelectionFollowsAMovedSection() {
    let root = ComposedSectionProvider()
    let first = MovablePickable(["a", "b"])
    let second = MovablePickable(["c"])
    root.append(first)
    root.append(second)
    let coordinator = Coordinator(sectionProvider: root)
    coordinator.adapter = TestAdapter(strict: true)
    #expect(coordinator.selectElement(at: [0, 1]))
    coordinator.performBatchUpdates {
      root.moveChild(at: 0, to: 1)
      second.append("d")
    }
    #expect(coordinator.selectedIndexPaths == [[1, 1]])
    root.reloadChild(at: 1)
    #expect(coordinator.selectedIndexPaths == [])
  }

  @Test func aCustomDelegateWithoutTheNewMethodsGetsAnInvalidation() {
    let provider = ComposedSectionProvider()
    provider.append(ArraySection<String>(["a"]))
    provider.append(ArraySection<String>(["b"]))
    let counter = InvalidationCounter()
    provider.updateDelegate = counter
    provider.moveChild(at: 0, to: 1)
    provider.reloadChild(at: 0)
    #expect(counter.invalidations == 2)
  }

  @Test func outOfRangeChildIndexesTrapNamingTheRange() async {
    await #expect(processExitsWith: .failure) {
      let provider = ComposedSectionProvider()
      provider.append(ArraySection<String>(["a"]))
      provider.moveChild(at: 1, to: 0)
    }
    await #expect(processExitsWith: .failure) {
      let provider = ComposedSectionProvider()
      provider.append(ArraySection<String>(["a"]))
      provider.moveChild(at: 0, to: -1)
    }
    await #expect(processExitsWith: .failure) {
      let provider = ComposedSectionProvider()
      provider.reloadChild(at: 0)
    }
  }

  /// Seeds per randomized test: `SECTIONKIT_FUZZ_ITERATIONS=<n>` runs longer.
  static let seedCount =
    ProcessInfo.processInfo.environment["SECTIONKIT_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 20

  /// The length of a longest increasing subsequence, the O(n²) way.
  static func referenceLIS(_ values: [Int]) -> Int {
    var best = [Int](repeating: 1, count: values.count)
    for i in values.indices {
      for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
    }
    return best.max() ?? 0
  }

  /// Random reorders of the sections alone, in one batch of random child moves: the changeset is
  /// section moves only, as few as a reference longest increasing subsequence allows.
  @Test func sectionReordersAreMinimalSectionMoves() {
    for seed in randomizedSeeds(base: 12_000, count: Self.seedCount * 10) {
      var rng = SeededGenerator(seed: seed)
      let count = Int.random(in: 1...9, using: &rng)
      let (root, sections, coordinator, adapter) = Self.fixture(count)
      coordinator.performBatchUpdates {
        for _ in 0..<Int.random(in: 1...6, using: &rng) {
          root.moveChild(
            at: Int.random(in: 0..<count, using: &rng), to: Int.random(in: 0..<count, using: &rng))
        }
      }
      let order = root.sections.map { section in sections.firstIndex { $0 === section }! }
      let expected = order.map { [sections[$0][0]] }
      let moves = count - Self.referenceLIS(order)
      let changeset = adapter.lastChangeset ?? Changeset()
      if moves == 0 {
        #expect(adapter.changesets.isEmpty, "seed \(seed)")
      } else {
        #expect(changeset.movedSections.count == moves, "seed \(seed): \(order), \(changeset)")
        #expect(
          changeset == Changeset(movedSections: changeset.movedSections),
          "seed \(seed): \(changeset)")
      }
      #expect(adapter.mirrorValues == expected, "seed \(seed)")
    }
  }

  /// Random trees and random batches that mix child moves and reloads with element edits and
  /// structural changes, against the reference model: every changeset valid under the strict
  /// `TestAdapter` and replayed equal to the model. `SECTIONKIT_SEED=<n>` replays one seed;
  /// `SECTIONKIT_FUZZ_ITERATIONS=<n>` runs n seeds (default 20).
  /// Through an adapter that keeps every changeset and one that lets each go.
  @Test(arguments: [true, false])
  func randomBatchesWithSectionMovesAndReloads(keepsChangesets: Bool) {
    var moves = 0
    for seed in randomizedSeeds(base: 11_000, count: Self.seedCount) {
      let steps = RandomizedPipelineTests.randomSteps(seed: seed, count: 200, movesChildren: true)
      moves += steps.map(\.description).filter { $0.contains("moveChild") }.count
      if let failure = RandomizedPipelineTests.failure(of: steps, keepsChangesets: keepsChangesets)
      {
        let minimal = shrink(steps) {
          RandomizedPipelineTests.failure(of: $0, keepsChangesets: keepsChangesets)
        }
        recordRandomizedFailure(seed: seed, failure: failure, steps: steps, minimal: minimal)
        return
      }
    }
    #expect(moves > 50 || ProcessInfo.processInfo.environment["SECTIONKIT_SEED"] != nil)
  }
}
