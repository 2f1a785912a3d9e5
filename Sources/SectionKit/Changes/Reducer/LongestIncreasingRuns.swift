/// Which runs (disjoint ranges of old indexes, in new order) form the longest increasing
/// subsequence of old indexes, each run weighted by its length. Runs are disjoint, so a run is
/// either wholly before or wholly after another: the best subsequence takes whole runs.
///
/// `weight` gives each run's weight (its length by default; see ``ElementPlan``); `ranks`, when
/// given, each run's rank (from 1) by old start, so that callers reading the same runs several
/// times sort them once.
///
/// - Complexity: O(r log r) for r runs.
func longestIncreasingRuns<Runs: RandomAccessCollection<Run>>(
  _ runs: Runs, ranks: [Int]? = nil, weight: (Run) -> Int = \.count
) -> [Bool] where Runs.Index == Int {
  var staying: [Bool] = []
  longestIncreasingRuns(runs, ranks: ranks, into: &staying, weight: weight)
  return staying
}

/// ``longestIncreasingRuns(_:ranks:weight:)`` into `staying`, whose contents it replaces and whose
/// capacity it keeps.
///
/// - Complexity: O(r log r) for r runs.
func longestIncreasingRuns<Runs: RandomAccessCollection<Run>>(
  _ runs: Runs, ranks: [Int]? = nil, into staying: inout [Bool], weight: (Run) -> Int = \.count
) where Runs.Index == Int {
  staying.removeAllKeepingBuffer()
  guard runs.count > 1 else {
    for _ in 0..<runs.count { staying.append(true) }
    return
  }
  // Rank runs by old start.
  let rank =
    ranks
    ?? {
      var rank = [Int](repeating: 0, count: runs.count)
      let order = runs.indices.sorted { runs[$0].start < runs[$1].start }
      for (r, index) in order.enumerated() { rank[index - runs.startIndex] = r + 1 }
      return rank
    }()
  let count = runs.count
  for _ in 0..<count { staying.append(false) }
  // Scratch space on the stack for a few runs, not three arrays on the heap.
  withUnsafeTemporaryAllocation(of: Int.self, capacity: heaviestChainScratch(count)) { scratch in
    staying.withUnsafeMutableBufferPointer { staying in
      heaviestIncreasingChain(
        count: count, scratch: scratch.baseAddress!, rank: { rank[$0] },
        weight: { weight(runs[runs.startIndex + $0]) }, stay: { staying[$0] = true })
    }
  }
}

/// The room ``heaviestIncreasingChain(count:scratch:rank:weight:stay:)`` needs for `count` runs.
@inline(__always)
func heaviestChainScratch(_ count: Int) -> Int { 3 * count + 2 }

/// The heaviest chain of runs `0..<count` (in new order) whose ranks by old start increase: calls
/// `stay` for each run of it, last first. `rank(i)` is run i's rank by old start (from 1), and
/// `scratch` room for ``heaviestChainScratch(_:)`` integers: the subsequence of
/// ``longestIncreasingRuns(_:ranks:into:weight:)``.
///
/// - Complexity: O(r log r) for r runs.
@inline(__always)
func heaviestIncreasingChain(
  count: Int, scratch: UnsafeMutablePointer<Int>, rank: (Int) -> Int, weight: (Int) -> Int,
  stay: (Int) -> Void
) {
  // A Fenwick tree over ranks gives the best chain (weight, last run) ending below a rank; and
  // each run's predecessor.
  let treeWeight = scratch
  let treeRun = treeWeight + (count + 1)
  let previous = treeRun + (count + 1)
  treeWeight.initialize(repeating: 0, count: count + 1)
  treeRun.initialize(repeating: -1, count: count + 1)
  previous.initialize(repeating: -1, count: count)
  var best = (weight: 0, run: -1)
  for index in 0..<count {
    // Best chain over ranks < rank(index).
    let runRank = rank(index)
    var query = runRank - 1
    var found = (weight: 0, run: -1)
    while query > 0 {
      if treeWeight[query] > found.weight { found = (treeWeight[query], treeRun[query]) }
      query -= query & -query
    }
    let chain = (weight: found.weight + weight(index), run: index)
    previous[index] = found.run
    if chain.weight > best.weight { best = chain }
    var slot = runRank
    while slot <= count {
      if chain.weight > treeWeight[slot] { (treeWeight[slot], treeRun[slot]) = chain }
      slot += slot & -slot
    }
  }
  var cursor = best.run
  while cursor >= 0 {
    stay(cursor)
    cursor = previous[cursor]
  }
}
