import Foundation
import SectionKit
import SectionKitTesting
import Testing

/// One known-bad batch per rule of `Docs/Batching.md` (B3–B9), and a known-good near miss.
@Suite struct BatchValidatorRuleTests {
  // MARK: Conflicts

  @Test func deleteAndReloadOfSameItem_isRejected() {
    expectRejected(
      .deleteAndReloadSameIndexPath, [3], [2],
      Changeset(deletedElements: [path(0, 1)], reloadedElements: [path(0, 1)]),
      message: "attempt to delete and reload the same index path ({length = 2, path = 0 - 1})")
    // Near miss: the reload of a neighbour lands at UIKit's computed path.
    expectClean([3], [2], Changeset(deletedElements: [path(0, 1)], reloadedElements: [path(0, 2)]))
  }

  @Test func deleteAndReloadOfSameSection_isRejected() {
    expectRejected(
      .deleteAndReloadSameIndexPath, [1, 1], [1],
      Changeset(deletedSections: [1], reloadedSections: [1]),
      message: "attempt to delete and reload the same index path "
        + "({length = 2, path = 1 - \(NSNotFound)})")
    expectClean([1, 1], [1], Changeset(deletedSections: [1], reloadedSections: [0]))
  }

  @Test func deleteAndMoveFromSameIndexPath_isRejected() {
    expectRejected(
      .deleteAndMoveSameIndexPath, [3], [2],
      Changeset(deletedElements: [path(0, 0)], movedElements: [move(path(0, 0), path(0, 1))]),
      message: "attempt to perform a delete and a move from the same index path "
        + "({length = 2, path = 0 - 0})")
    expectClean(
      [3], [2],
      Changeset(deletedElements: [path(0, 0)], movedElements: [move(path(0, 1), path(0, 0))]))
  }

  @Test func deleteAndMoveFromSameSection_isRejected() {
    expectRejected(
      .deleteAndMoveSameSection, [1, 1, 1], [1, 1],
      Changeset(deletedSections: [0], movedSections: [.init(from: 0, to: 1)]),
      message: "attempt to perform a delete and a move from the same section (0)")
    expectClean(
      [1, 1, 1], [1, 1], Changeset(deletedSections: [0], movedSections: [.init(from: 2, to: 0)]))
  }

  @Test func insertAndMoveToSameIndexPath_isRejected() {
    expectRejected(
      .insertAndMoveSameIndexPath, [2], [3],
      Changeset(insertedElements: [path(0, 0)], movedElements: [move(path(0, 1), path(0, 0))]),
      message: "attempt to perform an insert and a move to the same index path "
        + "({length = 2, path = 0 - 0})")
    expectClean(
      [2], [3],
      Changeset(insertedElements: [path(0, 0)], movedElements: [move(path(0, 1), path(0, 1))]))
  }

  @Test func insertAndMoveToSameSection_isRejected() {
    expectRejected(
      .insertAndMoveSameSection, [1, 1], [1, 1, 1],
      Changeset(insertedSections: [0], movedSections: [.init(from: 1, to: 0)]),
      message: "attempt to perform an insert and a move to the same section (0)")
    expectClean(
      [1, 1], [1, 1, 1], Changeset(insertedSections: [0], movedSections: [.init(from: 1, to: 1)]))
  }

  @Test func itemMoveOutOfDeletedSection_isRejected() {
    expectRejected(
      .moveFromDeletedSection, [2, 2], [3],
      Changeset(deletedSections: [0], movedElements: [move(path(0, 0), path(0, 0))]),
      message: "cannot move an item from a deleted section (0)")
    expectRejected(
      .moveFromDeletedSection, [2, 2], [2, 3],
      Changeset(reloadedSections: [0], movedElements: [move(path(0, 0), path(1, 0))]))
    expectClean([2, 2], [1, 3], Changeset(movedElements: [move(path(0, 0), path(1, 0))]))
  }

  @Test func itemMoveIntoInsertedSection_isRejected() {
    expectRejected(
      .moveIntoInsertedSection, [2], [1, 1],
      Changeset(insertedSections: [1], movedElements: [move(path(0, 0), path(1, 0))]),
      message: "cannot move an item into a newly inserted section (1)")
    expectClean([2, 0], [1, 1], Changeset(movedElements: [move(path(0, 0), path(1, 0))]))
  }

  // MARK: Bounds (12 rules)

