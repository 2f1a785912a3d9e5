import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

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

/// The shortcuts of `replaceElements(with:)` and of reading a large section off, each against the
/// plain computation it replaces, on random data:
/// - the identity matching guesses that a new element continues the old element after the
///   previous match (or after the one before a jump) and compares identities instead of hashing;
///   the outcome, errors included, must be the plain table's;
/// - `ElementPlan.byOldStart` orders dense runs by counting instead of sorting;
/// - the reducer skips a reading whose `ElementPlan.leastSize` is not below the best so far: it
///   must be the reading's size less its conversions;
/// - `ElementPlan.settle` walks sorted candidates, deletes and inserts once per round instead of
///   a binary search per candidate in a `SlotMap`: the same reloads and conversions as the
///   rounds over `SlotMap`.
///
/// Reproduce a random failure with `SECTIONKIT_SEED=<seed> swift test --filter
/// ArraySectionDiffShortcutTests`; run longer with `SECTIONKIT_FUZZ_ITERATIONS=<n>` (default 300).
@Suite struct ArraySectionDiffShortcutTests {
  static let iterations =
    ProcessInfo.processInfo.environment["SECTIONKIT_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 300

  // MARK: Identity matching

  /// What the matching gives, or the error it throws.
  struct Outcome: Equatable {
    var newOfOld: [Int] = []
    var oldOfNew: [Int] = []
    var updated: [Int] = []
    var error: DuplicateIdentityError?
  }

  /// The matching with one table and no guesses: every new identity looked up.
  static func plainMatching(old: [Item], new: [Item]) -> Outcome {
    var table: [Int: Int] = [:]
    for index in old.indices {
      if let previous = table.updateValue(index, forKey: old[index].id) {
        return Outcome(
          error: DuplicateIdentityError(
            id: String(describing: old[index].id), contents: .old, positions: [previous, index]))
      }
    }
    var outcome = Outcome(
      newOfOld: Array(repeating: -1, count: old.count),
      oldOfNew: Array(repeating: -1, count: new.count))
    for index in new.indices {
      let key = new[index].id
      if let entry = table[key] {
        guard entry >= 0, outcome.newOfOld[entry] < 0 else {
          return Outcome(
            error: DuplicateIdentityError(
              id: String(describing: key), contents: .new,
              positions: [entry >= 0 ? outcome.newOfOld[entry] : ~entry, index]))
        }
        outcome.newOfOld[entry] = index
        outcome.oldOfNew[index] = entry
      } else {
        table[key] = ~index
      }
    }
    outcome.updated = old.indices.filter {
      outcome.newOfOld[$0] >= 0 && old[$0] != new[outcome.newOfOld[$0]]
    }
    return outcome
  }

  static func matching(old: [Item], new: [Item]) -> Outcome {
    do {
      let matching = try IdentityMatching(old: old, new: new, id: \.id, isUpdated: !=)
      return Outcome(
        newOfOld: matching.newOfOld, oldOfNew: matching.oldOfNew, updated: matching.updated)
    } catch {
      return Outcome(error: error)
    }
  }

  /// Old and new contents where the guesses matter: churned (runs in order, with deletes,
  /// inserts, moves and updates), with a duplicate put right after its first occurrence or
  /// after a moved element, in the new contents or the old.
  static func contents(using random: inout SeededGenerator) -> (old: [Item], new: [Item]) {
    let old = (0..<Int.random(in: 0..<40, using: &random)).map { Item(id: $0) }
    var (new, _) = ArraySectionDiffTests.churn(
      old, percent: Int.random(in: 0...30, using: &random), nextID: 1_000, using: &random)
    var changedOld = old
    switch Int.random(in: 0..<6, using: &random) {
    case 0 where !new.isEmpty:
      // A new duplicate right after the first occurrence.
      let index = Int.random(in: 0..<new.count, using: &random)
      new.insert(new[index], at: index + 1)
    case 1 where new.count > 1:
      // A new duplicate anywhere.
      new.insert(
        new[Int.random(in: 0..<new.count, using: &random)],
        at: Int.random(in: 0...new.count, using: &random))
    case 2 where old.count > 2:
      // A jump and back: an element moved to the front, then the one after it, twice.
      let index = Int.random(in: 1..<old.count - 1, using: &random)
      new = [old[index], old[0], old[index + 1], old[0]] + new
    case 3 where !old.isEmpty:
      // An old duplicate (possible after imperative mutations).
      let index = Int.random(in: 0..<old.count, using: &random)
      changedOld.insert(old[index], at: Int.random(in: 0...old.count, using: &random))
    default:
      break
    }
    return (changedOld, new)
  }

  @Test func identityMatching_isThePlainTables_errorsIncluded() {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0x6E55)
    var random = SeededGenerator(seed: seed)
    var errors = 0
    for iteration in 0..<Self.iterations * 4 {
      let (old, new) = Self.contents(using: &random)
      let expected = Self.plainMatching(old: old, new: new)
      let found = Self.matching(old: old, new: new)
      if expected.error != nil { errors += 1 }
      guard found == expected else {
        let message =
          "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)), iteration \(iteration): \(old) → "
          + "\(new): \(found), expected \(expected)"
        Issue.record(Comment(rawValue: message))
        return
      }
    }
    // Both kinds of case are exercised.
    #expect(errors > Self.iterations / 4 && errors < Self.iterations * 3)
  }

