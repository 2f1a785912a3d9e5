import Foundation
import SectionKit
import SectionKitStreaming
import SectionKitTesting
import Testing

/// Labels through windows: a windowed client names every section of the list, as it knows every
/// section's count, through batches that insert, remove and move sections and through moves of
/// its window, on values and on the wire.
///
/// Replay a seed with `SECTIONKIT_SEED=<seed>`.
@Suite struct WindowLabelTests {
  /// Random labelled boards, batches and window moves: after every step, every window mirror's
  /// labels are the model's (and its rows its slice), a mirror fed by the window's lines equals
  /// one fed by the values, and every clipped changeset passes the strict validator.
  @Test(arguments: streamSeeds(base: 0x1AB3_0200, count: 30))
  func windowMirrorsHaveTheModelsLabelsAfterEveryUpdate(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let board = RandomBoard(
      sections: Int.random(in: 1...5, using: &random),
      cards: Int.random(in: 2...12, using: &random),
      labelled: true)
    let windows = WindowedStream(following: board.stream)
    var followed:
      [(window: FollowedWindow, decoder: WindowLineDecoder<Card>, lines: WindowMirror<Card>)] =
        (0..<4).map { _ in
          let length = Int.random(in: 1...10, using: &random)
          let start = Int.random(in: 0...board.content.joined().count, using: &random)
          return (
            FollowedWindow(windows, StreamWindow(start: start, length: length)),
            WindowLineDecoder<Card>(), WindowMirror<Card>()
          )
        }
    var labelsSent = 0
    for step in 0..<80 {
      if Int.random(in: 0..<5, using: &random) == 0 {
        let index = Int.random(in: 0..<followed.count, using: &random)
        followed[index].window.subscription.move(
          to: Int.random(in: 0...(board.content.joined().count + 3), using: &random))
      } else {
        board.randomBatch(maximum: 8, using: &random)
        windows.pump()
      }
      let list = Array(board.content.joined())
      for index in followed.indices {
        // The updates through the wire first (the followed window's `catchUp` takes them).
        var updates: [WindowUpdate<Card>] = []
        while let update = followed[index].window.subscription.poll() { updates.append(update) }
        for update in updates {
          if case .changeset(let clipped) = update { labelsSent += clipped.labels.count }
          let line = try WindowLineEncoder<Card>().encode(update)
          let decoded = try followed[index].decoder.decode(line: line.dropLast())
          #expect(decoded == update, "seed \(seed), step \(step)")
          try followed[index].lines.apply(decoded)
          let window = followed[index].window
          let oldCounts = window.mirror.rows.map(\.count)
          try window.mirror.apply(update)
          if case .changeset(let clipped) = update {
            let violations = BatchValidator().validate(
              oldCounts: oldCounts, newCounts: window.mirror.rows.map(\.count),
              changeset: clipped.changeset)
            #expect(violations.isEmpty, "seed \(seed): \(clipped.changeset): \(violations)")
          }
        }
        let mirror = followed[index].window.mirror
        #expect(mirror.labels == board.labels, "seed \(seed), step \(step), window \(index)")
        #expect(mirror.counts == board.content.map(\.count), "seed \(seed), step \(step)")
        let end = min(mirror.window.start + mirror.window.length, list.count)
        #expect(mirror.flattened == Array(list[mirror.window.start..<end]), "seed \(seed)")
        #expect(followed[index].lines == mirror, "seed \(seed), step \(step)")
      }
    }
    #expect(labelsSent > 0, "seed \(seed): no clipped changeset carried a label")
  }

  /// A section the full stream moves, which shows rows in the window: a delete and an insert for
  /// the window, the insert with the section's label.
  @Test func aMovedSectionInTheWindowComesWithItsLabel() throws {
    let board = RandomBoard(sections: 3, cards: 3, labelled: true)
    let windows = WindowedStream(following: board.stream)
    let window = FollowedWindow(windows, StreamWindow(start: 0, length: 9))
    try window.catchUp()
    #expect(window.mirror.labels == board.labels)
    board.moveSection(from: 0, to: 2)
    windows.pump()
    let update = try #require(window.subscription.poll())
    guard case .changeset(let clipped) = update else {
      Issue.record("expected a changeset, got \(update)")
      return
    }
    #expect(clipped.changeset.movedSections.isEmpty)
    #expect(!clipped.changeset.insertedSections.isEmpty)
    for section in clipped.changeset.insertedSections {
      #expect(clipped.labels[section] == board.labels[section], "section \(section)")
    }
    try window.mirror.apply(update)
    #expect(window.mirror.labels == board.labels)
  }