  @Test func deleteSectionOutOfBounds_isRejected() {
    expectRejected(
      .deleteSectionOutOfBounds, [1], [1], Changeset(deletedSections: [1]),
      message: "attempt to delete section 1, but there are only 1 sections before the update")
    expectClean([1], [], Changeset(deletedSections: [0]))
  }

  @Test func deleteItemInMissingSection_isRejected() {
    expectRejected(
      .deleteItemSectionOutOfBounds, [1], [1], Changeset(deletedElements: [path(1, 0)]),
      message: "attempt to delete item 0 from section 1, but there are only 1 sections before "
        + "the update")
  }

  @Test func deleteItemOutOfBounds_isRejected() {
    expectRejected(
      .deleteItemOutOfBounds, [1], [0], Changeset(deletedElements: [path(0, 1)]),
      message: "attempt to delete item 1 from section 0 which only contains 1 items before the "
        + "update")
    expectClean([1], [0], Changeset(deletedElements: [path(0, 0)]))
  }

  @Test func reloadOutOfBounds_isCheckedAsADelete() {
    expectRejected(
      .deleteItemOutOfBounds, [2], [2], Changeset(reloadedElements: [path(0, 2)]))
    expectRejected(.deleteSectionOutOfBounds, [2], [2], Changeset(reloadedSections: [1]))
  }

  @Test func insertSectionOutOfBounds_isRejected() {
    expectRejected(
      .insertSectionOutOfBounds, [1], [1, 1], Changeset(insertedSections: [2]),
      message: "attempt to insert section 2 but there are only 2 sections after the update")
    expectClean([1], [1, 1], Changeset(insertedSections: [1]))
  }

  @Test func insertItemInMissingSection_isRejected() {
    expectRejected(
      .insertItemSectionOutOfBounds, [1], [2], Changeset(insertedElements: [path(1, 0)]),
      message: "attempt to insert item 0 into section 1, but there are only 1 sections after the "
        + "update")
  }

  @Test func insertItemOutOfBounds_isRejected() {
    expectRejected(
      .insertItemOutOfBounds, [3], [3], Changeset(insertedElements: [path(0, 3)]),
      message: "attempt to insert item 3 into section 0, but there are only 3 items in section 0 "
        + "after the update")
    expectClean([3], [4], Changeset(insertedElements: [path(0, 3)]))
  }

  @Test func itemInsertInsideInsertedSection_isStillBoundsChecked() {
    expectRejected(
      .insertItemOutOfBounds, [1], [1, 2],
      Changeset(insertedSections: [1], insertedElements: [path(1, 5)]))
  }

  @Test func moveSectionFromOutOfBounds_isRejected() {
    expectRejected(
      .moveSectionFromOutOfBounds, [1, 1], [1, 1],
      Changeset(movedSections: [.init(from: 2, to: 0)]),
      message: "attempt to move section 2, but there are only 2 sections before the update")
    expectClean([1, 1], [1, 1], Changeset(movedSections: [.init(from: 1, to: 0)]))
  }

  @Test func moveSectionToOutOfBounds_isRejected() {
    expectRejected(
      .moveSectionToOutOfBounds, [1, 1], [1, 1],
      Changeset(movedSections: [.init(from: 0, to: 2)]),
      message: "attempt to to move section 0 to section 2, but there are only 2 sections after "
        + "the update")
  }

  @Test func moveItemFromMissingSection_isRejected() {
    expectRejected(
      .moveItemFromSectionOutOfBounds, [1, 1], [1, 1],
      Changeset(movedElements: [move(path(2, 0), path(0, 0))]),
      message: "attempt to move index path ({length = 2, path = 2 - 0}) from a section that does "
        + "not exist - there are only 2 sections before the update")
  }

  @Test func moveItemFromOutOfBounds_isRejected() {
    expectRejected(
      .moveItemFromOutOfBounds, [2], [2], Changeset(movedElements: [move(path(0, 2), path(0, 0))]),
      message: "attempt to move index path ({length = 2, path = 0 - 2}) that does not exist - "
        + "there are only 2 items in section 0 before the update")
    expectClean([2], [2], Changeset(movedElements: [move(path(0, 1), path(0, 0))]))
  }

  @Test func moveItemToMissingSection_isRejected() {
    expectRejected(
      .moveItemToSectionOutOfBounds, [1], [1],
      Changeset(movedElements: [move(path(0, 0), path(3, 0))]),
      message: "attempt to move index path ({length = 2, path = 0 - 0}) to index path "
        + "({length = 2, path = 3 - 0}) in section that does not exist - there are only 1 "
        + "sections after the update")
  }

