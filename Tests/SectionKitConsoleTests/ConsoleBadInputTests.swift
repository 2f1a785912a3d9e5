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

  @Test func movingTheCursorElementByMaxOrMin_stopsAtTheEndsOfTheSection() async {
    // In a child process: before the fix, `.max` overflowed and trapped.
    await #expect(processExitsWith: .success) {
      let a = Shown("A", names("a", 4))
      let fixture = ListFixture([a])
      fixture.coordinator.setEditing(true)
      fixture.list.setCursor([0, 1])
      let down = fixture.list.moveCursorElement(by: .max, in: fixture.coordinator)
      precondition(
        down == [0, 3] && Array(a) == ["a 0", "a 2", "a 3", "a 1"], "\(String(describing: down))")
      let up = fixture.list.moveCursorElement(by: .min, in: fixture.coordinator)
      precondition(
        up == [0, 0] && Array(a) == ["a 1", "a 0", "a 2", "a 3"], "\(String(describing: up))")
      precondition(fixture.list.moveCursorElement(by: .min, in: fixture.coordinator) == nil)
    }
  }

  @Test func theSizeSetters_followTheInitializersRule() async {
    await #expect(processExitsWith: .failure) {
      var size = ConsoleSize(rows: 4, columns: 10)
      size.rows = 1
    }
    await #expect(processExitsWith: .failure) {
      var size = ConsoleSize(rows: 4, columns: 10)
      size.columns = .max
    }
    await #expect(processExitsWith: .failure) {
      var size = ConsoleSize(rows: 4, columns: 10)
      size.rows = .min
    }
    var size = ConsoleSize(rows: 4, columns: 10)
    size.rows = 10_000
    size.columns = 2
    #expect(size == ConsoleSize(rows: 10_000, columns: 2))
  }

  @Test func aContainerOfAnyFiniteWidth_isMeasuredWithoutOverflow() async {
    await #expect(processExitsWith: .success) {
      let root = ComposedSectionProvider()
      root.append(People("P", ["a long name that wraps"]))
      let coordinator = Coordinator(sectionProvider: root)
      let list = CompositionalLayout { _, _ in ListSection(rowHeight: .estimated(24)).layoutSection
      }
      for width in [1e300, 1e-300] {
        _ = ConsoleLayoutRenderer(layout: list, container: Size(width: width, height: 64))
          .render(coordinator)
      }
    }
  }

  @Test func isShownSelected_isFalseForAPathOfAnotherLength() async {
    await #expect(processExitsWith: .success) {
      let console = ContactsFixture().attachConsole()
      precondition(!console.isShownSelected([0]) && !console.isShownSelected([0, 0, 0]))
    }
  }

  @Test func aListDrawnAfterItsCoordinatorIsGone_trapsInsteadOfDrawingAnEmptyScreen() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let root = ComposedSectionProvider()
      root.append(People("P", ["a", "b"]))
      let list = ConsoleListView(output: String(), size: ConsoleSize(rows: 6, columns: 20))
      weak var gone: Coordinator?
      do {
        let coordinator = Coordinator(sectionProvider: root)
        coordinator.adapter = list
        gone = coordinator
      }
      precondition(gone == nil, "the coordinator is still alive: the test proves nothing")
      list.size = ConsoleSize(rows: 4, columns: 20)
      list.draw()
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      message.contains("the Coordinator this list shows has been deallocated"),
      "the trap names who must keep the coordinator: \(message.suffix(600))")
    let never = ConsoleListView(output: String(), size: ConsoleSize(rows: 6, columns: 20))
    never.draw()
    #expect(never.output.isEmpty, "a list never attached draws nothing")
  }
}
