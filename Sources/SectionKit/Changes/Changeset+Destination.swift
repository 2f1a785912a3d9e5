import Foundation

extension Changeset {
  /// Where the element at `indexPath` before this changeset is after it, given the number of
  /// elements of each section before it: the move's destination when it moves, the reload's
  /// destination when it is reloaded (the same element, new content), otherwise the slot UIKit
  /// gives a survivor; `nil` when the element is deleted or its section is deleted or reloaded
  /// whole. A section that moves takes its elements along.
  ///
  /// `SectionKitStreaming` resolves an index path a client gave against an earlier state this
  /// way, changeset by changeset; it is the arithmetic of
  /// ``apply(to:insertedSection:newElement:newSectionCount:)`` for one element.
  ///
  /// - Throws: ``ChangesetMismatch`` when the changeset does not fit `oldCounts`.
  /// - Precondition: `indexPath` is `[section, element]` within `oldCounts`.
  /// - Complexity: O(c log c + s) for c changes and s sections.
  package func destination(ofElementAt indexPath: IndexPath, oldCounts: [Int]) throws
    -> IndexPath?
  {
    precondition(
      indexPath.count == 2 && oldCounts.indices.contains(indexPath[0])
        && (0..<oldCounts[indexPath[0]]).contains(indexPath[1]),
      "Changeset.destination(ofElementAt:oldCounts:): index path \(format(indexPath)) is out of "
        + "range of the old counts \(oldCounts)")
    let plan = try MirrorPlan(self, oldCounts: oldCounts)
    let (section, item) = (indexPath[0], indexPath[1])
    guard let newSection = plan.newToOld.firstIndex(of: section) else { return nil }
    guard let arrivals = plan.elements[section] else {
      return IndexPath(item: item, section: newSection)
    }
    if arrivals.removed.contains(item) {
      if let move = movedElements.first(where: { $0.from == indexPath }) { return move.to }
      if let reload = reloadedElements.firstIndex(of: indexPath) {
        return reloadedElementDestinations[reload]
      }
      return nil
    }
    let slots = SlotMap(removed: arrivals.removed, fixed: arrivals.fixed.map(\.index))
    return IndexPath(item: slots.destination(of: item), section: newSection)
  }
}
