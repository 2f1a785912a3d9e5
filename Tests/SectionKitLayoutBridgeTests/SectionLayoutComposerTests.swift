import Foundation
import SectionKit
import SectionKitExamples
import SectionKitLayout
import SectionKitLayoutBridge
import Testing

/// A section that chooses a layout of `rowHeight`-high rows and counts how often it is asked.
final class CountingSection: ArraySection<Int>, LayoutProvidingSection {
  var rowHeight = 10.0
  var asked = 0

  convenience init(rowHeight: Double, count: Int) {
    self.init(0..<count)
    self.rowHeight = rowHeight
  }

  func layoutSection(for environment: LayoutEnvironment) -> LayoutSection {
    asked += 1
    return ListSection(rowHeight: .absolute(rowHeight)).layoutSection
  }
}

/// An adapter that keeps a composer in step, as a `UICollectionView` adapter would.
final class ComposingAdapter: ViewAdapter {
  let composer = SectionLayoutComposer(
    environment: LayoutEnvironment(containerSize: Size(width: 100, height: 100)),
    composition: SectionChosenLayout(fallback: ListSection(rowHeight: .absolute(1)).layoutSection))
  var counts: [Int] = []

  func reloadData(from coordinator: Coordinator) {
    composer.reloadData(from: coordinator)
    counts = (0..<coordinator.numberOfSections).map { coordinator.numberOfElements(inSection: $0) }
  }

  func apply(
    _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
  ) {
    updateData()
    composer.apply(changeset, from: coordinator)
    counts = (0..<coordinator.numberOfSections).map { coordinator.numberOfElements(inSection: $0) }
  }

  /// The row height of each section, read off the composed layout's frames.
  var rowHeights: [Double] {
    let result = composer.layout.frames(
      itemCounts: counts.map { max($0, 1) }, container: Size(width: 100, height: 100))
    return result.sections.map { $0.elements.first?.frame.height ?? -1 }
  }
}

@Suite struct SectionLayoutComposerTests {
  @Test func insertedSectionBringsItsLayout_deletedTakesItAway_othersAreNotAskedAgain() {
    let root = ComposedSectionProvider()
    let a = CountingSection(rowHeight: 10, count: 2)
    let b = CountingSection(rowHeight: 20, count: 2)
    root.append(a)
    root.append(b)
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = ComposingAdapter()
    coordinator.adapter = adapter
    #expect(adapter.rowHeights == [10, 20])
    let c = CountingSection(rowHeight: 30, count: 1)
    root.performBatchUpdates {
      root.insert(c, at: 0)
      _ = root.remove(at: 1)  // a
    }
    #expect(adapter.rowHeights == [30, 20])
    #expect((a.asked, b.asked, c.asked) == (1, 1, 1))
    // Element changes ask nobody.
    b.append(5)
    #expect(adapter.rowHeights == [30, 20])
    #expect((b.asked, c.asked) == (1, 1))
    withExtendedLifetime(coordinator) {}
  }

  @Test func movedSectionsKeepTheirLayouts_sectionsThatChooseNothingTakeTheFallback() {
    let root = ComposedSectionProvider()
    let a = CountingSection(rowHeight: 10, count: 1)
    let plain: ArraySection<Int> = [1, 2]
    let b = CountingSection(rowHeight: 20, count: 1)
    root.append(a)
    root.append(plain)
    root.append(b)
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = ComposingAdapter()
    coordinator.adapter = adapter
    #expect(adapter.rowHeights == [10, 1, 20])
    root.performBatchUpdates {
      let moved = root.remove(at: 2)
      root.insert(moved, at: 0)
    }
    #expect(adapter.rowHeights == [20, 10, 1])
    // The coordinator reports a section move as a delete and an insert: the moved section is
    // asked again, the others are not.
    #expect((a.asked, b.asked) == (1, 2))
    withExtendedLifetime(coordinator) {}
  }

  @Test func changingTheEnvironment_asksEverySectionAgainAtTheNextChange() {
    let root = ComposedSectionProvider()
    let a = CountingSection(rowHeight: 10, count: 1)
    root.append(a)
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = ComposingAdapter()
    coordinator.adapter = adapter
    adapter.composer.environment.containerSize = Size(width: 200, height: 100)
    a.append(1)
    #expect(a.asked == 2)
    withExtendedLifetime(coordinator) {}
  }

  @Test func statelessComposition_asksEveryPresentedSection() throws {
    let root = ComposedSectionProvider()
    root.append(StyledSection(title: "L", style: .list, ["x"]))
    root.append(StyledSection(title: "G", style: .grid, ["x", "y", "z", "w"]))
    root.append(StyledSection(title: "S", style: .strip, ["x", "y", "z"]))
    let coordinator = Coordinator(sectionProvider: root)
    let container = Size(width: 300, height: 600)
    let layout = SectionChosenLayout().layout(
      for: coordinator, environment: LayoutEnvironment(containerSize: container))
    let result = layout.frames(itemCounts: [1, 4, 3], container: container)
    // List: 8 (header) then a 300 × 24 row. Grid: thirds, insets 2. Strip: 0.4 × 300 = 120 wide.
    #expect(
      result.frame(at: IndexPath(indexes: [0, 0])) == Rect(x: 0, y: 8, width: 300, height: 24))
    #expect(
      result.frame(at: IndexPath(indexes: [1, 3])) == Rect(x: 2, y: 74, width: 96, height: 28))
    #expect(result.sections[2].orthogonalRegion != nil)
    let second = try #require(result.frame(at: IndexPath(indexes: [2, 1])))
    #expect(abs(second.minX - (8 + 120 + 2)) < 1e-9)
  }
}
