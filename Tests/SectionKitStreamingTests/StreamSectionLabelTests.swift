import Foundation
import SectionKit
import SectionKitStreaming
import SectionKitTesting
import Testing

/// Sections a client can name (``StreamSectionLabel``): labels published, written, read and
/// followed by a mirror through every kind of section change.
///
/// Replay a seed with `SECTIONKIT_SEED=<seed>`.
@Suite struct StreamSectionLabelTests {
  /// A labelled random board's stream: every update, with the model's content and labels after
  /// each.
  static func updates(seed: UInt64, batches: Int, digests: StreamDigestPolicy = .never)
    -> [(update: StreamUpdate<Card>, content: [[Card]], labels: [StreamSectionLabel])]
  {
    var random = SeededGenerator(seed: seed)
    let board = RandomBoard(
      digests: digests, sections: Int.random(in: 1...4, using: &random), labelled: true)
    let subscription = board.stream.subscribe()
    var result = drain(subscription).map { ($0, board.content, board.labels) }
    for _ in 0..<batches {
      board.randomBatch(maximum: Int.random(in: 1...8, using: &random), using: &random)
      result += drain(subscription).map { ($0, board.content, board.labels) }
      // A subscriber that joins now gets the labels in its snapshot.
      guard case .snapshot(let late)? = board.stream.subscribe().poll() else {
        Issue.record("seed \(seed): a new subscriber's first update is not a snapshot")
        continue
      }
      #expect(late.labels == board.labels, "seed \(seed) update \(late.sequence)")
    }
    return result
  }

  @Test(arguments: streamSeeds(base: 0xC0DE_0500, count: 12))
  func labelsChunkedDecodedAndFollowedByAMirrorEqualTheModel(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let digests: StreamDigestPolicy = [.never, .everyUpdate, .every(3)][Int(seed % 3)]
    let updates = Self.updates(seed: seed, batches: 120, digests: digests)
    let encoder = StreamLineEncoder<Card>()
    var decoder = StreamLineDecoder<Card>()
    var mirror = StreamMirror<Card>(identity: Card.identity)
    var pending = Data()
    for (update, _, _) in updates { pending += try encoder.encode(update) }
    var offset = 0
    var next = 0
    var sectionsInserted = 0
    while offset < pending.count {
      let end = min(pending.count, offset + Int.random(in: 1...300, using: &random))
      decoder.append(pending[offset..<end])
      offset = end
      while let decoded = try decoder.next() {
        let (sent, content, labels) = updates[next]
        next += 1
        #expect(decoded == sent, "seed \(seed) line \(decoder.lineNumber)")
        try mirror.apply(decoded, line: decoder.lineNumber)
        #expect(mirror.sections == content, "seed \(seed) update \(decoded.sequence)")
        #expect(mirror.labels == labels, "seed \(seed) update \(decoded.sequence)")
        if case .changeset(let changeset) = decoded {
          sectionsInserted += changeset.labels.count
        }
      }
    }
    try decoder.finish()
    #expect(next == updates.count)
    #expect(sectionsInserted > 0, "seed \(seed): no section inserted with its label")
  }