  @Test func moveItemToOutOfBounds_isRejected() {
    expectRejected(
      .moveItemToOutOfBounds, [2], [2], Changeset(movedElements: [move(path(0, 0), path(0, 2))]),
      message: "attempt to move index path ({length = 2, path = 0 - 0}) to index path "
        + "({length = 2, path = 0 - 2}) that does not exist - there are only 2 items in section 0 "
        + "after the update")
  }

  // MARK: Conflicting moves

  @Test func itemMovedToTwoDestinations_isRejected() {
    expectRejected(
      .moveItemToTwoDestinations, [3], [3],
      Changeset(movedElements: [move(path(0, 0), path(0, 1)), move(path(0, 0), path(0, 2))]),
      message: "attempt to move item at index path {length = 2, path = 0 - 0} to both "
        + "{length = 2, path = 0 - 1} and {length = 2, path = 0 - 2}")
  }

  @Test func twoItemsMovedToOneDestination_isRejected() {
    expectRejected(
      .moveTwoItemsToSameDestination, [3], [3],
      Changeset(movedElements: [move(path(0, 0), path(0, 2)), move(path(0, 1), path(0, 2))]),
      message: "attempt to move both item at index path {length = 2, path = 0 - 0} and "
        + "{length = 2, path = 0 - 1} to {length = 2, path = 0 - 2}")
    expectClean(
      [3], [3],
      Changeset(movedElements: [move(path(0, 0), path(0, 2)), move(path(0, 1), path(0, 0))]))
  }

  @Test func sectionMovedToTwoDestinations_isRejected() {
    expectRejected(
      .moveSectionToTwoDestinations, [1, 1, 1], [1, 1, 1],
      Changeset(movedSections: [.init(from: 0, to: 1), .init(from: 0, to: 2)]),
      message: "attempt to move section 0 to both section 1 and section 2")
  }

  @Test func twoSectionsMovedToOneDestination_isRejected() {
    expectRejected(
      .moveTwoSectionsToSameDestination, [1, 1, 1], [1, 1, 1],
      Changeset(movedSections: [.init(from: 0, to: 2), .init(from: 1, to: 2)]),
      message: "attempt to move both section 0 and section 1 to section 2")
  }

  @Test func identicalMoves_areOnlyAStrictWarning() {
    expectOnlyWarnings(
      [.duplicateEntry], [3], [3],
      Changeset(movedElements: [move(path(0, 0), path(0, 2)), move(path(0, 0), path(0, 2))]))
  }

  // MARK: Counts

  @Test func wrongNumberOfSections_isRejected() {
    expectRejected(
      .invalidNumberOfSections, [1], [1, 1], Changeset(),
      message: "Invalid update: invalid number of sections. The number of sections contained in "
        + "the collection view after the update (2) must be equal to the number of sections "
        + "contained in the collection view before the update (1), plus or minus the number of "
        + "sections inserted or deleted (0 inserted, 0 deleted).")
    expectClean([1], [1, 1], Changeset(insertedSections: [1]))
  }

  @Test func wrongNumberOfItems_isRejected() {
    expectRejected(
      .invalidNumberOfItems, [3], [3], Changeset(deletedElements: [path(0, 1)]),
      message: "Invalid update: invalid number of items in section 0. The number of items "
        + "contained in an existing section after the update (3) must be equal to the number of "
        + "items contained in that section before the update (3), plus or minus the number of "
        + "items inserted or deleted from that section (0 inserted, 1 deleted) and plus or minus "
        + "the number of items moved into or out of that section (0 moved in, 0 moved out).")
  }

  @Test func legacyCountMessage_usesTableViewWordsAndTwoSpaces() {
    expectRejected(
      .invalidNumberOfItems, [3], [3], Changeset(deletedElements: [path(0, 1)]),
      message: "Invalid update: invalid number of rows in section 0.  The number of rows "
        + "contained in an existing section after the update (3) must be equal to the number of "
        + "rows contained in that section before the update (3), plus or minus the number of "
        + "rows inserted or deleted from that section (0 inserted, 1 deleted) and plus or minus "
        + "the number of rows moved into or out of that section (0 moved in, 0 moved out).",
      model: .legacy)
  }

