import Foundation
import SectionKit
import SectionKitConsole
import Testing

/// Changesets built in memory can hold anything; the console must report the ones that do not fit
/// what it shows, re-read everything, and keep working.
@Suite struct ConsoleMalformedChangesetTests {
  /// Applies `changeset` (the data source unchanged), expects it reported as inconsistent and
  /// the tree re-read, then checks that the next real change is applied and logged normally.
  func expectReportedAndRecovered(
    _ changeset: Changeset, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let fixture = ContactsFixture()
    let console = fixture.attachConsole()
    let log = console.written {
      console.apply(changeset, from: fixture.coordinator) {}
    }
    #expect(log.contains("! inconsistent changeset"), "\(log)", sourceLocation: sourceLocation)
    #expect(
      console.renderedTree
        == ConsoleRenderer.render(coordinator: fixture.coordinator, options: console.options),
      sourceLocation: sourceLocation)
    let next = console.written { fixture.friends.append("Linus") }
    #expect(next.contains("inserted [2, 2] Linus"), "\(next)", sourceLocation: sourceLocation)
    #expect(!next.contains("inconsistent"), "\(next)", sourceLocation: sourceLocation)
    #expect(console.shownCounts == [1, 3, 3, 2], sourceLocation: sourceLocation)
  }

  @Test func aSectionMoveToMinusOne_isReported() {
    expectReportedAndRecovered(Changeset(movedSections: [.init(from: 0, to: -1)]))
  }

  @Test func aSectionMoveFromMinusOne_isReported() {
    expectReportedAndRecovered(Changeset(movedSections: [.init(from: -1, to: 0)]))
  }

  @Test func aReloadOfANegativePath_isReported() {
    expectReportedAndRecovered(Changeset(reloadedElements: [[-1, 0]]))
  }

  @Test func emptyIndexPaths_areReported() {
    expectReportedAndRecovered(
      Changeset(insertedElements: [IndexPath()], reloadedElements: [[1, 0]]))
    expectReportedAndRecovered(
      Changeset(deletedElements: [IndexPath()], reloadedElements: [[1, 0]]))
    expectReportedAndRecovered(Changeset(movedElements: [.init(from: IndexPath(), to: [0, 0])]))
  }

  @Test func hugeSectionRanges_areReportedAtOnce() {
    let huge = IndexSet(integersIn: 0..<(1 << 62))
    expectReportedAndRecovered(Changeset(deletedSections: huge))
    expectReportedAndRecovered(Changeset(insertedSections: huge))
    expectReportedAndRecovered(Changeset(reloadedSections: huge))
    expectReportedAndRecovered(Changeset(deletedSections: huge, insertedSections: huge))
  }

  @Test func negativeSectionRanges_areReported() {
    expectReportedAndRecovered(Changeset(deletedSections: IndexSet(integersIn: -3..<0)))
    expectReportedAndRecovered(Changeset(insertedSections: IndexSet(integersIn: -1..<1)))
    expectReportedAndRecovered(Changeset(reloadedSections: IndexSet(integersIn: -(1 << 62)..<0)))
  }

  @Test func twoSectionsMovedToOneDestination_isReported() {
    expectReportedAndRecovered(
      Changeset(
        insertedSections: [0],
        movedSections: [.init(from: 0, to: 1), .init(from: 2, to: 1)]))
  }

  @Test func hugeAndNegativeElementIndexes_areReported() {
    expectReportedAndRecovered(Changeset(insertedElements: [[1, Int.max]]))
    expectReportedAndRecovered(Changeset(deletedElements: [[Int.max, 0]]))
    expectReportedAndRecovered(
      Changeset(movedElements: [.init(from: [1, 0], to: [1, -1])]))
  }
}
