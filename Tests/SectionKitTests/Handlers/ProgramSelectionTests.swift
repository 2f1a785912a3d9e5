import Foundation
import SectionKit
import Testing

/// `coordinator.select(_:)` called by program code reaches an adapter that says what its view
/// shows (`ViewAdapter.showsSelected(_:)`); the adapter's own reports are not told back.
@Suite struct ProgramSelectionTests {
  final class Pickable: ArraySection<String>, SelectionHandler {
    var allowsMultipleSelection: Bool { true }
  }

  /// A view that keeps its own selection and answers `showsSelected(_:)` from it (or not at all).
  final class View: ViewAdapter {
    var shown: Set<IndexPath> = []
    var told: [String] = []
    let answers: Bool
    init(answers: Bool) { self.answers = answers }
    func reloadData(from coordinator: Coordinator) { shown = [] }
    func apply(
      _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
    ) {
      updateData()
    }
    func coordinator(_ coordinator: Coordinator, didSelect indexPaths: [IndexPath]) {
      told.append("select \(indexPaths)")
      shown.formUnion(indexPaths)
    }
    func coordinator(_ coordinator: Coordinator, didDeselect indexPaths: [IndexPath]) {
      told.append("deselect \(indexPaths)")
      shown.subtract(indexPaths)
    }
    func showsSelected(_ indexPath: IndexPath) -> Bool? {
      answers ? shown.contains(indexPath) : nil
    }
  }

  func make(answers: Bool) -> (Coordinator, View) {
    let root = ComposedSectionProvider()
    root.append(Pickable(["a", "b", "c"]))
    let coordinator = Coordinator(sectionProvider: root)
    let view = View(answers: answers)
    coordinator.adapter = view
    return (coordinator, view)
  }

  @Test func programSelection_isToldToTheView() {
    let (coordinator, view) = make(answers: true)
    coordinator.selectElement(at: [0, 1])
    coordinator.deselectElement(at: [0, 1])
    #expect(view.told == ["select [[0, 1]]", "deselect [[0, 1]]"])
    #expect(view.shown.isEmpty)
  }

  @Test func theViewsOwnReport_isNotToldBack() {
    let (coordinator, view) = make(answers: true)
    view.shown.insert([0, 2])
    #expect(coordinator.userDidSelect([0, 2]))
    view.shown.remove([0, 2])
    #expect(coordinator.userDidDeselect([0, 2]))
    #expect(view.told.isEmpty)
  }

  @Test func programSelectionAlreadyShown_isNotToldAgain() {
    let (coordinator, view) = make(answers: true)
    view.shown.insert([0, 2])
    #expect(coordinator.selectElement(at: [0, 2]))
    #expect(view.told.isEmpty)
  }

  /// Names that say who acts: a view that does not say what it shows is still told of program
  /// code's selections, and never of its own reports.
  @Test func aViewThatDoesNotSay_isToldOfProgramCodeOnly() {
    let (coordinator, view) = make(answers: false)
    coordinator.userDidSelect([0, 1])
    #expect(view.told.isEmpty)
    coordinator.selectElement(at: [0, 2])
    coordinator.deselectElement(at: [0, 2])
    #expect(view.told == ["select [[0, 2]]", "deselect [[0, 2]]"])
    #expect(coordinator.selectedIndexPaths == [[0, 1]])
  }
}
