import Foundation
import SectionKit

/// Where the elements and sections of the old state go through one changeset, as UIKit applies
/// it: deleted ones go nowhere, moved ones to their destination, a reloaded element to its
/// reload destination, and every other one to the k-th slot of its new section that no insert,
/// move or reload destination takes, k being its rank among the elements of its old section that
/// neither left nor moved.
///
/// Built once per changeset; each question costs O(k) for the k parts of the changeset, never
/// anything in proportion to the elements shown. The list view asks it for a few dozen positions
/// (the cursor, the rows on screen, the selection).
struct ChangesetPositions {
  private let deletedSections: IndexSet
  private let insertedSections: IndexSet
  private let reloadedSections: IndexSet
  private let sectionMoves: [Int: Int]
  private let takenSections: [Int]
  /// Per old section: the element indexes that leave it (deleted, reloaded, moved away), sorted.
  private var leaving: [Int: [Int]] = [:]
  /// Per new section: the element indexes taken by inserts, move and reload destinations, sorted.
  private var arriving: [Int: [Int]] = [:]
  /// Old element → new element, for moves and reloads.
  private var destinations: [IndexPath: IndexPath] = [:]
  private var deleted: Set<IndexPath> = []
  /// The elements reloaded, in old coordinates.
  private(set) var reloaded: Set<IndexPath> = []

  init(_ changeset: Changeset) {
    deletedSections = changeset.deletedSections
    insertedSections = changeset.insertedSections
    reloadedSections = changeset.reloadedSections
    var moves: [Int: Int] = [:]
    for move in changeset.movedSections { moves[move.from] = move.to }
    sectionMoves = moves
    takenSections = (Array(insertedSections) + changeset.movedSections.map(\.to)).sorted()
    for path in changeset.deletedElements where path.count == 2 {
      leaving[path[0], default: []].append(path[1])
      deleted.insert(path)
    }
    for (from, to) in zip(changeset.reloadedElements, changeset.reloadedElementDestinations)
    where from.count == 2 && to.count == 2 {
      leaving[from[0], default: []].append(from[1])
      arriving[to[0], default: []].append(to[1])
      destinations[from] = to
      reloaded.insert(from)
    }
    for move in changeset.movedElements where move.from.count == 2 && move.to.count == 2 {
      leaving[move.from[0], default: []].append(move.from[1])
      arriving[move.to[0], default: []].append(move.to[1])
      destinations[move.from] = move.to
    }
    for path in changeset.insertedElements where path.count == 2 {
      arriving[path[0], default: []].append(path[1])
    }
    for key in leaving.keys { leaving[key]!.sort() }
    for key in arriving.keys { arriving[key]!.sort() }
  }

  /// The new index of old section `section`, or `nil` when it is deleted.
  func section(_ section: Int) -> Int? {
    guard !deletedSections.contains(section) else { return nil }
    if let to = sectionMoves[section] { return to }
    let rank =
      section - deletedSections.count(in: 0..<section)
      - sectionMoves.keys.count { $0 < section }
    return Self.slot(rank, skipping: takenSections)
  }

  /// The new path of the old element at `path`, or `nil` when it is deleted (or its section is
  /// deleted or reloaded).
  func element(_ path: IndexPath) -> IndexPath? {
    guard !deleted.contains(path), !reloadedSections.contains(path[0]) else { return nil }
    if let to = destinations[path] { return to }
    guard let newSection = section(path[0]) else { return nil }
    if sectionMoves[path[0]] != nil { return [newSection, path[1]] }
    let left = leaving[path[0]] ?? []
    let rank = path[1] - Self.countBelow(path[1], in: left)
    return [newSection, Self.slot(rank, skipping: arriving[newSection] ?? [])]
  }

  /// The new path of the old element at `path`, or, when it is gone, of the nearest old element
  /// after it in its section that survives, else before it; `nil` when none survives.
  func elementOrNeighbour(_ path: IndexPath, oldCount: Int) -> IndexPath? {
    if let new = element(path) { return new }
    let limit = (leaving[path[0]]?.count ?? 0) + 1
    var index = path[1] + 1
    while index < oldCount && index <= path[1] + limit {
      if let new = element([path[0], index]) { return new }
      index += 1
    }
    index = path[1] - 1
    while index >= 0 && index >= path[1] - limit {
      if let new = element([path[0], index]) { return new }
      index -= 1
    }
    return nil
  }

  /// The `rank`-th index (from 0) that is not in `taken` (sorted).
  private static func slot(_ rank: Int, skipping taken: [Int]) -> Int {
    var index = rank
    for value in taken {
      if value <= index { index += 1 } else { break }
    }
    return index
  }

  /// How many of `sorted` are below `value`.
  private static func countBelow(_ value: Int, in sorted: [Int]) -> Int {
    var low = 0
    var high = sorted.count
    while low < high {
      let middle = (low + high) / 2
      if sorted[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
