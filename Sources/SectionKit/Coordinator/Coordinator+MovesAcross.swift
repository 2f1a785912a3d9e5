import Foundation

/// An element that a snapshot apply moves from one section to another, both of which stay: the
/// old section and index (before the batch), the new section and index (after it).
struct ElementMoveAcross {
  var from: any Section
  var fromIndex: Int
  var to: any Section
  var toIndex: Int
}

/// Element moves across sections. The pipe carries an element that changes section as a removal
/// and an insertion, which the reducer reads off as a delete and an insert; a
/// ``SnapshotSectionProvider`` that knows which element went where tells the coordinator before
/// its batch, and the coordinator turns each such pair into one move where UIKit reads the move
/// exactly as the delete and the insert (rules B3, B9 and B11 in `Docs/Batching.md`).
extension Coordinator {
  /// Notes `moves` for the batch about to open, when it is a batch of its own: no batch open, no
  /// changeset being applied, an adapter attached and no reload owed. Dropped otherwise.
  func expectMovesAcross(_ moves: [ElementMoveAcross]) {
    guard case .idle = phase, adapter != nil else { return }
    expectedMovesAcross = moves
  }

  /// Replaces, in `changeset`, the delete and the insert of each of `moves` by one move where
  /// UIKit reads the move as the two, and turns a reload into a delete and an insert where that
  /// lets more moves through than it costs. Returns the moves made, old path → new path.
  ///
  /// A move needs both halves in the changeset and neither section inserted, deleted, reloaded
  /// or moved as a whole (B4, B5, B9). Then only the reloads of its two sections stand in the
  /// way: UIKit places a reload by the explicit deletes and inserts alone (B3), so a delete taken
  /// away below the reload raises its rank among the old elements that stay, and an insert taken
  /// away below its destination frees a slot under it. The two cancel: a reload stays where the
  /// reducer put it exactly when as many of its section's moves leave from below it as arrive
  /// below its destination. A reload that is not balanced becomes a delete at its old path and
  /// an insert at its new one (valid whatever else the section does, one change more), and each
  /// move made is one change less. Each section weighs which reloads to give up against the
  /// moves they let through (`MovesAcrossSection.choose`), and the result is kept only when it
  /// saves at least as many changes as the moves that need no conversion at all.
  ///
  /// The reducer is not asked: the reloads' destinations are B3's, read off the changeset.
  ///
  /// - Complexity: O(s + r + c + m log m) for s presented sections, r reloads, c changes and m
  ///   moves.
  func pairMovesAcross(
    _ moves: [ElementMoveAcross], in changeset: inout Changeset
  ) -> [IndexPath: IndexPath] {
    var blockedOld = Set(changeset.movedSections.map(\.from))
    for range in changeset.deletedSectionRanges + changeset.reloadedSectionRanges {
      blockedOld.formUnion(range)
    }
    var blockedNew = Set(changeset.movedSections.map(\.to))
    for range in changeset.insertedSectionRanges + changeset.reloadedSectionRanges {
      blockedNew.formUnion(range)
    }
    var slotOf: [ObjectIdentifier: Int] = [:]
    for move in moves {
      slotOf[ObjectIdentifier(move.from)] = -1
      slotOf[ObjectIdentifier(move.to)] = -1
    }
    // The sections that moves may leave or enter, in old order.
    var sections: [MovesAcrossSection] = []
    var slotOfOld = [Int](repeating: -1, count: presented.sections.count)
    for (index, section) in presented.sections.enumerated()
    where slotOf[ObjectIdentifier(section)] != nil {
      guard !blockedOld.contains(index), let new = mapping.sectionOffset(for: section),
        !blockedNew.contains(new)
      else { continue }
      slotOf[ObjectIdentifier(section)] = sections.count
      slotOfOld[index] = sections.count
      sections.append(MovesAcrossSection(old: index, new: new))
    }
    var candidates: [(from: Int, to: Int)] = []
    for move in moves {
      guard let from = slotOf[ObjectIdentifier(move.from)], from >= 0,
        let to = slotOf[ObjectIdentifier(move.to)], to >= 0, from != to
      else { continue }
      sections[from].outs.append(.init(index: move.fromIndex, move: candidates.count))
      sections[to].ins.append(.init(index: move.toIndex, move: candidates.count))
      candidates.append((from, to))
    }
    guard !candidates.isEmpty else { return [:] }
    for path in changeset.reloadedElements where slotOfOld[path[0]] >= 0 {
      sections[slotOfOld[path[0]]].reloads.append(.init(old: path[1], new: -1))
    }
    for slot in sections.indices {
      sections[slot].prepare(
        deleted: changeset.deletedElements, inserted: changeset.insertedElements)
    }
    // First what each section lets through keeping every reload it can keep for nothing; then
    // each section weighs its ends (a whole move saved when the other end went through for
    // nothing, half of one otherwise) against its conversions.
    var freeOut = [Bool](repeating: false, count: candidates.count)
    var freeIn = freeOut
    for section in sections {
      let free = section.choose(outWeight: { _ in 0 }, inWeight: { _ in 0 })
      for end in section.outs[free.outs...] { freeOut[end.move] = true }
      for end in section.ins[free.ins...] { freeIn[end.move] = true }
    }
    var allowedOut = [Bool](repeating: false, count: candidates.count)
    var allowedIn = allowedOut
    for section in sections {
      let chosen = section.choose(
        outWeight: { freeIn[$0] ? 2 : 1 }, inWeight: { freeOut[$0] ? 2 : 1 })
      for end in section.outs[chosen.outs...] { allowedOut[end.move] = true }
      for end in section.ins[chosen.ins...] { allowedIn[end.move] = true }
    }
    var made = (0..<candidates.count).map { allowedOut[$0] && allowedIn[$0] }
    var converted = sections.map { $0.unbalancedReloads(made: made) }
    // Kept only when it saves no fewer changes than the moves beyond every reload of both
    // sections, which need no conversion.
    var beyondOut = [Bool](repeating: false, count: candidates.count)
    var beyondIn = beyondOut
    for section in sections { section.markBeyondReloads(out: &beyondOut, in: &beyondIn) }
    let beyond = candidates.indices.map { beyondOut[$0] && beyondIn[$0] }
    let saved = made.count { $0 } - converted.reduce(0) { $0 + $1.count }
    if saved < beyond.count(where: { $0 }) {
      made = beyond
      converted = sections.map { _ in [] }
    }
    return rewrite(&changeset, sections: sections, made: made, converted: converted)
  }

