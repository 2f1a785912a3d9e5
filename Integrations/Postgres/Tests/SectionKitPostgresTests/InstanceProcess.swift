import Foundation
import PostgresTestSupport
import SectionKitStreaming
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// One server instance in a process of its own (`sectionkit-pg-instance`, built beside the
/// tests), talked to over its standard input and output: the commands and lines its source
/// lists. The process exits when its input closes — ``stop()``, or this process ending — or when
/// this process is gone.
final class InstanceProcess: StreamServer {
  let process = Process()
  let name: String
  private let input: Mutex<FileHandle>

  /// What the instance said, and the subscriptions its lines go to.
  struct Heard {
    var subscriptions: [Int: Route] = [:]
    var nextSubscription = 0
    var ready = false
    var owned: StreamSnapshot<Card>?
    var failures: [String] = []
    /// Subscriptions that could not start (PostgreSQL unreachable).
    var refused = 0
    var exited = false
  }
  /// A subscription's decoder and where its updates go.
  struct Route {
    var decoder: StreamLineDecoder<Card>
    let continuation: AsyncThrowingStream<StreamUpdate<Card>, any Error>.Continuation
  }
  let heard = Mutex(Heard())

  /// The executable, beside the test bundle (`SECTIONKIT_PG_INSTANCE` may name another).
  static let executable: URL = {
    if let path = environment["SECTIONKIT_PG_INSTANCE"] { return URL(fileURLWithPath: path) }
    return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("sectionkit-pg-instance")
  }()

  /// Starts instance `name` of `stream`.
  init(_ stream: String, name: String) throws {
    // A write to an instance that exited must fail, not end this process.
    signal(SIGPIPE, SIG_IGN)
    self.name = name
    let toChild = Pipe()
    let fromChild = Pipe()
    process.executableURL = Self.executable
    process.arguments = [stream, name]
    process.standardInput = toChild
    process.standardOutput = fromChild
    input = Mutex(toChild.fileHandleForWriting)
    try process.run()
    let output = fromChild.fileHandleForReading
    Thread { [self] in readLines(from: output) }.start()
  }

