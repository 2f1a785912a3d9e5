/// One reading of a section's surviving old elements: which unchanged ones move, which updated
/// ones are reloaded, and which are deleted and inserted instead.
///
/// Unchanged elements outside a longest increasing subsequence of old indexes move. An updated
/// element is never moved (a moved cell keeps its old content): it is reloaded where UIKit's reload
/// arithmetic (B3: the explicit deletes and inserts only, moves ignored) lands it at its true new
/// position, and deleted and inserted otherwise. Two readings are tried, as neither is always the
/// smaller (the reducer tries the four combinations when a section has updated elements):
/// - `updatedKeepOrder == false`: updated elements weigh nothing in the subsequence, so they never
///   cost an unchanged element its place; each is reloaded wherever it lands right, even out of
///   order (B3 ignores moves);
/// - `updatedKeepOrder == true`: updated elements take part in the subsequence (length first,
///   unchanged elements second); those outside it are deleted and inserted at once, which can let
///   the others land (two updated elements that swapped: one delete + insert, one reload);
/// - `movesAsDeleteAndInsert == true`: unchanged elements outside the subsequence are deleted and
///   inserted instead of moved — one change more each, but B3 counts them no longer, which can
///   let every reload land (`[0, 1, 2, 3, 4]` → `[1, 2', 3', 4', 0]`: 0 deleted and inserted, three
///   reloads, instead of a move and three deletes and inserts).
struct ElementPlan {
  var moves: [(old: Int, new: Int)] = []
  var reloads: [Int] = []
  /// The number of updated elements deleted and inserted because their reload would land wrong.
  var converted = 0
  var deletes: [Int] = []
  var inserts: [Int] = []
  /// Scratch space of ``settle(_:)``: the updated elements that may still be reloaded, and how far
  /// each lands from its true new position. Kept, with the arrays above, from one reading to the
  /// next (see ``read(_:staying:deletes:inserts:updatedKeepOrder:movesAsDeleteAndInsert:)``).
  var candidates: [(old: Int, new: Int)] = []
  var displacement: [Int] = []
  /// The number of changes.
  var size: Int { moves.count + reloads.count + deletes.count + inserts.count }
  /// The largest capacity among the arrays.
  @inline(__always)
  var capacity: Int {
    Swift.max(
      moves.capacity, reloads.capacity, deletes.capacity, inserts.capacity, candidates.capacity,
      displacement.capacity)
  }

  /// An empty reading, whose arrays ``read(_:staying:deletes:inserts:updatedKeepOrder:movesAsDeleteAndInsert:)``
  /// fills.
  init() {}

  /// Which old runs stay in place under the weighting `updatedKeepOrder` selects (see above);
  /// `ranks` are the runs' ranks by old start, empty when the runs are in old order.
  ///
  /// - Complexity: O(r log r) for r runs; O(r) when they are in old order.
  static func staying(
    _ oldRuns: [(run: Run, newStart: Int)], ranks: [Int], updatedKeepOrder: Bool
  ) -> [Bool] {
    var staying: [Bool] = []
    Self.staying(oldRuns, ranks: ranks, updatedKeepOrder: updatedKeepOrder, into: &staying)
    return staying
  }

  /// ``staying(_:ranks:updatedKeepOrder:)`` into `staying`, whose contents it replaces and whose
  /// capacity it keeps.
  static func staying(
    _ oldRuns: [(run: Run, newStart: Int)], ranks: [Int], updatedKeepOrder: Bool,
    into staying: inout [Bool]
  ) {
    // Old runs already in old order all stay, whatever their weights (every unchanged run weighs
    // more than nothing; an updated run that weighs nothing is a candidate either way): no
    // subsequence to compute.
    guard !ranks.isEmpty else {
      staying.removeAllKeepingBuffer()
      for _ in oldRuns.indices { staying.append(true) }
      return
    }
    // A closure, not a key path: a key path is projected through the runtime on every access.
    let runs = oldRuns.lazy.map { $0.run }
    guard updatedKeepOrder else {
      longestIncreasingRuns(runs, ranks: ranks, into: &staying) {
        $0.kind == .updated ? 0 : $0.count
      }
      return
    }
    // Length first, then unchanged elements: length × (total + 1) + unchanged orders them so.
    let scale = runs.reduce(0) { $0 + $1.count } + 1
    longestIncreasingRuns(runs, ranks: ranks, into: &staying) {
      $0.count * scale + ($0.kind == .updated ? 0 : $0.count)
    }
  }

  /// One reading, given which runs stay (``staying(_:ranks:updatedKeepOrder:)`` with the same
  /// `updatedKeepOrder`).
  ///
  /// - Complexity: O(s log s) for s updated and moved elements.
  init(
    _ oldRuns: [(run: Run, newStart: Int)], staying: [Bool], deletes: [Int], inserts: [Int],
    updatedKeepOrder: Bool = false, movesAsDeleteAndInsert: Bool = false
  ) {
    read(
      oldRuns, staying: staying, deletes: deletes, inserts: inserts,
      updatedKeepOrder: updatedKeepOrder, movesAsDeleteAndInsert: movesAsDeleteAndInsert)
  }

  /// Replaces this reading with the one `init(_:staying:deletes:inserts:updatedKeepOrder:movesAsDeleteAndInsert:)`
  /// makes, in the arrays this one grew: reading many sections off with one plan allocates its
  /// arrays once.
  ///
  /// - Complexity: O(s log s + d) for s updated and moved elements and d deletes and inserts.
  mutating func read(
    _ oldRuns: [(run: Run, newStart: Int)], staying: [Bool], deletes: [Int], inserts: [Int],
    updatedKeepOrder: Bool = false, movesAsDeleteAndInsert: Bool = false
  ) {
    moves.removeAllKeepingBuffer()
    reloads.removeAllKeepingBuffer()
    converted = 0
    self.deletes.removeAllKeepingBuffer()
    self.deletes.append(contentsOf: deletes)
    self.inserts.removeAllKeepingBuffer()
    self.inserts.append(contentsOf: inserts)
    candidates.removeAllKeepingBuffer()
    for (index, entry) in oldRuns.enumerated() {
      let run = entry.run
      // An unchanged run that stays yields nothing: skipped whole, so that reading a section off
      // costs its runs, not its elements.
      if staying[index] && run.kind == .old { continue }
      for offset in 0..<run.count {
        let old = run.start + offset
        let new = entry.newStart + offset
        switch (staying[index], run.kind) {
        case (true, .updated):
          candidates.append((old, new))
        case (false, .updated) where updatedKeepOrder:
          UIKitConversions.elementUpdatedAndMoved(
            old: old, new: new, deletes: &self.deletes, inserts: &self.inserts)
        case (false, .updated):
          candidates.append((old, new))
        case (true, _):
          break
        case (false, _) where movesAsDeleteAndInsert:
          UIKitConversions.elementMovedToLandReloads(
            old: old, new: new, deletes: &self.deletes, inserts: &self.inserts)
        case (false, _):
          moves.append((old, new))
        }
      }
    }
    settleCandidates()
  }

  /// Whether the old runs `oldRuns` (in new order) are in old order: nothing moved.
  static func isIncreasing(_ oldRuns: [(run: Run, newStart: Int)]) -> Bool {
    oldRuns.indices.dropFirst().allSatisfy { oldRuns[$0 - 1].run.start < oldRuns[$0].run.start }
  }
}