  /// Writes the moves `made` and the reloads `converted` (per section) into `changeset`.
  private func rewrite(
    _ changeset: inout Changeset, sections: [MovesAcrossSection], made: [Bool],
    converted: [[Int]]
  ) -> [IndexPath: IndexPath] {
    var sources: [(Int, Int)] = []
    var destinations: [(Int, Int)] = []
    var moved: [IndexPath: IndexPath] = [:]
    for section in sections {
      for end in section.outs where made[end.move] {
        sources.append((section.old, end.index))
      }
      for end in section.ins where made[end.move] {
        destinations.append((section.new, end.index))
      }
    }
    guard !sources.isEmpty else { return [:] }
    var froms = [IndexPath?](repeating: nil, count: made.count)
    for section in sections {
      for end in section.outs where made[end.move] {
        froms[end.move] = IndexPath(item: end.index, section: section.old)
      }
    }
    var added: [Changeset.Move] = []
    for section in sections {
      for end in section.ins where made[end.move] {
        let to = IndexPath(item: end.index, section: section.new)
        added.append(Changeset.Move(from: froms[end.move]!, to: to))
        moved[froms[end.move]!] = to
      }
    }
    var reloadsOut: [(Int, Int)] = []
    var reloadsIn: [(Int, Int)] = []
    for (section, reloads) in zip(sections, converted) {
      for reload in reloads {
        UIKitConversions.elementReloadUnbalancedByMovesAcross(
          old: (section.old, section.reloads[reload].old),
          new: (section.new, section.reloads[reload].new), deletes: &reloadsOut,
          inserts: &reloadsIn)
      }
    }
    sources.sort { $0 < $1 }
    destinations.sort { $0 < $1 }
    reloadsOut.sort { $0 < $1 }
    reloadsIn.sort { $0 < $1 }
    // Each source is a delete and each destination an insert: the element left a section that
    // stays whole and arrived in another (checked: nothing changes otherwise).
    guard
      let deleted = Self.replacing(sources, with: reloadsOut, in: changeset.deletedElements),
      let inserted = Self.replacing(destinations, with: reloadsIn, in: changeset.insertedElements),
      let reloaded = Self.replacing(reloadsOut, with: [], in: changeset.reloadedElements)
    else { return [:] }
    changeset.deletedElements = deleted
    changeset.insertedElements = inserted
    changeset.reloadedElements = reloaded
    // Sections in order, so destinations too.
    changeset.movedElements = Self.merged(changeset.movedElements, added)
    return moved
  }

