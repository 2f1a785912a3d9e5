import Foundation
import SectionKit
import SectionKitTesting
import Testing

/// Replay (`Docs/Batching.md`, rule B10) and `check`.
@Suite struct BatchValidatorReplayTests {
  let validator = BatchValidator()

  @Test func movedCells_keepTheirOldContent() {
    let changes = Changeset(movedElements: [move(path(0, 2), path(0, 0))])
    let shown = validator.replay(
      old: [["a", "b", "c"]], changeset: changes, newValues: { _ in "?" }, newCounts: [3])
    #expect(shown == [["c", "a", "b"]])

    let stale = validator.check(
      old: [["a@1", "b@1", "c@1"]], new: [["c@2", "a@1", "b@1"]], changeset: changes)
    #expect(stale.errors.isEmpty)
    #expect(stale.mismatch == ReplayMismatch(indexPath: path(0, 0), expected: "c@2", actual: "c@1"))
    #expect(!stale.isSuccess)
  }

  @Test func insertsAndDeletes_useNewAndOldCoordinates() {
    // a b c d → b X d Y: delete a (old 0) and c (old 2), insert X (new 1) and Y (new 3).
    let result = validator.check(
      old: [["a", "b", "c", "d"]], new: [["b", "X", "d", "Y"]],
      changeset: Changeset(
        deletedElements: [path(0, 0), path(0, 2)], insertedElements: [path(0, 1), path(0, 3)]))
    #expect(result.isSuccess, "\(result)")
    // The same with inserts given in old coordinates shows the wrong cells.
    let wrong = validator.check(
      old: [["a", "b", "c", "d"]], new: [["b", "X", "d", "Y"]],
      changeset: Changeset(
        deletedElements: [path(0, 0), path(0, 2)], insertedElements: [path(0, 2), path(0, 3)]))
    #expect(wrong.mismatch?.indexPath == path(0, 1))
  }

  @Test func reloadLandingOnTheRightCell_passes() {
    let result = validator.check(
      old: [["a@1", "b@1", "c@1"]], new: [["b@2", "c@1"]],
      changeset: Changeset(deletedElements: [path(0, 0)], reloadedElements: [path(0, 1)]))
    #expect(result.isSuccess, "\(result)")
  }

  @Test func missingReload_isAReplayMismatch() {
    let result = validator.check(
      old: [["a@1", "b@1"]], new: [["a@1", "b@2"]], changeset: Changeset())
    #expect(result.description == "replay mismatch at [0, 1]: expected b@2, got b@1")
  }

  @Test func movesAcrossSections_andImpliedSectionOrder() {
    // Section 0 deleted, a new section inserted at 1, e moves from old section 2 into old
    // section 1 (now 0).
    let old = [["a"], ["b", "c"], ["d", "e"]]
    let new = [["b", "e", "c"], ["new"], ["d"]]
    let result = validator.check(
      old: old, new: new,
      changeset: Changeset(
        deletedSections: [0], insertedSections: [1],
        movedElements: [move(path(2, 1), path(0, 1))]))
    #expect(result.isSuccess, "\(result)")
  }

  @Test func sectionMoves_carryTheirCells() {
    let old = [["a"], ["b", "c"], ["d"]]
    let new = [["d"], ["a"], ["b", "c"]]
    let result = validator.check(
      old: old, new: new, changeset: Changeset(movedSections: [.init(from: 2, to: 0)]))
    #expect(result.isSuccess, "\(result)")
  }

  @Test func invalidBatch_isReportedWithoutReplay() {
    let result = validator.check(
      old: [["a"]], new: [["a"]], changeset: Changeset(deletedElements: [path(0, 0)]))
    #expect(result.errors.map(\.rule) == [.invalidNumberOfItems])
    #expect(result.mismatch == nil)
    #expect(!result.isSuccess)
  }

  @Test func strictCheck_failsOnWarnings() {
    let changes = Changeset(reloadedElements: [path(0, 0), path(0, 0)])
    #expect(validator.check(old: [["a"]], new: [["a"]], changeset: changes).isSuccess)
    let strict = validator.check(old: [["a"]], new: [["a"]], changeset: changes, strict: true)
    #expect(!strict.isSuccess)
    #expect(strict.failingViolations.map(\.rule) == [.duplicateEntry])
  }
}
