import Foundation
import SectionKit
import SectionKitTesting
import Testing

/// A changeset that moves an element from one section to another (the form moves across sections
/// will take): its invariants, decoding, the public applier and the validator accept it and replay
/// it; a move out of a deleted section is rejected.
@Suite struct CrossSectionMoveChangesetTests {
  static let old = [["a", "b", "c"], ["x", "y"]]
  static let new = [["a", "c"], ["x", "b", "y"]]
  static let move = Changeset(
    movedElements: [.init(from: IndexPath(item: 1, section: 0), to: IndexPath(item: 1, section: 1))]
  )

  @Test func aMoveAcrossSections_isValid_decodes_andReplays() throws {
    let changeset = Self.move
    #expect(changeset.invariantViolation() == nil)
    let decoded = try JSONDecoder().decode(
      Changeset.self, from: try JSONEncoder().encode(changeset))
    #expect(decoded == changeset)
    let result = BatchValidator().check(old: Self.old, new: Self.new, changeset: changeset)
    #expect(result.isSuccess, "\(result)")
    var mirror = Self.old
    try changeset.apply(to: &mirror, newElement: { Self.new[$0[0]][$0[1]] })
    #expect(mirror == Self.new)
  }

  @Test func aMoveAcrossSections_outOfADeletedSection_isRejected() {
    let changeset = Changeset(deletedSections: [0], movedElements: Self.move.movedElements)
    #expect(changeset.invariantViolation() != nil)
    let result = BatchValidator().check(
      old: Self.old, new: [["x", "b", "y"]], changeset: changeset)
    #expect(!result.isSuccess)
  }
}
