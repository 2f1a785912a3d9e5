import Foundation
import SectionKitStreaming
import Testing

@testable import LiveBoard

@Suite struct CommandTests {
  func batch(_ json: String) throws(CommandError) -> CommandBatch {
    try CommandBatch.decode(Data(json.utf8))
  }

  func refusal(_ json: String, on board: Board) async -> CommandError? {
    do {
      try await board.perform(try batch(json))
      return nil
    } catch {
      return error
    }
  }

  @Test func aBatchIsOneChangeset() async throws {
    let board = Board()
    let before = board.stream.position.sequence
    try await board.perform(
      batch(
        #"""
        {"commands": [
          {"kind": "add", "column": "col-1", "index": 0, "title": "Buy milk"},
          {"kind": "rename", "card": [1, 1], "title": "Renamed"},
          {"kind": "move", "card": [2, 1], "column": 0, "index": 1},
          {"kind": "delete", "card": [0, 2]},
          {"kind": "renameColumn", "column": 2, "title": "Finished"},
          {"kind": "moveColumn", "column": "col-3", "index": 0}
        ]}
        """#))
    #expect(board.stream.position.sequence == before + 1)
    let data = await board.current
    #expect(data.columns.map(\.title) == ["Finished", "To do", "Doing"])
    // Every path names what the client saw before the batch: [0, 2] is Card 4, wherever the
    // earlier commands put it.
    #expect(data.columns[1].cards.map(\.title) == ["Buy milk", "Card 3", "Card 1"])
    #expect(data.columns[2].cards.map(\.title) == ["Renamed", "Card 5"])
    #expect(board.stream.snapshot.sections == data.sections)
  }

  @Test func aBadCommandChangesNothingAndNamesTheField() async {
    let board = Board()
    let before = await board.current
    let sequence = board.stream.position.sequence
    let cases: [(json: String, status: Int, field: String)] = [
      ("{", 400, "body"),
      ("[]", 400, "body"),
      (#"{"commands": 3}"#, 400, "commands"),
      (#"{"commands": [{"kind": "explode"}]}"#, 400, "commands[0].kind"),
      (#"{"commands": [{"title": "x"}]}"#, 400, "commands[0].kind"),
      (#"{"commands": [{"kind": "add", "column": 0}]}"#, 400, "commands[0].title"),
      (#"{"commands": [{"kind": "add", "column": 0, "title": "  "}]}"#, 422, "commands[0].title"),
      (#"{"commands": [{"kind": "add", "column": 0, "title": 5}]}"#, 400, "commands[0].title"),
      (#"{"commands": [{"kind": "add", "column": -1, "title": "x"}]}"#, 400, "commands[0].column"),
      (#"{"commands": [{"kind": "add", "column": 9, "title": "x"}]}"#, 422, "commands[0].column"),
      (
        #"{"commands": [{"kind": "add", "column": 0, "title": "ok"}, {"kind": "delete", "card": "k999"}]}"#,
        422, "commands[1].card"
      ),
      (#"{"commands": [{"kind": "delete", "card": [0, 0]}]}"#, 422, "commands[0].card"),
      (#"{"commands": [{"kind": "delete", "card": [0, 1, 2]}]}"#, 400, "commands[0].card"),
      (
        #"{"commands": [{"kind": "move", "card": [0, 1], "column": 1, "index": 99}]}"#, 422,
        "commands[0].index"
      ),
      (
        #"{"commands": [{"kind": "moveColumn", "column": 0, "index": 3}]}"#, 422,
        "commands[0].index"
      ),
      (#"{"commands": [{"kind": "segment", "segment": "nope"}]}"#, 422, "commands[0].segment"),
      (#"{"seenAt": "garbage", "commands": []}"#, 400, "seenAt"),
      (
        #"{"seenAt": "other#1", "commands": [{"kind": "delete", "card": [0, 1]}]}"#, 409,
        "commands[0].card"
      ),
    ]
    for entry in cases {
      let error = await refusal(entry.json, on: board)
      #expect(error?.status == entry.status, "\(entry.json): \(String(describing: error))")
      #expect(error?.field == entry.field, "\(entry.json): \(String(describing: error))")
    }
    let tooMany =
      "{\"commands\": ["
      + Array(repeating: #"{"kind": "delete", "card": "k2"}"#, count: 101)
      .joined(separator: ",") + "]}"
    #expect(await refusal(tooMany, on: board)?.field == "commands")
    #expect(await board.current == before)
    #expect(board.stream.position.sequence == sequence)
  }

  @Test func stalePathsAreFollowedOrRefused() async throws {
    let board = Board()
    let seen = EventPosition.format(board.stream.position)
    let card = await board.current.columns[0].cards[1]  // [0, 2] when seen
    // Someone else deletes the card above it, then the one the client will name.
    try await board.perform(batch(#"{"commands": [{"kind": "delete", "card": [0, 1]}]}"#))
    try await board.perform(
      batch(
        #"{"seenAt": "\#(seen)", "commands": [{"kind": "rename", "card": [0, 2], "title": "Mine"}]}"#
      ))
    #expect(await board.current.columns[0].cards.first { $0.id == card.id }?.title == "Mine")
    let error = await refusal(
      #"{"seenAt": "\#(seen)", "commands": [{"kind": "rename", "card": [0, 1], "title": "Gone"}]}"#,
      on: board)
    #expect(error?.status == 409)
    #expect(error?.message.contains("removed by update") == true)
    // A column named by its index then: followed through a column move.
    let seen2 = EventPosition.format(board.stream.position)
    try await board.perform(
      batch(#"{"commands": [{"kind": "moveColumn", "column": 0, "index": 2}]}"#))
    try await board.perform(
      batch(
        #"{"seenAt": "\#(seen2)", "commands": [{"kind": "renameColumn", "column": 0, "title": "Backlog"}]}"#
      ))
    #expect(await board.current.columns.map(\.title) == ["Doing", "Done", "Backlog"])
  }
}
