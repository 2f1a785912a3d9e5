import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SectionKitStreaming
import Testing

@testable import LiveBoard

/// The routes through a real server on a loopback port (`.live`): event streams end when the
/// board finishes, so their whole bodies can be read.
@Suite struct ServerTests {
  func application(_ board: Board) -> some ApplicationProtocol {
    Application(
      router: makeRouter(board: board, options: LiveBoardOptions(keepAlive: .milliseconds(100))),
      configuration: .init(address: .hostname("127.0.0.1", port: 0)))
  }

  /// The body of `GET /events` with `headers`, the board finished after `delay`.
  func events(
    _ board: Board, uri: String = "/events", headers: HTTPFields = [:],
    finishAfter delay: Duration = .milliseconds(300)
  ) async throws -> (HTTPResponse.Status, String) {
    try await application(board).test(.live) { client in
      let finisher = Task {
        try await Task.sleep(for: delay)
        await board.finish()
      }
      defer { finisher.cancel() }
      return try await client.execute(uri: uri, method: .get, headers: headers) { response in
        (response.status, String(buffer: response.body))
      }
    }
  }

  @Test func aHostileLastEventIDGetsASnapshot() async throws {
    for id in [
      "garbage", "-1", "abc#-5", "abc#99999999999999999999", "other-stream#3",
      String(repeating: "x", count: 4_000), "\(UUID().uuidString)#1",
    ] {
      let board = Board()
      let (status, body) = try await events(board, headers: [lastEventID: id])
      #expect(status == .ok, "\(id)")
      #expect(body.hasPrefix("retry: 1000\n\nevent: snapshot\nid: \(board.stream.id)#"), "\(id)")
      #expect(body.components(separatedBy: "event: snapshot").count == 2, "\(id)")
    }
  }

  @Test(arguments: ["", "?after=garbage"])
  func aKnownLastEventIDResumesWithoutASnapshot(_ query: String) async throws {
    // The header a browser sends when it reconnects wins over the page's `?after=`.
    let board = Board()
    let seen = board.stream.position
    try await board.perform(
      CommandBatch(commands: [Command(kind: .add, column: .index(0), title: "Milk")]))
    let (status, body) = try await events(
      board, uri: "/events" + query, headers: [lastEventID: EventPosition.format(seen)])
    #expect(status == .ok)
    #expect(!body.contains("event: snapshot"))
    #expect(body.contains("id: \(board.stream.id)#\(seen.sequence + 1)\ndata: {\"changeset\""))
    #expect(body.contains(": keep-alive\n\n"))
  }

  @Test func theQueryPositionResumes() async throws {
    let board = Board()
    let seen = board.stream.position
    try await board.perform(
      CommandBatch(commands: [Command(kind: .add, column: .index(0), title: "Milk")]))
    let (_, body) = try await events(
      board, uri: "/events?after=\(board.stream.id)%23\(seen.sequence)")
    #expect(!body.contains("event: snapshot"))
    #expect(body.contains("id: \(board.stream.id)#\(seen.sequence + 1)\n"))
  }

  @Test func aFinishedStreamAnswers204() async throws {
    let board = Board()
    await board.finish()
    try await application(board).test(.live) { client in
      try await client.execute(uri: "/events", method: .get) { response in
        #expect(response.status == .noContent)
      }
    }
  }

  @Test func commandsAreRefusedWithTheFieldAndNothingChanges() async throws {
    let board = Board()
    let before = board.stream.position
    try await application(board).test(.live) { client in
      let big = ByteBuffer(repeating: UInt8(ascii: " "), count: 64 * 1024 + 1)
      try await client.execute(uri: "/commands", method: .post, body: big) { response in
        #expect(response.status == .contentTooLarge)
        #expect(String(buffer: response.body).contains("\"field\":\"body\""))
      }
      for (body, status, field) in [
        ("not json", 400, "body"),
        (#"{"commands":[{"kind":"fly"}]}"#, 400, "commands[0].kind"),
        (#"{"commands":[{"kind":"delete","card":"k404"}]}"#, 422, "commands[0].card"),
      ] {
        try await client.execute(
          uri: "/commands", method: .post, body: ByteBuffer(string: body)
        ) { response in
          #expect(response.status.code == status, "\(body)")
          let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body))
          #expect((json as? [String: Any])?["field"] as? String == field, "\(body)")
        }
      }
      try await client.execute(
        uri: "/commands", method: .post,
        body: ByteBuffer(string: #"{"commands":[{"kind":"add","column":0,"title":"ok"}]}"#)
      ) { response in
        #expect(response.status == .ok)
      }
    }
    #expect(board.stream.position.sequence == before.sequence + 1)
  }

  @Test func aClientThatStopsWritingIsReleasedWhenAWriteFails() async throws {
    let board = Board()
    let subscription = board.stream.subscribe()
    struct Gone: Error {}
    await #expect(throws: Gone.self) {
      try await EventWriter.run(subscription, streamID: board.stream.id, keepAlive: .seconds(60)) {
        _ in throw Gone()
      }
    }
    #expect(board.stream.statistics.subscribers == 0)
  }
}
