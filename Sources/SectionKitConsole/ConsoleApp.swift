import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal side of an app on ``ConsoleListView``: raw mode, keys, resizes, and messages from
/// other tasks, in one loop.
///
/// ```swift
/// let app = ConsoleApp<String>()                      // messages: lines from a feed
/// app.start()                                          // raw mode, alternate screen
/// let list = ConsoleListView(
///   output: StandardOutput(), size: app.size ?? ConsoleSize(rows: 24, columns: 80))
/// coordinator.adapter = list
/// list.draw()
/// let mailbox = app.mailbox
/// Task { for await line in feed { mailbox.send(line) } }
/// app.run { event in
///   switch event {
///   case .key(.character("q")), .key(.control("c")): return false
///   case .key(.down): list.moveCursor(.down)
///   case .key: break
///   case .resize(let size): list.size = size
///   case .message(let line): items.append(line)     // the model changes on the loop's thread
///   }
///   list.draw()
///   return true
/// }                                                    // the terminal is restored
/// ```
///
/// ``start()`` puts the terminal in raw mode (no echo, no line buffering, Ctrl-C and Ctrl-Z
/// arrive as keys) and switches to the alternate screen with the cursor hidden. The terminal is
/// restored when ``run(_:)`` returns, at `exit`, and on `SIGINT`, `SIGTERM`, `SIGHUP`, `SIGQUIT`
/// and the signals a crash raises (`SIGILL`, `SIGTRAP` — a Swift trap —, `SIGSEGV`, `SIGBUS`,
/// `SIGFPE`, `SIGABRT`): the handler restores it, then lets the signal take its default course.
/// A `SIGKILL` cannot be caught; `reset` then repairs the terminal.
///
/// When the input is not a terminal (a pipe in a test), nothing is changed and keys are decoded
/// from whatever is read; when the output is not one, no screen switch is written.
///
/// One app owns the terminal at a time: starting a second while one runs traps. The loop runs on
/// the thread that calls ``run(_:)``; the handler is called there, so the model and the list view
/// are touched from one thread. Other tasks talk to it through ``mailbox``.
public final class ConsoleApp<Message: Sendable> {
  /// What the loop hands the app.
  public enum Event {
    /// A key was pressed.
    case key(ConsoleKey)
    /// The terminal was resized to this size.
    case resize(ConsoleSize)
    /// Another task sent this through the ``mailbox``.
    case message(Message)
  }

  /// Sends messages to the loop from any task or thread; they arrive, in order, as
  /// ``Event/message(_:)``.
  public struct Mailbox: Sendable {
    let storage: MailboxStorage<Message>

    /// Queues `message` and wakes the loop. After the loop ended, the message is dropped.
    public func send(_ message: Message) { storage.send(message) }
  }

  /// The file descriptor keys are read from.
  public let input: Int32
  /// The file descriptor of the terminal drawn on.
  public let output: Int32
  /// The mailbox of this app's loop.
  public let mailbox: Mailbox
  /// How long a lone Escape waits for the rest of a sequence before it counts as the Escape key.
  public var escapeDelay: Duration = .milliseconds(50)
  private var started = false
  private var decoder = ConsoleKeyDecoder()

