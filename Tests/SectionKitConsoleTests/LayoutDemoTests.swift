import SectionKit
import SectionKitConsole
import SectionKitExamples
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
    let section = ContactsDemo.TitledSection(
      title: "Top", unit: (one: "item", many: "items"), ["alpha", "beta", "gamma"])
    root.append(section)
    let coordinator = Coordinator(sectionProvider: root)
    let drawing = ConsoleLayoutRenderer(layout: LayoutExamples.listKitStyle()).render(coordinator)
    #expect(drawing.contains("|Top"))
    #expect(drawing.contains("|alpha") && drawing.contains("|beta") && drawing.contains("|gamma"))
    let lines = drawing.split(separator: "\n")
    #expect(lines.allSatisfy { $0.count <= 80 }, "an 80-column drawing")
  }

  @Test func estimatedHeightsAreMeasuredFromTheWrappedText() {
    let root = ComposedSectionProvider()
    let section = ContactsDemo.TitledSection(
      title: "Notes", unit: (one: "note", many: "notes"),
      ["short", String(repeating: "long words here ", count: 12)])
    root.append(section)
    let coordinator = Coordinator(sectionProvider: root)
    // 40 columns × rows of 1 point: a list whose rows are estimated at 3 rows (1 line of text).
    let layout = CompositionalLayout { _, _ in ListSection(rowHeight: .estimated(3)) }
    let renderer = ConsoleLayoutRenderer(
      layout: layout, container: Size(width: 40, height: 100), renderer: LayoutTextRenderer())
    let lines = renderer.render(coordinator).split(
      separator: "\n", omittingEmptySubsequences: false)
    // "short" fits one line: a box of 3 rows. The long note wraps to 38 columns: 192 characters
    // in 6 lines, a box of 8 rows.
    let boxTops = lines.indices.filter { lines[$0].hasPrefix("+") }
    #expect(boxTops.count == 4, "two boxes, each with a top and a bottom border")
    #expect(boxTops[1] - boxTops[0] == 2)
    #expect(boxTops[3] - boxTops[2] == 7)
    #expect(lines[boxTops[2] + 1].hasPrefix("|long words here long words here long"))
    #expect(LayoutTextRenderer.wrap("a bb ccc", width: 4) == ["a bb", "ccc"])
    #expect(LayoutTextRenderer.wrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
    #expect(LayoutTextRenderer.wrap("", width: 4) == [""])
  }
}
