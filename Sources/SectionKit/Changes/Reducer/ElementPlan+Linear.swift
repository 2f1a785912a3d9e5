/// The linear-time pieces of reading a large section off (a diff of 10⁵ elements with 20% churn
/// has some 15,000 runs and thousands of updated elements): the runs ordered by old start by
/// counting, a bound that skips the readings that cannot win, and where the reloads of one
/// reading land (UIKit's arithmetic, rule B3) in one pass over the candidates, the deletes and
/// the inserts, all sorted, with no binary search and no `SlotMap` per round.
extension ElementPlan {
  /// The positions in `oldRuns` ordered by old start. The runs are disjoint ranges of
  /// `0..<oldCount`: when they are dense in it, one pass over a table of `oldCount` entries orders
  /// them; otherwise a sort.
  ///
  /// - Complexity: O(r + n) for r runs dense in n old elements (at least one run in 16), O(r log
  ///   r) otherwise.
  static func byOldStart(_ oldRuns: [(run: Run, newStart: Int)], oldCount: Int) -> [Int] {
    var order: [Int] = []
    byOldStart(oldRuns, oldCount: oldCount, into: &order)
    return order
  }

  /// ``byOldStart(_:oldCount:)`` into `order`, whose contents it replaces and whose capacity it
  /// keeps.
  static func byOldStart(
    _ oldRuns: [(run: Run, newStart: Int)], oldCount: Int, into order: inout [Int]
  ) {
    order.removeAllKeepingBuffer()
    guard oldRuns.count > 64, oldCount <= 16 * oldRuns.count, oldCount <= Int(Int32.max) else {
      for index in oldRuns.indices { order.append(index) }
      // Starts are unique (the runs are disjoint): an unstable sort, with no merge buffer.
      order.withUnsafeMutableBufferPointer { $0.sortUnstably { oldRuns[$0].run.start } }
      return
    }
    var runAt = [Int32](repeating: -1, count: oldCount)
    for (index, entry) in oldRuns.enumerated() { runAt[entry.run.start] = Int32(index) }
    order.reserveCapacity(oldRuns.count)
    for index in runAt where index >= 0 { order.append(Int(index)) }
  }

  /// The fewest changes the reading `ElementPlan(oldRuns, staying: staying, …)` can have, counted
  /// in O(r) without making it: `deletes` (the section's own deletes and inserts), one change for
  /// each updated element that may still be reloaded and for each unchanged one that moves, two
  /// for each deleted and inserted. Only a reload's conversion is left out (it adds one), so a
  /// reading whose least size is not below the best so far cannot replace it, and the reducer
  /// skips it.
  ///
  /// - Complexity: O(r) for r runs.
  static func leastSize(
    _ oldRuns: [(run: Run, newStart: Int)], staying: [Bool], deletes: Int,
    updatedKeepOrder: Bool, movesAsDeleteAndInsert: Bool
  ) -> Int {
    var size = deletes
    for (index, entry) in oldRuns.enumerated() {
      let run = entry.run
      switch (staying[index], run.kind) {
      case (true, .updated): size += run.count
      case (false, .updated): size += updatedKeepOrder ? 2 * run.count : run.count
      case (true, _): break
      case (false, _): size += movesAsDeleteAndInsert ? 2 * run.count : run.count
      }
    }
    return size
  }

  /// Keeps as reloads the candidates that land right, converting the others to delete + insert.
  ///
  /// Each conversion adds an explicit delete and insert, which shifts where the others land. Each
  /// round converts only the failing candidates displaced the furthest (the cause, usually: two
  /// updated elements that swapped need one conversion, not two), up to eight rounds while the
  /// candidates are few (64); then every failing one, up to four rounds; then every remaining one
  /// — at most thirteen rounds, O(c + k) each for c candidates and k deletes and inserts (they
  /// are kept sorted: each round's conversions are one more sorted run to merge).
  mutating func settle(_ candidates: [(old: Int, new: Int)]) {
    self.candidates = candidates
    settleCandidates()
  }

  /// ``settle(_:)`` for the candidates this reading holds.
  mutating func settleCandidates() {
    reloads.removeAllKeepingBuffer()
    guard !candidates.isEmpty else { return }
    if !candidates.indices.dropFirst().allSatisfy({ candidates[$0 - 1].old < candidates[$0].old }) {
      candidates.sort { $0.old < $1.old }
    }
    // Sorted only when they are not (each sort of an array shared with the caller copies it).
    if !deletes.indices.dropFirst().allSatisfy({ deletes[$0 - 1] < deletes[$0] }) { deletes.sort() }
    if !inserts.indices.dropFirst().allSatisfy({ inserts[$0 - 1] < inserts[$0] }) { inserts.sort() }
    var round = 0
    let fineRounds = candidates.count <= 64 ? 8 : 0
    while !candidates.isEmpty {
      round += 1
      Self.displacements(
        of: candidates, removedAscending: deletes, fixedAscending: inserts, into: &displacement)
      guard let furthest = displacement.max(), furthest > 0 else { break }
      let threshold = round <= fineRounds ? furthest : round <= fineRounds + 4 ? 1 : 0
      // The conversions, ascending old (so ascending among the deletes they join); the kept
      // candidates move down in place.
      let (deleteCount, insertCount) = (deletes.count, inserts.count)
      var kept = 0
      for index in candidates.indices {
        let candidate = candidates[index]
        if displacement[index] >= threshold {
          UIKitConversions.elementReloadLandingElsewhere(
            old: candidate.old, new: candidate.new, deletes: &deletes, inserts: &inserts)
          converted += 1
        } else {
          candidates[kept] = candidate
          kept += 1
        }
      }
      candidates.removeLast(candidates.count - kept)
      // Two sorted runs each (the inserts' new run sorted first): one merge.
      if deletes.count > deleteCount {
        // Through the buffer: sorting `inserts[insertCount...]` would copy the array.
        inserts.withUnsafeMutableBufferPointer { $0[insertCount...].sort() }
        deletes.sort()
        inserts.sort()
      }
    }
    for candidate in candidates { reloads.append(candidate.old) }
  }

  /// The distance between where each candidate lands and its true new position: `SlotMap`'s
  /// ``SlotMap/destination(of:)`` for `removed` and `fixed`, walked once for candidates in
  /// ascending old order (their ranks among the old positions that stay ascend, and so do their
  /// destinations).
  ///
  /// - Parameters:
  ///   - candidates: ascending old positions, none in `removed`, each with its true new position.
  ///   - removed: old positions that leave, ascending without duplicates.
  ///   - fixed: new positions taken by arrivals, ascending without duplicates.
  ///   - displacement: replaced by the distances, one for each candidate.
  /// - Complexity: O(c + r + f).
  static func displacements(
    of candidates: [(old: Int, new: Int)], removedAscending removed: [Int],
    fixedAscending fixed: [Int], into displacement: inout [Int]
  ) {
    displacement.removeAllKeepingBuffer()
    displacement.reserveCapacity(candidates.count)
    var removedBelow = 0
    var fixedTaken = 0
    for candidate in candidates {
      while removedBelow < removed.count && removed[removedBelow] < candidate.old {
        removedBelow += 1
      }
      // The rank among the old positions that stay, and the rank-th new position no arrival
      // takes: every arrival at or below it pushes it one further.
      let rank = candidate.old &- removedBelow
      while fixedTaken < fixed.count && fixed[fixedTaken] <= rank &+ fixedTaken {
        fixedTaken += 1
      }
      displacement.append(abs(rank &+ fixedTaken &- candidate.new))
    }
  }
}
