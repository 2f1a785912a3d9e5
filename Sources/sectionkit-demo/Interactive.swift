import Foundation
import SectionKit
import SectionKitConsole
import SectionKitExamples

/// Runs the interactive demo: the contacts app on the terminal, or, when standard input or output
/// is not a terminal, a script read from standard input with the log printed. Returns the exit
/// status.
func runInteractive(options: ConsoleOptions, contacts: Int) -> Int32 {
  let terminal = ConsoleApp<Never>()
  guard terminal.isTerminal, let size = terminal.size else {
    return runScript(options: options, contacts: contacts)
  }
  terminal.start()
  let list = ConsoleListView(
    output: StandardOutput(), size: size, options: options, environment: .current())
  let app = ContactsApp(list: list, contacts: contacts)
  terminal.run { event in
    switch event {
    case .key(let key): return app.handle(keys: [key])
    case .resize(let size): app.resize(to: size)
    }
    return true
  }
  return 0
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
