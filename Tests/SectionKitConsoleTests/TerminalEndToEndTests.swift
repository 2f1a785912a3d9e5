import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Drives `sectionkit-demo --interactive` as a person would, in a terminal: a tmux session on a
/// server of its own, keys sent with `send-keys`, the screen read back with `capture-pane` and
/// compared with golden screens (`Golden/e2e-*.txt`; `SECTIONKIT_RECORD=1` re-records).
///
/// Nothing sleeps for a fixed time: each step waits until the screen shows what the step must
/// lead to (a status line that names the new state), with a timeout.
@Suite(.serialized) struct TerminalEndToEndTests {
  @Test func keysScrollSelectEditAndQuit() throws {
    let session = try TmuxSession(rows: 12, columns: 44, contacts: 300)
    defer { session.close() }
    try session.waitFor("cursor [0, 0]")
    var screens = "--- start\n" + session.screen()
    try session.press("j", "j", "Space", until: "selected [0, 2]")
    try session.press("NPage", until: "cursor [1, 8]")
    screens += "--- down, down, select, page down\n" + session.screen()
    try session.press("G", until: "cursor [5, 11]")
    screens += "--- G\n" + session.screen()
    try session.press("g", "Tab", until: "group: Recent")
    screens += "--- g, Tab\n" + session.screen()
    try session.press("d", until: "deleted Margaret Hamilton")
    try session.press("e", "J", until: "cannot move there")
    try session.press("?", until: "e edit, then J/K move")
    screens += "--- d, e, J, ?\n" + session.screen()
    assertSnapshot(screens, named: "e2e-keys")
    try session.keys("q")
    try session.waitForExit()
  }

  @Test func renameWithWideCharactersAndResize() throws {
    let session = try TmuxSession(rows: 10, columns: 40, contacts: 300)
    defer { session.close() }
    try session.waitFor("cursor [0, 0]")
    try session.press("j", "r", until: "rename:")
    // Erase the name typed in (Backspace per character), then type a wide one.
    try session.keys(Array(repeating: "BSpace", count: 20))
    try session.text("漢字の名前 👩‍💻 José")
    try session.press("Enter", until: "renamed to 漢字")
    var screens = "--- renamed\n" + session.screen()
    try session.resize(rows: 8, columns: 24)
    try session.waitFor("resized to 8×24")
    try session.press("j", until: "cursor [0, 2]")
    screens += "--- resized to 8×24, j\n" + session.screen()
    assertSnapshot(screens, named: "e2e-wide-resize")
    try session.keys("q")
    try session.waitForExit()
  }
}

/// Errors of the terminal driver.
struct TerminalTestError: Error, CustomStringConvertible {
  var description: String
}

/// A tmux server of its own (`-L`), with one session running the demo.
struct TmuxSession {
  let socket = "sectionkit-e2e-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
  let timeout: Double = 10

  init(rows: Int, columns: Int, contacts: Int) throws {
    let demo = Self.demoExecutable()
    guard FileManager.default.isExecutableFile(atPath: demo) else {
      throw TerminalTestError(description: "no sectionkit-demo at \(demo): run swift build first")
    }
    try run([
      "-f", "/dev/null", "new-session", "-d", "-s", "demo", "-x", "\(columns)", "-y", "\(rows)",
      "env", "LANG=C.UTF-8", "TERM=xterm-256color", demo, "--interactive", "--plain",
      "--contacts", "\(contacts)",
    ])
    _ = try? run(["set-option", "-t", "demo", "remain-on-exit", "on"])
  }

  /// The demo next to the test bundle (`.build/<configuration>/`).
  static func demoExecutable() -> String {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("sectionkit-demo").path
  }

  func close() {
    do {
      try run(["kill-server"])
    } catch {
      Issue.record("could not stop the tmux server \(socket): \(error)")
    }
  }

  /// Sends tmux key names (`j`, `Space`, `NPage`, `C-u`, `Enter`).
  func keys(_ names: String...) throws { try keys(names) }

  func keys(_ names: [String]) throws {
    try run(["send-keys", "-t", "demo"] + names)
  }

  /// Sends tmux key names, then waits until some line of the screen contains `text`.
  func press(_ names: String..., until text: String) throws {
    try keys(names)
    try waitFor(text)
  }

  /// Types `text` literally.
  func text(_ text: String) throws {
    try run(["send-keys", "-t", "demo", "-l", text])
  }

