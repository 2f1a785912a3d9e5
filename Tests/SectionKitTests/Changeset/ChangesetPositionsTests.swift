import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// `ChangesetPositions`, the one position follower: where an old position goes through a
/// changeset and where a new one came from, against the validator's replay (an independent
/// implementation of UIKit's rules) and the identities of the model.
@Suite("ChangesetPositions: where positions go through a changeset")
struct ChangesetPositionsTests {
  /// What a cell shows in the replay: an old element (its old path), or a new value.
  enum Cell: Equatable {
    case old(IndexPath)
    case new
  }

  /// Checks every answer of the follower for `changeset`, taken from `old` to `new` (section
  /// ids, and element ids per section); returns the first disagreement.
  static func failure(
    of changeset: Changeset, old: [(id: Int, items: [Int])], new: [(id: Int, items: [Int])]
  ) -> String? {
    let positions = ChangesetPositions(changeset)
    // A reconfigure is placed as a reload: the replay shows new content at its destination, in
    // the cell the element keeps (not a reload for the follower: the cell stays).
    let reconfigured = Set(changeset.reconfiguredElements)
    func refreshed(_ path: IndexPath) -> Bool {
      positions.isReloaded(element: path) || reconfigured.contains(path)
    }
    let tokens = old.enumerated().map { section, entry in
      entry.items.indices.map { Cell.old(IndexPath(item: $0, section: section)) }
    }
    let replayed = BatchValidator().replay(
      old: tokens, changeset: changeset, newValues: { _ in .new }, newCounts: new.map(\.items.count)
    )
    var shownAt: [IndexPath: IndexPath] = [:]
    // New positions: each comes from the old element the replay shows there, or from none.
    for (section, cells) in replayed.enumerated() {
      for (item, cell) in cells.enumerated() {
        let path = IndexPath(item: item, section: section)
        let source = positions.oldPath(ofNew: path)
        switch cell {
        case .old(let from):
          shownAt[from] = path
          guard source == from else {
            return "oldPath(ofNew: \(path)) is \(String(describing: source)), the replay shows "
              + "old \(from) there"
          }
        case .new:
          // An insert comes from nowhere; a reload destination from the element reloaded.
          if let source, !refreshed(source) {
            return "oldPath(ofNew: \(path)) is \(source), the replay shows a new element there"
          }
        }
        // A reload is new content in the same cell: an element replaced (a single-element
        // section's `replace`) is reloaded, so identity is checked on the others only.
        if let source, !refreshed(source),
          old[source[0]].items[source[1]] != new[section].items[item]
        {
          return "oldPath(ofNew: \(path)) is \(source): another element (identity)"
        }
      }
    }
    // Old positions: each goes where the replay shows it, or where its reload lands.
    for (section, entry) in old.enumerated() {
      for item in entry.items.indices {
        let path = IndexPath(item: item, section: section)
        let destination = positions.newPath(ofOld: path)
        if refreshed(path) {
          guard let destination, replayed[destination[0]][destination[1]] == .new,
            positions.oldPath(ofNew: destination) == path
          else {
            return "the reloaded \(path) goes to \(String(describing: destination)), not to a "
              + "reload destination that comes from it"
          }
        } else if destination != shownAt[path] {
          return "newPath(ofOld: \(path)) is \(String(describing: destination)), the replay "
            + "shows it at \(String(describing: shownAt[path]))"
        }
        if let destination, !refreshed(path),
          entry.items[item] != new[destination[0]].items[destination[1]]
        {
          return "newPath(ofOld: \(path)) is \(destination): another element (identity)"
        }
      }
    }
    // Sections: a section that goes somewhere is the same section there, and comes back.
    for section in old.indices {
      guard let destination = positions.newSection(ofOld: section) else {
        if !changeset.deletedSections.contains(section) {
          return "newSection(ofOld: \(section)) is nil, but it is not deleted"
        }
        continue
      }
      guard new.indices.contains(destination), new[destination].id == old[section].id,
        positions.oldSection(ofNew: destination) == section
      else {
        return "newSection(ofOld: \(section)) is \(destination): another section, or not back"
      }
    }
    for section in new.indices {
      guard let source = positions.oldSection(ofNew: section) else {
        if !changeset.insertedSections.contains(section) {
          return "oldSection(ofNew: \(section)) is nil, but it is not inserted"
        }
        continue
      }
      guard old.indices.contains(source), old[source].id == new[section].id else {
        return "oldSection(ofNew: \(section)) is \(source): another section"
      }
    }
    return nil
  }

