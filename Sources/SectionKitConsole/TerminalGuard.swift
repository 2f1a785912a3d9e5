#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal state a ``ConsoleApp`` changed, kept where a signal handler can reach it (a
/// handler captures nothing), and the handlers that restore it.
///
/// Everything a handler touches is set before the handlers are installed and is plain memory:
/// `tcsetattr` and `write` are async-signal-safe.
enum TerminalGuard {
  /// Whether the terminal is taken (1) or not (0).
  nonisolated(unsafe) static var active: Int32 = 0
  /// Whether `saved` holds the input's settings to restore (it was a terminal).
  nonisolated(unsafe) static var hasSaved: Int32 = 0
  nonisolated(unsafe) static var saved = termios()
  nonisolated(unsafe) static var input: Int32 = STDIN_FILENO
  /// The output to write the restoring sequence to, or -1 when it is not a terminal.
  nonisolated(unsafe) static var output: Int32 = -1
  /// The handlers the signals had before ``take(input:output:)``, put back by ``restore()``.
  nonisolated(unsafe) static var previousHandlers: [(@convention(c) (Int32) -> Void)?] = []
  /// Whether the `exit` handler is registered (once per process).
  nonisolated(unsafe) static var registeredAtExit = false

  /// The signals after which the terminal is restored before the default action.
  static let signals: [Int32] = [
    SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT,
  ]

  /// Raw mode on `input` (when a terminal), the alternate screen on `output` (when a
  /// terminal), the restoring handlers installed.
  static func take(input: Int32, output: Int32) {
    precondition(
      active == 0, "ConsoleApp.start(): another ConsoleApp has the terminal; stop it first")
    self.input = input
    self.output = isatty(output) == 1 ? output : -1
    if tcgetattr(input, &saved) == 0 {
      hasSaved = 1
      var raw = saved
      raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
      raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
      raw.c_cflag |= tcflag_t(CS8)
      tcsetattr(input, TCSAFLUSH, &raw)
    } else {
      hasSaved = 0
    }
    active = 1
    writeAll("\u{1B}[?1049h\u{1B}[?25l")
    previousHandlers = signals.map { number in
      signal(number) { number in
        TerminalGuard.restoreFromHandler()
        _ = signal(number, SIG_DFL)
        _ = raise(number)
      }
    }
    if !registeredAtExit {
      registeredAtExit = true
      atexit { TerminalGuard.restoreFromHandler() }
    }
  }

  /// Gives the terminal back and the signals the handlers they had.
  static func restore() {
    guard active == 1 else { return }
    restoreFromHandler()
    for (number, handler) in zip(signals, previousHandlers) { _ = signal(number, handler) }
  }

  /// What a handler does: settings back, the main screen back with the cursor shown. Only
  /// async-signal-safe calls, on memory set before.
  static func restoreFromHandler() {
    guard active == 1 else { return }
    active = 0
    if output >= 0 {
      // ESC [ ? 25 h  ESC [ ? 1049 l: the cursor shown, the main screen back.
      var bytes:
        (
          UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
          UInt8, UInt8
        ) = (
          0x1B, 0x5B, 0x3F, 0x32, 0x35, 0x68, 0x1B, 0x5B, 0x3F, 0x31, 0x30, 0x34, 0x39, 0x6C
        )
      _ = withUnsafeBytes(of: &bytes) { write(output, $0.baseAddress, $0.count) }
    }
    if hasSaved == 1 { tcsetattr(input, TCSAFLUSH, &saved) }
  }

  private static func writeAll(_ text: String) {
    guard output >= 0 else { return }
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes {
        write(output, $0.baseAddress! + offset, $0.count - offset)
      }
      if written <= 0 { return }
      offset += written
    }
  }
}

/// A pipe that becomes readable when the terminal is resized (`SIGWINCH`), so a loop can wait
/// for a key and a resize at once (`poll`). One per process.
final class ResizeSignal: @unchecked Sendable {
  /// The process's resize pipe, made and its handler installed on first use.
  static let shared = ResizeSignal()

  /// The end to poll.
  let readEnd: Int32
  /// The end the handler writes to (a handler captures nothing).
  nonisolated(unsafe) static var writeEnd: Int32 = -1

  private init() {
    var ends: [Int32] = [-1, -1]
    precondition(pipe(&ends) == 0, "ConsoleApp: pipe() failed (errno \(errno))")
    for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
    readEnd = ends[0]
    Self.writeEnd = ends[1]
    _ = signal(SIGWINCH) { _ in
      var byte: UInt8 = 1
      _ = write(ResizeSignal.writeEnd, &byte, 1)
    }
    // A parent may have left the signal blocked (the mask is inherited).
    var resize = sigset_t()
    sigemptyset(&resize)
    sigaddset(&resize, SIGWINCH)
    pthread_sigmask(SIG_UNBLOCK, &resize, nil)
  }

  /// Reads what the handler wrote.
  func drain() {
    var bytes = [UInt8](repeating: 0, count: 64)
    while read(readEnd, &bytes, bytes.count) > 0 {}
  }
}
