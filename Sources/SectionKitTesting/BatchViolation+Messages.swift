import Foundation

/// UIKit's exception texts (`Docs/Batching.md`, rules B3–B6), one constructor per rule.
///
/// `%@` index paths are rendered as UIKit renders an `NSIndexPath`, without the object address:
/// `{length = 2, path = 0 - 1}`. In the ``BatchValidator/Model/legacy`` model the texts use
/// `UITableView`'s vocabulary ("row", "table view").
extension BatchViolation {
  /// The words that differ between `UICollectionView` and `UITableView`.
  struct Words {
    var item: String
    var items: String
    var view: String
    var sentenceGap: String

    init(_ model: BatchValidator.Model) {
      switch model {
      case .modern:
        (item, items, view, sentenceGap) = ("item", "items", "collection view", " ")
      case .legacy:
        (item, items, view, sentenceGap) = ("row", "rows", "table view", "  ")
      }
    }
  }

  // MARK: Reloads, deletes, inserts

  static func deleteAndReload(_ op: BatchOperation) -> BatchViolation {
    BatchViolation(
      rule: .deleteAndReloadSameIndexPath,
      message: "attempt to delete and reload the same index path (\(op.uikitDescription))")
  }

  static func deleteAndMove(_ op: BatchOperation) -> BatchViolation {
    op.isSection
      ? BatchViolation(
        rule: .deleteAndMoveSameSection,
        message: "attempt to perform a delete and a move from the same section (\(op.section))")
      : BatchViolation(
        rule: .deleteAndMoveSameIndexPath,
        message: "attempt to perform a delete and a move from the same index path "
          + "(\(op.uikitDescription))")
  }

  static func insertAndMove(_ op: BatchOperation) -> BatchViolation {
    op.isSection
      ? BatchViolation(
        rule: .insertAndMoveSameSection,
        message: "attempt to perform an insert and a move to the same section (\(op.section))")
      : BatchViolation(
        rule: .insertAndMoveSameIndexPath,
        message: "attempt to perform an insert and a move to the same index path "
          + "(\(op.uikitDescription))")
  }

  static func deleteSectionOutOfBounds(_ section: Int, sections: Int) -> BatchViolation {
    BatchViolation(
      rule: .deleteSectionOutOfBounds,
      message: "attempt to delete section \(section), but there are only \(sections) sections "
        + "before the update")
  }

  static func deleteItemSectionOutOfBounds(_ op: BatchOperation, sections: Int, _ w: Words)
    -> BatchViolation
  {
    BatchViolation(
      rule: .deleteItemSectionOutOfBounds,
      message: "attempt to delete \(w.item) \(op.item ?? 0) from section \(op.section), but there "
        + "are only \(sections) sections before the update")
  }

  static func deleteItemOutOfBounds(_ op: BatchOperation, count: Int, _ w: Words) -> BatchViolation
  {
    BatchViolation(
      rule: .deleteItemOutOfBounds,
      message: "attempt to delete \(w.item) \(op.item ?? 0) from section \(op.section) which only "
        + "contains \(count) \(w.items) before the update")
  }

  static func insertSectionOutOfBounds(_ section: Int, sections: Int) -> BatchViolation {
    BatchViolation(
      rule: .insertSectionOutOfBounds,
      message: "attempt to insert section \(section) but there are only \(sections) sections "
        + "after the update")
  }

  static func insertItemSectionOutOfBounds(_ op: BatchOperation, sections: Int, _ w: Words)
    -> BatchViolation
  {
    BatchViolation(
      rule: .insertItemSectionOutOfBounds,
      message: "attempt to insert \(w.item) \(op.item ?? 0) into section \(op.section), but there "
        + "are only \(sections) sections after the update")
  }

  static func insertItemOutOfBounds(_ op: BatchOperation, count: Int, _ w: Words) -> BatchViolation
  {
    BatchViolation(
      rule: .insertItemOutOfBounds,
      message: "attempt to insert \(w.item) \(op.item ?? 0) into section \(op.section), but there "
        + "are only \(count) \(w.items) in section \(op.section) after the update")
  }

  // MARK: Moves

  static func moveFromDeletedSection(_ section: Int, _ w: Words) -> BatchViolation {
    BatchViolation(
      rule: .moveFromDeletedSection,
      message: "cannot move \(w.item == "item" ? "an item" : "a row") from a deleted section "
        + "(\(section))")
  }

  static func moveIntoInsertedSection(_ section: Int, _ w: Words) -> BatchViolation {
    BatchViolation(
      rule: .moveIntoInsertedSection,
      message: "cannot move \(w.item == "item" ? "an item" : "a row") into a newly inserted "
        + "section (\(section))")
  }