  /// An app on the terminal `input` reads from and `output` draws on (standard input and
  /// output by default). Nothing changes until ``start()``.
  public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
    self.input = input
    self.output = output
    mailbox = Mailbox(storage: MailboxStorage())
  }

  /// Whether both ends are terminals (an interactive session, not a script or a pipe).
  public var isTerminal: Bool { isatty(input) == 1 && isatty(output) == 1 }

  /// The size the output terminal reports, or `nil` when it is not a terminal.
  public var size: ConsoleSize? { ConsoleSize.terminal(fileDescriptor: output) }

  /// Takes the terminal: raw mode, the alternate screen, the cursor hidden, and the handlers
  /// that restore it. Does nothing when already started.
  public func start() {
    guard !started else { return }
    started = true
    TerminalGuard.take(input: input, output: output)
  }

  /// Gives the terminal back as ``start()`` found it. Does nothing when not started.
  public func stop() {
    guard started else { return }
    started = false
    TerminalGuard.restore()
  }

  /// Starts (when not started) and runs the loop until `handle` returns `false` or the input
  /// ends, then restores the terminal.
  ///
  /// `handle` gets every key, every resize (with the new size) and every message, one at a
  /// time, on the calling thread. Keys are decoded across reads (``ConsoleKeyDecoder``); a lone
  /// Escape is delivered after ``escapeDelay`` without a following byte.
  public func run(_ handle: (Event) -> Bool) {
    start()
    defer {
      stop()
      mailbox.storage.shutDown()
    }
    let resize = ResizeSignal.shared
    var fds = [
      pollfd(fd: input, events: Int16(POLLIN), revents: 0),
      pollfd(fd: resize.readEnd, events: Int16(POLLIN), revents: 0),
      pollfd(fd: mailbox.storage.wakeReadEnd, events: Int16(POLLIN), revents: 0),
    ]
    var buffer = [UInt8](repeating: 0, count: 1_024)
    let delay = escapeDelay.components
    let delayMilliseconds = Int32(delay.seconds * 1_000 + delay.attoseconds / 1_000_000_000_000_000)
    while true {
      for index in fds.indices { fds[index].revents = 0 }
      let ready = poll(&fds, nfds_t(fds.count), decoder.hasPending ? delayMilliseconds : -1)
      if ready < 0 {
        if errno == EINTR { continue }  // a signal (the resize): its byte is in the pipe
        return
      }
      if ready == 0 {
        for key in decoder.flush() where !handle(.key(key)) { return }
        continue
      }
      if fds[1].revents & Int16(POLLIN) != 0 {
        resize.drain()
        if let size, !handle(.resize(size)) { return }
      }
      if fds[2].revents & Int16(POLLIN) != 0 {
        for message in mailbox.storage.take() where !handle(.message(message)) { return }
      }
      if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
        let count = read(input, &buffer, buffer.count)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else {
          for key in decoder.flush() where !handle(.key(key)) { return }
          return
        }
        for key in decoder.decode(buffer[0..<count]) where !handle(.key(key)) { return }
      }
    }
  }
}

/// The queue behind a ``ConsoleApp/Mailbox``: messages under a lock, and a pipe whose read end
/// the loop polls.
final class MailboxStorage<Message: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var messages: [Message] = []
  private var closed = false
  let wakeReadEnd: Int32
  private let wakeWriteEnd: Int32

  init() {
    var ends: [Int32] = [-1, -1]
    precondition(pipe(&ends) == 0, "ConsoleApp: pipe() failed (errno \(errno))")
    for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
    wakeReadEnd = ends[0]
    wakeWriteEnd = ends[1]
  }

  deinit {
    closeDescriptor(wakeReadEnd)
    closeDescriptor(wakeWriteEnd)
  }

  func send(_ message: Message) {
    lock.lock()
    guard !closed else { return lock.unlock() }
    messages.append(message)
    lock.unlock()
    var byte: UInt8 = 1
    _ = write(wakeWriteEnd, &byte, 1)  // a full pipe already wakes the loop
  }

  /// The messages queued, oldest first; the pipe drained.
  func take() -> [Message] {
    var bytes = [UInt8](repeating: 0, count: 256)
    while read(wakeReadEnd, &bytes, bytes.count) > 0 {}
    lock.lock()
    defer { lock.unlock() }
    let taken = messages
    messages = []
    return taken
  }

  /// Drops what is queued and every later message.
  func shutDown() {
    lock.lock()
    closed = true
    messages = []
    lock.unlock()
  }
}

/// The C library's `close`, under a name no method shadows.
private func closeDescriptor(_ descriptor: Int32) {
  _ = close(descriptor)
}
