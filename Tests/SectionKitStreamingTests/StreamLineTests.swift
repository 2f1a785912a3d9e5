import Foundation
import SectionKit
import SectionKitStreaming
import SectionKitTesting
import Testing

@Suite("Streaming: JSON lines, written and read back, each bad line named")
struct StreamLineTests {
  /// The lines of a board's stream, without their newlines: a snapshot, then a changeset per
  /// batch that changed something.
  static func lines(seed: UInt64, batches: Int) throws -> (lines: [Data], content: [[Card]]) {
    var random = SeededGenerator(seed: seed)
    let board = RandomBoard()
    let subscription = board.stream.subscribe()
    let encoder = StreamLineEncoder<Card>()
    var lines = try drain(subscription).map(encoder.encode)
    for _ in 0..<batches {
      board.randomBatch(using: &random)
      lines += try drain(subscription).map(encoder.encode)
    }
    return (lines.map { $0.dropLast() }, board.content)
  }

  @Test func aStreamWrittenAsLinesReadsBackIntoAnEqualMirror() throws {
    let (lines, content) = try Self.lines(seed: 11, batches: 100)
    #expect(lines.count > 90)
    var decoder = StreamLineDecoder<Card>()
    var mirror = StreamMirror<Card>()
    // In chunks that cut lines anywhere.
    let bytes = Data(lines.map { $0 + [10] }.joined())
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + 97)
      decoder.append(bytes[offset..<end])
      while let update = try decoder.next() { try mirror.apply(update, line: decoder.lineNumber) }
      offset = end
    }
    try decoder.finish()
    #expect(decoder.lineNumber == lines.count)
    #expect(mirror.sections == content)
  }

  @Test func equalUpdatesGiveEqualBytes() throws {
    let encoder = StreamLineEncoder<String>()
    let update = StreamUpdate<String>.changeset(
      StreamChangeset(
        sequence: 3,
        changeset: Changeset(insertedSections: [1], insertedElements: [[0, 0], [0, 2]]),
        sections: [1: ["n"]], elements: [[0, 2]: "z", [0, 0]: "y"]))
    let line = try #require(String(data: try encoder.encode(update), encoding: .utf8))
    #expect(
      line
        == #"{"changeset":{"deletedElements":[],"deletedSectionRanges":[],"insertedElements":[[0,0],[0,2]],"insertedSectionRanges":[[1,2]],"movedElements":[],"movedSections":[],"reloadedElements":[],"reloadedSectionRanges":[]},"newElements":[{"path":[0,0],"value":"y"},{"path":[0,2],"value":"z"}],"newSections":[{"elements":["n"],"index":1}],"seq":3,"type":"changeset","v":1}"#
        + "\n")
    var decoder = StreamLineDecoder<String>(after: StreamPosition(stream: "s", sequence: 2))
    #expect(try decoder.decode(line: Data(line.utf8.dropLast())) == update)
  }

  /// The error reading `text` as the line after a snapshot at sequence 1.
  func error(_ text: String) -> StreamLineError? {
    var decoder = StreamLineDecoder<String>()
    var mirror = StreamMirror<String>()
    decoder.append(
      Data(#"{"v":1,"type":"snapshot","stream":"s","seq":1,"sections":[["a","b"]]}"#.utf8 + [10]))
    decoder.append(Data(text.utf8))
    do {
      while let update = try decoder.next() { try mirror.apply(update, line: decoder.lineNumber) }
      try decoder.finish()
      return nil
    } catch {
      #expect(mirror.sections == [["a", "b"]], "half-applied: \(mirror.sections)")
      return error
    }
  }

  @Test(arguments: [
    ("not json\n", StreamLineError.Kind.malformed, "not a JSON object"),
    (#"{"type":"snapshot"}"# + "\n", .malformed, "missing field v"),
    (#"{"v":5,"type":"whatever"}"# + "\n", .unsupportedVersion, "version 5"),
    // A line of an unknown version that this reader cannot parse, its `v` after other keys.
    (#"{"seq":1,"extra":true,"v":9}"# + "\n", .unsupportedVersion, "version 9"),
    (#"{"v":1,"type":"nope","seq":2}"# + "\n", .malformed, #"type "nope""#),
    (#"{"v":1,"type":"changeset","seq":"2"}"# + "\n", .malformed, "seq: expected"),
    (#"{"v":1,"type":"changeset","seq":2}"# + "\n", .malformed, "needs field changeset"),
    (
      #"{"v":1,"type":"changeset","seq":2,"changeset":{"deletedElements":[[0,1],[0,0]]}}"# + "\n",
      .malformed, "changeset.deletedElements"
    ),
    (#"{"v":1,"type":"changeset","seq":-2,"changeset":{}}"# + "\n", .outOfRange, "seq -2"),
    (#"{"v":1,"type":"changeset","seq":3,"changeset":{}}"# + "\n", .outOfOrder, "gap"),
    (#"{"v":1,"type":"changeset","seq":1,"changeset":{}}"# + "\n", .outOfOrder, "out of order"),
    (
      #"{"v":1,"type":"changeset","seq":2,"changeset":{"deletedElements":[[0,5]]}}"# + "\n",
      .outOfRange, "element 5 is out of range 0..<2"
    ),
    (
      #"{"v":1,"type":"changeset","seq":2,"changeset":{"insertedElements":[[0,0]]},"newElements":[{"path":[0,0,1],"value":"x"}]}"#
        + "\n", .outOfRange, "newElements[0]"
    ),
    (#"{"v":1,"type":"changeset","seq":2,"changeset":{}"#, .truncated, "ends inside a line"),
  ])
  func aBadLineIsNamedWithItsNumberAndWhatIsWrong(
    text: String, kind: StreamLineError.Kind, detail: String
  ) {
    let error = error(text)
    #expect(error?.line == 2)
    #expect(error?.kind == kind)
    #expect(error?.detail.contains(detail) == true, "\(String(describing: error))")
  }

  /// Shapes `JSONDecoder` and Swift's own `Range` decoding let through or report without the
  /// field: each is refused naming the line and the field.
  @Test(arguments: [
    (
      #""deletedSectionRanges":[[1,3,5]]"#,
      "changeset.deletedSectionRanges[0]: [1, 3, 5] is not a range"
    ),
    (#""insertedSectionRanges":[[1]]"#, "changeset.insertedSectionRanges[0]: [1] is not a range"),
    (#""reloadedSectionRanges":[[]]"#, "changeset.reloadedSectionRanges[0]: [] is not a range"),
    (
      #""deletedSectionRanges":[[5,1]]"#,
      "changeset.deletedSectionRanges[0]: [5, 1] is not a range: the lower"
    ),
    (
      #""deletedSectionRanges":[[-3,-1]]"#,
      "changeset.deletedSectionRanges[0] = -3..<-1 holds negative"
    ),
    (
      #""deletedSectionRanges":[[0,1.5]]"#,
      "changeset.deletedSectionRanges[0][1]: 1.5 is not an integer"
    ),
    (#""deletedElements":[[0,1.5]]"#, "changeset.deletedElements[0][1]: 1.5 is not an integer"),
    (
      #""movedSections":[{"from":0.5,"to":1}]"#,
      "changeset.movedSections[0].from: 0.5 is not an integer"
    ),
    (
      #""movedElements":[{"from":[0,0],"to":[0,1e30]}]"#,
      "changeset.movedElements[0].to[1]: 1e+30 is out of the range of integers"
    ),
  ])
  func aLenientShapeInAChangesetIsRefusedNamingTheField(changeset: String, detail: String) {
    let error = error(#"{"v":1,"type":"changeset","seq":2,"changeset":{"# + changeset + "}}\n")
    #expect(error?.line == 2)
    #expect(error?.kind == .malformed)
    #expect(error?.detail.contains(detail) == true, "\(String(describing: error))")
  }

  @Test(arguments: [
    (#"{"v":1.5,"type":"changeset","seq":2,"changeset":{}}"#, "v: 1.5 is not an integer"),
    (#"{"v":1,"type":"changeset","seq":2.5,"changeset":{}}"#, "seq: 2.5 is not an integer"),
    (
      #"{"v":1,"type":"changeset","seq":2,"changeset":{"insertedSectionRanges":[[1,2]]},"newSections":[{"index":1.5,"elements":[]}]}"#,
      "newSections[0].index: 1.5 is not an integer"
    ),
    (
      #"{"v":1,"type":"changeset","seq":2,"changeset":{"insertedElements":[[0,0]]},"newElements":[{"path":[0,0.5],"value":"x"}]}"#,
      "newElements[0].path[1]: 0.5 is not an integer"
    ),
  ])
  func aNonIntegerNumberIsRefusedNamingTheField(line: String, detail: String) {
    let error = error(line + "\n")
    #expect(error?.line == 2)
    #expect(error?.kind == .malformed)
    #expect(error?.detail.contains(detail) == true, "\(String(describing: error))")
  }

  /// Valid JSON that `JSONDecoder` reads one way and another reader another way, or that drops
  /// what it does not know: refused naming the field.
  @Test(arguments: [
    (#"{"v":1,"type":"changeset","seq":2,"seq":3,"changeset":{}}"#, "seq: the key seq is repeated"),
    (
      #"{"v":1,"type":"changeset","seq":2,"changeset":{"deletedElement":[[0,0]]}}"#,
      "changeset.deletedElement: no such field in version 1"
    ),
    (#"{"v":1,"type":"changeset","seq":2,"changeset":{},"extra":1}"#, "extra: no such field"),
    (#"{"v":1,"type":"changeset","seq":2,"changeset":{},"sections":null}"#, "sections: null"),
    (
      #"{"v":1,"type":"changeset","seq":2,"changeset":{"deletedElements":null}}"#,
      "changeset.deletedElements: null"
    ),
    (
      #"{"v":1,"type":"changeset","seq":2,"changeset":{"movedSections":[{"from":0,"to":1,"from":2}]}}"#,
      "changeset.movedSections[0].from: the key from is repeated"
    ),
    (
      #"{"v":1,"type":"changeset","seq":2,"changeset":{"insertedElements":[[0,0]]},"newElements":[{"path":[0,0],"value":"x","path":[0,1]}]}"#,
      "newElements[0].path: the key path is repeated"
    ),
    (
      #"{"v":1,"type":"changeset","seq":2,"changeset":{"insertedElements":[[0,0]]},"newElements":[{"path":[0,0],"value":"x","size":1}]}"#,
      "newElements[0].size: no such field"
    ),
    (
      #"{"v":1,"type":"snapshot","stream":"s","seq":2,"sections":[["a"]],"st\u0072eam":"t"}"#,
      "stream: the key stream is repeated"
    ),
  ])
  func anAmbiguousOrUnknownKeyIsRefusedNamingTheField(line: String, detail: String) {
    let error = error(line + "\n")
    #expect(error?.line == 2)
    #expect(error?.kind == .malformed)
    #expect(error?.detail.contains(detail) == true, "\(String(describing: error))")
  }

  /// The checks above leave the application's values alone: `null` for an optional value, and
  /// keys of its own, are the value type's business.
  @Test func theValuesOfTheApplicationAreNotTheFormatsFields() throws {
    var decoder = StreamLineDecoder<String?>()
    _ = try decoder.decode(
      line: Data(#"{"v":1,"type":"snapshot","stream":"s","seq":1,"sections":[["a",null]]}"#.utf8))
    let update = try decoder.decode(
      line: Data(
        #"{"v":1,"type":"changeset","seq":2,"changeset":{"insertedElements":[[0,0]]},"newElements":[{"path":[0,0],"value":null}]}"#
          .utf8))
    guard case .changeset(let changeset) = update else {
      Issue.record("\(update)")
      return
    }
    #expect(changeset.elements == [[0, 0]: String?.none])
    var cards = StreamLineDecoder<Card>()
    let snapshot = try cards.decode(
      line: Data(
        #"{"v":1,"type":"snapshot","stream":"s","seq":1,"sections":[[{"id":1,"version":0,"note":"x"}]]}"#
          .utf8))
    #expect(snapshot.sequence == 1)
  }

  @Test func aLineTooLongIsDroppedWithoutBufferingIt() throws {
    var decoder = StreamLineDecoder<String>(maximumLineLength: 100)
    decoder.append(Data(repeating: UInt8(ascii: "x"), count: 250))
    decoder.append(Data(repeating: UInt8(ascii: "x"), count: 250) + [10])
    decoder.append(
      Data(#"{"v":1,"type":"snapshot","stream":"s","seq":1,"sections":[]}"#.utf8 + [10]))
    #expect(
      throws: StreamLineError(
        line: 1, kind: .tooLong, detail: "500 bytes, more than the 100 accepted")
    ) {
      try decoder.next()
    }
    #expect(try decoder.next()?.sequence == 1)
    #expect(decoder.lineNumber == 2)
  }
}
