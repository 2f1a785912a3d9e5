import Foundation
import SectionKit
import SectionKitTesting
import Testing

extension Item: Identifiable {}

/// `ArraySection.replaceElements(with:)`: diffing by identity, through the coordinator and the
/// strict `TestAdapter` (every changeset valid under UIKit's rules, and its replay equal to the new
/// contents).
///
/// Reproduce a random failure with `SECTIONKIT_SEED=<seed> swift test --filter
/// ArraySectionDiffTests`; run longer with `SECTIONKIT_FUZZ_ITERATIONS=<n>` (default 300).
@Suite struct ArraySectionDiffTests {
  static let iterations =
    ProcessInfo.processInfo.environment["SECTIONKIT_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 300

  /// One section (between two others) under a coordinator with a strict test adapter.
  final class Fixture {
    let section: ArraySection<Item>
    let root = ComposedSectionProvider()
    let coordinator: Coordinator
    var failures: [TestAdapterFailure] = []
    var view: TestAdapter!

    init(_ elements: [Item]) {
      section = ArraySection(elements)
      root.append(ArraySection<Item>([Item(id: -1)]))
      root.append(section)
      root.append(ArraySection<Item>([Item(id: -2)]))
      coordinator = Coordinator(sectionProvider: root)
      view = TestAdapter.toleratingReloadsWithMoves { [unowned self] in failures.append($0) }
      coordinator.adapter = view
    }

    /// Replaces the contents, and checks one valid changeset (none when nothing changed) whose
    /// replay shows `new`; returns the changeset.
    @discardableResult
    func replace(with new: [Item], sourceLocation: SourceLocation = #_sourceLocation) throws
      -> Changeset?
    {
      let before = view.changesets.count
      try section.replaceElements(with: new)
      #expect(
        failures.isEmpty, "\(failures.map(\.kinds)) \(failures.map(\.violations).prefix(3))",
        sourceLocation: sourceLocation)
      #expect(section.elements == new, sourceLocation: sourceLocation)
      #expect(
        view.mirrorValues == [["-1@0"], new.map(\.description), ["-2@0"]],
        sourceLocation: sourceLocation)
      #expect(view.changesets.count - before <= 1, sourceLocation: sourceLocation)
      return view.changesets.count > before ? view.changesets.last : nil
    }
  }

  static func items(_ ids: some Sequence<Int>, version: Int = 0) -> [Item] {
    ids.map { Item(id: $0, version: version) }
  }

  /// The number of changes in a changeset (a move counts one; a section change one).
  static func size(_ changeset: Changeset?) -> Int {
    guard let changeset else { return 0 }
    return changeset.deletedElements.count + changeset.insertedElements.count
      + changeset.reloadedElements.count + changeset.movedElements.count
  }

  // MARK: Worst cases

  @Test func reverse_movesAllButOne() throws {
    let fixture = Fixture(Self.items(0..<10))
    let changeset = try fixture.replace(with: Self.items((0..<10).reversed()))
    #expect(changeset?.movedElements.count == 9)
    #expect(Self.size(changeset) == 9)
  }

  @Test func rotateByOne_isOneMove_inEitherDirection() throws {
    let fixture = Fixture(Self.items(0..<8))
    #expect(Self.size(try fixture.replace(with: Self.items(Array(1..<8) + [0]))) == 1)
    #expect(Self.size(try fixture.replace(with: Self.items(0..<8))) == 1)
  }

