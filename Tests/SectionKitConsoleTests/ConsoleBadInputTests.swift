import SectionKit
import SectionKitConsole
import SectionKitExamples
import SectionKitLayout
import Testing

/// Widths and layouts at the edges: one width rule for `init` and the setter, a layout-wide
/// boundary item with no section to take its text from.
@Suite struct ConsoleBadInputTests {
  @Test func theWidthSetter_followsTheInitializersRule() async {
    await #expect(processExitsWith: .failure) {
      var options = ConsoleOptions()
      options.width = 0
    }
    await #expect(processExitsWith: .failure) {
      var options = ConsoleOptions()
      options.width = -3
    }
    await #expect(processExitsWith: .failure) {
      var options = ConsoleOptions()
      options.width = Int.max
    }
    await #expect(processExitsWith: .failure) { _ = ConsoleOptions(width: Int.max) }
    var options = ConsoleOptions(width: 10_000)
    options.width = 8
    options.width = nil
    #expect(options.width == nil)
  }

  @Test func columnsOutsideTheWidthRange_areIgnored() {
    #expect(ConsoleOptions().resolved(for: terminal(["COLUMNS": "99999999999"])).width == nil)
    let reported = ConsoleEnvironment(isTerminal: true, variables: [:], terminalColumns: 1 << 40)
    #expect(ConsoleOptions().resolved(for: reported).width == nil)
  }

  static let layoutWithLayoutWideHeader = CompositionalLayout(
    configuration: CompositionalLayout.Configuration(boundarySupplementaryItems: [
      BoundarySupplementaryItem(elementKind: LayoutExamples.headerKind).height(.estimated(8))
    ]),
    sections: [ListSection(rowHeight: .absolute(16)).layoutSection])

  @Test func aLayoutWideBoundaryItemOnAnEmptyTree_isDrawnWithItsKind() async {
    await #expect(processExitsWith: .success) {
      let coordinator = Coordinator(sectionProvider: ComposedSectionProvider())
      _ = ConsoleLayoutRenderer(layout: Self.layoutWithLayoutWideHeader).render(coordinator)
    }
  }

  @Test func aLayoutWideBoundaryItem_isNotLabelledWithTheFirstSectionsHeader() {
    let root = ComposedSectionProvider()
    root.append(
      ContactsDemo.TitledSection(title: "Top", unit: (one: "item", many: "items"), ["alpha"]))
    let coordinator = Coordinator(sectionProvider: root)
    let drawing = ConsoleLayoutRenderer(layout: Self.layoutWithLayoutWideHeader).render(coordinator)
    let firstLines = drawing.split(separator: "\n").prefix(3).joined(separator: "\n")
    #expect(
      firstLines.contains(LayoutExamples.headerKind) && !firstLines.contains("Top"), "\(drawing)")
  }
}
