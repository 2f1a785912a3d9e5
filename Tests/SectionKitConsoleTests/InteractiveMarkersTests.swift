import Foundation
import SectionKit
import SectionKitConsole
import SectionKitExamples
import Testing

@Suite struct InteractiveMarkersTests {
  @Test func theCursorAndEditingModeAreShownInTheTree() {
    let console = ConsoleAdapter(
      output: String(), options: ConsoleOptions(showsIndexPaths: true, style: .plain, mode: .log))
    let coordinator = ContactsDemo.makeInteractive(on: console)
    console.cursor = IndexPath(item: 1, section: 0)
    #expect(console.renderedTree.contains("›  [0, 1] Dad"))
    #expect(!console.renderedTree.contains("✎"))

    coordinator.setEditing(true)
    #expect(!console.renderedTree.contains("✎"), "editing changes no changeset: refresh first")
    console.refreshDecorations(from: coordinator)
    #expect(console.renderedTree.contains("── Family ✎ ──"))
    #expect(console.renderedTree.contains("── Friends ✎ ──"))

    _ = console.toggleSelection(at: IndexPath(item: 1, section: 0), in: coordinator)
    #expect(console.renderedTree.contains("›▸ [0, 1] Dad"))

    coordinator.setEditing(false)
    console.refreshDecorations(from: coordinator)
    #expect(!console.renderedTree.contains("✎"))
  }
}
