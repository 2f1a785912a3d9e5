import Foundation
import SectionKit
import SectionKitTesting
import Testing

/// UIKit's reload → delete + insert arithmetic (`Docs/Batching.md`, rule B3) and its consequences.
@Suite struct BatchValidatorReloadArithmeticTests {
  @Test func reloadDestination_isShiftedByExplicitDeletesAndInserts() {
    let changes = Changeset(
      deletedElements: [path(0, 0), path(0, 1)], insertedElements: [path(0, 0)],
      reloadedElements: [path(0, 3)])
    #expect(BatchValidator().reloadDestinations(in: changes) == [path(0, 3): path(0, 2)])
  }

  @Test func reloadDestination_ignoresMoves() {
    let changes = Changeset(
      reloadedElements: [path(0, 1)], movedElements: [move(path(0, 2), path(0, 0))])
    #expect(BatchValidator().reloadDestinations(in: changes) == [path(0, 1): path(0, 1)])
  }

  @Test func reloadDestination_followsSectionDeletesAndInserts() {
    let changes = Changeset(
      deletedSections: [0], insertedSections: [0, 1], reloadedElements: [path(2, 1)])
    #expect(BatchValidator().reloadDestinations(in: changes) == [path(2, 1): path(3, 1)])
  }

  @Test func modernReloadDestination_ignoresItemInsertsInsideInsertedSections() {
    // The redundant insert [0, 0] sorts before the section insert (0, NSNotFound): legacy UIKit
    // counts it against the reload, which has not yet been shifted out of section 0.
    let changes = Changeset(
      insertedSections: [0], insertedElements: [path(0, 0)], reloadedElements: [path(0, 0)])
    #expect(BatchValidator().reloadDestinations(in: changes) == [path(0, 0): path(1, 0)])
    #expect(
      BatchValidator(model: .legacy).reloadDestinations(in: changes) == [path(0, 0): path(1, 1)])
  }

  @Test func reloadPlusMoveFromSamePath_isADeleteAndAMove() {
    // openradar 33662307: UIKit reports a reload + move as "a delete and a move".
    expectRejected(
      .deleteAndMoveSameIndexPath, [2], [2],
      Changeset(reloadedElements: [path(0, 0)], movedElements: [move(path(0, 0), path(0, 1))]))
  }

  @Test func reloadDestinationCollidingWithMoveDestination_isAnInsertAndAMove() {
    // Apple Developer Forums: delete [1], move 0→1, move 3→0, reload [2].
    expectRejected(
      .insertAndMoveSameIndexPath, [4], [3],
      Changeset(
        deletedElements: [path(0, 1)], reloadedElements: [path(0, 2)],
        movedElements: [move(path(0, 0), path(0, 1)), move(path(0, 3), path(0, 0))]),
      message: "attempt to perform an insert and a move to the same index path "
        + "({length = 2, path = 0 - 1})")
  }

  @Test func rowReloadInsideMovedSection_isACountException() {
    // openradar 27041784, reproduced exactly: the insert half lands in the other section.
    let violations = expectRejected(
      .invalidNumberOfItems, [2, 1], [1, 2],
      Changeset(movedSections: [.init(from: 0, to: 1)], reloadedElements: [path(0, 0)]))
    #expect(
      violations[0].message
        == "Invalid update: invalid number of items in section 0. The number of items contained "
        + "in an existing section after the update (1) must be equal to the number of items "
        + "contained in that section before the update (1), plus or minus the number of items "
        + "inserted or deleted from that section (1 inserted, 0 deleted) and plus or minus the "
        + "number of items moved into or out of that section (0 moved in, 0 moved out).")
  }

  @Test func reloadInBatchWithMoves_canLandOnTheWrongCellSilently() {
    // PSPDFKit: c moves to the front and b changes. UIKit re-inserts the reload at [0, 1] (its
    // arithmetic ignores the move), where the model holds a: b's new content is never shown.
    let result = BatchValidator().check(
      old: [["a@1", "b@1", "c@1"]], new: [["c@1", "a@1", "b@2"]],
      changeset: Changeset(
        reloadedElements: [path(0, 1)], movedElements: [move(path(0, 2), path(0, 0))]))
    #expect(result.errors.isEmpty)
    #expect(result.warnings.map(\.rule) == [.reloadCombinedWithMoves])
    #expect(result.mismatch?.description == "replay mismatch at [0, 2]: expected b@2, got a@1")
    // The canonical form (rule B11): delete + insert instead of the reload.
    let fixed = BatchValidator().check(
      old: [["a@1", "b@1", "c@1"]], new: [["c@1", "a@1", "b@2"]],
      changeset: Changeset(
        deletedElements: [path(0, 1)], insertedElements: [path(0, 2)],
        movedElements: [move(path(0, 2), path(0, 0))]))
    #expect(fixed.isSuccess, "\(fixed)")
  }

  @Test func redundantDeleteInDeletedSectionSkewsLegacyReloadDestinationSilently() {
    // Section 0 is deleted together with its element [0, 0]; b, at [1, 1], is reloaded. Modern
    // UIKit ignores the redundant delete and re-inserts b at [0, 1]; legacy UIKit counts it and
    // re-inserts at [0, 0] — no exception, the wrong cell.
    let old = [["x@1", "y@1"], ["a@1", "b@1", "c@1"]]
    let new = [["a@1", "b@2", "c@1"]]
    let changes = Changeset(
      deletedSections: [0], deletedElements: [path(0, 0)], reloadedElements: [path(1, 1)])

    let modern = BatchValidator(model: .modern).check(old: old, new: new, changeset: changes)
    #expect(modern.isSuccess, "\(modern)")
    #expect(modern.warnings.map(\.rule) == [.itemDeleteOrReloadInsideRemovedSection])

    let legacy = BatchValidator(model: .legacy).check(old: old, new: new, changeset: changes)
    #expect(legacy.errors.isEmpty)
    #expect(legacy.mismatch?.description == "replay mismatch at [0, 1]: expected b@2, got a@1")
    #expect(
      BatchValidator(model: .legacy).reloadDestinations(in: changes) == [path(1, 1): path(0, 0)])
  }

  @Test func sectionReload_landsAtTheComputedSection() {
    // Section 2 reloaded while section 0 is deleted and sections 0 and 1 inserted: UIKit puts
    // the reloaded section at 3.
    let old = [["a"], ["b"], ["c@1"]]
    let new = [["n0"], ["n1"], ["b"], ["c@2", "d"]]
    let result = BatchValidator().check(
      old: old, new: new,
      changeset: Changeset(deletedSections: [0], insertedSections: [0, 1], reloadedSections: [2]))
    #expect(result.isSuccess, "\(result)")
  }
}
