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
    guard depth == 0, state == .idle, !batchHasEvents, adapter != nil, !needsReload,
      !presentedIsStale
    else { return }
    expectedMovesAcross = moves
  }

  /// Replaces, in `changeset`, the delete and the insert of each of `moves` by one move, where
  /// the result means the same to UIKit: the delete and the insert are both in the changeset;
  /// neither section is inserted, deleted, reloaded or moved as a whole; and no reloaded element
  /// of the source section comes after the delete, and no reload lands at or after the insert in
  /// the destination section (UIKit places a reload by the deletes and inserts alone, ignoring
  /// moves, so taking one of them away there would move the reload's destination). Returns the
  /// moves made, old path → new path.
  ///
  /// - Complexity: O(s + r + m log c) for s presented sections, r reloads, m moves and c
  ///   changes.
  func pairMovesAcross(
    _ moves: [ElementMoveAcross], in changeset: inout Changeset, reducer: BatchReducer
  ) -> [IndexPath: IndexPath] {
    var oldIndex: [ObjectIdentifier: Int] = [:]
    for move in moves {
      oldIndex[ObjectIdentifier(move.from)] = -1
      oldIndex[ObjectIdentifier(move.to)] = -1
    }
    for (index, section) in presented.sections.enumerated()
    where oldIndex[ObjectIdentifier(section)] != nil {
      oldIndex[ObjectIdentifier(section)] = index
    }
    var blockedOld = Set(changeset.movedSections.map(\.from))
    for range in changeset.deletedSectionRanges + changeset.reloadedSectionRanges {
      blockedOld.formUnion(range)
    }
    var blockedNew = Set(changeset.movedSections.map(\.to))
    for range in changeset.insertedSectionRanges + changeset.reloadedSectionRanges {
      blockedNew.formUnion(range)
    }
    // B3 places a reload by its rank among the old elements no delete removes, in the new
    // positions no insert takes: a delete taken away below a reload, or an insert taken away at
    // or below its destination, would move it. Above the last reload, neither does. (The
    // reducer emits a reload only where B3 lands it on its true new position, so that position
    // is its destination, and B3 keeps the order of a section's reloads: the last one lands
    // last.)
    var lastReload: [Int: Int] = [:]
    for path in changeset.reloadedElements { lastReload[path[0]] = path[1] }
    var lastReloadDestination: [Int: Int] = [:]
    for (section, index) in lastReload {
      if let new = reducer.newPath(ofOld: IndexPath(item: index, section: section)) {
        lastReloadDestination[new[0]] = new[1]
      }
    }
    var made: [(from: IndexPath, to: IndexPath)] = []
    for move in moves {
      guard let oldFrom = oldIndex[ObjectIdentifier(move.from)], oldFrom >= 0,
        let oldTo = oldIndex[ObjectIdentifier(move.to)], oldTo >= 0,
        !blockedOld.contains(oldFrom), !blockedOld.contains(oldTo),
        move.fromIndex > lastReload[oldFrom, default: -1],
        let newFrom = mapping.sectionOffset(for: move.from), !blockedNew.contains(newFrom),
        let newTo = mapping.sectionOffset(for: move.to), !blockedNew.contains(newTo),
        move.toIndex > lastReloadDestination[newTo, default: -1]
      else { continue }
      made.append(
        (
          IndexPath(item: move.fromIndex, section: oldFrom),
          IndexPath(item: move.toIndex, section: newTo)
        ))
    }
    guard !made.isEmpty else { return [:] }
    // Each source is a delete and each destination an insert: the element left a section that
    // stays whole and arrived in another (checked: nothing changes otherwise).
    let sources = made.map { ($0.from[0], $0.from[1]) }.sorted { $0 < $1 }
    let destinations = made.map { ($0.to[0], $0.to[1]) }.sorted { $0 < $1 }
    guard let deleted = Self.removing(sources, from: changeset.deletedElements),
      let inserted = Self.removing(destinations, from: changeset.insertedElements)
    else { return [:] }
    changeset.deletedElements = deleted
    changeset.insertedElements = inserted
    let added = made.map { Changeset.Move(from: $0.from, to: $0.to) }.sorted {
      ($0.to[0], $0.to[1]) < ($1.to[0], $1.to[1])
    }
    changeset.movedElements = Self.merged(changeset.movedElements, added)
    return Dictionary(made, uniquingKeysWith: { first, _ in first })
  }

  /// `paths` (ascending) without `removed` (ascending, each of them in `paths`); `nil` when one
  /// of them is not.
  private static func removing(_ removed: [(Int, Int)], from paths: [IndexPath]) -> [IndexPath]? {
    var result: [IndexPath] = []
    result.reserveCapacity(paths.count - removed.count)
    var next = 0
    for path in paths {
      if next < removed.count, removed[next] == (path[0], path[1]) {
        next += 1
      } else {
        result.append(path)
      }
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
