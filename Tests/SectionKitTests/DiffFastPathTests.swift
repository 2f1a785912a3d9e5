import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

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
/// DiffFastPathTests`; run longer with `SECTIONKIT_FUZZ_ITERATIONS=<n>` (default 300).
@Suite struct DiffFastPathTests {
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