  static func moveSectionFromOutOfBounds(_ from: Int, sections: Int) -> BatchViolation {
    BatchViolation(
      rule: .moveSectionFromOutOfBounds,
      message: "attempt to move section \(from), but there are only \(sections) sections before "
        + "the update")
  }

  static func moveSectionToOutOfBounds(_ from: Int, _ to: Int, sections: Int) -> BatchViolation {
    // "to to" is UIKit's own text.
    BatchViolation(
      rule: .moveSectionToOutOfBounds,
      message: "attempt to to move section \(from) to section \(to), but there are only "
        + "\(sections) sections after the update")
  }

  static func moveItemFromSectionOutOfBounds(_ from: BatchOperation, sections: Int)
    -> BatchViolation
  {
    BatchViolation(
      rule: .moveItemFromSectionOutOfBounds,
      message: "attempt to move index path (\(from.uikitDescription)) from a section that does "
        + "not exist - there are only \(sections) sections before the update")
  }

  static func moveItemFromOutOfBounds(_ from: BatchOperation, count: Int, _ w: Words)
    -> BatchViolation
  {
    BatchViolation(
      rule: .moveItemFromOutOfBounds,
      message: "attempt to move index path (\(from.uikitDescription)) that does not exist - "
        + "there are only \(count) \(w.items) in section \(from.section) before the update")
  }

  static func moveItemToSectionOutOfBounds(
    _ from: BatchOperation, _ to: BatchOperation, sections: Int
  ) -> BatchViolation {
    BatchViolation(
      rule: .moveItemToSectionOutOfBounds,
      message: "attempt to move index path (\(from.uikitDescription)) to index path "
        + "(\(to.uikitDescription)) in section that does not exist - there are only "
        + "\(sections) sections after the update")
  }

  static func moveItemToOutOfBounds(
    _ from: BatchOperation, _ to: BatchOperation, count: Int, _ w: Words
  ) -> BatchViolation {
    BatchViolation(
      rule: .moveItemToOutOfBounds,
      message: "attempt to move index path (\(from.uikitDescription)) to index path "
        + "(\(to.uikitDescription)) that does not exist - there are only \(count) \(w.items) in "
        + "section \(to.section) after the update")
  }

  static func moveSectionToTwoDestinations(_ from: Int, _ first: Int, _ second: Int)
    -> BatchViolation
  {
    BatchViolation(
      rule: .moveSectionToTwoDestinations,
      message: "attempt to move section \(from) to both section \(first) and section \(second)")
  }

  static func moveTwoSectionsToSameDestination(_ first: Int, _ second: Int, _ to: Int)
    -> BatchViolation
  {
    BatchViolation(
      rule: .moveTwoSectionsToSameDestination,
      message: "attempt to move both section \(first) and section \(second) to section \(to)")
  }

  static func moveItemToTwoDestinations(
    _ from: BatchOperation, _ first: BatchOperation, _ second: BatchOperation, _ w: Words
  ) -> BatchViolation {
    BatchViolation(
      rule: .moveItemToTwoDestinations,
      message: "attempt to move \(w.item) at index path \(from.uikitDescription) to both "
        + "\(first.uikitDescription) and \(second.uikitDescription)")
  }

  static func moveTwoItemsToSameDestination(
    _ first: BatchOperation, _ second: BatchOperation, _ to: BatchOperation, _ w: Words
  ) -> BatchViolation {
    BatchViolation(
      rule: .moveTwoItemsToSameDestination,
      message: "attempt to move both \(w.item) at index path \(first.uikitDescription) and "
        + "\(second.uikitDescription) to \(to.uikitDescription)")
  }

  // MARK: Counts

  static func invalidNumberOfSections(
    new: Int, old: Int, inserted: Int, deleted: Int, _ w: Words
  ) -> BatchViolation {
    BatchViolation(
      rule: .invalidNumberOfSections,
      message: "Invalid update: invalid number of sections.\(w.sentenceGap)The number of sections "
        + "contained in the \(w.view) after the update (\(new)) must be equal to the number of "
        + "sections contained in the \(w.view) before the update (\(old)), plus or minus the "
        + "number of sections inserted or deleted (\(inserted) inserted, \(deleted) deleted).")
  }

