import Foundation
import SectionKit
import Testing
import UIKitStandIn

/// The custom section of Docs/MigratingFromComposed.md. In this target the class is isolated to
/// the main actor, and its conformance to `Section` is an isolated conformance (inferred).
final class Clock: Section {
  weak var updateDelegate: (any SectionUpdateDelegate)?
  private(set) var ticks: [Date] = []
  var numberOfElements: Int { ticks.count }

  func tick() {
    updateDelegate?.willBeginUpdating(self)
    ticks.append(Date())
    updateDelegate?.section(self, didInsertElementAt: ticks.count - 1)
    updateDelegate?.didEndUpdating(self)
  }
}

@Suite("A custom main actor-isolated section")
struct CustomSectionTests {
  @Test func ticksReachTheCollectionView() {
    let clock = Clock()
    let header = SingleElementSection(element: "Ticks")
    let root = ComposedSectionProvider()
    root.append(header)
    root.append(clock)
    let collectionView = UICollectionView()
    let adapter = CollectionViewAdapter(collectionView: collectionView) { cell, section, index in
      cell.text = section is Clock ? "tick \(index + 1)" : describeElement(of: section, at: index)
    }
    let coordinator = Coordinator(sectionProvider: root)
    coordinator.adapter = adapter

    clock.tick()
    clock.tick()

    #expect(collectionView.shownText == [["Ticks"], ["tick 1", "tick 2"]])
    #expect(collectionView.batchCount == 2)
    #expect(collectionView.refusedBatches.isEmpty)
  }
}