  /// Reads the instance's lines until its output closes.
  private func readLines(from output: FileHandle) {
    var pending: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes {
        read(output.fileDescriptor, $0.baseAddress, $0.count)
      }
      if count <= 0 { break }
      pending.append(contentsOf: buffer[..<count])
      var start = 0
      while let end = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
        heardLine(String(decoding: pending[start..<end], as: UTF8.self))
        start = end + 1
      }
      pending.removeFirst(start)
    }
    let routes = heard.withLock { heard in
      heard.exited = true
      defer { heard.subscriptions = [:] }
      return heard.subscriptions.values
    }
    for route in routes { route.continuation.finish(throwing: Exited(instance: name)) }
  }

  struct Exited: Error { let instance: String }

  private func heardLine(_ line: String) {
    let (word, rest) =
      line.firstIndex(of: " ").map { (line[..<$0], line[line.index(after: $0)...]) }
      ?? (line[...], "")
    if let id = Int(word) {
      // Yielded and finished outside the lock: the stream's own lock is taken by both, and
      // its termination handler takes this one.
      let decoded = heard.withLock { heard -> (Route, Result<StreamUpdate<Card>, any Error>)? in
        guard var route = heard.subscriptions[id] else { return nil }  // cancelled meanwhile
        do {
          let update = try route.decoder.decode(line: Array(rest.utf8))
          heard.subscriptions[id] = route
          return (route, .success(update))
        } catch {
          heard.subscriptions[id] = nil
          return (route, .failure(error))
        }
      }
      switch decoded {
      case (let route, .success(let update))?: route.continuation.yield(update)
      case (let route, .failure(let error))?:
        send("cancel \(id)")
        route.continuation.finish(throwing: error)
      case nil: break
      }
      return
    }
    switch word {
    case "ready": heard.withLock { $0.ready = true }
    case "refused": heard.withLock { $0.refused += 1 }
    case "end":
      heard.withLock { $0.subscriptions.removeValue(forKey: Int(rest) ?? -1) }?.continuation
        .finish()
    case "owned":
      var decoder = StreamLineDecoder<Card>()
      let snapshot = rest.split(separator: " ", maxSplits: 1).last.flatMap {
        try? decoder.decode(line: Array($0.utf8))
      }
      heard.withLock { heard in
        guard case .snapshot(let model)? = snapshot else {
          heard.failures.append("unreadable: \(line)")
          return
        }
        heard.owned = model
      }
    default: heard.withLock { $0.failures.append(line) }
    }
  }

  /// Sends one command; a command to an instance that exited is dropped.
  func send(_ command: String) {
    input.withLock { _ = try? $0.write(contentsOf: Data((command + "\n").utf8)) }
  }

  /// A subscription after `position` on this instance, decoded here line by line; it ends with
  /// the instance's `end`, with ``ClientFeed/cancel()`` or when the iterating task is cancelled.
  func feed(after position: StreamPosition?) -> ProcessFeed {
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: StreamUpdate<Card>.self)
    let id = heard.withLock { heard in
      let id = heard.nextSubscription
      heard.nextSubscription += 1
      heard.subscriptions[id] = Route(
        decoder: StreamLineDecoder(after: position), continuation: continuation)
      return id
    }
    continuation.onTermination = { [self] _ in
      if heard.withLock({ $0.subscriptions.removeValue(forKey: id) }) != nil {
        send("cancel \(id)")
      }
    }
    send("sub \(id) " + (position.map { "\($0.stream) \($0.sequence)" } ?? "-"))
    return ProcessFeed(updates: stream, continuation: continuation)
  }

  /// Waits until `condition` holds of what the instance said, for at most `timeout`.
  func wait<T: Sendable>(
    for timeout: Duration = .seconds(60), _ condition: @Sendable (Heard) -> T?
  ) async throws -> T {
    let deadline = ContinuousClock.now + timeout
    while true {
      let (found, failures, exited) = heard.withLock { (condition($0), $0.failures, $0.exited) }
      if let found { return found }
      if exited || ContinuousClock.now > deadline {
        throw InstanceError(instance: name, failures: failures, exited: exited)
      }
      try await Task.sleep(for: .milliseconds(20))
    }
  }

  struct InstanceError: Error {
    let instance: String
    let failures: [String]
    let exited: Bool
  }

  /// What the instance said went wrong.
  var failures: [String] { heard.withLock { $0.failures } }

  /// Closes the instance's input and waits for it to exit: killed after 5 s.
  func stop() async {
    input.withLock { try? $0.close() }
    let deadline = ContinuousClock.now + .seconds(5)
    while process.isRunning && ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(20))
    }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }
}

/// A subscription on an ``InstanceProcess``.
struct ProcessFeed: ClientFeed {
  let updates: AsyncThrowingStream<StreamUpdate<Card>, any Error>
  let continuation: AsyncThrowingStream<StreamUpdate<Card>, any Error>.Continuation

  func cancel() { continuation.finish() }

  func makeAsyncIterator() -> AsyncThrowingStream<StreamUpdate<Card>, any Error>.AsyncIterator {
    updates.makeAsyncIterator()
  }
}

/// Instances `0..<count` of `stream`, each in its own process, for the time of `body`; every
/// one is stopped after it, whatever it does.
func withInstanceProcesses<T>(
  _ count: Int, of stream: String, _ body: ([InstanceProcess]) async throws -> T
) async throws -> T {
  var instances: [InstanceProcess] = []
  do {
    for index in 0..<count {
      instances.append(try InstanceProcess(stream, name: "process-\(index)"))
    }
    let result = try await body(instances)
    for instance in instances { await instance.stop() }
    return result
  } catch {
    for instance in instances { await instance.stop() }
    throw error
  }
}
