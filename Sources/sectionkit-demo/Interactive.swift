import Foundation
import SectionKit
import SectionKitConsole
import SectionKitExamples

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the interactive demo: the contacts app on the terminal, or, when standard input or output
/// is not a terminal, a script read from standard input with the log printed. Returns the exit
/// status.
func runInteractive(options: ConsoleOptions, contacts: Int) -> Int32 {
  guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1,
    let size = ConsoleSize.terminal()
  else {
    return runScript(options: options, contacts: contacts)
  }
  var saved = termios()
  tcgetattr(STDIN_FILENO, &saved)
  var raw = saved
  raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
  raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
  tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
  var terminal = StandardOutput()
  // The alternate screen, cursor hidden; both restored on the way out.
  terminal.write("\u{1B}[?1049h\u{1B}[?25l")
  defer {
    terminal.write("\u{1B}[?25h\u{1B}[?1049l")
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
  }

  let list = ConsoleListView(
    output: StandardOutput(), size: size, options: options, environment: .current())
  let app = ContactsApp(list: list, contacts: contacts)
  list.draw()

  let resized = ResizeSignal()
  var fds = [
    pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
    pollfd(fd: resized.fileDescriptor, events: Int16(POLLIN), revents: 0),
  ]
  var buffer = [UInt8](repeating: 0, count: 256)
  while true {
    fds[0].revents = 0
    fds[1].revents = 0
    guard poll(&fds, 2, -1) >= 0 else {
      // A signal (the resize) interrupted the wait: its byte is in the pipe, poll again.
      if errno == EINTR { continue }
      return 1
    }
    if fds[1].revents & Int16(POLLIN) != 0 {
      resized.drain()
      if let size = ConsoleSize.terminal() { app.resize(to: size) }
    }
    if fds[0].revents & Int16(POLLIN | POLLHUP) != 0 {
      let count = read(STDIN_FILENO, &buffer, buffer.count)
      guard count > 0 else { return 0 }
      guard app.handle(Array(buffer[0..<count])) else { return 0 }
    }
  }
}

/// Reads commands from standard input, one a line, and prints the log of what the coordinator
/// tells a console adapter, with the status lines after each command.
func runScript(options: ConsoleOptions, contacts: Int) -> Int32 {
  var logOptions = options
  logOptions.mode = .log
  let log = ConsoleAdapter(options: logOptions, environment: .current())
  let list = ConsoleListView(
    output: Discarded(), size: ConsoleSize(rows: 24, columns: 80), options: options)
  let app = ContactsApp(list: list, contacts: contacts, log: log)
  for line in app.statusLines where !line.isEmpty { log.write("  = \(line)\n") }
  while let line = readLine() {
    log.announce(line)
    switch app.perform(line: line) {
    case false?: return 0
    case nil: log.write("  ! unknown command (see --help)\n")
    case true?: break
    }
    for line in app.statusLines where !line.isEmpty { log.write("  = \(line)\n") }
  }
  return 0
}

/// A stream that keeps nothing: the list view of a script draws no screen.
struct Discarded: TextOutputStream {
  mutating func write(_ string: String) {}
}

/// The file descriptor `SIGWINCH` writes to (the signal handler can capture nothing).
nonisolated(unsafe) private var resizeWriteEnd: Int32 = -1

/// A pipe that becomes readable when the terminal is resized, so the input loop can wait for a
/// key and a resize at once (`poll`).
struct ResizeSignal {
  let fileDescriptor: Int32

  init() {
    var ends: [Int32] = [0, 0]
    pipe(&ends)
    for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
    fileDescriptor = ends[0]
    resizeWriteEnd = ends[1]
    signal(SIGWINCH) { _ in
      var byte: UInt8 = 1
      _ = write(resizeWriteEnd, &byte, 1)
    }
    // A parent may have left the signal blocked (the mask is inherited).
    var resize = sigset_t()
    sigemptyset(&resize)
    sigaddset(&resize, SIGWINCH)
    pthread_sigmask(SIG_UNBLOCK, &resize, nil)
  }

  /// Reads what the signal wrote.
  func drain() {
    var bytes = [UInt8](repeating: 0, count: 64)
    while read(fileDescriptor, &bytes, bytes.count) > 0 {}
  }
}
