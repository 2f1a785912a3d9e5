import Foundation
import SectionKitTesting
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

/// The batch contract, counted through the whole coordinator: k random changes cost the reducer
/// O(k log k) node visits, the same on a tree of 10³ elements as on one of 10⁶.
@Suite("Reducer work for a batch of k changes")
struct BatchWorkTests {
  final class SilentAdapter: ViewAdapter {
    func reloadData(from coordinator: Coordinator) {}
    func apply(
      _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
    ) {}
  }

  /// The reducer's node visits for `k` random element changes in one batch over `sections` ×
  /// `elements`.
  static func work(sections: Int, elements: Int, changes k: Int, seed: UInt64) -> Int {
    let root = ComposedSectionProvider()
    let all = (0..<sections).map { _ in ArraySection<Int>(Array(0..<elements)) }
    for section in all { root.append(section) }
    let coordinator = Coordinator(sectionProvider: root)
    coordinator.adapter = SilentAdapter()
    var rng = SeededGenerator(seed: seed)
    var work = 0
    coordinator.performBatchUpdates {
      for _ in 0..<k {
        let section = all[Int.random(in: 0..<10, using: &rng)]
        let count = section.count
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: section.insert(-1, at: Int.random(in: 0...count, using: &rng))
        case 1 where count > 0: section.remove(at: Int.random(in: 0..<count, using: &rng))
        case 2 where count > 1:
          section.move(
            from: Int.random(in: 0..<count, using: &rng), to: Int.random(in: 0..<count, using: &rng)
          )
        default: if count > 0 { section[Int.random(in: 0..<count, using: &rng)] = -2 }
        }
      }
      work = coordinator.reducer?.work ?? 0
    }
    return work
  }

  @Test(arguments: [10, 100, 1_000])
  func aBatchOfKChangesCostsTheSameOnATreeOfAThousandAndOfAMillionElements(k: Int) {
    // 10³ elements: 10 sections × 100; 10⁶: 1,000 sections × 1,000. Changes land in the first
    // ten sections of either tree.
    let small = Self.work(sections: 10, elements: 100, changes: k, seed: 1)
    let large = Self.work(sections: 1_000, elements: 1_000, changes: k, seed: 1)
    let logK = log2(Double(k) + 1)
    let bound = Int(12 * Double(k) * logK)
    #expect(small > 0 && large > 0)
    // Independent of the tree's size: the same draws cost within a factor of two.
    #expect(large <= 2 * small + 2 * k, "10⁶: \(large) visits, 10³: \(small)")
    #expect(small <= bound, "10³ elements: \(small) visits for \(k) changes (bound \(bound))")
    #expect(large <= bound, "10⁶ elements: \(large) visits for \(k) changes (bound \(bound))")
  }
}