  @Test func theLinesWriteTheLabelsAsDocumented() throws {
    let encoder = StreamLineEncoder<String>()
    let snapshot = StreamUpdate<String>.snapshot(
      StreamSnapshot(
        stream: "s", sequence: 1, sections: [["a"], []],
        labels: [StreamSectionLabel(id: "todo", header: "To do"), StreamSectionLabel()]))
    #expect(
      String(decoding: try encoder.encode(snapshot), as: UTF8.self)
        == #"{"labels":[{"header":"To do","id":"todo"},{}],"sections":[["a"],[]],"seq":1,"#
        + #""stream":"s","type":"snapshot","v":4}"# + "\n")
    let changeset = StreamUpdate<String>.changeset(
      StreamChangeset(
        sequence: 2, changeset: Changeset(insertedSections: [0]), sections: [0: []],
        labels: [0: StreamSectionLabel(id: "new")]))
    #expect(
      String(decoding: try encoder.encode(changeset), as: UTF8.self)
        == #"{"changeset":{"deletedElements":[],"deletedSectionRanges":[],"insertedElements":[],"#
        + #""insertedSectionRanges":[[0,1]],"movedElements":[],"movedSections":[],"#
        + #""reloadedElements":[],"reloadedSectionRanges":[]},"newElements":[],"#
        + #""newSections":[{"elements":[],"id":"new","index":0}],"seq":2,"type":"changeset","v":4}"#
        + "\n")
    var decoder = StreamLineDecoder<String>()
    var mirror = StreamMirror<String>()
    decoder.append(try encoder.encode(snapshot) + encoder.encode(changeset))
    while let update = try decoder.next() { try mirror.apply(update, line: decoder.lineNumber) }
    #expect(
      mirror.labels == [
        StreamSectionLabel(id: "new"), StreamSectionLabel(id: "todo", header: "To do"),
        StreamSectionLabel(),
      ])
  }

  @Test func labelsInALineOfAnOlderVersionOrThatDoNotFitAreRefused() {
    let lines: [(String, StreamLineError.Kind, String)] = [
      (
        #"{"labels":[{"id":"a"}],"sections":[[]],"seq":1,"stream":"s","type":"snapshot","v":3}"#,
        .malformed, "labels: no such field in version 3"
      ),
      (
        #"{"labels":[{"id":"a"}],"sections":[[],[]],"seq":1,"stream":"s","type":"snapshot","v":4}"#,
        .malformed, "labels: 1 labels for 2 sections"
      ),
      (
        #"{"labels":[{"id":1}],"sections":[[]],"seq":1,"stream":"s","type":"snapshot","v":4}"#,
        .malformed, "labels[0].id: expected a string"
      ),
      (
        #"{"labels":[{"name":"a"}],"sections":[[]],"seq":1,"stream":"s","type":"snapshot","v":4}"#,
        .malformed, "labels[0].name: no such field"
      ),
      (
        #"{"changeset":{"insertedSectionRanges":[[0,1]]},"newSections":[{"elements":[],"#
          + #""header":"H","index":0}],"seq":1,"type":"changeset","v":1}"#,
        .malformed, "newSections[0].header: no such field in version 1"
      ),
    ]
    for (line, kind, detail) in lines {
      var decoder = StreamLineDecoder<String>(after: StreamPosition(stream: "s", sequence: 0))
      do {
        _ = try decoder.decode(line: Data(line.utf8))
        Issue.record("accepted \(line)")
      } catch {
        #expect(error.kind == kind && error.line == 1, "\(line): \(error)")
        #expect(error.detail.hasPrefix(detail), "\(line): \(error)")
      }
    }
    // A label for a section the changeset does not send: the mirror refuses it, unchanged.
    var mirror = StreamMirror<String>(
      sections: [["a"]], position: StreamPosition(stream: "s", sequence: 1),
      labels: [StreamSectionLabel(id: "a")])
    let before = mirror
    #expect(throws: StreamMirrorError.self) {
      try mirror.apply(
        .changeset(
          StreamChangeset(
            sequence: 2, changeset: Changeset(insertedElements: [[0, 0]]),
            elements: [[0, 0]: "x"], labels: [0: StreamSectionLabel(id: "b")])))
    }
    #expect(mirror == before)
    // A snapshot with another number of labels than sections: refused naming `labels`.
    #expect {
      try mirror.apply(
        .snapshot(
          StreamSnapshot(
            stream: "s", sequence: 3, sections: [["a"], []],
            labels: [StreamSectionLabel(id: "a")])))
    } throws: { error in
      guard case .mismatch(3, let mismatch) = error as? StreamMirrorError else { return false }
      return mismatch.field == "labels" && mismatch.value == "1 labels"
        && mismatch.reason.hasPrefix("for 2 sections")
    }
    #expect(mirror == before)
  }

  @Test func aSectionTreeNamesItsSections() throws {
    let tree = SectionTree<String>()
    let coordinator = Coordinator(sectionProvider: tree.provider)
    let publisher = UpdatePublisher<String>(
      label: { section, _ in tree.id(of: section).map { StreamSectionLabel(id: "\($0.base)") } },
      value: { section, index in (section as! ArraySection<String>)[index] })
    coordinator.adapter = publisher
    let subscription = publisher.stream.subscribe()
    try tree.render {
      SectionNode(id: "todo", elements: ["a"])
      SectionNode(id: "done", elements: [String]())
    }
    try tree.render {
      SectionNode(id: "todo", elements: ["a"])
      SectionNode(id: "doing", elements: [String]())
      SectionNode(id: "done", elements: [String]())
    }
    var mirror = StreamMirror<String>()
    for update in drain(subscription) { try mirror.apply(update) }
    #expect(mirror.labels.map(\.id) == ["todo", "doing", "done"])
    #expect(tree.id(of: ArraySection<String>()) == nil)
  }
}
