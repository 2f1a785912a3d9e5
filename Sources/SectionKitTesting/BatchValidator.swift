import Foundation
import SectionKit

/// Checks a ``/SectionKit/Changeset`` against UIKit's `performBatchUpdates` rules, and replays it
/// the way UIKit would show it.
///
/// The validator is a library, not a test: it returns structured ``BatchViolation`` values that
/// XCTest, Swift Testing, benchmarks and demos can all use. It implements the confirmed and
/// derived rules of `Docs/Batching.md` (rules B2–B9): reload de-duplication, the reload →
/// delete + insert destination arithmetic (rule B3), delete / insert / move bounds and conflicts,
/// the count equations with UIKit's section map (rules B7–B8), duplicates, the `unsafe:` rules,
/// malformed paths and strict warnings.
///
/// ```swift
/// let validator = BatchValidator()
/// let changes = Changeset(insertedElements: [[0, 3]])
/// validator.validate(oldCounts: [3], newCounts: [4], changeset: changes)   // []
/// validator.validate(oldCounts: [3], newCounts: [3], changeset: changes)
/// // [error [insertItemOutOfBounds]: attempt to insert item 3 into section 0, but there are only
/// //  3 items in section 0 after the update]
/// ```
///
/// Errors come first, in the order UIKit meets them (reloads, deletes, inserts, moves, counts);
/// the first error is the exception UIKit would raise. Like UIKit, the count equations are only
/// checked when every operation is in bounds and free of conflicts.
public struct BatchValidator: Hashable, Sendable {
  /// Which UIKit the validator reproduces where versions differ.
  public enum Model: String, Hashable, Sendable, Codable {
    /// iOS 26 `UICollectionView`: reload destinations ignore element operations inside deleted or
    /// inserted sections; duplicate element deletes and inserts are counted as often as listed.
    case modern
    /// iOS 12 `UITableView`: reload destinations count every explicit element operation, even
    /// inside deleted or inserted sections; duplicates are removed before counting; messages say
    /// "row" and "table view" and put two spaces after the first sentence of a count message.
    case legacy
  }

  /// Which UIKit the validator reproduces.
  public var model: Model

  /// Creates a validator for `model` (by default, modern `UICollectionView`).
  public init(model: Model = .modern) {
    self.model = model
  }

  /// Every way `changeset` breaks UIKit's rules when it turns a view showing `oldCounts` into one
  /// showing `newCounts`.
  ///
  /// - Parameters:
  ///   - oldCounts: The number of elements in each section before the batch (what the view
  ///     cached).
  ///   - newCounts: The number of elements in each section after the batch (what the data source
  ///     answers once updated).
  ///   - changeset: The batch.
  /// - Returns: The violations, errors first; empty when UIKit accepts the batch and it is
  ///   canonical. Filter on ``BatchViolation/isError`` to ignore strict warnings.
  /// - Complexity: O(k log k + s), where k is the number of operations in `changeset` and s the
  ///   number of sections.
  public func validate(oldCounts: [Int], newCounts: [Int], changeset: Changeset)
    -> [BatchViolation]
  {
    checkCounts(oldCounts, "oldCounts")
    checkCounts(newCounts, "newCounts")
    let batch = NormalizedBatch(
      changeset: changeset, oldCounts: oldCounts, newCounts: newCounts, model: model)
    return batch.violations
  }

  /// The new index path UIKit computes for each reloaded element (rule B3): the reload's old path,
  /// shifted by the changeset's explicit deletes and inserts only (moves and other reloads are
  /// ignored).
  ///
  /// Use it to check that a reload lands where the element really is after the batch.
  ///
  /// - Parameter changeset: The batch.
  /// - Returns: For each well-formed path of ``/SectionKit/Changeset/reloadedElements`` and of
  ///   ``/SectionKit/Changeset/reconfiguredElements`` (placed as reloads are), its destination.
  /// - Complexity: O(r · k), where r is the number of reloads and k the number of explicit
  ///   deletes and inserts.
  public func reloadDestinations(in changeset: Changeset) -> [IndexPath: IndexPath] {
    let batch = NormalizedBatch(changeset: changeset, oldCounts: nil, newCounts: nil, model: model)
    var result: [IndexPath: IndexPath] = [:]
    for (reload, destination) in batch.reloadDestinations where !reload.isSection {
      result[reload.indexPath] = destination.indexPath
    }
    return result
  }

  private func checkCounts(_ counts: [Int], _ name: String) {
    precondition(
      counts.allSatisfy { $0 >= 0 },
      "BatchValidator: \(name) must not contain negative counts (got \(counts))")
  }
}
