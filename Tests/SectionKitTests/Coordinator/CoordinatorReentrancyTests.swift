import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// An adapter that forwards to a strict `TestAdapter`, logs every call in order, and runs a hook
/// inside `apply` after `updateData` (to act as a re-entrant adapter or handler would).
final class HookedAdapter: ViewAdapter {
  let inner = TestAdapter(strict: false)
  var log: [String] = []
  var insideApply: ((Coordinator) -> Void)?

  func reloadData(from coordinator: Coordinator) {
    log.append("reload")
    inner.reloadData(from: coordinator)
  }

  func apply(
    _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
  ) {
    log.append("apply begin")
    // The inner adapter calls updateData and follows the changeset; the hook runs after that,
    // still inside apply.
    inner.apply(changeset, from: coordinator, updateData: updateData)
    let hook = insideApply
    insideApply = nil
    hook?(coordinator)
    log.append("apply end")
  }

  func coordinator(_ coordinator: Coordinator, didSelect indexPaths: [IndexPath]) {
    log.append("didSelect \(indexPaths.map(format))")
    inner.coordinator(coordinator, didSelect: indexPaths)
  }

  func coordinator(_ coordinator: Coordinator, didDeselect indexPaths: [IndexPath]) {
    log.append("didDeselect \(indexPaths.map(format))")
    inner.coordinator(coordinator, didDeselect: indexPaths)
  }
}

/// A selection handler whose callbacks run code given by the test, and log the element they name
/// (reading `self[index]`, as `Docs/Handlers.md` shows, so a stale index traps).
final class ScriptedSection: ArraySection<String>, SelectionHandler {
  var multiple = false
  var log: [String] = []
  var onSelect: ((ScriptedSection, Int) -> Void)?
  var onDeselect: ((ScriptedSection, Int) -> Void)?
  var allowsMultipleSelection: Bool { multiple }
  func didSelect(at index: Int) {
    log.append("select \(self[index])")
    onSelect?(self, index)
  }
  func didDeselect(at index: Int) {
    log.append("deselect \(index < count ? self[index] : "#\(index)")")
    onDeselect?(self, index)
  }
}

@Suite("Coordinator hardening: re-entrancy, replaced trees, stale indexes")
struct CoordinatorReentrancyTests {
  // MARK: 1. replace(sectionProvider:) inside a model batch

  @Test func replaceInsideAProvidersBatchDeliversLaterChangesets() {
    let s: ArraySection<String> = ["a"]
    let root = ComposedSectionProvider()
    root.append(s)
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = TestAdapter(strict: true)
    coordinator.adapter = adapter
    let t: ArraySection<String> = ["t"]
    let other = ComposedSectionProvider()
    other.append(t)

    root.performBatchUpdates {
      s.append("b")
      coordinator.replace(sectionProvider: other)
    }
    #expect(coordinator.state == .idle)
    #expect(adapter.reloads == [[1], [1]])
    t.append("u")
    #expect(adapter.changesets.count == 1)
    #expect(adapter.mirrorValues == [["t", "u"]])
    // The old tree no longer reaches the coordinator.
    s.append("c")
    #expect(adapter.changesets.count == 1)
  }

  @Test func replaceInsideASectionsBatchDeliversLaterChangesets() {
    let s: ArraySection<String> = ["a"]
    let coordinator = Coordinator(sectionProvider: tree(s))
    let adapter = TestAdapter(strict: true)
    coordinator.adapter = adapter
    let t: ArraySection<String> = ["t"]
    s.performBatchUpdates {
      s.append("b")
      coordinator.replace(sectionProvider: tree(t))
      s.append("c")
    }
    #expect(coordinator.state == .idle)
    t.append("u")
    #expect(adapter.mirrorValues == [["t", "u"]])
    #expect(adapter.failures.isEmpty)
  }

