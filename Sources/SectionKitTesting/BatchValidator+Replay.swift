import Foundation
import SectionKit

extension BatchValidator {
  /// What a view showing `old` shows after UIKit applies `changeset` (`Docs/Batching.md`,
  /// rule B10).
  ///
  /// Moved cells keep their **old** content (UIKit does not reconfigure them); inserted cells and
  /// reload destinations — at the path UIKit computes, which ignores moves — get
  /// `newValues(path)`; every other cell is the next surviving old cell of the section it maps
  /// from (rule B8). Use values that encode identity and content version (`"id@v2"`): comparing the
  /// result with the model then catches an unreloaded content change, a reload that lands on the
  /// wrong cell, and a wrong index context.
  ///
  /// ```swift
  /// let shown = BatchValidator().replay(
  ///   old: [["a", "b", "c"]],
  ///   changeset: Changeset(movedElements: [.init(from: [0, 2], to: [0, 0])]),
  ///   newValues: { _ in "?" }, newCounts: [3])
  /// // [["c", "a", "b"]]
  /// ```
  ///
  /// - Parameters:
  ///   - old: The values shown before the batch, one array per section.
  ///   - changeset: The batch; it must pass ``validate(oldCounts:newCounts:changeset:)`` without
  ///     errors (strict warnings are fine).
  ///   - newValues: The model's value at a new index path; called only for inserted cells and
  ///     reload destinations.
  ///   - newCounts: The number of elements in each section after the batch.
  /// - Returns: The values shown after the batch, one array per new section.
  /// - Precondition: The changeset validates without errors.
  /// - Complexity: O(n + k log k), where n is the number of elements shown and k the number of
  ///   operations.
  public func replay<Value>(
    old: [[Value]], changeset: Changeset, newValues: (IndexPath) -> Value, newCounts: [Int]
  ) -> [[Value]] {
    let batch = NormalizedBatch(
      changeset: changeset, oldCounts: old.map(\.count), newCounts: newCounts, model: model)
    if let error = batch.violations.first(where: \.isError) {
      preconditionFailure(
        "BatchValidator.replay(old:changeset:newValues:newCounts:): the changeset does not "
          + "validate: \(error)")
    }
    return Self.replay(batch, old: old, newValues: newValues, newCounts: newCounts)
  }

  /// Replays an already validated batch.
  static func replay<Value>(
    _ batch: NormalizedBatch, old: [[Value]], newValues: (IndexPath) -> Value, newCounts: [Int]
  ) -> [[Value]] {
    var moveSource: [BatchOperation: BatchOperation] = [:]
    var removed: [Int: Set<Int>] = [:]
    for (from, to) in batch.itemMoves {
      moveSource[to] = from
      removed[from.section, default: []].insert(from.item!)
    }
    for op in batch.effectiveItemDeletes { removed[op.section, default: []].insert(op.item!) }
    var inserted: [Int: Set<Int>] = [:]
    for op in batch.effectiveItemInserts { inserted[op.section, default: []].insert(op.item!) }

    var result: [[Value]] = []
    result.reserveCapacity(newCounts.count)
    for (section, count) in newCounts.enumerated() {
      if batch.addedSections.contains(section) {
        result.append((0..<count).map { newValues(IndexPath(indexes: [section, $0])) })
        continue
      }
      guard let oldSection = batch.newToOld[section] else {
        preconditionFailure(
          "BatchValidator.replay: new section \(section) has no old section in the section map")
      }
      let gone = removed[oldSection] ?? []
      let added = inserted[section] ?? []
      var survivors = old[oldSection].indices.lazy.filter { !gone.contains($0) }.makeIterator()
      var values: [Value] = []
      values.reserveCapacity(count)
      for item in 0..<count {
        if let source = moveSource[BatchOperation(section: section, item: item)] {
          values.append(old[source.section][source.item!])
        } else if added.contains(item) {
          values.append(newValues(IndexPath(indexes: [section, item])))
        } else if let next = survivors.next() {
          values.append(old[oldSection][next])
        } else {
          preconditionFailure(
            "BatchValidator.replay: section \(section) runs out of surviving old cells at \(item)")
        }
      }
      precondition(
        survivors.next() == nil,
        "BatchValidator.replay: old section \(oldSection) has surviving cells left over")
      result.append(values)
    }
    return result
  }
}
