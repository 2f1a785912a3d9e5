import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

@Suite("Changeset.apply(to:): the one public way to follow a changeset with a mirror")
struct ChangesetMirrorTests {
  /// The reproduction from the "two real apps" report: a move then an insert in one batch. The
  /// order "deletes, inserts, moves" (or "deletes, moves, inserts") gets it wrong; UIKit's rules,
  /// which the applier follows, get it right.
  @Test func aMoveThenAnInsertInOneBatch() throws {
    let list: ArraySection<String> = ["a", "b", "c"]
    let root = ComposedSectionProvider()
    root.append(list)
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = TestAdapter(strict: true)
    coordinator.adapter = adapter
    list.performBatchUpdates {
      list.move(from: 0, to: 2)
      list.insert("x", at: 0)
    }
    let changeset = try #require(adapter.lastChangeset)
    #expect(
      changeset
        == Changeset(
          insertedElements: [[0, 0]], movedElements: [.init(from: [0, 0], to: [0, 3])]))
    var mirror = [["a", "b", "c"]]
    try changeset.apply(to: &mirror, newElement: { list[$0[1]] })
    #expect(mirror == [["x", "b", "c", "a"]])
    #expect(try changeset.newCounts(from: [3]) == [4])
  }

  @Test func sectionsInsertedDeletedAndMoved() throws {
    var mirror = [["a"], ["b", "c"], ["d"]]
    let changeset = Changeset(
      deletedSections: [0], insertedSections: [0], movedSections: [.init(from: 2, to: 1)],
      insertedElements: [[2, 0]])
    try changeset.apply(
      to: &mirror, insertedSection: { _ in ["new"] }, newElement: { _ in "e" })
    #expect(mirror == [["new"], ["d"], ["e", "b", "c"]])
  }

  @Test func reloadsTakeTheirNewValueWhereUIKitPutsThem() throws {
    var mirror = [["a", "b", "c", "d"]]
    let changeset = Changeset(
      deletedElements: [[0, 0]], insertedElements: [[0, 3]], reloadedElements: [[0, 2]])
    #expect(changeset.reloadedElementDestinations == [[0, 1]])
    try changeset.apply(to: &mirror, newElement: { $0 == [0, 1] ? "C" : "new" })
    #expect(mirror == [["b", "C", "d", "new"]])
  }

  @Test func reloadedSectionsAreReadWhole() throws {
    var mirror = [["a"], ["b"], ["c"]]
    let changeset = Changeset(deletedSections: [0], reloadedSections: [2])
    try changeset.apply(to: &mirror, insertedSection: { ["new \($0)"] }, newElement: { _ in "?" })
    #expect(mirror == [["b"], ["new 1"]])
  }

  @Test func aChangesetThatDoesNotFitThrowsNamingTheFieldAndLeavesTheMirror() {
    let original = [["a", "b"], ["c"]]
    let cases: [(Changeset, String)] = [
      (Changeset(deletedElements: [[0, 5]]), "deletedElements"),
      (Changeset(deletedElements: [[0, -1]]), "deletedElements"),
      (Changeset(deletedElements: [[0, 0], [0, 0]]), "deletedElements"),
      (Changeset(deletedElements: [[0]]), "deletedElements"),
      (Changeset(insertedElements: [[0, 3]]), "insertedElements"),
      (Changeset(insertedElements: [[7, 0]]), "insertedElements"),
      (Changeset(deletedSections: [5]), "deletedSections"),
      (Changeset(deletedSections: IndexSet(integersIn: 0..<(1 << 62))), "deletedSections"),
      (
        Changeset(insertedSections: IndexSet(integersIn: 0..<1_000_000_000_000)), "insertedSections"
      ),
      (Changeset(insertedSections: IndexSet(integersIn: 1..<(1 << 62))), "insertedSections"),
      (Changeset(insertedSections: [9]), "insertedSections"),
      (Changeset(movedSections: [.init(from: -1, to: 0)]), "movedSections"),
      (Changeset(movedSections: [.init(from: 0, to: 1), .init(from: 0, to: 0)]), "movedSections"),
      (Changeset(deletedSections: [0], deletedElements: [[0, 0]]), "deletedElements"),
      (Changeset(insertedSections: [0], insertedElements: [[0, 0]]), "insertedElements"),
      (
        Changeset(deletedElements: [[0, 0]], movedElements: [.init(from: [0, 0], to: [0, 0])]),
        "movedElements"
      ),
      (Changeset(deletedElements: [[0, 0]], reloadedElements: [[0, 0]]), "reloadedElements"),
      (Changeset(movedElements: [.init(from: [0, 0], to: [1, 9])]), "insertedElements"),
    ]
    for (changeset, field) in cases {
      var mirror = original
      #expect(throws: ChangesetMismatch.self) {
        try changeset.apply(to: &mirror, newElement: { _ in "x" })
      }
      do {
        try changeset.apply(to: &mirror, newElement: { _ in "x" })
      } catch let mismatch as ChangesetMismatch {
        #expect(mismatch.field.contains(field), "\(changeset): \(mismatch)")
      } catch {
        Issue.record("unexpected \(error)")
      }
      #expect(mirror == original)
    }
  }

  /// Work is bounded by the mirror and the changeset's real content, not by the numbers a
  /// payload claims: a changeset that would leave more sections than ``Changeset/sectionLimit``
  /// throws before anything is allocated.
  @Test func newCounts_refuseMoreSectionsThanTheLimit_withoutAllocatingThem() throws {
    let huge = Changeset(insertedSections: IndexSet(integersIn: 0..<1_000_000_000_000))
    #expect(throws: ChangesetMismatch.self) { try huge.newCounts(from: [1, 2]) }
    let some = Changeset(insertedSections: IndexSet(integersIn: 2..<1_000))
    #expect(try some.newCounts(from: [1, 2]) == [1, 2] + Array(repeating: 0, count: 998))
    let past = Changeset(insertedSections: IndexSet(integersIn: 2..<(Changeset.sectionLimit + 1)))
    #expect(throws: ChangesetMismatch.self) { try past.newCounts(from: [1, 2]) }
  }

  /// A closure that throws leaves the mirror as it was too.
  @Test func aThrowingValueLeavesTheMirror() {
    struct Missing: Error {}
    var mirror = [["a"]]
    #expect(throws: Missing.self) {
      try Changeset(insertedElements: [[0, 1]]).apply(
        to: &mirror, newElement: { _ in throw Missing() })
    }
    #expect(mirror == [["a"]])
  }

  /// Against the test validator's independent replay: random changesets over random mirrors. The
  /// applier either rejects one, or gives the counts it reports and — where UIKit accepts the
  /// batch — the mirror UIKit would show.
  @Test func randomChangesetsAgreeWithTheValidatorsReplay() {
    let validator = BatchValidator()
    var accepted = 0
    for seed in randomizedSeeds(base: 70_000, count: 3_000) {
      var rng = SeededGenerator(seed: seed)
      func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
      let old = (0..<int(0...6)).map { section in (0..<int(0...5)).map { "\(section).\($0)" } }
      func path(_ sections: Int) -> IndexPath { [int(-1...sections), int(-1...5)] }
      var changeset = Changeset()
      for _ in 0..<int(0...6) {
        switch int(0...6) {
        case 0: changeset.deletedSections.insert(int(0...old.count))
        case 1: changeset.insertedSections.insert(int(0...old.count))
        case 2:
          changeset.movedSections.append(.init(from: int(0...old.count), to: int(0...old.count)))
        case 3: changeset.deletedElements.append(path(old.count))
        case 4: changeset.insertedElements.append(path(old.count))
        case 5: changeset.reloadedElements.append(path(old.count))
        default: changeset.movedElements.append(.init(from: path(old.count), to: path(old.count)))
        }
      }
      var mirror = old
      let newValue = { (path: IndexPath) in "new \(path[0]).\(path[1])" }
      do {
        try changeset.apply(to: &mirror, newElement: newValue)
      } catch {
        #expect(mirror == old, "seed \(seed) (replay with SECTIONKIT_SEED=\(seed))")
        continue
      }
      let counts = mirror.map(\.count)
      #expect(
        (try? changeset.newCounts(from: old.map(\.count))) == counts,
        "seed \(seed) (replay with SECTIONKIT_SEED=\(seed))")
      let errors = validator.validate(
        oldCounts: old.map(\.count), newCounts: counts, changeset: changeset
      ).filter(\.isError)
      guard errors.isEmpty else { continue }
      accepted += 1
      let replayed = validator.replay(
        old: old, changeset: changeset, newValues: newValue, newCounts: counts)
      #expect(
        replayed == mirror,
        "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)): \(changeset) on \(old)")
    }
    // Enough of the random batches are valid for the comparison to mean something.
    #expect(accepted > 300 || ProcessInfo.processInfo.environment["SECTIONKIT_SEED"] != nil)
  }
}