  @Test func movesBetweenSections_countAsMovedInAndOut() {
    expectClean([2, 1], [1, 2], Changeset(movedElements: [move(path(0, 0), path(1, 0))]))
    let violations = expectRejected(
      .invalidNumberOfItems, [2, 1], [2, 1],
      Changeset(movedElements: [move(path(0, 0), path(1, 0))]))
    #expect(violations[0].message.contains("(0 moved in, 1 moved out)"))
    #expect(violations[1].message.contains("(1 moved in, 0 moved out)"))
  }

  @Test func unmentionedSections_fillTheFreeSlotsInOrder() {
    // Old sections 1 and 2 fill new slots 0 and 1 around the inserted section 2 (rule B8).
    expectClean([1, 2, 3], [2, 3, 5], Changeset(deletedSections: [0], insertedSections: [2]))
    expectRejected(
      .invalidNumberOfItems, [1, 2, 3], [3, 2, 5],
      Changeset(deletedSections: [0], insertedSections: [2]))
    // A section move relocates one section; the others keep their relative order.
    expectClean([1, 2, 3], [3, 1, 2], Changeset(movedSections: [.init(from: 2, to: 0)]))
  }

  // MARK: Duplicates

  @Test func duplicateItemDelete_isRejected() {
    expectRejected(
      .duplicateItemDeleteOrInsert, [3], [2],
      Changeset(deletedElements: [path(0, 1), path(0, 1)]))
    expectClean([3], [1], Changeset(deletedElements: [path(0, 1), path(0, 2)]))
  }

  @Test func duplicateItemInsert_isRejectedInBothModels() {
    for model in [BatchValidator.Model.modern, .legacy] {
      expectRejected(
        .duplicateItemDeleteOrInsert, [1], [2],
        Changeset(insertedElements: [path(0, 0), path(0, 0)]), model: model)
    }
  }

  @Test func duplicateReload_isOnlyAStrictWarning() {
    expectOnlyWarnings(
      [.duplicateEntry], [1], [1], Changeset(reloadedElements: [path(0, 0), path(0, 0)]))
  }

  // MARK: Unsafe rules

  @Test func itemInsertIntoMovedSection_isUnsafe() {
    let violations = expectRejected(
      .itemInsertIntoMovedSection, [1, 1], [2, 1],
      Changeset(movedSections: [.init(from: 1, to: 0)], insertedElements: [path(0, 1)]))
    #expect(violations[0].message.hasPrefix("unsafe:"))
    expectClean(
      [1, 1], [1, 2],
      Changeset(movedSections: [.init(from: 1, to: 0)], insertedElements: [path(1, 1)]))
  }

  @Test func itemMoveOutOfMovedSection_isUnsafe() {
    expectRejected(
      .itemMoveTouchingMovedSection, [2, 1], [0, 3],
      Changeset(
        movedSections: [.init(from: 1, to: 0)], movedElements: [move(path(1, 0), path(1, 2))])
    )
    expectClean(
      [1, 1, 1], [1, 0, 2],
      Changeset(
        movedSections: [.init(from: 2, to: 0)], movedElements: [move(path(0, 0), path(2, 0))])
    )
  }

  @Test func itemMoveIntoMovedSection_isUnsafe() {
    expectRejected(
      .itemMoveTouchingMovedSection, [1, 1, 1], [2, 0, 1],
      Changeset(
        movedSections: [.init(from: 2, to: 0)], movedElements: [move(path(0, 0), path(0, 1))])
    )
  }

  @Test func itemReloadInDeletedSection_isUnsafe() {
    expectViolation(
      .itemReloadInMovedOrDeletedSection, [2, 2], [2],
      Changeset(deletedSections: [0], reloadedElements: [path(0, 1)]))
  }

  @Test func itemReloadInMovedSection_raisesUIKitsCountException() {
    // openradar 27041784: the reload's insert half lands in the section that took the moved
    // section's place, so UIKit raises a count exception for it.
    let violations = expectRejected(
      .invalidNumberOfItems, [2, 1], [1, 2],
      Changeset(movedSections: [.init(from: 0, to: 1)], reloadedElements: [path(0, 0)]))
    #expect(violations[0].message.contains("invalid number of items in section 0"))
    #expect(violations[0].message.contains("(1 inserted, 0 deleted)"))
    #expect(violations.contains { $0.rule == .itemReloadInMovedOrDeletedSection })
  }

  // MARK: Malformed paths

