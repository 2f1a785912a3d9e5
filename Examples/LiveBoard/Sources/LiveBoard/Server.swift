import Foundation
import HTTPTypes
import Hummingbird
import SectionKitStreaming
import ServiceLifecycle
import Synchronization

/// How the server behaves: where its page is, how often it sends a keep-alive, how long a
/// browser waits before reconnecting.
public struct LiveBoardOptions: Sendable {
  /// The folder of `index.html`, `mirror.js` and `board.js`.
  public var publicDirectory: URL
  /// The interval of the keep-alive comments on an idle event stream.
  public var keepAlive: Duration
  /// The `retry:` sent to browsers, in milliseconds.
  public var retryMilliseconds: Int
  /// The largest body `POST /commands` accepts.
  public var maximumBodySize: Int

  /// The defaults: the example's own `Public` folder, 15 s, 1,000 ms, 64 KiB.
  public init(
    publicDirectory: URL = LiveBoardOptions.defaultPublicDirectory,
    keepAlive: Duration = .seconds(15), retryMilliseconds: Int = 1_000,
    maximumBodySize: Int = 64 * 1024
  ) {
    self.publicDirectory = publicDirectory
    self.keepAlive = keepAlive
    self.retryMilliseconds = retryMilliseconds
    self.maximumBodySize = maximumBodySize
  }

  /// `Examples/LiveBoard/Public`, found from this source file.
  public static let defaultPublicDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Public")
}

/// The `Last-Event-ID` header, which `HTTPField.Name` does not predefine.
let lastEventID = HTTPField.Name("Last-Event-ID")!

/// The routes: `GET /` and its scripts, `GET /events`, `POST /commands`, `GET /board`,
/// `GET /stats`.
public func makeRouter(board: Board, options: LiveBoardOptions = LiveBoardOptions())
  -> Router<BasicRequestContext>
{
  let router = Router()
  let files: [(route: String, file: String, type: String)] = [
    ("/", "index.html", "text/html; charset=utf-8"),
    ("/mirror.js", "mirror.js", "text/javascript; charset=utf-8"),
    ("/board.js", "board.js", "text/javascript; charset=utf-8"),
  ]
  for entry in files {
    let url = options.publicDirectory.appendingPathComponent(entry.file)
    router.get(RouterPath(entry.route)) { _, _ -> Response in
      guard let data = try? Data(contentsOf: url) else {
        return Response(status: .notFound)
      }
      return Response(
        status: .ok, headers: [.contentType: entry.type, .cacheControl: "no-cache"],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
  }

  addWindowRoutes(to: router, board: board, options: options)  // the windowed page

  let cache = EventCache()
  // snippet:events
  router.get("events") { request, _ -> Response in
    // Where the client is: the header a browser sends when it reconnects by itself wins over
    // `?after=`, which a page sets when it opens a new EventSource. Anything unparsable, from
    // another stream or too old gets a snapshot.
    let position =
      request.headers[lastEventID].flatMap { EventPosition.parse($0) }
      ?? request.uri.queryParameters["after"].flatMap { EventPosition.parse($0) }
    if board.stream.isFinished {
      return Response(status: .noContent)  // the browser stops reconnecting
    }
    let subscription = board.stream.subscribe(after: position)
    return Response(
      status: .ok,
      headers: [
        .contentType: "text/event-stream", .cacheControl: "no-cache",
        HTTPField.Name("X-Accel-Buffering")!: "no",
      ],
      body: ResponseBody { writer in
        // Cancelled as soon as the client closes the connection: the subscription goes at once.
        try await request.body.consumeWithCancellationOnInboundClose { _ in
          try await writer.write(ByteBuffer(string: "retry: \(options.retryMilliseconds)\n\n"))
          try await EventWriter.run(
            subscription, streamID: board.stream.id, keepAlive: options.keepAlive,
            cache: cache
          ) { buffer in
            try await writer.write(buffer)
          }
        }
        try await writer.finish(nil)
      })
  }
  // snippet:end

  // snippet:commands
  router.post("commands") { request, context -> Response in
    if let length = request.headers[.contentLength].flatMap({ Int($0) }),
      length > options.maximumBodySize
    {
      return errorResponse(tooLarge(options.maximumBodySize))
    }
    let body: ByteBuffer
    do {
      body = try await request.body.collect(upTo: options.maximumBodySize)
    } catch {
      return errorResponse(tooLarge(options.maximumBodySize))
    }
    do {
      let batch = try CommandBatch.decode(Data(buffer: body))
      let sequence = try await board.perform(batch)
      return jsonResponse(
        .ok, ["ok": true, "seq": sequence, "stream": board.stream.id] as [String: any Sendable])
    } catch let error as CommandError {
      return errorResponse(error)  // nothing changed
    }
  }
  // snippet:end

  router.get("board") { _, _ -> Response in
    let snapshot = board.stream.snapshot
    return jsonResponse(
      .ok,
      [
        "stream": snapshot.stream, "seq": snapshot.sequence,
        "sections": snapshot.sections.map { $0.map { ["id": $0.id, "title": $0.title] } },
      ] as [String: any Sendable])
  }

  router.get("stats") { _, _ -> Response in
    let statistics = board.stream.statistics
    return jsonResponse(
      .ok,
      [
        "stream": board.stream.id, "seq": board.stream.position.sequence,
        "subscribers": statistics.subscribers, "published": statistics.published,
        "snapshotsServed": statistics.snapshotsServed, "overflows": statistics.overflows,
        "resumed": statistics.resumed, "queuedChangesets": statistics.queuedChangesets,
        "subscribersNeedingSnapshot": statistics.subscribersNeedingSnapshot,
        "residentBytes": residentBytes(),
      ] as [String: any Sendable])
  }
  return router
}

/// The server: the routes on `host:port`, ending gracefully on SIGTERM or SIGINT — open event
/// streams end at once, so a browser that stays connected does not hold it up.
public func makeApplication(
  board: Board, host: String = "127.0.0.1", port: Int,
  options: LiveBoardOptions = LiveBoardOptions(),
  onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
  Application(
    router: makeRouter(board: board, options: options),
    configuration: .init(address: .hostname(host, port: port), serverName: "live-board"),
    onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) })
}

