import Foundation
import SectionKit
import SectionKitStreaming
import SectionKitTesting
import Testing

@Suite("Streaming: the client mirror checks continuity and fit, and changes nothing on error")
struct StreamMirrorTests {
  let snapshot = StreamUpdate<String>.snapshot(
    StreamSnapshot(stream: "s", sequence: 4, sections: [["a", "b", "c"]]))

  func changeset(_ sequence: Int, _ changeset: Changeset, _ elements: [IndexPath: String] = [:])
    -> StreamUpdate<String>
  {
    .changeset(StreamChangeset(sequence: sequence, changeset: changeset, elements: elements))
  }

  /// Applies `update` to a mirror at `snapshot` and returns the error; the mirror must be unchanged.
  func refusal(_ update: StreamUpdate<String>, after earlier: [StreamUpdate<String>] = [])
    -> StreamMirrorError?
  {
    var mirror = StreamMirror<String>()
    try? mirror.apply(snapshot)
    for update in earlier { try? mirror.apply(update) }
    let before = mirror
    do {
      try mirror.apply(update)
      return nil
    } catch {
      #expect(mirror == before, "the mirror changed on \(error)")
      return error
    }
  }

  @Test func theDocumentedExampleApplies() throws {
    // The model: ["a", "b", "c"]; one batch moves "a" to the end and inserts "x" at the front.
    var mirror = StreamMirror<String>()
    try mirror.apply(snapshot)
    try mirror.apply(
      changeset(
        5,
        Changeset(insertedElements: [[0, 0]], movedElements: [.init(from: [0, 0], to: [0, 3])]),
        [[0, 0]: "x"]))
    #expect(mirror.sections == [["x", "b", "c", "a"]])
    #expect(mirror.position == StreamPosition(stream: "s", sequence: 5))
  }

  @Test func aChangesetBeforeAnySnapshotIsRefused() {
    var mirror = StreamMirror<String>()
    #expect(throws: StreamMirrorError.noSnapshot(received: 1)) {
      try mirror.apply(changeset(1, Changeset()))
    }
    #expect(mirror.position == nil)
  }

  @Test func aGapAsksForAResync() {
    let error = refusal(changeset(6, Changeset(deletedElements: [[0, 0]])))
    #expect(error == .gap(expected: 5, received: 6))
    #expect(error?.needsResync == true)
  }

  @Test func aDuplicateOrAnOlderSnapshotIsRefused() {
    let first = changeset(5, Changeset(deletedElements: [[0, 0]]))
    #expect(refusal(first, after: [first]) == .outOfOrder(expected: 6, received: 5))
    let old = StreamUpdate<String>.snapshot(StreamSnapshot(stream: "s", sequence: 3, sections: []))
    #expect(refusal(old) == .outOfOrder(expected: 4, received: 3))
    // A snapshot of another stream (the server restarted) is always taken.
    let other = StreamUpdate<String>.snapshot(
      StreamSnapshot(stream: "t", sequence: 1, sections: []))
    #expect(refusal(other) == nil)
  }

  /// A snapshot of the mirror's own sequence number is the state it holds: taking it is
  /// harmless, by the mirror and by the decoder (never a gap, never a duplicate change).
  @Test func aSnapshotOfTheMirrorsOwnSequenceIsTaken() throws {
    var mirror = StreamMirror<String>()
    try mirror.apply(snapshot)
    let again = StreamUpdate<String>.snapshot(
      StreamSnapshot(stream: "s", sequence: 4, sections: [["a", "b", "c"]]))
    try mirror.apply(again)
    #expect(mirror.sections == [["a", "b", "c"]])
    #expect(mirror.position == StreamPosition(stream: "s", sequence: 4))
    // After a changeset, a snapshot of the sequence before it is older: refused.
    try mirror.apply(changeset(5, Changeset(deletedElements: [[0, 0]])))
    #expect(throws: StreamMirrorError.outOfOrder(expected: 5, received: 4)) {
      try mirror.apply(again)
    }
    var decoder = StreamLineDecoder<String>()
    let line = Data(#"{"v":1,"type":"snapshot","stream":"s","seq":4,"sections":[["a"]]}"#.utf8)
    #expect(try decoder.decode(line: line).sequence == 4)
    #expect(try decoder.decode(line: line).sequence == 4)
    // A mirror at the largest sequence number: no overflow in the check or its message.
    var last = StreamMirror<String>(
      sections: [], position: StreamPosition(stream: "s", sequence: .max))
    #expect(throws: StreamMirrorError.outOfOrder(expected: .max, received: 4)) {
      try last.apply(again)
    }
    // A changeset after it cannot exist: refused, never an overflow, by the mirror and by a
    // decoder resumed there.
    #expect(throws: StreamMirrorError.self) { try last.apply(changeset(4, Changeset())) }
    var resumed = StreamLineDecoder<String>(after: StreamPosition(stream: "s", sequence: .max))
    #expect(throws: StreamLineError.self) {
      try resumed.decode(line: Data(#"{"v":1,"type":"changeset","seq":2,"changeset":{}}"#.utf8))
    }
  }

  @Test func aChangesetThatDoesNotFitIsRefusedWhole() {
    // Element 3 of a section of three.
    let error = refusal(changeset(5, Changeset(deletedElements: [[0, 0], [0, 3]])))
    guard case .mismatch(5, let mismatch) = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(mismatch.field == "deletedElements")
  }

  @Test func missingOrExtraValuesAreRefused() {
    let insert = Changeset(insertedElements: [[0, 1]])
    guard case .mismatch(_, let missing) = refusal(changeset(5, insert)) else {
      Issue.record("a missing value was accepted")
      return
    }
    #expect(missing.field == "elements")
    guard
      case .mismatch(_, let extra) = refusal(changeset(5, insert, [[0, 1]: "y", [0, 2]: "z"]))
    else {
      Issue.record("an extra value was accepted")
      return
    }
    #expect(extra.reason.contains("1 value(s) sent for no inserted or reloaded element"))
    let sections = StreamUpdate<String>.changeset(
      StreamChangeset(
        sequence: 5, changeset: Changeset(insertedSections: [1, 2]), sections: [1: ["n"]]))
    guard case .mismatch(_, let section) = refusal(sections) else {
      Issue.record("an inserted section without its elements was accepted")
      return
    }
    #expect(section.field == "insertedSections")
  }

  @Test func aHugeSectionInsertIsRefusedBeforeAnythingIsAllocated() {
    let huge = StreamUpdate<String>.changeset(
      StreamChangeset(
        sequence: 5, changeset: Changeset(insertedSections: IndexSet(integersIn: 1..<(1 << 60)))))
    #expect(refusal(huge) != nil)
  }
}
