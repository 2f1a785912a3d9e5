import Foundation
import SectionKit

extension BatchValidator {
  /// Validates `changeset` between `old` and `new`, then replays it onto `old` and compares the
  /// result with `new`, cell by cell.
  ///
  /// ```swift
  /// let result = BatchValidator().check(
  ///   old: [["a@1", "b@1"]], new: [["a@1", "b@2"]], changeset: Changeset())
  /// result.isSuccess     // false
  /// result.description   // "replay mismatch at [0, 1]: expected b@2, got b@1"
  /// ```
  ///
  /// - Parameters:
  ///   - old: The values shown before the batch, one array per section.
  ///   - new: The model's values after the batch, one array per section.
  ///   - changeset: The batch.
  ///   - strict: Whether strict warnings make the check fail.
  /// - Returns: The violations and the first replay mismatch. The replay runs only when the batch
  ///   has no errors.
  /// - Complexity: O(n + k log k), where n is the number of cells and k the number of operations.
  public func check<Value: Equatable>(
    old: [[Value]], new: [[Value]], changeset: Changeset, strict: Bool = false
  ) -> BatchCheckResult {
    let newCounts = new.map(\.count)
    let batch = NormalizedBatch(
      changeset: changeset, oldCounts: old.map(\.count), newCounts: newCounts, model: model)
    guard !batch.hasErrors else {
      return BatchCheckResult(violations: batch.violations, mismatch: nil, strict: strict)
    }
    let replayed = Self.replay(
      batch, old: old, newValues: { new[$0[0]][$0[1]] }, newCounts: newCounts)
    return BatchCheckResult(
      violations: batch.violations, mismatch: Self.firstMismatch(replayed, new), strict: strict)
  }

  /// The first cell where `actual` (the replay) differs from `expected` (the model).
  static func firstMismatch<Value: Equatable>(_ actual: [[Value]], _ expected: [[Value]])
    -> ReplayMismatch?
  {
    for section in 0..<max(actual.count, expected.count) {
      let shown = section < actual.count ? actual[section] : []
      let model = section < expected.count ? expected[section] : []
      for item in 0..<max(shown.count, model.count) {
        let got = item < shown.count ? String(describing: shown[item]) : "nothing"
        let want = item < model.count ? String(describing: model[item]) : "nothing"
        if item >= shown.count || item >= model.count || shown[item] != model[item] {
          return ReplayMismatch(
            indexPath: IndexPath(indexes: [section, item]), expected: want, actual: got)
        }
      }
    }
    return nil
  }
}
