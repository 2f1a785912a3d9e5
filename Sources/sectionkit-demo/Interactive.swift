import Foundation
import SectionKit
import SectionKitConsole
import SectionKitExamples

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the interactive demo on the terminal; returns the exit status.
func runInteractive(options: ConsoleOptions) -> Int32 {
  guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
    StandardError().writeLine(
      "sectionkit-demo: --interactive needs a terminal on standard input and output "
        + "(run it in a terminal, not through a pipe)")
    return 2
  }
  var saved = termios()
  tcgetattr(STDIN_FILENO, &saved)
  var raw = saved
  raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG)
  tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
  defer { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }

  var options = options
  options.mode = .redraw
  let console = ConsoleAdapter(options: options, environment: .current())
  let coordinator = ContactsDemo.makeInteractive(on: console)
  var session = InteractiveSession()
  var status = "↑/↓ j/k cursor · space select · e edit · J/K move · a actions · q quit"
  func draw() {
    console.cursor = session.cursor
    console.refreshDecorations(from: coordinator)
    console.writeTree()
    let cursor = session.cursor.map { "\($0)" } ?? "none"
    console.write(
      "\ncursor \(cursor) · editing \(coordinator.isEditing ? "on" : "off") · selected "
        + "\(coordinator.selectedIndexPaths)\n\(status)\n")
  }
  // Places the cursor on the first element.
  _ = session.perform(.cursorUp, console: console, coordinator: coordinator)
  draw()
  var buffer = [UInt8](repeating: 0, count: 16)
  while true {
    let count = read(STDIN_FILENO, &buffer, buffer.count)
    guard count > 0 else { break }
    for command in InteractiveCommand.commands(in: Array(buffer[0..<count])) {
      guard let line = session.perform(command, console: console, coordinator: coordinator) else {
        console.write("\n")
        return 0
      }
      if !line.isEmpty { status = line }
    }
    draw()
  }
  return 0
}
