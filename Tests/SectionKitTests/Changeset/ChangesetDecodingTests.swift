import Foundation
import SectionKit
import Testing

/// JSON text of an index path, in the platform's own `IndexPath` encoding.
func indexPathJSON(_ indexes: [Int]) -> String {
  String(decoding: try! JSONEncoder().encode(IndexPath(indexes: indexes)), as: UTF8.self)
}

/// A changeset payload with the given fields (JSON fragments by key); the others are left out.
func changesetJSON(_ fields: KeyValuePairs<String, String>) -> Data {
  Data(("{" + fields.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}").utf8)
}

/// `[[s, i], …]` as a JSON array of index paths.
func pathsJSON(_ paths: [[Int]]) -> String {
  "[" + paths.map(indexPathJSON).joined(separator: ", ") + "]"
}

/// `[(from, to), …]` as a JSON array of element moves.
func movesJSON(_ moves: [([Int], [Int])]) -> String {
  "["
    + moves.map { "{\"from\": \(indexPathJSON($0.0)), \"to\": \(indexPathJSON($0.1))}" }
    .joined(separator: ", ") + "]"
}

/// The context of the `dataCorrupted` error decoding `data` throws, or `nil` when it decodes.
func decodingFailure(_ data: Data) -> DecodingError.Context? {
  do {
    _ = try JSONDecoder().decode(Changeset.self, from: data)
    return nil
  } catch DecodingError.dataCorrupted(let context) {
    return context
  } catch {
    Issue.record("unexpected error \(error)")
    return nil
  }
}

/// `deletedElements.3.from` style text for a coding path.
func pathText(_ codingPath: [any CodingKey]) -> String {
  codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
}

@Suite("Decoding a changeset validates its invariants")
struct ChangesetDecodingTests {
  /// One malformed payload: where the error must point and what it must quote.
  struct Case: CustomStringConvertible, Sendable {
    var name: String
    var json: Data
    var field: String
    var value: String
    var description: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "negative section range", json: changesetJSON(["deletedSectionRanges": "[[-1, 2]]"]),
      field: "deletedSectionRanges.0", value: "-1..<2"),
    Case(
      name: "empty section range", json: changesetJSON(["insertedSectionRanges": "[[3, 3]]"]),
      field: "insertedSectionRanges.0", value: "3..<3"),
    Case(
      name: "overlapping section ranges",
      json: changesetJSON(["deletedSectionRanges": "[[0, 4], [2, 6]]"]),
      field: "deletedSectionRanges.1", value: "2..<6"),
    Case(
      name: "unsorted section ranges",
      json: changesetJSON(["reloadedSectionRanges": "[[5, 6], [0, 2]]"]),
      field: "reloadedSectionRanges.1", value: "0..<2"),
    Case(
      name: "adjacent section ranges",
      json: changesetJSON(["deletedSectionRanges": "[[0, 2], [2, 4]]"]),
      field: "deletedSectionRanges.1", value: "2..<4"),
    Case(
      name: "ranges of Int.max sections (past the section limit)",
      json: changesetJSON([
        "deletedSectionRanges": "[[0, \(Int.max)]]", "insertedSectionRanges": "[[0, \(Int.max)]]",
      ]),
      field: "deletedSectionRanges.0", value: "0..<\(Int.max)"),
    Case(
      name: "index path of 0 components", json: changesetJSON(["deletedElements": pathsJSON([[]])]),
      field: "deletedElements.0", value: "[]"),
    Case(
      name: "index path of 1 component",
      json: changesetJSON(["insertedElements": pathsJSON([[0, 0], [1]])]),
      field: "insertedElements.1", value: "[1]"),
    Case(
      name: "index path of 3 components",
      json: changesetJSON(["reloadedElements": pathsJSON([[0, 1, 2]])]),
      field: "reloadedElements.0", value: "[0, 1, 2]"),
    Case(
      name: "negative element index",
      json: changesetJSON(["reloadedElements": pathsJSON([[-1, 0]])]),
      field: "reloadedElements.0", value: "[-1, 0]"),
    Case(
      name: "NSNotFound element index",
      json: changesetJSON(["deletedElements": pathsJSON([[0, Int.max]])]),
      field: "deletedElements.0", value: "[0, \(Int.max)]"),
    Case(
      name: "duplicate element delete",
      json: changesetJSON(["deletedElements": pathsJSON([[0, 1], [0, 1]])]),
      field: "deletedElements.1", value: "[0, 1]"),
    Case(
      name: "unsorted element inserts",
      json: changesetJSON(["insertedElements": pathsJSON([[1, 0], [0, 3]])]),
      field: "insertedElements.1", value: "[0, 3]"),
    Case(
      name: "malformed move source",
      json: changesetJSON(["movedElements": movesJSON([([0], [0, 1])])]),
      field: "movedElements.0.from", value: "[0]"),
    Case(
      name: "moves not sorted by destination",
      json: changesetJSON(["movedElements": movesJSON([([0, 0], [0, 2]), ([0, 2], [0, 0])])]),
      field: "movedElements.1.to", value: "[0, 0]"),
    Case(
      name: "two moves to one destination",
      json: changesetJSON(["movedElements": movesJSON([([0, 0], [0, 2]), ([0, 1], [0, 2])])]),
      field: "movedElements.1.to", value: "[0, 2]"),
    Case(
      name: "one element moved twice",
      json: changesetJSON(["movedElements": movesJSON([([0, 0], [0, 1]), ([0, 0], [0, 2])])]),
      field: "movedElements.1.from", value: "[0, 0]"),
    Case(
      name: "negative section move",
      json: changesetJSON(["movedSections": "[{\"from\": 0, \"to\": -1}]"]),
      field: "movedSections.0.to", value: "-1"),
    Case(
      name: "one section moved twice",
      json: changesetJSON(["movedSections": "[{\"from\": 0, \"to\": 1}, {\"from\": 0, \"to\": 2}]"]
      ),
      field: "movedSections.1.from", value: "0"),
    Case(
      name: "two sections moved to one destination",
      json: changesetJSON(["movedSections": "[{\"from\": 0, \"to\": 2}, {\"from\": 1, \"to\": 2}]"]
      ),
      field: "movedSections.1.to", value: "2"),
    Case(
      name: "section both deleted and reloaded",
      json: changesetJSON([
        "deletedSectionRanges": "[[0, 3]]", "reloadedSectionRanges": "[[2, 3]]",
      ]),
      field: "reloadedSectionRanges.0", value: "2..<3"),
    Case(
      name: "deleted section moved",
      json: changesetJSON([
        "deletedSectionRanges": "[[1, 2]]", "movedSections": "[{\"from\": 1, \"to\": 0}]",
      ]),
      field: "movedSections.0.from", value: "1"),
    Case(
      name: "section moved onto an inserted one",
      json: changesetJSON([
        "insertedSectionRanges": "[[0, 1]]", "movedSections": "[{\"from\": 1, \"to\": 0}]",
      ]),
      field: "movedSections.0.to", value: "0"),
    Case(
      name: "element delete inside a deleted section",
      json: changesetJSON([
        "deletedSectionRanges": "[[0, 1]]", "deletedElements": pathsJSON([[0, 1]]),
      ]),
      field: "deletedElements.0", value: "[0, 1]"),
    Case(
      name: "element reload inside a reloaded section",
      json: changesetJSON([
        "reloadedSectionRanges": "[[1, 2]]", "reloadedElements": pathsJSON([[1, 0]]),
      ]),
      field: "reloadedElements.0", value: "[1, 0]"),
    Case(
      name: "element insert inside an inserted section",
      json: changesetJSON([
        "insertedSectionRanges": "[[0, 2]]", "insertedElements": pathsJSON([[1, 0]]),
      ]),
      field: "insertedElements.0", value: "[1, 0]"),
    Case(
      name: "element both deleted and reloaded",
      json: changesetJSON([
        "deletedElements": pathsJSON([[0, 1]]), "reloadedElements": pathsJSON([[0, 1]]),
      ]),
      field: "reloadedElements.0", value: "[0, 1]"),
    Case(
      name: "move source also deleted",
      json: changesetJSON([
        "deletedElements": pathsJSON([[0, 1]]), "movedElements": movesJSON([([0, 1], [0, 0])]),
      ]),
      field: "movedElements.0.from", value: "[0, 1]"),
    Case(
      name: "move source also reloaded",
      json: changesetJSON([
        "reloadedElements": pathsJSON([[0, 1]]), "movedElements": movesJSON([([0, 1], [0, 0])]),
      ]),
      field: "movedElements.0.from", value: "[0, 1]"),
    Case(
      name: "move destination also inserted",
      json: changesetJSON([
        "insertedElements": pathsJSON([[0, 0]]), "movedElements": movesJSON([([0, 1], [0, 0])]),
      ]),
      field: "movedElements.0.to", value: "[0, 0]"),
    Case(
      name: "move out of a deleted section",
      json: changesetJSON([
        "deletedSectionRanges": "[[0, 1]]", "movedElements": movesJSON([([0, 1], [1, 0])]),
      ]),
      field: "movedElements.0.from", value: "[0, 1]"),
    Case(
      name: "move into an inserted section",
      json: changesetJSON([
        "insertedSectionRanges": "[[1, 2]]", "movedElements": movesJSON([([0, 1], [1, 0])]),
      ]),
      field: "movedElements.0.to", value: "[1, 0]"),
    Case(
      name: "element insert into a moved section",
      json: changesetJSON([
        "movedSections": "[{\"from\": 0, \"to\": 1}]", "insertedElements": pathsJSON([[1, 0]]),
      ]),
      field: "insertedElements.0", value: "[1, 0]"),
    Case(
      name: "element delete in a moved section",
      json: changesetJSON([
        "movedSections": "[{\"from\": 0, \"to\": 1}]", "deletedElements": pathsJSON([[0, 0]]),
      ]),
      field: "deletedElements.0", value: "[0, 0]"),
  ]

  @Test(arguments: cases)
  func malformedPayload_throwsDataCorrupted_namingTheFieldAndTheValue(_ c: Case) {
    guard let context = decodingFailure(c.json) else {
      Issue.record("\(c.name): decoded without an error")
      return
    }
    #expect(pathText(context.codingPath) == c.field, "\(c.name): \(context.debugDescription)")
    #expect(
      context.debugDescription.contains(c.value), "\(c.name): \(context.debugDescription)")
  }

  @Test func overlappingRanges_neverGiveMoreSectionsThanTheSetHolds() {
    // The payload of the issue: as a set, 0..<6 holds 6 sections; it must not count 8.
    let json = changesetJSON(["deletedSectionRanges": "[[0, 4], [2, 6]]"])
    #expect(decodingFailure(json) != nil)
    let merged = try! JSONDecoder().decode(
      Changeset.self, from: changesetJSON(["deletedSectionRanges": "[[0, 6]]"]))
    #expect(merged.count == 6 && merged.deletedSections == IndexSet(integersIn: 0..<6))
  }

  @Test func rangesUpToTheLimit_decodeWithoutMaterialisingThem() throws {
    let json = changesetJSON(["deletedSectionRanges": "[[0, \(Changeset.sectionLimit)]]"])
    let changeset = try JSONDecoder().decode(Changeset.self, from: json)
    #expect(changeset.count == Changeset.sectionLimit)
    #expect(
      try JSONDecoder().decode(Changeset.self, from: JSONEncoder().encode(changeset)) == changeset)
  }

  /// A payload that claims more sections or elements than any state can hold is refused when it
  /// is decoded, naming the field: it never reaches a mirror that would allocate for it.
  @Test func countsNoStateCanHave_areRefusedNamingTheField() {
    let cases: [(json: Data, field: String)] = [
      (changesetJSON(["insertedSectionRanges": "[[0, 1000000000000]]"]), "insertedSectionRanges.0"),
      (changesetJSON(["deletedSectionRanges": "[[0, \(1 << 62)]]"]), "deletedSectionRanges.0"),
      (
        changesetJSON([
          "reloadedSectionRanges": "[[\(Changeset.sectionLimit), \(Changeset.sectionLimit + 1)]]"
        ]),
        "reloadedSectionRanges.0"
      ),
      (
        changesetJSON(["movedSections": "[{\"from\": 0, \"to\": \(1 << 40)}]"]),
        "movedSections.0.to"
      ),
      (changesetJSON(["insertedElements": pathsJSON([[1 << 30, 0]])]), "insertedElements.0"),
      (
        changesetJSON(["deletedElements": pathsJSON([[0, Changeset.elementLimit]])]),
        "deletedElements.0"
      ),
    ]
    for (json, field) in cases {
      guard let context = decodingFailure(json) else {
        Issue.record("\(field): decoded without an error")
        continue
      }
      #expect(pathText(context.codingPath) == field, "\(context.debugDescription)")
      #expect(context.debugDescription.contains("limit"), "\(context.debugDescription)")
    }
  }

  @Test func missingParts_decodeAsEmpty() throws {
    #expect(try JSONDecoder().decode(Changeset.self, from: Data("{}".utf8)) == Changeset())
  }

  @Test func everyPart_roundTrips() throws {
    let changeset = Changeset(
      deletedSections: [1, 2, 7], insertedSections: [0, 4], reloadedSections: [3],
      movedSections: [.init(from: 5, to: 6), .init(from: 6, to: 5)],
      deletedElements: [[0, 1], [4, 0]], insertedElements: [[1, 0], [2, 3]],
      reloadedElements: [[0, 0], [4, 2]],
      movedElements: [.init(from: [0, 3], to: [1, 1]), .init(from: [4, 1], to: [2, 0])])
    let data = try JSONEncoder().encode(changeset)
    #expect(try JSONDecoder().decode(Changeset.self, from: data) == changeset)
  }

  @Test func sectionSetsOfTheInitialiser_areStoredMerged() {
    var changeset = Changeset(deletedSections: [0, 1, 2, 4])
    #expect(changeset.deletedSectionRanges == [0..<3, 4..<5])
    changeset.insertedSections = IndexSet(integersIn: 0..<Int.max)
    changeset.reloadedSections = IndexSet(integersIn: 0..<Int.max)
    // The operation count saturates instead of trapping on overflow.
    #expect(changeset.count == Int.max)
  }
}
