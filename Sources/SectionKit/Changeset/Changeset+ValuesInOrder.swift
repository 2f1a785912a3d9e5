import Foundation

extension Changeset {
  /// Applies this changeset to `mirror` when it changes elements only, the new values given in
  /// the order of their paths (ascending: by section, then element), `paths` the path of each;
  /// `false`, with `mirror` unchanged, when it changes sections or reconfigures elements, does
  /// not fit, or `paths` are not exactly the changeset's inserts and reload destinations, in
  /// order. ``apply(to:insertedSection:newElement:newSectionCount:)`` then applies it or says why
  /// not.
  ///
  /// - Complexity: O(c log c + s + m) for c changes, s sections, and m elements an array must
  ///   move; one walk matches the values with the plan's arrivals, no search and no hashing.
  @_specialize(where Element == String)
  package func applyElementChanges<Element>(
    to mirror: inout [[Element]], newValues: [Element], at paths: [IndexPath]
  ) -> Bool {
    guard newValues.count == paths.count,
      let plan = ElementMirrorPlan(self, oldCounts: mirror.map { $0.count })
    else { return false }
    var values: [Element] = []
    values.reserveCapacity(plan.arrivals.count)
    var next = 0
    for arrival in plan.arrivals {
      if let from = arrival.from {
        values.append(mirror[from.section][from.item])
        continue
      }
      guard next < paths.count, paths[next].count == 2, paths[next][0] == arrival.path.section,
        paths[next][1] == arrival.path.item
      else { return false }
      values.append(newValues[next])
      next += 1
    }
    guard next == paths.count else { return false }
    plan.edit(&mirror, values: values)
    return true
  }
}
