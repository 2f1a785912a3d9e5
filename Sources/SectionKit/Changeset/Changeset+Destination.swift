import Foundation

extension Changeset {
  /// Where the element at `indexPath` before this changeset is after it, given the number of
  /// elements of each section before it: the move's destination when it moves, the reload's
  /// destination when it is reloaded (the same element, new content), otherwise the slot UIKit
  /// gives a survivor; `nil` when the element is deleted or its section is deleted or reloaded
  /// whole. A section that moves takes its elements along.
  ///
  /// `SectionKitStreaming` resolves an index path a client gave against an earlier state this
  /// way, changeset by changeset: the changeset is checked against `oldCounts`, then
  /// ``ChangesetPositions`` answers.
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
    _ = try MirrorPlan(self, oldCounts: oldCounts)
    return ChangesetPositions(self).newPath(ofOld: indexPath)
  }
}
