import SectionKit
import SectionKitConsole
import SectionKitExamples
import SectionKitLayout
import Testing

@Suite struct ContactsDemoTests {
  @Test func theDemoScript_writesTheGoldenLog() {
    let console = ConsoleAdapter(output: String(), options: ConsoleOptions(showsIndexPaths: true))
    var pauses = 0
    let coordinator = ContactsDemo.run(on: console) { pauses += 1 }
    #expect(pauses == 6)
    #expect(console.changesetCount == 5)
    #expect(
      console.renderedTree
        == ConsoleRenderer.render(coordinator: coordinator, options: console.options))
    assertSnapshot(console.output, named: "demo-log")
  }

  @Test func theDemoScript_inRedrawModeWithAnsi() {
    let console = ConsoleAdapter(
      output: String(), options: ConsoleOptions(showsIndexPaths: true), environment: terminal())
    ContactsDemo.run(on: console)
    assertSnapshot(console.output, named: "demo-redraw-ansi")
  }
}

@Suite struct ConsoleGuideTests {
  final class Family: ArraySection<String>, ConsolePresentable {
    var consoleHeader: String? { "Family" }
    var consoleFooter: String? { count == 1 ? "1 person" : "\(count) people" }
    func consoleText(forElementAt index: Int) -> String { "👤 " + self[index] }
  }

  @Test func theExamplesOfDocsConsoleMd_runAsWritten() {
    let family = ArraySection(["Mum", "Dad"])
    let friends = ArraySection(["Ada", "Grace"])
    let contacts = ComposedSectionProvider()
    contacts.append(family)
    contacts.append(friends)

    let coordinator = Coordinator(sectionProvider: contacts)
    let console = ConsoleAdapter(
      output: String(), options: ConsoleOptions(showsIndexPaths: true))
    coordinator.adapter = console
    let log = console.written { friends.append("Linus") }
    #expect(log == "changeset 1: 1 element inserted\n  inserted [1, 2] Linus\n")

    let custom = ComposedSectionProvider()
    custom.append(Family(["Mum"]))
    let text = ConsoleRenderer.render(coordinator: Coordinator(sectionProvider: custom))
    #expect(text == "── Family ──\n   👤 Mum\n   └ 1 person\n")
  }
}

extension ConsoleGuideTests {
  @Test func theLayoutExampleOfDocsConsoleMd_drawsHeadersWithTheDefaultKinds() {
    let family = ArraySection(["Mum", "Dad"])
    let contacts = ComposedSectionProvider()
    contacts.append(family)
    let coordinator = Coordinator(sectionProvider: contacts)
    let console = ConsoleAdapter(output: String(), options: ConsoleOptions(mode: .log))

    let list = CompositionalLayout { _, _ in
      ListSection(rowHeight: .estimated(24)).header(height: .absolute(24))
    }
    console.layout = ConsoleLayoutRenderer(layout: list)
    coordinator.adapter = console  // the reload is drawn as boxes

    #expect(console.output.contains("|Section 0"), "the header box shows the section's header")
    #expect(console.output.contains("|Mum") && console.output.contains("|Dad"))
  }
}
