import Foundation
import SectionKit
import SectionKitConsole
import SectionKitExamples
import Testing

@Suite("Interactive demo: keys become commands")
struct InteractiveCommandTests {
  @Test func keysMapToCommands() {
    #expect(
      InteractiveCommand.commands(in: Array("jk eJKmaq".utf8))
        == [
          .cursorDown, .cursorUp, .toggleSelection, .toggleEditing, .moveDown, .moveUp, .moveDown,
          .listActions, .quit,
        ])
    #expect(
      InteractiveCommand.commands(in: [0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x42]) == [
        .cursorUp, .cursorDown,
      ])
    #expect(InteractiveCommand.commands(in: Array("xyz".utf8)).isEmpty)
    #expect(InteractiveCommand.command(for: 0x03) == .quit)
  }
}