  @Test func firstToLast_isOneMove() throws {
    let fixture = Fixture(Self.items(0..<5))
    let changeset = try fixture.replace(with: Self.items([1, 2, 3, 4, 0]))
    #expect(
      changeset?.movedElements == [
        .init(from: IndexPath(item: 0, section: 1), to: IndexPath(item: 4, section: 1))
      ])
    #expect(Self.size(changeset) == 1)
  }

  @Test func allNew_deletesAndInsertsEverything() throws {
    let fixture = Fixture(Self.items(0..<4))
    let changeset = try fixture.replace(with: Self.items(10..<13))
    #expect(changeset?.deletedElements.count == 4)
    #expect(changeset?.insertedElements.count == 3)
    #expect(Self.size(changeset) == 7)
  }

  @Test func allSame_emitsNothing() throws {
    let fixture = Fixture(Self.items(0..<4))
    #expect(try fixture.replace(with: Self.items(0..<4)) == nil)
    #expect(fixture.view.changesets.isEmpty)
  }

  @Test func fromEmpty_andToEmpty() throws {
    let fixture = Fixture([])
    #expect(Self.size(try fixture.replace(with: Self.items(0..<3))) == 3)
    #expect(Self.size(try fixture.replace(with: [])) == 3)
  }

  @Test func contentChange_isAReload_andAMovedChangedElement_isDeletePlusInsert() throws {
    let fixture = Fixture(Self.items(0..<4))
    var new = Self.items(0..<4)
    new[1].version = 1
    let reload = try fixture.replace(with: new)
    #expect(reload?.reloadedElements == [IndexPath(item: 1, section: 1)])
    #expect(Self.size(reload) == 1)
    // 3 moves to the front and changes: a moved cell keeps its old content.
    var moved = new
    moved.insert(Item(id: 3, version: 1), at: 0)
    moved.removeLast()
    let changeset = try fixture.replace(with: moved)
    #expect(changeset?.deletedElements == [IndexPath(item: 3, section: 1)])
    #expect(changeset?.insertedElements == [IndexPath(item: 0, section: 1)])
    #expect(Self.size(changeset) == 2)
  }

  @Test func hundredThousandElements_rotateAndChurn() throws {
    let count = 100_000
    let fixture = Fixture(Self.items(0..<count))
    let rotated = Self.items(Array(1..<count) + [0])
    #expect(Self.size(try fixture.replace(with: rotated)) == 1)
    var random = SeededGenerator(seed: 11)
    let (new, edits) = Self.churn(rotated, percent: 5, nextID: count, using: &random)
    let changeset = try fixture.replace(with: new)
    #expect(Double(Self.size(changeset)) <= 1.25 * Double(edits))
  }

  @Test func hashableElements_areDiffedByValue() throws {
    let section: ArraySection<String> = ["a", "b", "c"]
    let root = ComposedSectionProvider()
    root.append(section)
    let coordinator = Coordinator(sectionProvider: root)
    let view = TestAdapter(strict: true)
    coordinator.adapter = view
    try section.replaceElements(with: ["c", "a", "d"])
    #expect(view.mirrorValues == [["c", "a", "d"]])
    #expect(view.failures.isEmpty)
    // a or c stays (a tie): one move, one delete, one insert.
    #expect(view.lastChangeset?.movedElements.count == 1)
    #expect(view.lastChangeset?.deletedElements == [IndexPath(item: 1, section: 0)])
    #expect(view.lastChangeset?.insertedElements == [IndexPath(item: 2, section: 0)])
  }

  @Test func diffAndMutationsInOneBatch_areOneChangeset() throws {
    let fixture = Fixture(Self.items(0..<4))
    try fixture.section.performBatchUpdates {
      try fixture.section.replaceElements(with: Self.items([3, 0, 1]))
      fixture.section.append(Item(id: 9))
    }
    #expect(fixture.failures.isEmpty)
    #expect(fixture.view.changesets.count == 1)
    #expect(fixture.view.mirrorValues[1] == ["3@0", "0@0", "1@0", "9@0"])
  }

  // MARK: Duplicate identities

  @Test func duplicateInNewContents_throwsNamingIdAndPositions_andLeavesTheSection() {
    let fixture = Fixture(Self.items(0..<3))
    let bad = Self.items([0, 7, 1, 7, 2])
    #expect(
      throws: DuplicateIdentityError(id: "7", contents: .new, positions: [1, 3])
    ) {
      try fixture.section.replaceElements(with: bad)
    }
    #expect(fixture.section.elements == Self.items(0..<3))
    #expect(fixture.view.changesets.isEmpty)
    #expect(
      "\(DuplicateIdentityError(id: "7", contents: .new, positions: [1, 3]))"
        == "duplicate identity 7 in the new elements, at positions 1 and 3")
  }

  @Test func duplicateOfASurvivorInNewContents_throws() {
    let fixture = Fixture(Self.items(0..<3))
    #expect(throws: DuplicateIdentityError(id: "2", contents: .new, positions: [0, 2])) {
      try fixture.section.replaceElements(with: Self.items([2, 1, 2]))
    }
    #expect(fixture.section.elements == Self.items(0..<3))
  }

  @Test func duplicateInOldContents_throws_andLeavesTheSection() {
    let fixture = Fixture(Self.items([4, 5, 4]))
    #expect(throws: DuplicateIdentityError(id: "4", contents: .old, positions: [0, 2])) {
      try fixture.section.replaceElements(with: Self.items([1]))
    }
    #expect(fixture.section.elements == Self.items([4, 5, 4]))
    #expect(fixture.view.changesets.isEmpty)
  }

  @Test func mutatingFromInsideTheIdentityClosure_traps() async {
    await #expect(processExitsWith: .failure) {
      let section: ArraySection<Int> = [1, 2, 3]
      try? section.replaceElements(
        with: [3, 2, 1],
        identifiedBy: { value in
          if section.count == 3 { section.removeLast() }
          return value
        }, isUpdated: { _, _ in false })
    }
  }

  // MARK: Differential

  /// Applies `percent`% each of deletes, content updates, moves and inserts to `old`, at random;
  /// returns the new contents and the number of edits (a move counts one).
  static func churn(
    _ old: [Item], percent: Int, nextID: Int, using random: inout SeededGenerator
  ) -> (new: [Item], edits: Int) {
    var new = old
    let k = max(1, old.count * percent / 100)
    var edits = 0
    for _ in 0..<min(k, new.count) {
      new.remove(at: Int.random(in: 0..<new.count, using: &random))
      edits += 1
    }
    for _ in 0..<min(k, new.count) {
      let index = Int.random(in: 0..<new.count, using: &random)
      new[index].version += 1
      edits += 1
    }
    for _ in 0..<min(k, new.count) {
      let element = new.remove(at: Int.random(in: 0..<new.count, using: &random))
      new.insert(element, at: Int.random(in: 0...new.count, using: &random))
      edits += 1
    }
    for offset in 0..<k {
      new.insert(Item(id: nextID + offset), at: Int.random(in: 0...new.count, using: &random))
      edits += 1
    }
    return (new, edits)
  }

  /// Random old and new contents (by known edits, or unrelated), each diffed through the strict
  /// adapter; the edit count stays within 1.25× of the known edits.
  @Test func randomContents_replayThroughTheStrictAdapter() throws {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0xD1FF)
    var random = SeededGenerator(seed: seed)
    var emitted = 0
    var known = 0
    for iteration in 0..<Self.iterations {
      let count = Int.random(in: 0..<40, using: &random)
      let fixture = Fixture(Self.items((0..<count).shuffled(using: &random)))
      let before = fixture.failures.count
      if iteration % 4 == 0 {
        // Unrelated: any subset of a small id space, in any order, some updated.
        let new = (0..<Int.random(in: 0..<40, using: &random)).shuffled(using: &random)
          .prefix(Int.random(in: 0..<30, using: &random))
          .map { Item(id: $0, version: Int.random(in: 0..<2, using: &random)) }
        try fixture.replace(with: new)
      } else {
        let (new, edits) = Self.churn(
          fixture.section.elements, percent: Int.random(in: 1...30, using: &random),
          nextID: 1_000, using: &random)
        emitted += Self.size(try fixture.replace(with: new))
        known += edits
      }
      if fixture.failures.count > before {
        Issue.record("seed \(seed) (replay with SECTIONKIT_SEED=\(seed)), iteration \(iteration)")
        return
      }
    }
    let ratio = Double(emitted) / Double(max(known, 1))
    #expect(ratio <= 1.25, "edit-count ratio \(ratio): \(emitted) changes for \(known) edits")
  }

  /// The moves emitted are exactly the survivors outside a longest increasing subsequence of
  /// their old positions (an O(n²) reference), for random permutations without content changes.
  @Test func randomPermutations_moveOnlyWhatLeavesTheLongestIncreasingRun() throws {
    var random = SeededGenerator(
      seed: SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0x5EED))
    for _ in 0..<Self.iterations {
      let count = Int.random(in: 0..<12, using: &random)
      let fixture = Fixture(Self.items(0..<count))
      let order = (0..<count).shuffled(using: &random)
      let changeset = try fixture.replace(with: Self.items(order))
      var longest = [Int](repeating: 1, count: count)
      for i in 0..<count {
        for j in 0..<i where order[j] < order[i] { longest[i] = max(longest[i], longest[j] + 1) }
      }
      #expect(Self.size(changeset) == count - (longest.max() ?? 0), "order \(order)")
    }
  }
}