/// Writes a subscription as Server-Sent Events.
public enum EventWriter {
  enum Event: Sendable {
    case updates([StreamUpdate<BoardItem>])
    case keepAlive
  }

  /// The most updates written at once, when a client is behind.
  static let batchLimit = 64

  /// One event: `event: snapshot` for a snapshot, `id: stream#seq`, and the update's JSON line
  /// as its data.
  public static func event(
    _ update: StreamUpdate<BoardItem>, stream: String, encoder: StreamLineEncoder<BoardItem>
  ) throws -> ByteBuffer {
    var buffer = ByteBuffer()
    if case .snapshot = update { buffer.writeString("event: snapshot\n") }
    buffer.writeString("id: \(stream)#\(update.sequence)\ndata: ")
    buffer.writeBytes(try encoder.encode(update).dropLast())  // one JSON line, no newline
    buffer.writeString("\n\n")
    return buffer
  }

  /// Writes every update of `subscription`, and a comment when nothing was written for
  /// `keepAlive`, until the subscription ends, `write` throws (the client went away), the task is
  /// cancelled or the server shuts down gracefully. The subscription is released on return.
  ///
  /// Only the updates of one write (at most 64, those ready) are taken from the subscription
  /// ahead of `write`: a client that stops reading leaves its changesets in the subscription's
  /// bounded queue, which moves it to "needs snapshot" when full
  /// (`StreamPolicy.subscriberCapacity`). Changesets are encoded once for all clients (`cache`).
  public static func run(
    _ subscription: StreamSubscription<BoardItem>, streamID: String, keepAlive: Duration,
    cache: EventCache = EventCache(), write: (ByteBuffer) async throws -> Void
  ) async throws {
    // snippet:writer
    defer { subscription.cancel() }
    let (events, eventSink) = AsyncStream<Event>.makeStream()
    let (acks, ackSink) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        // Takes what is ready, then waits until it is written.
        var acknowledged = acks.makeAsyncIterator()
        for await update in subscription {
          var updates = [update]
          while updates.count < batchLimit, let more = subscription.poll() { updates.append(more) }
          eventSink.yield(.updates(updates))
          guard await acknowledged.next() != nil else { break }
        }
        eventSink.finish()
      }
      group.addTask {
        while true {
          try await Task.sleep(for: keepAlive)
          eventSink.yield(.keepAlive)
        }
      }
      try await withGracefulShutdownHandler {
        for await event in events {
          switch event {
          case .updates(let updates):
            var buffer = ByteBuffer()
            for update in updates {
              var event = try cache.event(update, stream: streamID)
              buffer.writeBuffer(&event)
            }
            try await write(buffer)
            ackSink.yield()
          case .keepAlive:
            try await write(ByteBuffer(string: ": keep-alive\n\n"))
          }
        }
      } onGracefulShutdown: {
        eventSink.finish()  // SIGTERM: end the response now, the browser reconnects later
      }
      group.cancelAll()
    }
    // snippet:end
  }
}

/// Events already encoded, shared by every client of a stream: a changeset is encoded once,
/// however many clients it goes to. Holds the last 256 to 512.
public final class EventCache: Sendable {
  private let encoder = StreamLineEncoder<BoardItem>()
  private let changesets = Mutex<[Int: ByteBuffer]>([:])
  static let capacity = 256

  /// An empty cache.
  public init() {}

  /// The event of `update`, encoded now or taken from the cache (changesets only: a snapshot is
  /// rarer and larger).
  public func event(_ update: StreamUpdate<BoardItem>, stream: String) throws -> ByteBuffer {
    guard case .changeset = update else {
      return try EventWriter.event(update, stream: stream, encoder: encoder)
    }
    if let event = changesets.withLock({ $0[update.sequence] }) { return event }
    let event = try EventWriter.event(update, stream: stream, encoder: encoder)
    changesets.withLock { entries in
      entries[update.sequence] = event
      if entries.count > 2 * Self.capacity {
        entries = entries.filter { $0.key > update.sequence - Self.capacity }
      }
    }
    return event
  }
}

func tooLarge(_ limit: Int) -> CommandError {
  CommandError(status: 413, field: "body", message: "larger than \(limit) bytes")
}

func errorResponse(_ error: CommandError) -> Response {
  jsonResponse(
    HTTPResponse.Status(code: error.status),
    ["error": error.message, "field": error.field] as [String: any Sendable])
}

func jsonResponse(_ status: HTTPResponse.Status, _ object: [String: any Sendable]) -> Response {
  let data =
    (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
  return Response(
    status: status, headers: [.contentType: "application/json"],
    body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
}

/// The process's resident set size, from `/proc/self/statm` (0 where there is none).
public func residentBytes() -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
    return 0
  }
  let fields = text.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
