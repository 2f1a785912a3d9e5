import Testing

@testable import SectionKit

/// The reducer's run trees stay balanced whatever the order of a batch's changes: the work per
/// change is bounded by the tree's height, counted here (never timed).
@Suite("Reducer complexity")
struct ReducerComplexityTests {
  enum Order: CaseIterable { case descending, ascending, random }

  /// The positions, each valid at its point of the sequence, that remove the odd slots of
  /// `0..<count` in `order`.
  static func removals(count: Int, order: Order) -> [Int] {
    let odd = Array(stride(from: 1, to: count, by: 2))
    switch order {
    case .descending: return odd.reversed()
    case .ascending: return odd.indices.map { odd[$0] - $0 }
    case .random:
      // Removing slot `odd[i]` after the removals of the odd slots below it: its position drops
      // by one for each of them already removed. Pick a fixed pseudo-random order.
      var order = odd.indices.map { ($0 &* 2_654_435_761) % 1_000_003 }
      order = odd.indices.sorted { order[$0] < order[$1] }
      var remaining = FenwickCounter(count: odd.count)
      return order.map { index in
        let removedBelow = index - remaining.count(below: index)
        remaining.remove(index)
        return odd[index] - removedBelow
      }
    }
  }

  @Test(arguments: Order.allCases)
  func removingEveryOtherSlot_keepsTheRunTreeLogarithmicallyDeep(order: Order) {
    let count = 20_000
    var pool = RunPool()
    var tree = pool.makeTree(.old(0..<count))
    var tallest = 0
    for (step, position) in Self.removals(count: count, order: order).enumerated() {
      tree = pool.cut(tree, at: position, count: 1).tree
      if step % 500 == 0 { tallest = max(tallest, pool.height(tree)) }
    }
    tallest = max(tallest, pool.height(tree))
    let runs = pool.runs(tree)
    #expect(runs.count == count / 2)
    #expect(runs.allSatisfy { $0.isOld && $0.count == 1 && $0.start % 2 == 0 })
    // A treap of r nodes is about 3 log2 r deep; r ≤ 10,000 here, so log2 r < 14.
    #expect(tallest <= 4 * 14, "run tree \(tallest) deep for \(runs.count) runs")
  }
}