  @Test func identityMatching_duplicatesTheGuessesMeet() {
    let old = ArraySectionDiffTests.items([0, 1, 2, 3])
    // Right after its first occurrence, where the guess is the next old element.
    #expect(
      Self.matching(old: old, new: ArraySectionDiffTests.items([0, 0, 1])).error?.positions
        == [0, 1])
    // The guess is an element claimed already (1, after 0 resumed).
    #expect(
      Self.matching(old: old, new: ArraySectionDiffTests.items([1, 0, 1])).error?.positions
        == [0, 2])
    // After a jump: the element after the moved one is claimed already.
    #expect(
      Self.matching(old: old, new: ArraySectionDiffTests.items([0, 3, 1, 0])).error?.positions
        == [0, 3])
    #expect(
      Self.matching(old: old, new: ArraySectionDiffTests.items([2, 0, 2])).error?.positions
        == [0, 2])
  }

  // MARK: Reading a section off

  @Test func byOldStart_isTheSortedOrder() {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0x50B7)
    var random = SeededGenerator(seed: seed)
    for iteration in 0..<Self.iterations {
      // Disjoint runs of 0..<oldCount, some elements left out, in a random order; dense or not.
      let oldCount = Int.random(in: 0..<3_000, using: &random)
      var runs: [Run] = []
      var start = 0
      let gap = Bool.random(using: &random) ? 2 : 60
      while start < oldCount {
        let count = min(Int.random(in: 1...4, using: &random), oldCount - start)
        if Int.random(in: 0..<gap, using: &random) < 2 {
          runs.append(Run(kind: .old, start: start, count: count))
        }
        start += count + Int.random(in: 0...1, using: &random)
      }
      runs.shuffle(using: &random)
      let oldRuns = runs.map { (run: $0, newStart: 0) }
      let expected = oldRuns.indices.sorted { oldRuns[$0].run.start < oldRuns[$1].run.start }
      let found = ElementPlan.byOldStart(oldRuns, oldCount: oldCount)
      guard found == expected else {
        Issue.record(
          "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)), iteration \(iteration): \(runs)")
        return
      }
    }
  }

  /// The rounds of `settle` as they were, over `SlotMap`: the reference.
  static func settledBySlotMap(
    _ candidates: [(old: Int, new: Int)], deletes: [Int], inserts: [Int]
  ) -> (reloads: Set<Int>, deletes: [Int], inserts: [Int], converted: Int) {
    var (candidates, deletes, inserts, converted) = (candidates, deletes, inserts, 0)
    var round = 0
    let fineRounds = candidates.count <= 64 ? 8 : 0
    while !candidates.isEmpty {
      round += 1
      deletes.sort()
      inserts.sort()
      let slots = SlotMap(removed: deletes, fixed: inserts)
      let displacement = candidates.map { abs(slots.destination(of: $0.old) - $0.new) }
      guard let furthest = displacement.max(), furthest > 0 else { break }
      let threshold = round <= fineRounds ? furthest : round <= fineRounds + 4 ? 1 : 0
      var kept: [(old: Int, new: Int)] = []
      for (candidate, distance) in zip(candidates, displacement) {
        if distance >= threshold {
          deletes.append(candidate.old)
          inserts.append(candidate.new)
          converted += 1
        } else {
          kept.append(candidate)
        }
      }
      candidates = kept
    }
    return (Set(candidates.map(\.old)), deletes.sorted(), inserts.sorted(), converted)
  }

  @Test func settle_convertsWhatTheRoundsOverSlotMapConvert() {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0x5E77)
    var random = SeededGenerator(seed: seed)
    var conversions = 0
    for iteration in 0..<Self.iterations {
      // A churned list: the survivors, deletes and inserts; some survivors are candidates
      // (updated), in new order as the reducer gives them, few or many.
      let old = (0..<Int.random(in: 0..<(Bool.random(using: &random) ? 20 : 600), using: &random))
        .map { Item(id: $0) }
      let (new, _) = ArraySectionDiffTests.churn(
        old, percent: Int.random(in: 1...25, using: &random), nextID: 10_000, using: &random)
      let newIndex = Dictionary(uniqueKeysWithValues: new.enumerated().map { ($1.id, $0) })
      let oldIDs = Set(old.map(\.id))
      let deletes = old.indices.filter { newIndex[old[$0].id] == nil }.shuffled(using: &random)
      let inserts = new.indices.filter { !oldIDs.contains(new[$0].id) }.shuffled(using: &random)
      let share = Int.random(in: 1...4, using: &random)
      let candidates = new.indices.compactMap { index -> (old: Int, new: Int)? in
        guard oldIDs.contains(new[index].id), Int.random(in: 0..<share, using: &random) == 0
        else { return nil }
        return (new[index].id, index)
      }
      let expected = Self.settledBySlotMap(candidates, deletes: deletes, inserts: inserts)
      var plan = ElementPlan([], staying: [], deletes: deletes, inserts: inserts)
      plan.settle(candidates)
      conversions += plan.converted
      guard
        Set(plan.reloads) == expected.reloads, plan.reloads.count == expected.reloads.count,
        plan.deletes.sorted() == expected.deletes, plan.inserts.sorted() == expected.inserts,
        plan.converted == expected.converted
      else {
        let message =
          "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)), iteration \(iteration): "
          + "reloads \(plan.reloads.sorted()) (expected \(expected.reloads.sorted())), "
          + "converted \(plan.converted) (expected \(expected.converted))"
        Issue.record(Comment(rawValue: message))
        return
      }
    }
    #expect(conversions > Self.iterations)
  }

  @Test func leastSize_isTheSizeLessTheConversions() {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0x1EA5)
    var random = SeededGenerator(seed: seed)
    for iteration in 0..<Self.iterations {
      // A section's survivors in new order as runs (some updated), with deletes and inserts.
      let oldCount = Int.random(in: 0..<60, using: &random)
      var survivors = (0..<oldCount).filter { _ in Int.random(in: 0..<5, using: &random) > 0 }
      let deletes = (0..<oldCount).filter { !survivors.contains($0) }
      for _ in 0..<Int.random(in: 0...4, using: &random) where survivors.count > 1 {
        survivors.swapAt(
          Int.random(in: 0..<survivors.count, using: &random),
          Int.random(in: 0..<survivors.count, using: &random))
      }
      var oldRuns: [(run: Run, newStart: Int)] = []
      var inserts: [Int] = []
      var position = 0
      for old in survivors {
        if Int.random(in: 0..<6, using: &random) == 0 {
          inserts.append(position)
          position += 1
        }
        let kind: Run.Kind = Int.random(in: 0..<3, using: &random) == 0 ? .updated : .old
        oldRuns.append((Run(kind: kind, start: old, count: 1), position))
        position += 1
      }
      let staying = oldRuns.map { _ in Bool.random(using: &random) }
      let (keepOrder, replaceMoves) = (Bool.random(using: &random), Bool.random(using: &random))
      let plan = ElementPlan(
        oldRuns, staying: staying, deletes: deletes, inserts: inserts,
        updatedKeepOrder: keepOrder, movesAsDeleteAndInsert: replaceMoves)
      let least = ElementPlan.leastSize(
        oldRuns, staying: staying, deletes: deletes.count + inserts.count,
        updatedKeepOrder: keepOrder, movesAsDeleteAndInsert: replaceMoves)
      guard least == plan.size - plan.converted else {
        let message =
          "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)), iteration \(iteration): least "
          + "size \(least), size \(plan.size) with \(plan.converted) conversions"
        Issue.record(Comment(rawValue: message))
        return
      }
    }
  }
}