  /// `paths` (ascending) without `removed` and with `added` (both ascending; each of `removed` in
  /// `paths`, none of `added`); `nil` when one of `removed` is not there.
  private static func replacing(
    _ removed: [(Int, Int)], with added: [(Int, Int)], in paths: [IndexPath]
  ) -> [IndexPath]? {
    var result: [IndexPath] = []
    result.reserveCapacity(paths.count - removed.count + added.count)
    var (next, nextAdded) = (0, 0)
    for path in paths {
      let key = (path[0], path[1])
      while nextAdded < added.count, added[nextAdded] < key {
        result.append(IndexPath(item: added[nextAdded].1, section: added[nextAdded].0))
        nextAdded += 1
      }
      if next < removed.count, removed[next] == key {
        next += 1
      } else {
        result.append(path)
      }
    }
    for (section, item) in added[nextAdded...] {
      result.append(IndexPath(item: item, section: section))
    }
    return next == removed.count ? result : nil
  }

  /// Two lists of moves, each sorted by destination, merged into one.
  private static func merged(_ first: [Changeset.Move], _ second: [Changeset.Move])
    -> [Changeset.Move]
  {
    var result: [Changeset.Move] = []
    result.reserveCapacity(first.count + second.count)
    var (i, j) = (0, 0)
    while i < first.count || j < second.count {
      if j == second.count
        || (i < first.count
          && (first[i].to[0], first[i].to[1]) < (second[j].to[0], second[j].to[1]))
      {
        result.append(first[i])
        i += 1
      } else {
        result.append(second[j])
        j += 1
      }
    }
    return result
  }
}

/// A section that moves across sections leave or enter, neither inserted, deleted, reloaded nor
/// moved: its ends of those moves and its reloads, and which reloads to give up for them.
///
/// Reload `i` (old index `r`, destination `t`) stays right when the moves made leave from below
/// `r` as often as they arrive below `t` (B3). With `A(i)` the ends leaving below `r` and `B(i)`
/// those arriving below `t`, and `D(i) = A(i) − B(i)`: a policy `k` keeps reloads `0..<k` whatever
/// happens by letting through only the ends beyond reload `k − 1` (all of them for `k = 0`), and
/// of the reloads from `k` on keeps those with `D(i) = D(k − 1)` (balanced by the ends let
/// through), converting the others.
struct MovesAcrossSection {
  /// One end of a candidate move: the element's index here (old when it leaves, new when it
  /// arrives) and the move's number.
  struct End {
    var index: Int
    var move: Int
  }

  /// A reload: its old index and its destination (B3, which the reducer made its new index).
  struct Reload {
    var old: Int
    var new: Int
  }

  /// The section's old and new indexes.
  var old: Int
  var new: Int
  /// Moves leaving (by old index) and arriving (by new index), sorted once prepared.
  var outs: [End] = []
  var ins: [End] = []
  /// The section's reloads, by old index (so by destination too).
  var reloads: [Reload] = []
  /// For each reload, the ends below it: `A(i)` and `B(i)`.
  private var outsBelow: [Int] = []
  private var insBelow: [Int] = []

  init(old: Int, new: Int) {
    self.old = old
    self.new = new
  }

