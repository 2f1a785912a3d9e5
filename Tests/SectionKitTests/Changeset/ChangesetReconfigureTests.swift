import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// `Changeset.reconfiguredElements`: stored, compared, coded, checked, applied and followed as a
/// reload placed in old coordinates (rule B3), in a cell that stays.
@Suite struct ChangesetReconfigureTests {
  @Test func storedAloneOrBesideOtherParts() {
    var changeset = Changeset()
    changeset.reconfiguredElements.append([0, 1])
    #expect(!changeset.isEmpty && changeset.count == 1)
    #expect(changeset == Changeset(reconfiguredElements: [[0, 1]]))
    #expect(changeset != Changeset(reloadedElements: [[0, 1]]))
    changeset.deletedElements.append([0, 0])
    #expect(changeset.reconfiguredElements == [[0, 1]] && changeset.count == 2)
    #expect(changeset.description == "deleted elements: [0, 0]\nreconfigured elements: [0, 1]")
    var copy = changeset
    copy.reconfiguredElements = []
    #expect(changeset.reconfiguredElements == [[0, 1]] && copy.reconfiguredElements == [])
    #expect(Set([changeset, copy]).count == 2)
  }

  @Test func codesOnlyWhenPresentAndDecodesOldPayloads() throws {
    let changeset = Changeset(insertedElements: [[0, 0]], reconfiguredElements: [[0, 2]])
    let data = try JSONEncoder().encode(changeset)
    #expect(try JSONDecoder().decode(Changeset.self, from: data) == changeset)
    let plain = String(
      decoding: try JSONEncoder().encode(Changeset(reloadedElements: [[0, 1]])), as: UTF8.self)
    #expect(!plain.contains("reconfigured"), "a changeset without reconfigures encodes as before")
    // A payload written before reconfigures existed.
    let old = changesetJSON(["reloadedElements": pathsJSON([[0, 1]]), "deletedElements": "[]"])
    #expect(
      try JSONDecoder().decode(Changeset.self, from: old) == Changeset(reloadedElements: [[0, 1]]))
  }

  /// Payloads that break an invariant with a reconfigure, and what the error must say.
  static let refused: [(Data, String)] = [
    (
      changesetJSON(["reconfiguredElements": pathsJSON([[0, 2], [0, 1]])]),
      "reconfiguredElements[1] = [0, 1] does not come after"
    ),
    (
      changesetJSON(["reconfiguredElements": pathsJSON([[0, 1], [0, 1]])]),
      "reconfiguredElements[1] = [0, 1] does not come after"
    ),
    (
      changesetJSON(["reconfiguredElements": pathsJSON([[0, -1]])]),
      "reconfiguredElements[0] = [0, -1] has a negative"
    ),
    (
      changesetJSON(["reconfiguredElements": pathsJSON([[0]])]),
      "reconfiguredElements[0] = [0] is not [section, item]"
    ),
    (
      changesetJSON([
        "deletedElements": pathsJSON([[0, 1]]), "reconfiguredElements": pathsJSON([[0, 1]]),
      ]), "is both deleted and reconfigured"
    ),
    (
      changesetJSON([
        "reloadedElements": pathsJSON([[0, 1]]), "reconfiguredElements": pathsJSON([[0, 1]]),
      ]), "is both reloaded and reconfigured"
    ),
    (
      changesetJSON([
        "deletedSectionRanges": "[[0, 1]]", "reconfiguredElements": pathsJSON([[0, 1]]),
      ]), "is inside a deleted section"
    ),
    (
      changesetJSON([
        "movedSections": #"[{"from": 0, "to": 1}]"#,
        "reconfiguredElements": pathsJSON([[0, 1]]),
      ]), "is in a section that moves"
    ),
    (
      changesetJSON([
        "movedElements": movesJSON([([0, 1], [0, 0])]),
        "reconfiguredElements": pathsJSON([[0, 1]]),
      ]), "is both reconfigured and moved"
    ),
  ]

  @Test func decodingRefusesWhatBreaksTheInvariants() {
    for (payload, message) in Self.refused {
      let text = String(decoding: payload, as: UTF8.self)
      guard let context = decodingFailure(payload) else {
        Issue.record("\(text) decoded")
        continue
      }
      #expect(context.debugDescription.contains(message), "\(text): \(context.debugDescription)")
    }
  }

  @Test func destinationsArePlacedAsReloads() {
    let changeset = Changeset(
      deletedSections: [0], deletedElements: [[1, 0]], insertedElements: [[0, 0], [0, 1]],
      reloadedElements: [[1, 3]], reconfiguredElements: [[1, 1], [2, 0]])
    #expect(changeset.reconfiguredElementDestinations == [[0, 2], [1, 0]])
    #expect(changeset.reloadedElementDestinations == [[0, 4]])
    #expect(Changeset().reconfiguredElementDestinations == [])
  }

  @Test func theApplierTakesTheNewValueWhereTheElementStays() throws {
    var shown = [["a", "b", "c"]]
    let changeset = Changeset(
      deletedElements: [[0, 0]], insertedElements: [[0, 2]], reconfiguredElements: [[0, 1]])
    try changeset.apply(to: &shown, newElement: { $0 == [0, 0] ? "B" : "new" })
    #expect(shown == [["B", "c", "new"]])
    #expect(try changeset.newCounts(from: [3]) == [3])
    // A reconfigure that leaves twice does not fit.
    let twice = Changeset(deletedElements: [[0, 1]], reconfiguredElements: [[0, 1]])
    var again = [["a", "b"]]
    #expect(throws: ChangesetMismatch.self) {
      try twice.apply(to: &again, newElement: { _ in "x" })
    }
    #expect(again == [["a", "b"]])
  }

  @Test func positionsFollowAReconfigureAsTheSameCell() {
    let changeset = Changeset(insertedElements: [[0, 0]], reconfiguredElements: [[0, 1]])
    let positions = ChangesetPositions(changeset)
    #expect(positions.newPath(ofOld: [0, 1]) == [0, 2])
    #expect(positions.oldPath(ofNew: [0, 2]) == [0, 1])
    #expect(positions.newPath(ofOld: [0, 0]) == [0, 1])
    #expect(!positions.isReloaded(element: [0, 1]))
  }

  @Test func asReloadsMergesTheTwoListsInOrder() {
    let changeset = Changeset(
      reloadedElements: [[0, 1], [1, 0]], reconfiguredElements: [[0, 0], [0, 2]])
    #expect(
      changeset.reconfiguresAsReloads()
        == Changeset(reloadedElements: [[0, 0], [0, 1], [0, 2], [1, 0]]))
    let validator = BatchValidator()
    #expect(
      validator.validate(oldCounts: [3, 1], newCounts: [3, 1], changeset: changeset).isEmpty)
    #expect(validator.reloadDestinations(in: changeset).count == 4)
  }
}