  static func invalidNumberOfItems(
    section: Int, new: Int, old: Int, inserted: Int, deleted: Int, movedIn: Int, movedOut: Int,
    _ w: Words
  ) -> BatchViolation {
    BatchViolation(
      rule: .invalidNumberOfItems,
      message: "Invalid update: invalid number of \(w.items) in section \(section).\(w.sentenceGap)"
        + "The number of \(w.items) contained in an existing section after the update (\(new)) "
        + "must be equal to the number of \(w.items) contained in that section before the update "
        + "(\(old)), plus or minus the number of \(w.items) inserted or deleted from that section "
        + "(\(inserted) inserted, \(deleted) deleted) and plus or minus the number of \(w.items) "
        + "moved into or out of that section (\(movedIn) moved in, \(movedOut) moved out).")
  }

  // MARK: Validator rules (no UIKit text)

  static func duplicate(_ op: BatchOperation, verb: String, times: Int, _ w: Words)
    -> BatchViolation
  {
    BatchViolation(
      rule: .duplicateItemDeleteOrInsert,
      message: "attempt to \(verb) \(w.item) at index path (\(op.uikitDescription)) \(times) "
        + "times; UICollectionView counts every copy")
  }

  static func duplicateEntry(_ what: String, times: Int) -> BatchViolation {
    BatchViolation(
      rule: .duplicateEntry,
      message: "\(what) is listed \(times) times; UIKit silently de-duplicates it")
  }

  static func malformed(_ path: IndexPath, in part: String) -> BatchViolation {
    BatchViolation(
      rule: .malformedIndexPath,
      message: "malformed index path \(path.uikitDescription) in \(part): expected "
        + "[section, item]")
  }

  static func negative(_ text: String, in part: String) -> BatchViolation {
    BatchViolation(
      rule: .negativeIndex,
      message: "negative or NSNotFound index \(text) in \(part)")
  }

  static func insertIntoMovedSection(_ op: BatchOperation, isReload: Bool, _ w: Words)
    -> BatchViolation
  {
    BatchViolation(
      rule: .itemInsertIntoMovedSection,
      message: "unsafe: attempt to insert \(w.item) \(op.item ?? 0) into section \(op.section), "
        + "which is the destination of a section move"
        + (isReload ? " (the insert half of a reload)" : "")
        + "; UICollectionView corrupts memory. Delete and insert the section instead")
  }

  static func moveTouchingMovedSection(_ from: BatchOperation, _ to: BatchOperation, _ w: Words)
    -> BatchViolation
  {
    BatchViolation(
      rule: .itemMoveTouchingMovedSection,
      message: "unsafe: attempt to move \(w.item) at index path \(from.uikitDescription) to "
        + "\(to.uikitDescription) across a moved section; the section move overwrites the "
        + "\(w.item)'s map entry. Delete and insert the section instead")
  }

  static func reloadInMovedOrDeletedSection(_ op: BatchOperation, deleted: Bool, _ w: Words)
    -> BatchViolation
  {
    BatchViolation(
      rule: .itemReloadInMovedOrDeletedSection,
      message: "unsafe: attempt to reload \(w.item) at index path (\(op.uikitDescription)) in "
        + (deleted ? "deleted" : "moved") + " section \(op.section); UIKit inserts the "
        + "reloaded \(w.item) in another section")
  }

  // MARK: Strict warnings

  static func deleteOrReloadInsideRemovedSection(
    _ op: BatchOperation, verb: String, sectionVerb: String, _ w: Words
  ) -> BatchViolation {
    BatchViolation(
      rule: .itemDeleteOrReloadInsideRemovedSection,
      message: "\(verb) of \(w.item) at index path (\(op.uikitDescription)) inside \(sectionVerb) "
        + "section \(op.section); UIKit drops it silently")
  }

  static func insertInsideInsertedSection(_ op: BatchOperation, sectionVerb: String, _ w: Words)
    -> BatchViolation
  {
    BatchViolation(
      rule: .itemInsertInsideInsertedSection,
      message: "insert of \(w.item) at index path (\(op.uikitDescription)) inside \(sectionVerb) "
        + "section \(op.section); UIKit drops it silently after checking its bounds")
  }

  static func deleteInMovedSection(_ op: BatchOperation, _ w: Words) -> BatchViolation {
    BatchViolation(
      rule: .itemDeleteInMovedSection,
      message: "delete of \(w.item) at index path (\(op.uikitDescription)) in moved section "
        + "\(op.section); a cell is animated twice and one snapshot cell is never removed")
  }

  static func reloadCombinedWithMoves(reloads: Int, moves: Int) -> BatchViolation {
    BatchViolation(
      rule: .reloadCombinedWithMoves,
      message: "\(reloads) reload(s) in a batch with \(moves) move(s); UIKit computes reload "
        + "destinations ignoring moves, so a reload can land on the wrong cell")
  }
}
