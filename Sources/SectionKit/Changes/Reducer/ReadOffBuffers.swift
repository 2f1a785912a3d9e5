import Foundation

/// Arrays that the read-off of one section fills and empties, lent from section to section with
/// their capacity.
struct ReadOffBuffers {
  var edited: [BatchReducer.Edited] = []
  var runs: [Run] = []
  var stack: [RunPool.NodeID] = []
  var oldRuns: [(run: Run, newStart: Int)] = []
  var inserts: [Int] = []
  var deletes: [Int] = []
  var ranks: [Int] = []
  var order: [Int] = []
  /// The two subsequences of ``ElementPlan/staying(_:ranks:updatedKeepOrder:into:)``.
  var unchangedFirst: [Bool] = []
  var lengthFirst: [Bool] = []
  /// The best reading so far and the one tried against it.
  var plan = ElementPlan()
  var otherPlan = ElementPlan()

  /// The largest capacity among the arrays.
  @inline(__always)
  var capacity: Int {
    Swift.max(
      edited.capacity, runs.capacity, stack.capacity, oldRuns.capacity, inserts.capacity,
      deletes.capacity, ranks.capacity, order.capacity, unchangedFirst.capacity,
      lengthFirst.capacity, plan.capacity, otherPlan.capacity)
  }

  /// `array` emptied with its capacity kept, leaving an empty array in its place, so that the
  /// array taken is uniquely referenced while it is filled.
  static func take<T>(_ array: inout [T]) -> [T] {
    var taken: [T] = []
    swap(&taken, &array)
    taken.removeAllKeepingBuffer()
    return taken
  }
}
