import Foundation
import SectionKit
import Testing

@testable import SectionKitConsole

/// A section whose elements can be selected, several at once.
final class Pickable: ArraySection<String>, SelectionHandler, ConsolePresentable {
  var allowsMultipleSelection: Bool { true }
}

/// The console items of issue 16: what the program selects reaches what the console shows, a log
/// line costs what it writes, and `write(_:)` survives the next frame in redraw mode.
@Suite struct ConsoleFollowUpTests {
  @Test func programSelection_reachesWhatTheConsoleShows() {
    let first = Pickable(["a", "b"])
    let second = Pickable(["c"])
    let root = ComposedSectionProvider()
    root.append(first)
    root.append(second)
    let coordinator = Coordinator(sectionProvider: root)
    let console = ConsoleAdapter(output: String(), options: ConsoleOptions(style: .plain))
    coordinator.adapter = console
    coordinator.selectElement(at: [0, 1])
    coordinator.selectElement(at: [1, 0])
    #expect(coordinator.selectedIndexPaths == [[0, 1], [1, 0]])
    #expect(console.selectedIndexPaths == coordinator.selectedIndexPaths)
    coordinator.deselectElement(at: [0, 1])
    #expect(console.selectedIndexPaths == [[1, 0]])
  }

  @Test func userSelection_isNotToldBackToTheConsole() {
    let first = Pickable(["a", "b"])
    let coordinator = Coordinator(sectionProvider: tree(first))
    let console = ConsoleAdapter(output: String(), options: ConsoleOptions(style: .plain))
    coordinator.adapter = console
    let log = console.written { console.toggleSelection(at: [0, 1], in: coordinator) }
    #expect(log == "selected [0, 1] b\n", "one line: the console's own, not an echo")
    #expect(console.selectedIndexPaths == [[0, 1]])
  }

  @Test func logLine_costsWhatItWrites() {
    let names = Pickable((0..<10_000).map { "name \($0)" })
    let coordinator = Coordinator(sectionProvider: tree(names))
    let console = ConsoleAdapter(output: String(), options: ConsoleOptions(style: .plain))
    coordinator.adapter = console
    let before = console.linesRendered
    console.toggleSelection(at: [0, 5], in: coordinator)
    names[7] = "renamed"
    #expect(
      console.linesRendered - before <= 3,
      "a selected line and a one-element changeset render their own lines, not the tree")
  }

  @Test func writtenText_isShownAgainInTheNextFrame() {
    let names = Pickable(["a"])
    let coordinator = Coordinator(sectionProvider: tree(names))
    let console = ConsoleAdapter(
      output: String(), options: ConsoleOptions(style: .plain, mode: .redraw))
    coordinator.adapter = console
    console.write("status: ready\n")
    let frame = console.written { names.append("b") }
    let lastClear = frame.range(of: ConsoleEscape.clearScreen, options: .backwards)
    let afterClear = lastClear.map { String(frame[$0.upperBound...]) } ?? ""
    #expect(lastClear != nil)
    #expect(
      afterClear.contains("status: ready"),
      "the text written since the last frame is drawn again after the screen is cleared")
  }
}

/// A provider holding `sections`.
func tree(_ sections: any Section...) -> ComposedSectionProvider {
  let root = ComposedSectionProvider()
  for section in sections { root.append(section) }
  return root
}
