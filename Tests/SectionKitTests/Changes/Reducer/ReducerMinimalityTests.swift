import Foundation
import SectionKit
import SectionKitTesting
import Testing

/// The reducer's changesets are as small as any valid canonical changeset for the same batch
/// (rarely one change more): checked against a brute-force minimum on random small batches.
///
/// Reproduce a failure with `SECTIONKIT_SEED=<seed> swift test --filter ReducerMinimalityTests`;
/// run longer with `SECTIONKIT_FUZZ_ITERATIONS=<n>` (default 300).
@Suite struct ReducerMinimalityTests {
  static let iterations =
    ProcessInfo.processInfo.environment["SECTIONKIT_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 300

  /// One section of `Item`s under a coordinator with a strict test adapter.
  final class Fixture {
    let section: ArraySection<Item>
    let coordinator: Coordinator
    let view = TestAdapter(strict: true, onFailure: { _ in })

    init(_ elements: [Item]) {
      section = ArraySection(elements)
      let root = ComposedSectionProvider()
      root.append(section)
      coordinator = Coordinator(sectionProvider: root)
      coordinator.adapter = view
    }
  }

  static func size(_ changeset: Changeset) -> Int {
    changeset.deletedElements.count + changeset.insertedElements.count
      + changeset.reloadedElements.count + changeset.movedElements.count
  }

  /// The smallest valid canonical changeset (no errors, no strict warning but a reload with moves,
  /// every reload landing its own element, a replay equal to `new`) for one section going from `old` to `new`, elements matched by `id`: each
  /// surviving element either stays (reloaded when its version changed), moves, or is deleted and
  /// inserted; every combination is tried.
  ///
  /// With `context`, the section is the one at `oldSection` among `context.old` (whose entry there
  /// is `old`) and lands at `newSection` among `context.new`, the changeset moving sections as
  /// `movedSections` says: the minimum is that of the element changes under those section moves.
  static func bruteForceMinimum(
    old: [Item], new: [Item],
    context: (old: [[String]], new: [[String]], oldSection: Int, newSection: Int)? = nil,
    movedSections: [Changeset.SectionMove] = []
  ) -> Int {
    let oldIndex = Dictionary(uniqueKeysWithValues: old.enumerated().map { ($1.id, $0) })
    let newIDs = Set(new.map(\.id))
    let survivors = new.indices.filter { oldIndex[new[$0].id] != nil }
    let deletedOnly = old.indices.filter { !newIDs.contains(old[$0].id) }
    let insertedOnly = new.indices.filter { oldIndex[new[$0].id] == nil }
    var best = Int.max
    var choice = [Int](repeating: 0, count: survivors.count)
    let validator = BatchValidator()
    let combinations = Int(pow(3, Double(survivors.count)))
    for code in 0..<combinations {
      var rest = code
      for index in choice.indices {
        choice[index] = rest % 3
        rest /= 3
      }
      var deletes = deletedOnly
      var inserts = insertedOnly
      var reloads: [Int] = []
      var moves: [(Int, Int)] = []
      for (index, newPosition) in survivors.enumerated() {
        let oldPosition = oldIndex[new[newPosition].id]!
        switch choice[index] {
        case 0 where old[oldPosition] != new[newPosition]: reloads.append(oldPosition)
        case 0: break
        case 1: moves.append((oldPosition, newPosition))
        default:
          deletes.append(oldPosition)
          inserts.append(newPosition)
        }
      }
      let oldSection = context?.oldSection ?? 0
      let newSection = context?.newSection ?? 0
      let path = { (item: Int) in IndexPath(item: item, section: oldSection) }
      let newPath = { (item: Int) in IndexPath(item: item, section: newSection) }
      let changeset = Changeset(
        movedSections: movedSections,
        deletedElements: deletes.sorted().map(path),
        insertedElements: inserts.sorted().map(newPath),
        reloadedElements: reloads.sorted().map(path),
        movedElements: moves.sorted { $0.1 < $1.1 }.map {
          .init(from: path($0.0), to: newPath($0.1))
        }
      )
      let size = size(changeset)
      guard size < best else { continue }
      // Canonical form (B11): a reload lands its own element at its true new position, not
      // merely some element with the right content.
      let destinations = validator.reloadDestinations(in: changeset)
      let reloadsLandRight = reloads.allSatisfy { oldPosition in
        destinations[path(oldPosition)]
          == newPath(new.firstIndex { $0.id == old[oldPosition].id }!)
      }
      guard reloadsLandRight else { continue }
      let result = validator.check(
        old: context?.old ?? [old.map(\.description)],
        new: context?.new ?? [new.map(\.description)], changeset: changeset)
      if result.errors.isEmpty && result.mismatch == nil
        && result.warnings.allSatisfy({ $0.rule == .reloadCombinedWithMoves })
      {
        best = size
      }
    }
    return best
  }

  /// The issue's case: `[1…7]`, three elements updated in place, then two of them swapped: the
  /// same deletes, inserts and reload with no move.
  @Test func updatedElementTiesWithUnchangedOne_theUnchangedOneStays() {
    let fixture = Fixture((1...7).map { Item(id: $0) })
    fixture.section.performBatchUpdates {
      fixture.section.replaceSubrange(3..<6, with: (4...6).map { Item(id: $0, version: 1) })
      fixture.section.swapAt(4, 2)
    }
    #expect(fixture.view.failures.isEmpty)
    let changeset = fixture.view.lastChangeset ?? Changeset()
    #expect(changeset.movedElements.isEmpty, "\(changeset)")
    let old = (1...7).map { Item(id: $0) }
    #expect(Self.size(changeset) == Self.bruteForceMinimum(old: old, new: fixture.section.elements))
  }

  /// Random batches of up to five mutations (inserts, removals, in-place updates, moves, swaps,
  /// subrange updates) on up to six elements: every changeset is valid, and as small as the
  /// brute-force minimum or (rarely) one change above it.
  /// One to five random edits of `section` (inserts, removes, updates, moves, swaps, updated
  /// ranges), each described in `trace`.
  static func randomEdits(
    of section: ArraySection<Item>, nextID: inout Int, trace: inout [String],
    using random: inout SeededGenerator
  ) {
    for _ in 0..<Int.random(in: 1...5, using: &random) {
      let count = section.count
      switch Int.random(in: 0..<6, using: &random) {
      case 0 where count < 7:
        let index = Int.random(in: 0...count, using: &random)
        section.insert(Item(id: nextID), at: index)
        nextID += 1
        trace.append("insert at \(index)")
      case 1 where count > 0:
        let index = Int.random(in: 0..<count, using: &random)
        section.remove(at: index)
        trace.append("remove at \(index)")
      case 2 where count > 0:
        let index = Int.random(in: 0..<count, using: &random)
        section[index].version += 1
        trace.append("update \(index)")
      case 3 where count > 1:
        let from = Int.random(in: 0..<count, using: &random)
        let to = Int.random(in: 0..<count, using: &random)
        section.move(from: from, to: to)
        trace.append("move \(from) → \(to)")
      case 4 where count > 1:
        let i = Int.random(in: 0..<count, using: &random)
        let j = Int.random(in: 0..<count, using: &random)
        section.swapAt(i, j)
        trace.append("swapAt(\(i), \(j))")
      case 5 where count > 0:
        let lower = Int.random(in: 0..<count, using: &random)
        let upper = Int.random(in: lower...count, using: &random)
        let updated = section[lower..<upper].map { Item(id: $0.id, version: $0.version + 1) }
        section.replaceSubrange(lower..<upper, with: updated)
        trace.append("replaceSubrange(\(lower)..<\(upper)) updated")
      default:
        break
      }
    }
  }

  @Test func randomSmallBatches_matchTheBruteForceMinimum() {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0x3141)
    var random = SeededGenerator(seed: seed)
    var aboveMinimum = 0
    for iteration in 0..<Self.iterations {
      let old = (0..<Int.random(in: 1...6, using: &random)).map { Item(id: $0) }
      let fixture = Fixture(old)
      let section = fixture.section
      var nextID = 100
      var trace: [String] = []
      section.performBatchUpdates {
        Self.randomEdits(of: section, nextID: &nextID, trace: &trace, using: &random)
      }
      let changeset = fixture.view.changesets.last ?? Changeset()
      let emitted = fixture.view.changesets.isEmpty ? 0 : Self.size(changeset)
      let minimum = Self.bruteForceMinimum(old: old, new: section.elements)
      if emitted != minimum { aboveMinimum += 1 }
      let invalid = fixture.view.failures.contains {
        $0.kinds != [.invalidChangeset]
          || !$0.violations.allSatisfy { $0.rule == .reloadCombinedWithMoves }
      }
      if invalid || emitted < minimum || emitted > minimum + 1 {
        Issue.record(
          Comment(
            rawValue: "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)), iteration \(iteration): "
              + "\(old.count) elements, \(trace): \(emitted) changes, minimum \(minimum): "
              + "\(changeset)"))
        return
      }
    }
    // A few batches need per-element choices (move this element, delete and insert that one so
    // that a reload lands) that the reducer's four readings do not make: about 3 in 10,000.
    #expect(
      aboveMinimum <= max(1, Self.iterations / 200),
      "\(aboveMinimum) of \(Self.iterations) batches above the minimum")
  }

  /// The same beside a section move: `[A, S, B]` with S edited and A or B moved past it in the
  /// batch, so that S changes index while it does not move itself (UIKit then lands no reload of S
  /// where it belongs, rule B3, and each update of S is a delete and an insert). The element
  /// changes are no more than the brute-force minimum under the emitted section moves.
  @Test func randomSmallBatchesBesideASectionMove_matchTheBruteForceMinimum() {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0x5EC7)
    var random = SeededGenerator(seed: seed)
    // Ten times the batches of the test above: a batch that trips the reading needs a move and
    // updates in the same few elements (the first at the default seed is the 367th).
    for iteration in 0..<(Self.iterations * 10) {
      let old = (0..<Int.random(in: 1...6, using: &random)).map { Item(id: $0) }
      let a = ArraySection([Item(id: 50)])
      let section = ArraySection(old)
      let b = ArraySection([Item(id: 60)])
      let root = ComposedSectionProvider()
      for child in [a, section, b] { root.append(child) }
      let coordinator = Coordinator(sectionProvider: root)
      let view = TestAdapter(strict: true, onFailure: { _ in })
      coordinator.adapter = view
      let before = [a, section, b].map { $0.elements.map(\.description) }
      var nextID = 100
      var trace: [String] = []
      let (from, to) = Bool.random(using: &random) ? (2, 0) : (0, 2)
      let movesFirst = Bool.random(using: &random)
      root.performBatchUpdates {
        if movesFirst { root.moveChild(at: from, to: to) }
        Self.randomEdits(of: section, nextID: &nextID, trace: &trace, using: &random)
        if !movesFirst { root.moveChild(at: from, to: to) }
      }
      let sections = root.children.map { $0.object as! ArraySection<Item> }
      let after = sections.map { $0.elements.map(\.description) }
      let newSection = sections.firstIndex { $0 === section }!
      guard let changeset = view.changesets.last else { continue }
      let emitted = Self.size(changeset)
      let minimum = Self.bruteForceMinimum(
        old: old, new: section.elements, context: (before, after, 1, newSection),
        movedSections: changeset.movedSections)
      let invalid = view.failures.contains {
        $0.kinds != [.invalidChangeset]
          || !$0.violations.allSatisfy { $0.rule == .reloadCombinedWithMoves }
      }
      if invalid || changeset.movedSections.count != 1 || emitted > minimum {
        Issue.record(
          Comment(
            rawValue: "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)), iteration \(iteration): "
              + "\(old.count) elements, \(trace), moveChild(\(from) → \(to)): \(emitted) element "
              + "changes, minimum \(minimum): \(changeset)"))
        return
      }
    }
  }

  /// The issue's case: `[A, S = [1…5], B]`, bump 1, 3 and 5, move 4 to the front, and move B to
  /// the front: a section move, 3 deletes, 3 inserts and an element move (8 changes, not 9).
  @Test func updatesAndAMoveBesideASectionMove_keepTheElementMove() {
    let a = ArraySection([Item(id: 50)])
    let section = ArraySection((1...5).map { Item(id: $0) })
    let b = ArraySection([Item(id: 60)])
    let root = ComposedSectionProvider()
    for child in [a, section, b] { root.append(child) }
    let coordinator = Coordinator(sectionProvider: root)
    let view = TestAdapter.toleratingReloadsWithMoves(record: TestAdapter.reportToTestFramework)
    coordinator.adapter = view
    root.performBatchUpdates {
      for index in [0, 2, 4] { section[index].version += 1 }
      section.move(from: 3, to: 0)
      root.moveChild(at: 2, to: 0)
    }
    let changeset = view.changesets.last ?? Changeset()
    #expect(changeset.count == 8, "\(changeset)")
    // 2 and 4 are the unchanged elements: either stays, the other moves.
    #expect(changeset.movedElements.count == 1, "\(changeset)")
    #expect(changeset.deletedElements.count == 3 && changeset.insertedElements.count == 3)
  }
}
