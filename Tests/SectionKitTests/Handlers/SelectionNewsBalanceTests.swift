import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// Hardening issue, item 8: a section hears every change of its own selection and the adapter
/// the net change, and both are balanced: never a deselect of an element they were not told was
/// selected, never a select of one they were told is selected.
@Suite("Selection news are balanced")
struct SelectionNewsBalanceTests {
  final class Fixture {
    let plain: ArraySection<String> = ["p"]
    let section = ScriptedSection((0..<8).map { "\($0)" })
    let adapter = HookedAdapter()
    let coordinator: Coordinator

    init(multiple: Bool = false) {
      section.multiple = multiple
      coordinator = coordinate([plain, section], adapter: adapter)
    }

    /// Runs `body` inside the adapter's next `apply` (a change of the plain section triggers it).
    func insideApply(_ body: @escaping (ScriptedSection) -> Void) {
      section.log = []
      adapter.log = []
      adapter.insideApply = { [section] _ in body(section) }
      plain.append("q")
    }
  }

  @Test func singleSelectionChangedTwiceInsideApply() {
    let f = Fixture()
    f.section.select(index: 2)
    f.insideApply { section in
      section.select(index: 6)
      section.select(index: 5)
    }
    #expect(f.section.log == ["deselect 2", "select 5"])
    #expect(
      f.adapter.log == [
        "apply begin", "apply end", "didDeselect [\"[1, 2]\"]", "didSelect [\"[1, 5]\"]",
      ])
    #expect(f.coordinator.selectedIndexPaths == [[1, 5]])
    #expect(f.adapter.inner.mirrorSelectedIndexPaths == [[1, 5]])
  }

  @Test func multipleSelectionSelectedAndDeselectedInsideApply() {
    let f = Fixture(multiple: true)
    f.section.select(index: 2)
    f.insideApply { section in
      section.select(index: 6)
      section.deselect(index: 6)
    }
    #expect(f.section.log == [])
    #expect(f.adapter.log == ["apply begin", "apply end"])
    #expect(f.coordinator.selectedIndexPaths == [[1, 2]])
  }

  @Test func deselectedAndSelectedAgainInsideApply() {
    let f = Fixture(multiple: true)
    f.section.select(index: 2)
    f.insideApply { section in
      section.deselect(index: 2)
      section.select(index: 2)
    }
    #expect(f.section.log == [])
    #expect(f.adapter.log == ["apply begin", "apply end"])
    #expect(f.coordinator.selectedIndexPaths == [[1, 2]])
    #expect(f.adapter.inner.mirrorSelectedIndexPaths == [[1, 2]])
  }

  @Test func aSelectUndoneByAHandlerBeforeItsTurnIsNotTold() {
    // selectAll tells 0, 1, 2 in turn; didSelect(0) deselects 2 before 2's turn.
    let f = Fixture(multiple: true)
    f.section.onSelect = { section, index in if index == 0 { section.deselect(index: 2) } }
    f.section.log = []
    f.section.selectAll()
    #expect(!f.section.log.contains("deselect 2") && !f.section.log.contains("select 2"))
    #expect(f.coordinator.selectedIndexPaths.count == 7)
  }

  @Test func aDeselectOfAnElementDeletedBeforeItsTurnIsStillTold() {
    // deselectAll tells 0, 1, 2 in turn; didDeselect(0) removes element 2, which the section
    // heard selected: it hears it deselected (at its index before the batch).
    let f = Fixture(multiple: true)
    for index in 0..<3 { f.section.select(index: index) }
    f.section.onDeselect = { section, index in
      if index == 0 && section.count == 8 { section.remove(at: 2) }
    }
    f.section.log = []
    f.section.deselectAll()
    #expect(f.section.log.filter { $0.hasPrefix("deselect") }.count == 3)
    #expect(f.coordinator.selectedIndexPaths == [])
  }
}
