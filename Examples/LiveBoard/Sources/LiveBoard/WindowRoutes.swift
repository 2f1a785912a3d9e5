import Foundation
import HTTPTypes
import Hummingbird
import SectionKitStreaming
import ServiceLifecycle
import Synchronization

/// The windowed page: a browser follows a window of the board's rows
/// (``/SectionKitStreaming/WindowedStream``) instead of the whole board, and moves it as it
/// scrolls. Its routes: `GET /window.html` and `GET /window.js`; `GET /window/events?start=&length=`,
/// Server-Sent Events: a `hello` event naming the window's id, then one event per window update (a
/// line of ``/SectionKitStreaming/WindowLineEncoder``); `POST /window/move` with
/// `{"id": …, "start": n}`, which moves it (the rows that enter come as a `windowMoved` event).
final class WindowClients: Sendable {
  private let board: Board
  /// The windows of the board's stream, followed by one task; made for the first window, so that
  /// a server no page asks a window of has no subscriber more.
  private let following = Mutex<WindowedStream<BoardItem>?>(nil)
  private let subscriptions = Mutex<[String: WindowSubscription<BoardItem>]>([:])
  /// The longest window a page may ask for.
  static let maximumLength = 2_000

  init(board: Board) {
    self.board = board
  }

  /// The windows of the board's stream.
  var windows: WindowedStream<BoardItem> {
    following.withLock { following in
      if let windows = following { return windows }
      let windows = WindowedStream(following: board.stream)
      Task { await windows.run() }  // ends when the board's stream ends
      following = windows
      return windows
    }
  }

  func add(_ subscription: WindowSubscription<BoardItem>) -> String {
    let id = UUID().uuidString
    subscriptions.withLock { $0[id] = subscription }
    return id
  }

  func remove(_ id: String) {
    _ = subscriptions.withLock { $0.removeValue(forKey: id) }
  }

  func subscription(_ id: String) -> WindowSubscription<BoardItem>? {
    subscriptions.withLock { $0[id] }
  }
}

/// A request to move a window.
struct WindowMove: Decodable {
  var id: String
  var start: Int
}

/// Adds the windowed page's routes to `router`.
func addWindowRoutes(
  to router: Router<BasicRequestContext>, board: Board, options: LiveBoardOptions
) {
  for (route, file, type) in [
    ("/window.html", "window.html", "text/html; charset=utf-8"),
    ("/window.js", "window.js", "text/javascript; charset=utf-8"),
  ] {
    let url = options.publicDirectory.appendingPathComponent(file)
    router.get(RouterPath(route)) { _, _ -> Response in
      guard let data = try? Data(contentsOf: url) else { return Response(status: .notFound) }
      return Response(
        status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
  }
  let clients = WindowClients(board: board)
  router.get("window/events") { request, _ -> Response in
    let query = request.uri.queryParameters
    let start = query["start"].flatMap { Int($0) }.map { max(0, $0) } ?? 0
    let length =
      query["length"].flatMap { Int($0) }.map {
        min(max(1, $0), WindowClients.maximumLength)
      } ?? 60
    if board.stream.isFinished { return Response(status: .noContent) }
    let subscription = clients.windows.subscribe(window: StreamWindow(start: start, length: length))
    let id = clients.add(subscription)
    return Response(
      status: .ok,
      headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
      body: ResponseBody { writer in
        defer {
          subscription.cancel()
          clients.remove(id)
        }
        try await request.body.consumeWithCancellationOnInboundClose { _ in
          try await writer.write(ByteBuffer(string: "event: hello\ndata: {\"id\":\"\(id)\"}\n\n"))
          let encoder = WindowLineEncoder<BoardItem>()
          try await withGracefulShutdownHandler {
            for await update in subscription {
              var event = ByteBuffer(string: "data: ")
              event.writeBytes(try encoder.encode(update))  // one line, ending with "\n"
              event.writeString("\n")
              try await writer.write(event)
            }
          } onGracefulShutdown: {
            subscription.cancel()  // SIGTERM: end the response now
          }
        }
        try await writer.finish(nil)
      })
  }
  router.post("window/move") { request, _ -> Response in
    let body = try await request.body.collect(upTo: 4_096)
    guard let move = try? JSONDecoder().decode(WindowMove.self, from: Data(buffer: body)),
      move.start >= 0
    else {
      return errorResponse(
        CommandError(status: 400, field: "start", message: "expected {\"id\": …, \"start\": n ≥ 0}")
      )
    }
    guard let subscription = clients.subscription(move.id) else {
      return errorResponse(CommandError(status: 404, field: "id", message: "no such window"))
    }
    subscription.move(to: move.start)
    return Response(status: .noContent)
  }
}
