import Foundation
import SectionKit
import SectionKitConsole
import SectionKitLayout
import Testing

/// Text from sections never reaches the terminal as control characters: they are shown escaped.
@Suite struct ConsoleControlCharacterTests {
  let plain = ConsoleOptions(style: .plain)

  @Test func controlCharactersInElementText_areEscaped() {
    let section = People("Evil", ["a\u{1B}[2Jb", "v\u{0B}t\u{0C}f", "nul\u{0}del\u{7F}c1\u{9B}"])
    let root = ComposedSectionProvider()
    root.append(section)
    let text = ConsoleRenderer.render(
      coordinator: Coordinator(sectionProvider: root), options: plain)
    #expect(text.contains(#"a\u{1B}[2Jb"#), "\(text)")
    #expect(text.contains(#"v\u{0B}t\u{0C}f"#), "\(text)")
    #expect(text.contains(#"nul\u{00}del\u{7F}c1\u{9B}"#), "\(text)")
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
  }

  @Test func newlinesAndTabs_keepTheirDocumentedForm() {
    let section = People("Lines", ["one\ntwo\r\nthree\rfour\u{2028}five\ttab"])
    let root = ComposedSectionProvider()
    root.append(section)
    let text = ConsoleRenderer.render(
      coordinator: Coordinator(sectionProvider: root), options: plain)
    #expect(text.contains("one↵two↵three↵four↵five tab"), "\(text)")
  }

  @Test func controlCharactersInHeadersFootersAndNotes_areEscaped() {
    let section = People("Ti\u{1B}]0;pwned\u{07}tle", ["x"])
    let root = ComposedSectionProvider()
    root.append(section)
    let coordinator = Coordinator(sectionProvider: root)
    let console = ConsoleAdapter(output: String(), options: plain)
    coordinator.adapter = console
    console.announce("note \u{1B}[31m red\nsecond\u{0C}line")
    section.append("y\u{1B}")
    let output = console.output
    #expect(output.contains(#"Ti\u{1B}]0;pwned\u{07}tle"#), "\(output)")
    #expect(output.contains(#"» note \u{1B}[31m red"#), "\(output)")
    #expect(output.contains(#"» second\u{0C}line"#), "\(output)")
    #expect(output.contains(#"inserted [0, 1] y\u{1B}"#), "\(output)")
    #expect(!output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
  }

  @Test func theListViewsEmptyText_isEscaped() {
    let fixture = ListFixture([], rows: 3, columns: 30)
    fixture.list.emptyText = "x\u{1B}]0;t\u{07}"
    fixture.list.draw()
    let output = fixture.list.output
    #expect(fixture.screen().hasPrefix(#"x\u{1B}]0;t\u{07}"#), "\(fixture.list.screen)")
    #expect(!output.contains("\u{1B}]") && !output.unicodeScalars.contains("\u{07}"), "\(output)")
  }

  @Test func aSupplementaryKindInALayoutDrawing_isEscaped() {
    let kind = "k\u{1B}[2J"
    let layout = CompositionalLayout(
      configuration: CompositionalLayout.Configuration(boundarySupplementaryItems: [
        BoundarySupplementaryItem(elementKind: kind).height(.absolute(24))
      ]),
      sections: [
        ListSection(rowHeight: .absolute(24)).layoutSection.boundarySupplementaryItems {
          BoundarySupplementaryItem(elementKind: "s" + kind).height(.absolute(24))
        }
      ])
    let root = ComposedSectionProvider()
    root.append(People("P", ["a"]))
    let drawing = ConsoleLayoutRenderer(layout: layout).render(Coordinator(sectionProvider: root))
    #expect(drawing.contains(#"k\u{1B}[2J"#), "\(drawing)")
    #expect(drawing.contains(#"sk\u{1B}[2J"#), "\(drawing)")
    #expect(!drawing.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(drawing)")
  }
}
