import Foundation
import Testing

@testable import SectionKit

/// Issue 16: `deletedSections`, `insertedSections` and `reloadedSections` read like stored
/// properties; they must not build a new `IndexSet` on each access.
@Suite("Changeset's section sets are stored")
struct ChangesetSectionSetsTests {
  /// The reference an `IndexSet` holds its storage in, where it is one reference wide (as on
  /// Linux and on Apple platforms); `nil` elsewhere. Two reads of a stored set share it; two sets
  /// built separately, both alive, cannot.
  static func storage(_ set: IndexSet) -> UInt? {
    guard MemoryLayout<IndexSet>.size == MemoryLayout<UInt>.size else { return nil }
    return unsafeBitCast(set, to: UInt.self)
  }

  @Test func twoReadsShareOneSet() throws {
    let changeset = Changeset(
      deletedSections: [1, 2, 5], insertedSections: [0], reloadedSections: [7])
    // Both reads are kept alive, so that a rebuilt set could not reuse the first one's storage.
    for part in [\Changeset.deletedSections, \.insertedSections, \.reloadedSections] {
      let first = changeset[keyPath: part]
      let second = changeset[keyPath: part]
      let storage = try #require(Self.storage(first))
      #expect(Self.storage(second) == storage)
      withExtendedLifetime((first, second)) {}
    }
  }

  @Test func setsAndRangesStayInStep() throws {
    var changeset = Changeset(deletedSections: [1, 2, 5])
    #expect(changeset.deletedSectionRanges == [1..<3, 5..<6])
    changeset.deletedSections.insert(3)
    #expect(changeset.deletedSectionRanges == [1..<4, 5..<6])
    changeset.insertedSectionRanges = [0..<2]
    #expect(changeset.insertedSections == [0, 1])
    changeset.reloadedSections = [9]
    #expect(changeset.reloadedSectionRanges == [9..<10])
    // Decoding fills both, and the format is unchanged.
    let json = try JSONEncoder().encode(changeset)
    let text = String(decoding: json, as: UTF8.self)
    #expect(text.contains("\"deletedSectionRanges\":[[1,4],[5,6]]"))
    #expect(!text.contains("\"deletedSections\""))
    let decoded = try JSONDecoder().decode(Changeset.self, from: json)
    #expect(decoded == changeset)
    #expect(decoded.deletedSections == [1, 2, 3, 5])
    #expect(decoded.insertedSections == [0, 1])
  }

  /// The reducer writes the ranges; the sets it hands out agree.
  @Test func theReducersChangesetsAgree() {
    let adapter = RecordingAdapter()
    let coordinator = coordinate(["a", "b", "c"].map { ArraySection([$0]) }, adapter: adapter)
    let root = coordinator.root
    root.performBatchUpdates {
      root.remove(at: 1)
      root.insert(ArraySection(["d"]), at: 0)
    }
    let changeset = adapter.changesets.last!
    #expect(changeset.deletedSections == [1])
    #expect(changeset.insertedSections == [0])
    // Handed out with its sets stored.
    let first = changeset.deletedSections
    let second = changeset.deletedSections
    if let storage = Self.storage(first) { #expect(Self.storage(second) == storage) }
    withExtendedLifetime((first, second)) {}
  }
}
