import Foundation
import SectionKit
import SectionKitConsole
import SectionKitExamples
import Testing

/// The contacts app of `sectionkit-demo --interactive`, driven in process: a script (what the demo
/// reads from standard input without a terminal) and the log it prints.
@Suite struct InteractiveAppTests {
  @Test func script_printsTheLog() {
    let log = ConsoleAdapter(
      output: String(), options: ConsoleOptions(showsIndexPaths: true, style: .plain, mode: .log))
    let list = ConsoleListView(
      output: String(), size: ConsoleSize(rows: 10, columns: 40),
      options: ConsoleOptions(showsIndexPaths: true, style: .plain))
    let app = ContactsApp(list: list, contacts: 8, log: log)
    let script = [
      "down 2", "select", "add Zoë Zed", "rename Zoë Zedd", "edit", "moveup", "tab", "delete",
      "last", "bogus",
    ]
    for line in script {
      log.announce(line)
      if app.perform(line: line) == nil { log.write("  ! unknown command\n") }
      for status in app.statusLines where !status.isEmpty { log.write("  = \(status)\n") }
    }
    #expect(app.perform(line: "quit") == false)
    assertSnapshot(log.output, named: "interactive-script")
    #expect(list.shownCounts == log.shownCounts, "the list and the log follow the same changesets")
  }

  @Test func contacts_areGeneratedAcrossSections() {
    let list = ConsoleListView(output: String(), size: ConsoleSize(rows: 10, columns: 40))
    let app = ContactsApp(list: list, contacts: 3_000)
    #expect(list.shownCounts.dropFirst().reduce(0, +) == 3_000)
    #expect(list.shownCounts.count > 10)
    app.perform(.last)
    #expect(list.cursor == [list.shownCounts.count - 1, list.shownCounts.last! - 1])
  }
}
