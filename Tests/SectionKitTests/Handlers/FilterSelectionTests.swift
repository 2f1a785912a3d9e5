import Foundation
import SectionKit
import SectionKitTesting
import Testing

/// A filter (`replaceElements(with:)` with the matches) that hides a selected element: what
/// happens, and the documented way to keep it (include what is selected), through the strict
/// `TestAdapter`.
@Suite struct FilterSelectionTests {
  struct File: Identifiable, Equatable {
    var id: Int
    var name: String
  }

  final class Files: ArraySection<File>, SelectionHandler {
    var allowsMultipleSelection: Bool { true }
    /// The indexes heard deselected (as they were before the batch that deselected them).
    var deselected: [Int] = []
    func didDeselect(at index: Int) { deselected.append(index) }
  }

  static let all = (0..<12).map {
    File(id: $0, name: ["ant", "bee", "cat", "dog"][$0 % 4] + "\($0)")
  }

  func make(keeps: Bool = false) -> (Coordinator, Files, TestAdapter) {
    let files = Files(Self.all)
    let root = ComposedSectionProvider()
    root.append(files)
    let coordinator = Coordinator(sectionProvider: root)
    let view = TestAdapter(strict: true, tolerating: [.reloadCombinedWithMoves])
    view.keepsChangesets = keeps
    coordinator.adapter = view
    return (coordinator, files, view)
  }

  /// The documented filter that keeps what is selected.
  static func filter(_ files: Files, _ query: String, keepingSelected: Bool) throws {
    let selected = keepingSelected ? Set(files.selectedIndexes.map { files[$0].id }) : []
    try files.replaceElements(
      with: all.filter { query.isEmpty || $0.name.contains(query) || selected.contains($0.id) })
  }

  @Test func aFilterThatHidesASelectedElement_deselectsItForGood() throws {
    let (coordinator, files, view) = make()
    #expect(view.userSelect([0, 1], in: coordinator))  // bee1
    try Self.filter(files, "cat", keepingSelected: false)
    #expect(files.deselected == [1])
    #expect(coordinator.selectedIndexPaths.isEmpty && view.mirrorSelectedIndexPaths.isEmpty)
    try Self.filter(files, "", keepingSelected: false)
    #expect(files.map(\.id) == Self.all.map(\.id))
    #expect(coordinator.selectedIndexPaths.isEmpty)
    #expect(view.failures.isEmpty)
  }

  @Test func aFilterThatKeepsWhatIsSelected_keepsTheSelection() throws {
    let (coordinator, files, view) = make()
    #expect(view.userSelect([0, 1], in: coordinator))  // bee1
    try Self.filter(files, "cat", keepingSelected: true)
    #expect(files.map(\.id) == [1, 2, 6, 10])
    #expect(coordinator.selectedIndexPaths == [[0, 0]])
    #expect(view.mirrorSelectedIndexPaths == [[0, 0]])
    try Self.filter(files, "", keepingSelected: true)
    #expect(coordinator.selectedIndexPaths == [[0, 1]])
    #expect(files.deselected.isEmpty && view.failures.isEmpty)
  }

  /// Random queries and selections: with the filter that keeps what is selected, the selected
  /// identities survive every filter, and the view shows what the model holds.
  @Test(arguments: [false, true])
  func randomFilters_keepTheSelectedIdentities(keeps: Bool) throws {
    var random = SeededGenerator(seed: 305)
    for _ in 0..<30 {
      let (coordinator, files, view) = make(keeps: keeps)
      var selected: Set<Int> = []
      for _ in 0..<30 {
        if Bool.random(using: &random), !files.isEmpty {
          let index = Int.random(in: 0..<files.count, using: &random)
          let path: IndexPath = [0, index]
          if coordinator.isSelected(path) {
            view.userDeselect(path, in: coordinator)
            selected.remove(files[index].id)
          } else {
            view.userSelect(path, in: coordinator)
            selected.insert(files[index].id)
          }
        } else {
          let query = ["", "a", "b", "at", "og", "1", "x"].randomElement(using: &random)!
          let deselections = files.deselected.count
          try Self.filter(files, query, keepingSelected: true)
          #expect(files.deselected.count == deselections)
          #expect(
            files.map(\.id)
              == Self.all.filter {
                query.isEmpty || $0.name.contains(query) || selected.contains($0.id)
              }.map(\.id))
        }
        #expect(Set(coordinator.selectedIndexPaths.map { files[$0[1]].id }) == selected)
        #expect(view.mirrorSelectedIndexPaths == coordinator.selectedIndexPaths)
      }
      #expect(view.failures.isEmpty)
    }
  }
}
