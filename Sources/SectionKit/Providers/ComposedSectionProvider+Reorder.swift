extension ComposedSectionProvider {
  /// Removes the children that do not survive and moves the survivors into their new relative
  /// order, so that what is left is the survivors of `previous`, in its order; the caller then
  /// inserts the new children at their positions, ascending.
  ///
  /// `previous[p]` is the current position of the child that ends at position `p`, or `nil` for
  /// a child still to insert. Only the survivors outside a longest increasing run of current
  /// positions are moved (``moveChild(at:to:)``): a coordinator shows each as section moves, and
  /// the others not at all.
  ///
  /// - Complexity: O(c log c) bookkeeping for c children, plus the removals and moves themselves.
  func keepSurvivors(inOrder previous: [Int?]) {
    let oldCount = children.count
    var kept = [Bool](repeating: false, count: oldCount)
    for case let was? in previous { kept[was] = true }
    for index in (0..<oldCount).reversed() where !kept[index] { remove(at: index) }
    // The survivors, ranked by old position. They are placed front to back in their new order;
    // the ones not yet placed keep their old relative order behind the placed ones, so a
    // survivor's position is the number placed plus the unplaced survivors ranked before it.
    var rank = [Int](repeating: -1, count: oldCount)
    var survivors = 0
    for index in 0..<oldCount where kept[index] {
      rank[index] = survivors
      survivors += 1
    }
    var unplaced = FenwickCounter(count: survivors)
    var placed = 0
    for case let was? in previous {
      let position = placed + unplaced.count(below: rank[was])
      if position != placed { moveChild(at: position, to: placed) }
      unplaced.remove(rank[was])
      placed += 1
    }
  }
}
