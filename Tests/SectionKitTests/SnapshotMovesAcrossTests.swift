import Foundation
import SectionKit
import SectionKitTesting
import Testing

/// When a snapshot apply reports an element that changes section as one move, and when it keeps
/// the delete and the insert (`Coordinator+MovesAcross.swift`).
@Suite struct SnapshotMovesAcrossTests {
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

  @Test func aReloadInTheSourceOrDestination_keepsTheDeleteAndInsert() throws {
    // Element 3 is updated in section 0: UIKit would place its reload by the deletes alone.
    let fixture = Fixture(Self.snapshot([(0, [(1, 0), (2, 0), (3, 0)]), (10, [(11, 0)])]))
    let changeset = try fixture.apply(
      Self.snapshot([(0, [(1, 0), (3, 1)]), (10, [(2, 0), (11, 0)])]))
    #expect(changeset?.movedElements == [])
    #expect(changeset?.deletedElements.contains(IndexPath(item: 1, section: 0)) == true)
    // A third section untouched by reloads still gets its move.
    let three = Fixture(
      Self.snapshot([(0, [(1, 0), (2, 0)]), (10, [(11, 0)]), (20, [(21, 0), (22, 0)])]))
    let mixed = try three.apply(
      Self.snapshot([(0, [(1, 0)]), (10, [(11, 0), (2, 0)]), (20, [(21, 1), (22, 0)])]))
    #expect(
      mixed?.movedElements
        == [.init(from: IndexPath(item: 1, section: 0), to: IndexPath(item: 1, section: 1))])
    #expect(mixed?.reloadedElements == [IndexPath(item: 0, section: 2)])
  }

  @Test func aReloadBeforeTheSourceAndTheDestination_keepsTheMove() throws {
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
    // The same element, but to the front of section 10, ahead of the reload there: no move.
    let front = Fixture(Self.snapshot([(0, [(1, 0), (2, 0), (3, 0)]), (10, [(11, 0)])]))
    let kept = try front.apply(Self.snapshot([(0, [(1, 1), (2, 0)]), (10, [(3, 0), (11, 1)])]))
    #expect(kept?.movedElements == [])
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
}
