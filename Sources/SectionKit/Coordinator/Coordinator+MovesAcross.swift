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
  /// - Complexity: O(s + m log c) for s presented sections, m moves and c changes.
  func pairMovesAcross(_ moves: [ElementMoveAcross], in changeset: inout Changeset)
    -> [IndexPath: IndexPath]
  {
    var oldIndex: [ObjectIdentifier: Int] = [:]
    for move in moves {
      oldIndex[ObjectIdentifier(move.from)] = -1
      oldIndex[ObjectIdentifier(move.to)] = -1
    }
    for (index, section) in presented.sections.enumerated()
    where oldIndex[ObjectIdentifier(section)] != nil {
      oldIndex[ObjectIdentifier(section)] = index
    }
    // B3 places a reload by its rank among the old elements no delete removes, in the new
    // positions no insert takes: a delete taken away below a reload, or an insert taken away at
    // or below its destination, would move it. Above the last reload, neither does.
    var lastReload: [Int: Int] = [:]
    for path in changeset.reloadedElements { lastReload[path[0]] = path[1] }
    var lastReloadDestination: [Int: Int] = [:]
    for path in changeset.reloadedElementDestinations {
      lastReloadDestination[path[0]] = max(lastReloadDestination[path[0]] ?? -1, path[1])
    }
    var blockedOld = Set<Int>()
    for range in changeset.deletedSectionRanges + changeset.reloadedSectionRanges {
      blockedOld.formUnion(range)
    }
    blockedOld.formUnion(changeset.movedSections.map(\.from))
    var blockedNew = Set(changeset.movedSections.map(\.to))
    for range in changeset.insertedSectionRanges + changeset.reloadedSectionRanges {
      blockedNew.formUnion(range)
    }
    var deleted = Set(changeset.deletedElements)
    var inserted = Set(changeset.insertedElements)
    var made: [IndexPath: IndexPath] = [:]
    for move in moves {
      guard let oldFrom = oldIndex[ObjectIdentifier(move.from)], oldFrom >= 0,
        let oldTo = oldIndex[ObjectIdentifier(move.to)], oldTo >= 0,
        !blockedOld.contains(oldFrom), !blockedOld.contains(oldTo),
        let newFrom = mapping.sectionOffset(for: move.from), !blockedNew.contains(newFrom),
        let newTo = mapping.sectionOffset(for: move.to), !blockedNew.contains(newTo)
      else { continue }
      let from = IndexPath(item: move.fromIndex, section: oldFrom)
      let to = IndexPath(item: move.toIndex, section: newTo)
      guard deleted.contains(from), inserted.contains(to),
        move.fromIndex > lastReload[oldFrom, default: -1],
        move.toIndex > lastReloadDestination[newTo, default: -1]
      else { continue }
      deleted.remove(from)
      inserted.remove(to)
      made[from] = to
    }
    guard !made.isEmpty else { return [:] }
    changeset.deletedElements.removeAll { made[$0] != nil }
    let destinations = Set(made.values)
    changeset.insertedElements.removeAll { destinations.contains($0) }
    changeset.movedElements.append(
      contentsOf: made.map { Changeset.Move(from: $0.key, to: $0.value) })
    changeset.movedElements.sort { $0.to < $1.to }
    return made
  }
}