  /// Sorts the ends and places the reloads where B3 lands them, from the explicit element deletes
  /// and inserts of the section (`deleted` and `inserted`, sorted, of the whole changeset).
  mutating func prepare(deleted: [IndexPath], inserted: [IndexPath]) {
    outs.sort { $0.index < $1.index }
    ins.sort { $0.index < $1.index }
    guard !reloads.isEmpty else { return }
    var d = Self.first(of: old, in: deleted)
    var i = Self.first(of: new, in: inserted)
    var (deletesBelow, insertsBelow, o, n) = (0, 0, 0, 0)
    for index in reloads.indices {
      let row = reloads[index].old
      while d < deleted.count, deleted[d][0] == old, deleted[d][1] < row {
        deletesBelow += 1
        d += 1
      }
      // The rank among the old elements that stay, then the slot of that rank among the new
      // positions no insert takes.
      var destination = row - deletesBelow + insertsBelow
      while i < inserted.count, inserted[i][0] == new, inserted[i][1] <= destination {
        destination += 1
        insertsBelow += 1
        i += 1
      }
      reloads[index].new = destination
      while o < outs.count, outs[o].index < row { o += 1 }
      while n < ins.count, ins[n].index < destination { n += 1 }
      outsBelow.append(o)
      insBelow.append(n)
    }
  }

  /// The first index of `paths` (sorted) in `section`.
  private static func first(of section: Int, in paths: [IndexPath]) -> Int {
    var (low, high) = (0, paths.count)
    while low < high {
      let middle = (low + high) / 2
      if paths[middle][0] < section { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The policy worth most: the ends let through, weighed (by move number) against 2 for each
  /// conversion, ties going to more ends; as the first end let through in `outs` and in `ins`.
  /// With weights 0, the most ends let through for no conversion.
  ///
  /// - Complexity: O(e + r) for e ends and r reloads.
  func choose(outWeight: (Int) -> Int, inWeight: (Int) -> Int) -> (outs: Int, ins: Int) {
    let count = reloads.count
    guard count > 0 else { return (0, 0) }
    var outValue = [Int](repeating: 0, count: outs.count + 1)
    for index in outs.indices.reversed() {
      outValue[index] = outValue[index + 1] + outWeight(outs[index].move)
    }
    var inValue = [Int](repeating: 0, count: ins.count + 1)
    for index in ins.indices.reversed() {
      inValue[index] = inValue[index + 1] + inWeight(ins[index].move)
    }
    // `balanced[D + ins.count]`: the reloads from k on whose D(i) is D.
    var balanced = [Int](repeating: 0, count: outs.count + ins.count + 1)
    var best = (value: Int.min, outs: 0, ins: 0)
    for k in stride(from: count, through: 0, by: -1) {
      let (a, b) = k == 0 ? (0, 0) : (outsBelow[k - 1], insBelow[k - 1])
      let conversions = count - k - balanced[a - b + ins.count]
      let value = outValue[a] + inValue[b] - 2 * conversions
      if value >= best.value { best = (value, a, b) }
      if k > 0 { balanced[a - b + ins.count] += 1 }
    }
    return (best.outs, best.ins)
  }

  /// The reloads that the moves `made` (by move number) leave unbalanced: to convert.
  func unbalancedReloads(made: [Bool]) -> [Int] {
    var result: [Int] = []
    var (o, n, left, arrived) = (0, 0, 0, 0)
    for (index, reload) in reloads.enumerated() {
      while o < outs.count, outs[o].index < reload.old {
        if made[outs[o].move] { left += 1 }
        o += 1
      }
      while n < ins.count, ins[n].index < reload.new {
        if made[ins[n].move] { arrived += 1 }
        n += 1
      }
      if left != arrived { result.append(index) }
    }
    return result
  }

  /// Marks the ends beyond every reload, which need no conversion.
  func markBeyondReloads(out: inout [Bool], in arriving: inout [Bool]) {
    for end in outs where end.index > reloads.last?.old ?? -1 { out[end.move] = true }
    for end in ins where end.index > reloads.last?.new ?? -1 { arriving[end.move] = true }
  }
}
