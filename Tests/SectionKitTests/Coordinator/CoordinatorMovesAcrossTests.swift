import Foundation
import SectionKit
import SectionKitTesting
import Testing

/// When a snapshot apply reports an element that changes section as one move, and when it keeps
/// the delete and the insert (`Coordinator+MovesAcross.swift`).
@Suite struct CoordinatorMovesAcrossTests {
  typealias Fixture = SnapshotProviderTests.Fixture

  static func snapshot(_ sections: [(Int, [(Int, Int)])]) -> SnapshotProviderTests.Snapshot {
    sections.map { section in
      SectionContents(
        id: section.0, elements: section.1.map { Item(id: $0.0, version: $0.1) })
    }
  }

  @Test func aMovedElementWhoseContentChanged_isDeletedAndInserted() throws {
    let fixture = Fixture(Self.snapshot([(0, [(1, 0), (2, 0)]), (10, [(11, 0)])]))
    let changeset = try fixture.apply(Self.snapshot([(0, [(1, 0)]), (10, [(11, 0), (2, 1)])]))
    #expect(changeset?.movedElements == [])
    #expect(changeset?.deletedElements == [IndexPath(item: 1, section: 0)])
    #expect(changeset?.insertedElements == [IndexPath(item: 1, section: 1)])
  }

