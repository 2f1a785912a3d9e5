import SectionKit
import SectionKitConsole
import SectionKitLayout
import Testing

@Suite struct LayoutDemoTests {
  @Test func theLayoutDemo_drawsTheExamplesAndFollowsChanges() {
    let console = ConsoleAdapter(
      output: String(), options: ConsoleOptions(mode: .log, logsTreeAfterChanges: true))
    var pauses = 0
    LayoutDemo.run(on: console) { pauses += 1 }
    #expect(pauses == 6)
    #expect(console.layout == nil, "the demo leaves the adapter drawing lists again")
    assertSnapshot(console.output, named: "layout-demo")
  }

  @Test func aLayoutRendererLabelsBoxesWithTheConsoleTextOfElementsAndHeaders() {
    let root = ComposedSectionProvider()
    let section = ContactsDemo.ListSection(
      title: "Top", unit: (one: "item", many: "items"), ["alpha", "beta", "gamma"])
    root.append(section)
    let coordinator = Coordinator(sectionProvider: root)
    let drawing = ConsoleLayoutRenderer(layout: LayoutExamples.listKitStyle()).render(coordinator)
    #expect(drawing.contains("|Top"))
    #expect(drawing.contains("|alpha") && drawing.contains("|beta") && drawing.contains("|gamma"))
    let lines = drawing.split(separator: "\n")
    #expect(lines.allSatisfy { $0.count <= 80 }, "an 80-column drawing")
  }
}