  func resize(rows: Int, columns: Int) throws {
    try run(["resize-window", "-t", "demo", "-x", "\(columns)", "-y", "\(rows)"])
  }

  /// The screen, one line per row, trailing spaces removed.
  func lines() -> [String] {
    let text = (try? run(["capture-pane", "-p", "-t", "demo"])) ?? ""
    var lines = text.components(separatedBy: "\n")
    if lines.last == "" { lines.removeLast() }
    return lines.map { line in
      var line = line
      while line.hasSuffix(" ") { line.removeLast() }
      return line
    }
  }

  func screen() -> String { lines().joined(separator: "\n") + "\n" }

  /// Waits until some line of the screen contains `text`.
  func waitFor(_ text: String) throws {
    try waitFor { $0.contains { $0.contains(text) } }
  }

  /// Waits until `condition` holds for the screen, polling; throws with the screen after
  /// ``timeout`` seconds.
  func waitFor(_ condition: ([String]) -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if condition(lines()) { return }
      usleep(10_000)
    }
    throw TerminalTestError(description: "timed out; the screen shows:\n" + screen())
  }

  /// Waits until the demo has exited (the pane is dead) and checks that it restored the screen.
  func waitForExit() throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      let dead = try run(["display-message", "-p", "-t", "demo", "#{pane_dead}"])
      if dead.hasPrefix("1") { return }
      usleep(10_000)
    }
    throw TerminalTestError(description: "the demo did not quit; the screen shows:\n" + screen())
  }

  /// Runs `tmux -L <socket> arguments`; returns its standard output.
  @discardableResult
  func run(_ arguments: [String]) throws -> String {
    // Only commands that answer get a pipe: the server `new-session` starts would inherit it and
    // keep it open, and reading it would never end.
    let answers = ["capture-pane", "display-message"].contains(arguments.first ?? "")
    let (status, output) = try spawn(
      ["/usr/bin/env", "LANG=C.UTF-8", "tmux", "-u", "-L", socket] + arguments,
      readingOutput: answers)
    guard status == 0 else {
      throw TerminalTestError(
        description: "tmux \(arguments.joined(separator: " ")) exited with \(status)")
    }
    return output
  }
}

/// Runs `arguments` (an absolute path first) with `posix_spawn`, standard input and error on
/// `/dev/null`, standard output on a pipe when `readingOutput` (else `/dev/null`); waits for it.
///
/// (`Foundation.Process` is not used: its wait can hang inside a test run on Linux.)
func spawn(_ arguments: [String], readingOutput: Bool) throws -> (status: Int32, output: String) {
  var ends: [Int32] = [-1, -1]
  if readingOutput { guard pipe(&ends) == 0 else { throw TerminalTestError(description: "pipe") } }
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  if readingOutput {
    posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
    posix_spawn_file_actions_addclose(&actions, ends[0])
    posix_spawn_file_actions_addclose(&actions, ends[1])
  } else {
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  }
  // The test runner's threads block signals; tmux, and through it the demo, would inherit the
  // mask and never see SIGWINCH or the hang-up that ends them. Start with none blocked.
  var attributes = posix_spawnattr_t()
  posix_spawnattr_init(&attributes)
  defer { posix_spawnattr_destroy(&attributes) }
  var noSignals = sigset_t()
  sigemptyset(&noSignals)
  var defaults = sigset_t()
  sigemptyset(&defaults)
  for signal in [SIGWINCH, SIGHUP, SIGTERM, SIGINT, SIGPIPE, SIGCHLD] {
    sigaddset(&defaults, signal)
  }
  posix_spawnattr_setsigmask(&attributes, &noSignals)
  posix_spawnattr_setsigdefault(&attributes, &defaults)
  posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
  var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  var pid: pid_t = 0
  let spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, environ)
  if readingOutput { close(ends[1]) }
  guard spawned == 0 else {
    if readingOutput { close(ends[0]) }
    throw TerminalTestError(description: "could not start \(arguments[0]): \(spawned)")
  }
  var output: [UInt8] = []
  if readingOutput {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(ends[0], &buffer, buffer.count)
      if count > 0 {
        output += buffer[0..<count]
      } else if count == 0 || errno != EINTR {
        break
      }
    }
    close(ends[0])
  }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  let exited = status & 0x7F == 0
  return (
    exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), String(decoding: output, as: UTF8.self)
  )
}