  @Test func replaceFromASelectionHandlerDeliversLaterChangesets() {
    let s = ScriptedSection(["a", "b"])
    let coordinator = Coordinator(sectionProvider: tree(s))
    let adapter = TestAdapter(strict: true)
    coordinator.adapter = adapter
    let t: ArraySection<String> = ["t"]
    s.onSelect = { section, _ in
      section.performBatchUpdates {
        section.append("c")
        coordinator.replace(sectionProvider: tree(t))
      }
    }
    // Accepted; the reload the replacement causes then clears the selection.
    #expect(adapter.userSelect([0, 0], in: coordinator))
    #expect(coordinator.state == .idle)
    #expect(coordinator.selectedIndexPaths.isEmpty)
    t.append("u")
    #expect(adapter.mirrorValues == [["t", "u"]])
    #expect(adapter.failures.isEmpty)
  }

  @Test func replaceWithTheSameRootReloads() {
    let s: ArraySection<String> = ["a"]
    let root = tree(s)
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = TestAdapter(strict: true)
    coordinator.adapter = adapter
    root.performBatchUpdates {
      s.append("b")
      coordinator.replace(sectionProvider: root)
      s.append("c")
    }
    #expect(coordinator.state == .idle)
    s.append("d")
    #expect(adapter.mirrorValues == [["a", "b", "c", "d"]])
    #expect(adapter.failures.isEmpty)
  }

  @Test func replaceByATreeInTheMiddleOfItsOwnBatch() {
    let coordinator = Coordinator(sectionProvider: ComposedSectionProvider())
    let adapter = TestAdapter(strict: true)
    coordinator.adapter = adapter
    let t: ArraySection<String> = ["t"]
    let other = tree(t)
    other.performBatchUpdates {
      t.append("x")
      coordinator.replace(sectionProvider: other)
      t.append("y")
    }
    #expect(coordinator.state == .idle)
    t.append("z")
    #expect(adapter.mirrorValues == [["t", "x", "y", "z"]])
    #expect(adapter.failures.isEmpty)
  }

  @Test func replaceInsideApply() {
    let s: ArraySection<String> = ["a"]
    let coordinator = Coordinator(sectionProvider: tree(s))
    let adapter = HookedAdapter()
    coordinator.adapter = adapter
    let t: ArraySection<String> = ["t"]
    adapter.insideApply = { coordinator in
      coordinator.replace(sectionProvider: tree(t))
    }
    s.append("b")
    #expect(coordinator.state == .idle)
    t.append("u")
    #expect(adapter.inner.mirrorValues == [["t", "u"]])
    #expect(adapter.inner.failures.isEmpty)
  }

  // MARK: 2. Selection notifications never inside apply

  @Test func selectionMadeInsideApplyIsAnnouncedAfterApplyReturns() {
    let s = ScriptedSection(["1", "2", "3"])
    s.multiple = true
    let coordinator = Coordinator(sectionProvider: tree(s))
    let adapter = HookedAdapter()
    coordinator.adapter = adapter
    adapter.insideApply = { _ in s.select(index: 0) }
    s.insert("4", at: 0)
    #expect(adapter.log == ["reload", "apply begin", "apply end", "didSelect [\"[0, 0]\"]"])
    #expect(coordinator.selectedIndexPaths == [[0, 0]])
    #expect(adapter.inner.mirrorSelectedIndexPaths == [[0, 0]])
  }

  @Test func singleSelectionInsideApplyAnnouncesBothAfterApply() {
    let s = ScriptedSection(["1", "2", "3"])
    let coordinator = Coordinator(sectionProvider: tree(s))
    let adapter = HookedAdapter()
    coordinator.adapter = adapter
    s.select(index: 2)
    adapter.log = []
    adapter.insideApply = { _ in s.select(index: 0) }
    s.insert("4", at: 0)
    #expect(
      adapter.log == [
        "apply begin", "apply end", "didDeselect [\"[0, 3]\"]", "didSelect [\"[0, 0]\"]",
      ])
    #expect(adapter.inner.mirrorSelectedIndexPaths == [[0, 0]])
  }

