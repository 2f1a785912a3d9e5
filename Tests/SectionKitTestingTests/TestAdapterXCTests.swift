import SectionKit
import SectionKitTesting
import XCTest

/// The same adapter from XCTest: failures go through `XCTFail`.
final class TestAdapterXCTests: XCTestCase {
  func testBatchesAreCheckedUnderXCTest() {
    let fruit: ArraySection<String> = ["apple", "banana"]
    let root = ComposedSectionProvider()
    root.append(fruit)
    let coordinator = Coordinator(sectionProvider: root)
    let view = TestAdapter()
    coordinator.adapter = view

    fruit.performBatchUpdates {
      fruit.append("cherry")
      fruit.swapAt(0, 1)
    }

    XCTAssertEqual(view.failures.count, 0)
    XCTAssertEqual(view.mirrorValues, [["banana", "apple", "cherry"]])
    XCTAssertTrue(view.assertMirror(equals: [["banana", "apple", "cherry"]]))
  }

  func testFailuresCanBeCollectedInsteadOfFailing() {
    var collected: [TestAdapterFailure] = []
    let root = ComposedSectionProvider()
    root.append(ArraySection([1, 2]))
    let coordinator = Coordinator(sectionProvider: root)
    let view = TestAdapter(onFailure: { collected.append($0) })
    coordinator.adapter = view
    view.apply(Changeset(deletedSections: [3]), from: coordinator) {}
    XCTAssertEqual(collected.first?.violations.first?.rule, .deleteSectionOutOfBounds)
  }
}
