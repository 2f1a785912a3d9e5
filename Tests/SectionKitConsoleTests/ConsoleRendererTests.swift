import Foundation
import SectionKit
import SectionKitConsole
import Testing

@Suite struct ConsoleRendererTests {
  let plain = ConsoleOptions(style: .plain)

  @Test func rendersPresentableSectionsWithHeadersAndFooters_andOthersWithDefaultHeaders() {
    let fixture = ContactsFixture()
    assertSnapshot(
      ConsoleRenderer.render(coordinator: fixture.coordinator, options: plain),
      named: "render-contacts-plain")
  }

  @Test func withIndexPaths_prefixesEveryElementWithItsGlobalIndexPath() {
    let fixture = ContactsFixture()
    let options = ConsoleOptions(showsIndexPaths: true, style: .plain)
    assertSnapshot(
      ConsoleRenderer.render(coordinator: fixture.coordinator, options: options),
      named: "render-contacts-index-paths")
  }

  @Test func withAnsiStyle_boldsHeadersDimsFootersAndGreysIndexPaths() {
    let fixture = ContactsFixture()
    let options = ConsoleOptions(showsIndexPaths: true, style: .ansi)
    let text = ConsoleRenderer.render(coordinator: fixture.coordinator, options: options)
    #expect(text.contains("\u{1B}[1m── Family ──\u{1B}[0m"))
    assertSnapshot(text, named: "render-contacts-ansi")
  }

  @Test func autoStyle_rendersPlain() {
    let fixture = ContactsFixture()
    let text = ConsoleRenderer.render(coordinator: fixture.coordinator)
    #expect(!text.contains("\u{1B}"))
    #expect(text == ConsoleRenderer.render(coordinator: fixture.coordinator, options: plain))
  }

  @Test func selection_marksSelectedElements_andIgnoresPathsNotShown() {
    let fixture = ContactsFixture()
    let text = ConsoleRenderer.render(
      coordinator: fixture.coordinator,
      options: ConsoleOptions(showsIndexPaths: true, style: .plain),
      selection: [path(1, 1), path(2, 0), path(9, 9), path(1, 7)])
    assertSnapshot(text, named: "render-contacts-selection")
  }

  @Test func width_drawsRulesToTheWidth_andCutsLongerLinesWithAnEllipsis() {
    let fixture = ContactsFixture()
    fixture.friends.append("Grace Brewster Murray Hopper, rear admiral")
    let options = ConsoleOptions(showsIndexPaths: true, width: 24, style: .plain)
    let text = ConsoleRenderer.render(coordinator: fixture.coordinator, options: options)
    for line in text.split(separator: "\n") { #expect(line.count <= 24) }
    assertSnapshot(text, named: "render-contacts-width-24")
  }

  @Test func widthWithAnsi_cutsTheVisibleTextNotTheEscapes() {
    let fixture = ContactsFixture()
    fixture.friends.append("Grace Brewster Murray Hopper")
    let options = ConsoleOptions(showsIndexPaths: true, width: 16, style: .ansi)
    let text = ConsoleRenderer.render(
      coordinator: fixture.coordinator, options: options, selection: [path(2, 2)])
    #expect(
      text.contains("\u{1B}[1;36m ▸ \u{1B}[0m\u{1B}[90m[2, 2]\u{1B}[0m \u{1B}[1;36mGrace…\u{1B}[0m")
    )
  }

  @Test func anEmptyTree_rendersAsNoSections() {
    let coordinator = Coordinator(sectionProvider: ComposedSectionProvider())
    #expect(ConsoleRenderer.render(coordinator: coordinator) == "(no sections)\n")
  }

  @Test func presentableDefaults_giveNoHeaderNoFooterAndDescribedElements() {
    let root = ComposedSectionProvider()
    root.append(Plain([1, 2]))
    let coordinator = Coordinator(sectionProvider: root)
    #expect(ConsoleRenderer.render(coordinator: coordinator) == "   1\n   2\n")
  }

  @Test func aSectionThatIsNotAnElementSection_showsElementIndexes() {
    let root = ComposedSectionProvider()
    root.append(Opaque(count: 2))
    let coordinator = Coordinator(sectionProvider: root)
    #expect(
      ConsoleRenderer.render(coordinator: coordinator)
        == "── Section 0 (2 elements) ──\n   element 0\n   element 1\n")
  }

  @Test func multilineTexts_stayOnOneLine() {
    let root = ComposedSectionProvider()
    root.append(People("Two\nlines", ["a\nb", "c\td"]))
    let coordinator = Coordinator(sectionProvider: root)
    #expect(
      ConsoleRenderer.render(coordinator: coordinator)
        == "── Two↵lines ──\n   a↵b\n   c d\n   └ 2 people\n")
  }

  @Test func anEmptySection_showsItsHeaderAndFooterOnly() {
    let root = ComposedSectionProvider()
    root.append(People("Nobody", []))
    root.append(ArraySection<String>())
    let coordinator = Coordinator(sectionProvider: root)
    #expect(
      ConsoleRenderer.render(coordinator: coordinator)
        == "── Nobody ──\n   └ 0 people\n── Section 1 (0 elements) ──\n")
  }

  @Test func theRendererReadsThePresentedState_notTheModelAheadOfIt() {
    let fixture = ContactsFixture()
    var seen = ""
    final class Spy: ViewAdapter {
      var onApply: (Coordinator) -> Void = { _ in }
      func reloadData(from coordinator: Coordinator) {}
      func apply(
        _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
      ) { onApply(coordinator) }
    }
    let spy = Spy()
    spy.onApply = {
      seen = ConsoleRenderer.render(coordinator: $0, options: ConsoleOptions(style: .plain))
    }
    fixture.coordinator.adapter = spy
    fixture.friends.append("Linus")
    #expect(!seen.contains("Linus"), "before updateData the coordinator answers the old state")
    #expect(ConsoleRenderer.render(coordinator: fixture.coordinator).contains("Linus"))
  }
}