  @Test func selectionMadeInsideApplyBeforeUpdateDataFollowsTheChangeset() {
    // An adapter that selects before it calls updateData: old coordinates, announced afterwards
    // in new ones.
    final class EarlyAdapter: ViewAdapter {
      var log: [String] = []
      var early: ((Coordinator) -> Void)?
      func reloadData(from coordinator: Coordinator) {}
      func apply(
        _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
      ) {
        early?(coordinator)
        early = nil
        updateData()
        log.append("applied")
      }
      func coordinator(_ coordinator: Coordinator, didSelect indexPaths: [IndexPath]) {
        log.append("didSelect \(indexPaths.map(format))")
      }
    }
    let s = ScriptedSection(["1", "2", "3"])
    s.multiple = true
    let coordinator = Coordinator(sectionProvider: tree(s))
    let adapter = EarlyAdapter()
    coordinator.adapter = adapter
    adapter.early = { _ in s.select(index: 1) }  // "2", old index 1
    s.insert("0", at: 0)
    #expect(adapter.log == ["applied", "didSelect [\"[0, 2]\"]"])
    #expect(coordinator.selectedIndexPaths == [[0, 2]])
  }

  @Test func selectAllAndDeselectAllInsideApplyAreAnnouncedAfter() {
    let s = ScriptedSection(["1", "2"])
    s.multiple = true
    let coordinator = Coordinator(sectionProvider: tree(s))
    let adapter = HookedAdapter()
    coordinator.adapter = adapter
    adapter.insideApply = { _ in s.selectAll() }
    s.append("3")
    #expect(
      adapter.log.suffix(2) == ["apply end", "didSelect [\"[0, 0]\", \"[0, 1]\", \"[0, 2]\"]"])
    adapter.insideApply = { _ in s.deselectAll() }
    s.append("4")
    #expect(
      adapter.log.suffix(2) == ["apply end", "didDeselect [\"[0, 0]\", \"[0, 1]\", \"[0, 2]\"]"])
    #expect(adapter.inner.mirrorSelectedIndexPaths.isEmpty)
  }

  // MARK: 3. Indexes handed to handlers are current

  @Test func aDeselectHandlerThatRemovesAnElementDoesNotStaleTheNextSelect() {
    let s = ScriptedSection(["a", "b", "c"])
    s.onDeselect = { section, index in section.remove(at: index) }
    let coordinator = Coordinator(sectionProvider: tree(s))
    let adapter = TestAdapter(strict: true)
    coordinator.adapter = adapter
    #expect(coordinator.selectElement(at: [0, 0]))
    #expect(coordinator.selectElement(at: [0, 2]))
    #expect(s.log == ["select a", "deselect a", "select c"])
    #expect(coordinator.selectedIndexPaths == [[0, 1]])
    #expect(adapter.failures.isEmpty)
  }

  @Test func aSelectedElementDeletedByTheDeselectHandlerIsNotReportedSelected() {
    // The handler of the old element deletes the newly selected one.
    let s = ScriptedSection(["a", "b", "c"])
    s.onDeselect = { section, _ in
      section.onDeselect = nil
      section.remove(at: 2)
    }
    let coordinator = Coordinator(sectionProvider: tree(s))
    let adapter = TestAdapter(strict: true)
    coordinator.adapter = adapter
    #expect(coordinator.selectElement(at: [0, 0]))
    // Accepted; the element's deletion reached the adapter as a changeset.
    #expect(coordinator.selectElement(at: [0, 2]))
    #expect(s.log == ["select a", "deselect a", "deselect #2"])
    #expect(coordinator.selectedIndexPaths.isEmpty)
    #expect(adapter.failures.isEmpty)
  }

  @Test func deselectAllWithAHandlerThatRemovesKeepsLaterIndexesCurrent() {
    let s = ScriptedSection(["a", "b", "c", "d"])
    s.multiple = true
    let coordinator = Coordinator(sectionProvider: tree(s))
    coordinator.adapter = TestAdapter(strict: true)
    s.select(index: 1)
    s.select(index: 3)
    s.onDeselect = { section, index in section.remove(at: index) }
    s.log = []
    s.deselectAll()
    #expect(s.log == ["deselect b", "deselect d"])
    #expect(Array(s) == ["a", "c"])
  }

  @Test func selectAllWithAHandlerThatInsertsKeepsLaterIndexesCurrent() {
    let s = ScriptedSection(["a", "b"])
    s.multiple = true
    let coordinator = Coordinator(sectionProvider: tree(s))
    let adapter = TestAdapter(strict: true)
    coordinator.adapter = adapter
    s.onSelect = { section, index in
      if section[index] == "a" { section.insert("new", at: 0) }
    }
    s.selectAll()
    #expect(s.log == ["select a", "select b"])
    #expect(coordinator.selectedIndexPaths == [[0, 1], [0, 2]])
    #expect(adapter.failures.isEmpty)
  }

  // MARK: 11. Messages name the method called; out-of-range paths never succeed

  @Test func trapsNameTheMethodCalled() async {
    let select = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let coordinator = Coordinator(sectionProvider: ComposedSectionProvider())
      coordinator.selectElement(at: [0, 0])
    }
    #expect(text(select).contains("Coordinator.selectElement(at:)"))
    let deselect = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let coordinator = Coordinator(sectionProvider: ComposedSectionProvider())
      coordinator.deselectElement(at: [0, 0])
    }
    #expect(text(deselect).contains("Coordinator.deselectElement(at:)"))
    let actions = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let coordinator = Coordinator(sectionProvider: ComposedSectionProvider())
      _ = coordinator.actions(at: [0, 0])
    }
    #expect(text(actions).contains("Coordinator.actions(at:)"))
    let move = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let coordinator = Coordinator(sectionProvider: ComposedSectionProvider())
      coordinator.moveElement(from: [99, 99], to: [99, 99])
    }
    #expect(text(move).contains("Coordinator.moveElement(from:to:)"))
    let moveTo = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let coordinator = Coordinator(
        sectionProvider: tree(ArraySection(["a"])))
      coordinator.moveElement(from: [0, 0], to: [0, 5])
    }
    #expect(text(moveTo).contains("Coordinator.moveElement(from:to:)"))
  }

  @Test func selectingAnElementInsertedInTheOpenBatchSaysWhy() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let s = ScriptedSection(["a"])
      let coordinator = Coordinator(sectionProvider: tree(s))
      coordinator.adapter = TestAdapter()
      s.performBatchUpdates {
        s.append("b")
        s.select(index: 1)
      }
    }
    #expect(text(result).contains("the ones the adapter shows"))
  }

  // MARK: A removed section is released at once

  /// Adds a section to a coordinated tree with no adapter, lets the coordinator read it, removes
  /// it with `remove`, and returns whether the section is still alive afterwards.
  static func sectionSurvivesRemoval(
    _ remove: (ComposedSectionProvider, Coordinator, ArraySection<String>) -> Void
  ) -> Bool {
    let root = ComposedSectionProvider()
    let coordinator = Coordinator(sectionProvider: root)
    weak var weakSection: ArraySection<String>?
    do {
      let section: ArraySection<String> = ["x"]
      weakSection = section
      root.append(section)
      _ = coordinator.numberOfSections  // the coordinator reads the model
      remove(root, coordinator, section)
    }
    // Checked before the coordinator is read again (a read would refresh it).
    let survives = weakSection != nil
    #expect(coordinator.numberOfSections == 0)
    return survives
  }

  @Test func aSectionRemovedWithNoAdapterIsReleasedWhenRemoved() {
    #expect(!Self.sectionSurvivesRemoval { root, _, section in root.remove(section) })
  }

  @Test func aSectionRemovedInsideABatchWithNoAdapterIsReleasedWhenTheBatchEnds() {
    var countInsideTheBatch: Int?
    let survives = Self.sectionSurvivesRemoval { root, coordinator, section in
      root.performBatchUpdates {
        root.remove(section)
        countInsideTheBatch = coordinator.numberOfSections
      }
    }
    #expect(!survives)
    #expect(countInsideTheBatch == 0)
  }
}

private func text(_ result: ExitTest.Result?) -> String {
  String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
}

/// A composed provider holding `sections`.
private func tree(_ sections: any Section...) -> ComposedSectionProvider {
  let provider = ComposedSectionProvider()
  for section in sections { provider.append(section) }
  return provider
}
