import Foundation
import SectionKit
import SectionKitStreaming
import Testing

/// The codec's types are `Sendable`: a client keeps its decoder and mirror in its own `Sendable`
/// state (a struct sent to a task, an actor) — this file compiles only while they are.
@Suite struct StreamCodecSendableTests {
  /// A client's state, as a `Sendable` struct.
  struct ClientState: Sendable {
    var decoder = StreamLineDecoder<String>()
    var encoder = StreamLineEncoder<String>()
    var mirror = StreamMirror<String>()
    var lastError: StreamLineError?
    var mirrorError: StreamMirrorError?
    var label = StreamSectionLabel(id: "a")
    var position: StreamPosition?

    mutating func receive(_ bytes: Data) throws {
      decoder.append(bytes)
      while let update = try decoder.next() { try mirror.apply(update, line: decoder.lineNumber) }
      position = decoder.position
    }
  }

  /// A client's state in an actor.
  actor Client {
    var state = ClientState()
    func receive(_ bytes: Data) throws { try state.receive(bytes) }
    var sections: [[String]] { state.mirror.sections }
  }

  @Test func aDecoderAndAMirrorLiveInAnActorAndCrossTasks() async throws {
    let encoder = StreamLineEncoder<String>()
    let lines =
      try encoder.encode(
        .snapshot(
          StreamSnapshot(
            stream: "s", sequence: 1, sections: [["a"]], labels: [StreamSectionLabel(id: "x")])))
      + encoder.encode(
        .changeset(
          StreamChangeset(
            sequence: 2, changeset: Changeset(insertedElements: [[0, 1]]), elements: [[0, 1]: "b"])
        ))
    let client = Client()
    // Half the bytes from one task, the rest from another: the decoder's partial line crosses.
    let cut = lines.count / 2
    try await Task.detached { try await client.receive(lines.prefix(cut)) }.value
    try await Task.detached { try await client.receive(lines.dropFirst(cut)) }.value
    #expect(await client.sections == [["a", "b"]])
    // The struct itself crosses into a task and back.
    var state = ClientState()
    state = try await Task.detached { [state] in
      var moved = state
      try moved.receive(lines)
      return moved
    }.value
    #expect(state.mirror.sections == [["a", "b"]])
    #expect(state.mirror.labels == [StreamSectionLabel(id: "x")])
  }
}