  @Test func aReloadAfterTheSource_isConvertedForTheMove() throws {
    // Element 3 is updated in section 0, after element 2, which leaves for section 10: UIKit
    // would place the reload by the deletes alone, one too far once the delete of 2 is a move.
    // The reload becomes a delete and an insert (one change more, one less for the move).
    let fixture = Fixture(Self.snapshot([(0, [(1, 0), (2, 0), (3, 0)]), (10, [(11, 0)])]))
    let changeset = try fixture.apply(
      Self.snapshot([(0, [(1, 0), (3, 1)]), (10, [(2, 0), (11, 0)])]))
    #expect(
      changeset?.movedElements
        == [.init(from: IndexPath(item: 1, section: 0), to: IndexPath(item: 0, section: 1))])
    #expect(changeset?.reloadedElements == [])
    #expect(changeset?.deletedElements == [IndexPath(item: 2, section: 0)])
    #expect(changeset?.insertedElements == [IndexPath(item: 1, section: 0)])
    #expect(changeset?.count == 3)
    // A third section untouched by the move keeps its reload.
    let three = Fixture(
      Self.snapshot([(0, [(1, 0), (2, 0)]), (10, [(11, 0)]), (20, [(21, 0), (22, 0)])]))
    let mixed = try three.apply(
      Self.snapshot([(0, [(1, 0)]), (10, [(11, 0), (2, 0)]), (20, [(21, 1), (22, 0)])]))
    #expect(
      mixed?.movedElements
        == [.init(from: IndexPath(item: 1, section: 0), to: IndexPath(item: 1, section: 1))])
    #expect(mixed?.reloadedElements == [IndexPath(item: 0, section: 2)])
  }

  @Test func oneConversion_unblocksTwoMoves() throws {
    // Elements 1 and 2 leave section 0 from below the reload of 4: converting it (one change)
    // lets both through (two changes fewer).
    let fixture = Fixture(
      Self.snapshot([(0, [(1, 0), (2, 0), (3, 0), (4, 0)]), (10, [(11, 0)])]))
    let changeset = try fixture.apply(
      Self.snapshot([(0, [(3, 0), (4, 1)]), (10, [(11, 0), (1, 0), (2, 0)])]))
    #expect(
      changeset?.movedElements == [
        .init(from: IndexPath(item: 0, section: 0), to: IndexPath(item: 1, section: 1)),
        .init(from: IndexPath(item: 1, section: 0), to: IndexPath(item: 2, section: 1)),
      ])
    #expect(changeset?.reloadedElements == [])
    #expect(changeset?.deletedElements == [IndexPath(item: 3, section: 0)])
    #expect(changeset?.insertedElements == [IndexPath(item: 1, section: 0)])
    #expect(changeset?.count == 4)
  }

  @Test func aConversionNotWorthIt_keepsTheDeleteAndInsert() throws {
    // Element 2 leaves section 0 from below the reloads of 3 and 4: two conversions for one
    // move would cost a change.
    let fixture = Fixture(
      Self.snapshot([(0, [(1, 0), (2, 0), (3, 0), (4, 0)]), (10, [(11, 0)])]))
    let changeset = try fixture.apply(
      Self.snapshot([(0, [(1, 0), (3, 1), (4, 1)]), (10, [(11, 0), (2, 0)])]))
    #expect(changeset?.movedElements == [])
    #expect(
      changeset?.reloadedElements == [
        IndexPath(item: 2, section: 0), IndexPath(item: 3, section: 0),
      ]
    )
    #expect(changeset?.deletedElements == [IndexPath(item: 1, section: 0)])
    #expect(changeset?.insertedElements == [IndexPath(item: 1, section: 1)])
  }

  @Test func aMoveOutAndAMoveInBelowAReload_balanceIt() throws {
    // Element 1 leaves section 0 from below the reload of 3 and element 12 arrives below its
    // destination: UIKit's rank and slot shift alike, so the reload stays and both are moves.
    let fixture = Fixture(
      Self.snapshot([(0, [(1, 0), (2, 0), (3, 0)]), (10, [(11, 0), (12, 0)])]))
    let changeset = try fixture.apply(
      Self.snapshot([(0, [(12, 0), (2, 0), (3, 1)]), (10, [(11, 0), (1, 0)])]))
    #expect(
      changeset?.movedElements == [
        .init(from: IndexPath(item: 1, section: 1), to: IndexPath(item: 0, section: 0)),
        .init(from: IndexPath(item: 0, section: 0), to: IndexPath(item: 1, section: 1)),
      ])
    #expect(changeset?.reloadedElements == [IndexPath(item: 2, section: 0)])
    #expect(changeset?.deletedElements == [])
    #expect(changeset?.insertedElements == [])
  }

  @Test func aConversionBesideOtherDeletesAndInserts_usesUIKitsPaths() throws {
    // Section 0 also loses element 1 and gains element 40 ahead of the reload of 5, which lands
    // at new index 3; element 3 leaves for section 10. The conversion deletes old [0, 4] and
    // inserts new [0, 3].
    let fixture = Fixture(
      Self.snapshot([(0, [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0)]), (10, [(11, 0)])]))
    let changeset = try fixture.apply(
      Self.snapshot([(0, [(40, 0), (2, 0), (4, 0), (5, 1)]), (10, [(3, 0), (11, 0)])]))
    #expect(
      changeset?.movedElements
        == [.init(from: IndexPath(item: 2, section: 0), to: IndexPath(item: 0, section: 1))])
    #expect(changeset?.reloadedElements == [])
    #expect(
      changeset?.deletedElements == [
        IndexPath(item: 0, section: 0), IndexPath(item: 4, section: 0),
      ]
    )
    #expect(
      changeset?.insertedElements == [
        IndexPath(item: 0, section: 0), IndexPath(item: 3, section: 0),
      ]
    )
  }

  @Test func aReloadBeforeTheSourceAndTheDestination_keepsTheMove_andOneAfterIsConverted() throws {
    // Element 1 is updated at the front of section 0, element 11 at the front of section 10;
    // element 3 leaves section 0 from its end for the end of section 10.
    let fixture = Fixture(Self.snapshot([(0, [(1, 0), (2, 0), (3, 0)]), (10, [(11, 0)])]))
    let changeset = try fixture.apply(
      Self.snapshot([(0, [(1, 1), (2, 0)]), (10, [(11, 1), (3, 0)])]))
    #expect(
      changeset?.movedElements
        == [.init(from: IndexPath(item: 2, section: 0), to: IndexPath(item: 1, section: 1))])
    #expect(
      changeset?.reloadedElements == [
        IndexPath(item: 0, section: 0), IndexPath(item: 0, section: 1),
      ]
    )
    // The same element, but to the front of section 10, ahead of the reload there: that reload
    // becomes a delete and an insert (as many changes, one of them a move).
    let front = Fixture(Self.snapshot([(0, [(1, 0), (2, 0), (3, 0)]), (10, [(11, 0)])]))
    let kept = try front.apply(Self.snapshot([(0, [(1, 1), (2, 0)]), (10, [(3, 0), (11, 1)])]))
    #expect(
      kept?.movedElements
        == [.init(from: IndexPath(item: 2, section: 0), to: IndexPath(item: 0, section: 1))])
    #expect(kept?.reloadedElements == [IndexPath(item: 0, section: 0)])
    #expect(kept?.deletedElements == [IndexPath(item: 0, section: 1)])
    #expect(kept?.insertedElements == [IndexPath(item: 1, section: 1)])
    #expect(kept?.count == 4)
  }

  @Test func anApplyInsideALargerBatch_keepsTheDeleteAndInsert() throws {
    let fixture = Fixture(Self.snapshot([(0, [(1, 0), (2, 0)]), (10, [(11, 0)])]))
    try fixture.coordinator.performBatchUpdates {
      try fixture.sections.apply(Self.snapshot([(0, [(1, 0)]), (10, [(11, 0), (2, 0)])]))
    }
    #expect(fixture.failures.isEmpty)
    let changeset = fixture.view.changesets.last
    #expect(changeset?.movedElements == [])
    #expect(changeset?.deletedElements == [IndexPath(item: 1, section: 0)])
    #expect(changeset?.insertedElements == [IndexPath(item: 1, section: 1)])
  }

  @Test func aMoveIntoAMovedSection_keepsTheDeleteAndInsert() throws {
    let fixture = Fixture(Self.snapshot([(0, [(1, 0), (2, 0)]), (10, [(11, 0)]), (20, [])]))
    // Section 10 moves to the end; element 2 goes into it.
    let changeset = try fixture.apply(
      Self.snapshot([(0, [(1, 0)]), (20, []), (10, [(11, 0), (2, 0)])]))
    #expect(changeset?.movedElements == [])
  }

  /// Random 20% churns of ten sections of 100 elements, where almost every section has a
  /// reload: applied alone, each changeset (valid and replayed through the strict adapter) has
  /// no more changes than the same apply inside a larger batch, where every move across sections
  /// stays a delete and an insert; and more than half of the moves across sections are emitted
  /// as moves (under a tenth when a reload after the element, or at or after its new position,
  /// always kept the delete and the insert).
  @Test func convertingReloads_neverAddsChanges_andLetsMostMovesThrough() throws {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0xACE)
    var random = SeededGenerator(seed: seed)
    var (across, emittedAcross) = (0, 0)
    for _ in 0..<max(SnapshotProviderTests.iterations / 15, 5) {
      var ids = SnapshotProviderTests.Identities()
      let old = (0..<10).map { _ in
        SectionContents(id: ids.take(), elements: (0..<100).map { _ in Item(id: ids.take()) })
      }
      let (new, _) = SnapshotProviderTests.churned(old, ids: &ids, using: &random)
      let alone = try Fixture(old).apply(new)
      let batched = Fixture(old)
      try batched.coordinator.performBatchUpdates { try batched.sections.apply(new) }
      #expect(batched.failures.isEmpty)
      let inBatch = try #require(batched.view.changesets.last)
      #expect(inBatch.movedElements.allSatisfy { $0.from[0] == $0.to[0] })
      #expect((alone?.count ?? 0) <= inBatch.count, "seed \(seed)")
      across += SnapshotProviderTests.crossSectionMoves(from: old, to: new)
      emittedAcross += alone?.movedElements.count { $0.from[0] != $0.to[0] } ?? 0
    }
    #expect(emittedAcross * 2 > across, "\(emittedAcross) of \(across)")
  }
}
