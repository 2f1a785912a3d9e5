import SectionKit
import SectionKitConsole
import SectionKitExamples
import SectionKitLayout
import Testing

@Suite struct LayoutChosenBySectionsTests {
  @Test func theConsoleDrawsSectionsThatChooseTheirLayouts_andFollowsInsertsAndDeletes() {
    let console = ConsoleAdapter(
      output: String(), options: ConsoleOptions(mode: .log, logsTreeAfterChanges: true))
    var pauses = 0
    LayoutDemo.runSectionsChoose(on: console) { pauses += 1 }
    #expect(pauses == 2)
    let output = console.output
    // Before the batch: the list's rows, the grid's and the strip's tiles; after it, the list is
    // gone and the inserted strip draws its tiles.
    let parts = output.components(separatedBy: "insert a strip at 1, remove the list")
    #expect(parts.count == 2)
    #expect(parts[0].contains("|Mail") && parts[0].contains("|P7") && parts[0].contains("|F1"))
    #expect(!parts[1].contains("|Mail") && parts[1].contains("|A1") && parts[1].contains("|P1"))
    assertSnapshot(output, named: "layout-sections-choose")
  }
}
