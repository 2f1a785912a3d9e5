// sectionkit-demo: builds a contacts tree, shows it on the console, and changes it step by step.
//
//   swift run sectionkit-demo                 # an append-only log of every step
//   swift run sectionkit-demo --step          # on a terminal: redraw, wait for Return each step
//   swift run sectionkit-demo --log --plain   # append-only log, no ANSI, even on a terminal
//   swift run sectionkit-demo --interactive   # on a terminal: select, edit and move with keys
//   swift run sectionkit-demo --layout        # the sections drawn with compositional layouts
//   swift run sectionkit-demo --json          # the script's updates as JSON lines (Docs/Streaming.md)
//
// The script itself is `ContactsDemo.run(on:pause:)` in the SectionKitExamples target, so that the
// tests can compare its output with a golden file.

import Foundation
import SectionKitConsole
import SectionKitExamples

let usage = """
  usage: sectionkit-demo [--step] [--log | --redraw] [--plain | --ansi]
                         [--no-index-paths] [--trees] [--layout | --interactive | --json]
                         [--contacts N]

    --step            on a terminal, wait for Return after each step
    --log, --redraw   append-only log, or clear and redraw (default: redraw on a terminal
                      with --step, log otherwise)
    --plain, --ansi   no ANSI styling, or always (default: ANSI on a terminal unless NO_COLOR)
    --no-index-paths  do not prefix elements with their global index paths
    --trees           in log mode, write the whole tree after every changeset
    --layout          draw the sections with compositional layouts (CompositionalLayoutDSL's
                      README example, a three-column mosaic, a ListKit-style layout, sections
                      that choose their own layouts)
    --interactive     a contacts app: on a terminal, ↑/↓ j/k, PgUp/PgDn, Home/End g/G move,
                      space selects, n adds, d deletes, r renames, e edits (then J/K move),
                      Tab switches the group, ? shows the keys, q quits. Without a terminal,
                      reads commands from standard input (down 3, select, add Ada, rename Bob,
                      delete, edit, movedown, tab, quit…) and prints the log
    --contacts N      with --interactive: how many contacts to generate (default 3000)
    --json            write the script's updates as JSON lines (a snapshot, then changesets)

  """

var options = ConsoleOptions(showsIndexPaths: true)
var stepping = false
var layoutDemo = false
var interactive = false
var json = false
var contacts = 3_000
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--contacts":
    guard let text = arguments.popFirst(), let count = Int(text), (0...1_000_000).contains(count)
    else {
      StandardError().writeLine("sectionkit-demo: --contacts needs a number in 0...1000000")
      exit(2)
    }
    contacts = count
  case "--step": stepping = true
  case "--interactive": interactive = true
  case "--log": options.mode = .log
  case "--redraw": options.mode = .redraw
  case "--plain": options.style = .plain
  case "--ansi": options.style = .ansi
  case "--no-index-paths": options.showsIndexPaths = false
  case "--trees": options.logsTreeAfterChanges = true
  case "--layout": layoutDemo = true
  case "--json": json = true
  case "--help", "-h":
    StandardOutput().writeLine(usage)
    exit(0)
  default:
    StandardError().writeLine("sectionkit-demo: unknown option '\(argument)'\n\n" + usage)
    exit(2)
  }
}

if json {
  ContactsDemo.streamJSON { FileHandle.standardOutput.write($0) }
  exit(0)
}

if interactive {
  exit(runInteractive(options: options, contacts: contacts))
}

// Redrawing without pauses would only show the last frame: log unless stepping (or told).
if options.mode == .auto && !stepping { options.mode = .log }
let environment = ConsoleEnvironment.current()
let console = ConsoleAdapter(options: options, environment: environment)
// Pausing only makes sense when someone is watching.
let pauses = stepping && environment.isTerminal

@MainActor func pause() {
  guard pauses else { return }
  print("(press Return)", terminator: "")
  _ = readLine()
}

if layoutDemo {
  options.logsTreeAfterChanges = true
  let layoutConsole = ConsoleAdapter(options: options, environment: environment)
  LayoutDemo.run(on: layoutConsole, pause: pause)
  LayoutDemo.runSectionsChoose(on: layoutConsole, pause: pause)
} else {
  ContactsDemo.run(on: console, pause: pause)
}