  /// A reloaded section's new label, and a section inserted outside the window: both reach the
  /// window.
  @Test func reloadedAndInsertedSectionsOutsideTheWindowComeWithTheirLabels() throws {
    let stream = UpdateStream<String>()
    stream.publishSnapshot(
      [["a", "b"], ["c"]],
      labels: [StreamSectionLabel(id: "todo", header: "To do"), StreamSectionLabel(id: "done")])
    let windows = WindowedStream(following: stream)
    let subscription = windows.subscribe(window: StreamWindow(start: 0, length: 1))
    var mirror = WindowMirror<String>()
    while let update = subscription.poll() { try mirror.apply(update) }
    #expect(mirror.labels.map(\.id) == ["todo", "done"])
    stream.publish(
      Changeset(insertedSections: [2], reloadedSections: [1]), sections: [1: ["d"], 2: []],
      state: [["a", "b"], ["d"], []],
      labels: [1: StreamSectionLabel(id: "finished"), 2: StreamSectionLabel(header: "Later")])
    windows.pump()
    let update = try #require(subscription.poll())
    guard case .changeset(let clipped) = update else {
      Issue.record("expected a changeset, got \(update)")
      return
    }
    #expect(clipped.sections.isEmpty)  // neither shows rows in the window
    #expect(
      clipped.labels == [
        1: StreamSectionLabel(id: "finished"), 2: StreamSectionLabel(header: "Later"),
      ])
    try mirror.apply(update)
    #expect(
      mirror.labels == [
        StreamSectionLabel(id: "todo", header: "To do"), StreamSectionLabel(id: "finished"),
        StreamSectionLabel(header: "Later"),
      ])
  }

  /// Labels that do not fit: refused with `.mismatch` (field `labels`), the mirror unchanged;
  /// on the wire, a snapshot with another number of labels than sections is `malformed`.
  @Test func labelsThatDoNotFitAreRefusedAndTheMirrorIsUnchanged() throws {
    var mirror = WindowMirror<String>()
    let window = StreamWindow(start: 0, length: 2)
    #expect {
      try mirror.apply(
        .snapshot(
          WindowSnapshot(
            stream: "s", sequence: 1, window: window, counts: [2], rows: [["a", "b"]],
            labels: [StreamSectionLabel(), StreamSectionLabel()])))
    } throws: { error in
      guard case .mismatch(_, let mismatch) = error as? StreamMirrorError else { return false }
      return mismatch.field == "labels"
    }
    #expect(mirror == WindowMirror<String>())
    try mirror.apply(
      .snapshot(
        WindowSnapshot(
          stream: "s", sequence: 1, window: window, counts: [2], rows: [["a", "b"]],
          labels: [StreamSectionLabel(id: "a")])))
    let before = mirror
    // A label for a section the changeset neither inserts nor reloads.
    #expect {
      try mirror.apply(
        .changeset(
          WindowChangeset(
            sequence: 2, window: window, changeset: Changeset(),
            labels: [0: StreamSectionLabel(id: "b")])))
    } throws: { error in
      guard case .mismatch(_, let mismatch) = error as? StreamMirrorError else { return false }
      return mismatch.field == "labels"
    }
    #expect(mirror == before)

    var decoder = WindowLineDecoder<String>()
    let line =
      #"{"counts":[1,0],"firstSection":0,"labels":[{"id":"a"}],"length":1,"rows":[["a"]],"#
      + #""seq":1,"start":0,"stream":"s","type":"windowSnapshot","v":1}"#
    #expect {
      _ = try decoder.decode(line: Data(line.utf8))
    } throws: { error in
      guard let error = error as? StreamLineError else { return false }
      return error.line == 1 && error.kind == .malformed && error.detail.contains("labels")
    }
  }

  @Test func windowLinesWriteTheLabelsAsDocumented() throws {
    let encoder = WindowLineEncoder<String>()
    let snapshot = WindowUpdate<String>.snapshot(
      WindowSnapshot(
        stream: "s", sequence: 7, window: StreamWindow(start: 0, length: 1), counts: [1, 0],
        rows: [["a"], []], labels: [StreamSectionLabel(id: "todo", header: "To do"), .init()]))
    #expect(
      String(decoding: try encoder.encode(snapshot), as: UTF8.self)
        == #"{"counts":[1,0],"firstSection":0,"labels":[{"header":"To do","id":"todo"},{}],"#
        + #""length":1,"rows":[["a"]],"seq":7,"start":0,"stream":"s","type":"windowSnapshot","#
        + #""v":1}"# + "\n")
    let changeset = WindowUpdate<String>.changeset(
      WindowChangeset(
        sequence: 8, window: StreamWindow(start: 0, length: 1),
        changeset: Changeset(insertedSections: [2]), counts: [2: 0],
        labels: [2: StreamSectionLabel(id: "new")]))
    #expect(
      String(decoding: try encoder.encode(changeset), as: UTF8.self)
        == #"{"changes":{"insertedSectionRanges":[[2,3]]},"counts":[[2,0]],"#
        + #""labels":[[2,{"id":"new"}]],"length":1,"seq":8,"start":0,"type":"windowChangeset","#
        + #""v":1}"# + "\n")
  }
}
