import Foundation
import SectionKit

/// Something a ``TestAdapter`` found wrong with a batch: the changeset breaks UIKit's rules, or the
/// view UIKit would show after it differs from the model, or the coordinator answered the data
/// source calls inconsistently.
///
/// ``description`` is the full report that fails the running test: the problems (UIKit's
/// exception text for each violation, the first replay mismatch), the counts, the changeset and
/// the events of the batch.
public struct TestAdapterFailure: Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Hashable, Sendable {
    /// The changeset breaks UIKit's rules (``TestAdapterFailure/violations`` is not empty).
    case invalidChangeset
    /// The changeset is valid, but replaying it shows something other than the model
    /// (``TestAdapterFailure/mismatch``).
    case replayMismatch
    /// Before `updateData` the coordinator answered counts that differ from what the adapter
    /// shows.
    case staleDataSource
    /// The changeset does not survive a JSON round trip: decoding its encoding throws (it breaks
    /// one of the invariants every changeset must keep) or gives another changeset.
    case notCodable
    /// The changeset's section sets (`deletedSections` and the others, what a
    /// collection view is given) disagree with its section ranges, which the validation reads.
    case inconsistentSectionSets
  }

  /// The problems found, most serious first (a batch can have several).
  public var kinds: [Kind]
  /// The violations that fail the batch (errors, plus strict warnings in strict mode).
  public var violations: [BatchViolation]
  /// The first cell where the replay differs from the model.
  public var mismatch: ReplayMismatch?
  /// The changeset applied.
  public var changeset: Changeset
  /// The events the coordinator reduced into the changeset (`coordinator.currentBatchEvents`).
  public var events: [SectionProviderMapping.Event]
  /// The counts the adapter showed before the batch.
  public var oldCounts: [Int]
  /// The counts the coordinator answered after `updateData`.
  public var newCounts: [Int]
  /// Extra details (for ``Kind/staleDataSource``, the counts the coordinator answered; for
  /// ``Kind/notCodable``, what decoding said; for ``Kind/inconsistentSectionSets``, which set
  /// disagrees with its ranges).
  public var details: [String]
  /// Where the failure is reported: where the adapter was created.
  public var location: TestSourceLocation

  /// The first problem.
  public var kind: Kind { kinds[0] }

  /// The full report: problems, counts, changeset and events.
  public var description: String {
    var lines = ["TestAdapter: the batch would not show the model correctly in UIKit"]
    lines += violations.map { "  \($0)" }
    if let mismatch { lines.append("  \(mismatch)") }
    lines += details.map { "  \($0)" }
    lines.append("counts: \(oldCounts) → \(newCounts)")
    lines.append("changeset:")
    lines += changeset.description.split(separator: "\n").map { "  \($0)" }
    lines.append(
      "batch events: "
        + (events.isEmpty ? "(none)" : events.map(\.description).joined(separator: ", ")))
    return lines.joined(separator: "\n")
  }
}