  @Test func malformedIndexPath_isRejected() {
    expectRejected(
      .malformedIndexPath, [1], [0], Changeset(deletedElements: [IndexPath(indexes: [0])]))
    expectRejected(
      .malformedIndexPath, [1], [1],
      Changeset(movedElements: [move(IndexPath(indexes: [0, 0, 0]), path(0, 0))]))
  }

  @Test func negativeIndex_isRejected() {
    expectRejected(.negativeIndex, [1], [0], Changeset(deletedElements: [path(0, -1)]))
    expectRejected(.negativeIndex, [1], [1], Changeset(insertedElements: [path(0, NSNotFound)]))
    expectRejected(
      .negativeIndex, [1, 1], [1, 1], Changeset(movedSections: [.init(from: -1, to: 0)]))
  }

  // MARK: Strict warnings

  @Test func itemDeleteInsideDeletedSection_isAStrictWarning() {
    expectOnlyWarnings(
      [.itemDeleteOrReloadInsideRemovedSection], [2, 1], [1],
      Changeset(deletedSections: [0], deletedElements: [path(0, 1)]))
    // Never bounds-checked: UIKit drops it first.
    expectOnlyWarnings(
      [.itemDeleteOrReloadInsideRemovedSection], [2, 1], [1],
      Changeset(deletedSections: [0], deletedElements: [path(0, 9)]))
    expectClean([2, 1], [1], Changeset(deletedSections: [0]))
  }

  @Test func itemReloadInsideReloadedSection_isAStrictWarning() {
    expectOnlyWarnings(
      [.itemDeleteOrReloadInsideRemovedSection], [2], [3],
      Changeset(reloadedSections: [0], reloadedElements: [path(0, 1)]))
  }

  @Test func itemInsertInsideInsertedSection_isAStrictWarning() {
    expectOnlyWarnings(
      [.itemInsertInsideInsertedSection], [1], [2, 1],
      Changeset(insertedSections: [0], insertedElements: [path(0, 0)]))
    expectClean([1], [2, 1], Changeset(insertedSections: [0]))
  }

  @Test func itemDeleteInMovedSection_isAStrictWarning() {
    expectOnlyWarnings(
      [.itemDeleteInMovedSection], [2, 1], [1, 1],
      Changeset(movedSections: [.init(from: 0, to: 1)], deletedElements: [path(0, 0)]))
  }

  @Test func reloadCombinedWithMoves_isAStrictWarning() {
    expectOnlyWarnings(
      [.reloadCombinedWithMoves], [3], [3],
      Changeset(reloadedElements: [path(0, 0)], movedElements: [move(path(0, 1), path(0, 2))]))
    expectClean([3], [3], Changeset(reloadedElements: [path(0, 0)]))
    // A move in section 0 cannot put section 1's reload on the wrong cell.
    expectClean(
      [3, 2], [3, 2],
      Changeset(reloadedElements: [path(1, 0)], movedElements: [move(path(0, 1), path(0, 2))]))
    // A move into the reload's section can; so can any section move.
    expectOnlyWarnings(
      [.reloadCombinedWithMoves], [3, 2], [2, 3],
      Changeset(reloadedElements: [path(1, 0)], movedElements: [move(path(0, 1), path(1, 2))]))
    expectOnlyWarnings(
      [.reloadCombinedWithMoves], [1, 1, 1, 1], [1, 1, 1, 1],
      Changeset(movedSections: [.init(from: 3, to: 2)], reloadedElements: [path(0, 0)]))
  }

  // MARK: Whole-rule coverage

  @Test func everyRule_hasTheSeverityOfTheRuleTable() {
    let warnings: Set<BatchViolation.Rule> = [
      .duplicateEntry, .itemDeleteOrReloadInsideRemovedSection, .itemInsertInsideInsertedSection,
      .itemDeleteInMovedSection, .reloadCombinedWithMoves,
    ]
    for rule in BatchViolation.Rule.allCases {
      #expect(rule.severity == (warnings.contains(rule) ? .strictWarning : .error), "\(rule)")
    }
    #expect(
      BatchViolation.Rule.allCases.filter { $0.rawValue.hasSuffix("OutOfBounds") }.count == 12)
  }

  @Test func errorsComeBeforeWarnings() {
    let violations = validate(
      [3], [3],
      Changeset(
        reloadedElements: [path(0, 0), path(0, 0)],
        movedElements: [move(path(0, 1), path(0, 5))]))
    #expect(violations.map(\.severity) == [.error, .strictWarning, .strictWarning])
    #expect(violations[0].rule == .moveItemToOutOfBounds)
  }
}