  /// The ids of a flattened reference tree.
  static func ids(_ sections: [(id: Int, items: [Item])]) -> [(id: Int, items: [Int])] {
    sections.map { ($0.id, $0.items.map(\.id)) }
  }

  /// Random batches through a coordinator (with child moves and reloads, so section moves,
  /// reloads and removals are among them): the follower's answers on every changeset.
  static func failure(of steps: [TreeOperation]) -> String? {
    let fixture = TreeFixture()
    let coordinator = Coordinator(sectionProvider: fixture.root)
    var failures: [TestAdapterFailure] = []
    let adapter = TestAdapter.toleratingReloadsWithMoves { failures.append($0) }
    adapter.keepsChangesets = true
    coordinator.adapter = adapter
    for (number, step) in steps.enumerated() {
      let old = ids(fixture.reference.flattened)
      let before = adapter.applyCount
      fixture.apply(step, coordinator: coordinator)
      if let failure = failures.first { return "step \(number + 1): \(failure)" }
      guard adapter.applyCount > before, let changeset = adapter.lastChangeset else { continue }
      if let failure = failure(of: changeset, old: old, new: ids(fixture.reference.flattened)) {
        return "step \(number + 1): \(changeset): \(failure)"
      }
    }
    return nil
  }

  @Test func randomBatches_agreeWithTheReplayAndTheModel() {
    var steps = 0
    for seed in randomizedSeeds(base: 31_000, count: 30) {
      let batches = RandomizedPipelineTests.randomSteps(
        seed: seed, count: 150, movesChildren: true)
      steps += batches.count
      if let failure = Self.failure(of: batches) {
        let minimal = shrink(batches) { Self.failure(of: $0) }
        recordRandomizedFailure(seed: seed, failure: failure, steps: batches, minimal: minimal)
        return
      }
    }
    #expect(steps >= 4_000 || ProcessInfo.processInfo.environment["SECTIONKIT_SEED"] != nil)
  }

  /// Rule B3: a reload lands where the explicit deletes and inserts put it, moves ignored.
  @Test func aReloadLandsWhereRuleB3PutsIt() {
    let changeset = Changeset(
      deletedElements: [[0, 0]], insertedElements: [[0, 3]], reloadedElements: [[0, 2]],
      movedElements: [.init(from: [0, 1], to: [0, 0])])
    let positions = ChangesetPositions(changeset)
    #expect(positions.newPath(ofOld: [0, 2]) == [0, 1])
    #expect(positions.isReloaded(element: [0, 2]))
    #expect(positions.oldPath(ofNew: [0, 1]) == [0, 2])
    #expect(positions.newPath(ofOld: [0, 1]) == [0, 0])
    #expect(positions.newPath(ofOld: [0, 0]) == nil)
    #expect(positions.newPath(ofOld: [0, 3]) == [0, 2])
    #expect(positions.oldPath(ofNew: [0, 3]) == nil)
    #expect(positions.oldPath(ofNew: [0, 4]) == [0, 4])
  }

  /// A moved section takes its elements along; a reloaded one keeps its place, its elements
  /// go nowhere; a deleted one goes nowhere.
  @Test func sectionsMovedReloadedAndDeleted() {
    let changeset = Changeset(
      deletedSections: [0], insertedSections: [3], reloadedSections: [2],
      movedSections: [.init(from: 1, to: 2)])
    let positions = ChangesetPositions(changeset)
    #expect(positions.newSection(ofOld: 0) == nil)
    #expect(positions.newSection(ofOld: 1) == 2)
    #expect(positions.newSection(ofOld: 2) == 1)
    #expect(positions.newSection(ofOld: 3) == 0)
    #expect(positions.newSection(ofOld: 4) == 4)
    #expect(positions.oldSection(ofNew: 3) == nil)
    #expect(positions.oldSection(ofNew: 0) == 3)
    #expect(positions.newPath(ofOld: [1, 5]) == [2, 5])
    #expect(positions.newPath(ofOld: [2, 0]) == nil)
    #expect(positions.oldPath(ofNew: [1, 0]) == nil)
    #expect(positions.oldPath(ofNew: [2, 5]) == [1, 5])
  }
}
