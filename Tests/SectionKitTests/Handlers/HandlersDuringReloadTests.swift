import Foundation
import Testing

@testable import SectionKit

/// An editing handler that removes its own last element when it is told its first element
/// entered editing mode, and records every per-element call with its count at that moment.
private final class ShrinkingEditor: ArraySection<Int>, EditingHandler {
  var calls: [(index: Int, count: Int)] = []
  func didSetEditing(_ editing: Bool, at index: Int) {
    calls.append((index, numberOfElements))
    if editing && index == 0 && !isEmpty { removeLast() }
  }
}

/// A multiple-selection handler that removes its last two elements the first time it is told an
/// element was deselected, and records every call with its count at that moment.
private final class ShrinkingSelector: ArraySection<Int>, SelectionHandler {
  var allowsMultipleSelection: Bool { true }
  var calls: [(index: Int, count: Int)] = []
  func didDeselect(at index: Int) {
    calls.append((index, numberOfElements))
    if calls.count == 1 { removeLast(2) }
  }
}

/// Handler calls told one element at a time while a reload is owed (the tree was replaced in an
/// open batch): a section the adapter still shows but that left the tree is never handed an index
/// its own handler call made stale, although that change reaches no coordinator.
@Suite struct HandlersDuringReloadTests {
  /// A coordinator showing `old`, its root replaced by one holding `fresh` inside a batch, in
  /// which `then` runs.
  func replaceInABatch(
    _ old: any Section, with fresh: any Section, then: (Coordinator) -> Void
  ) -> (Coordinator, RecordingAdapter) {
    let oldRoot = ComposedSectionProvider()
    oldRoot.append(old)
    let coordinator = Coordinator(sectionProvider: oldRoot)
    let adapter = RecordingAdapter()
    coordinator.adapter = adapter
    let newRoot = ComposedSectionProvider()
    newRoot.append(fresh)
    coordinator.performBatchUpdates {
      coordinator.replace(sectionProvider: newRoot)
      then(coordinator)
    }
    return (coordinator, adapter)
  }

  @Test func anEditingSectionThatLeftIsNeverHandedAnIndexItNoLongerHolds() {
    let old = ShrinkingEditor([0, 1, 2, 3])
    let fresh = ShrinkingEditor([10, 11])
    let (coordinator, _) = replaceInABatch(old, with: fresh) { $0.setEditing(true) }
    for call in old.calls {
      #expect(call.index < call.count, "handed index \(call.index) of \(call.count)")
    }
    #expect(old.calls.first?.index == 0)
    // The new tree's section joins editing once the reload is applied, and is told about each
    // element it holds then.
    #expect(coordinator.isEditing)
    #expect(fresh.calls.first?.index == 0)
    for call in fresh.calls {
      #expect(call.index < call.count, "handed index \(call.index) of \(call.count)")
    }
  }

  @Test func aSelectingSectionThatLeftIsNeverHandedAnIndexItNoLongerHolds() {
    let old = ShrinkingSelector([0, 1, 2, 3])
    let (coordinator, adapter) = replaceInABatch(old, with: ArraySection([10, 11])) {
      coordinator in
      coordinator.userDidSelect(IndexPath(item: 2, section: 0))
      coordinator.userDidSelect(IndexPath(item: 3, section: 0))
      coordinator.userDidSelect(IndexPath(item: 0, section: 0))
      // Only the last selection stays: 2 and 3 leave the selection, in that order.
      coordinator.allowsMultipleSelection = false
    }
    for call in old.calls {
      #expect(call.index < call.count, "handed index \(call.index) of \(call.count)")
    }
    // As in editing mode, it is told no more; the reload drops what it had selected, and shows
    // the new tree.
    #expect(old.calls.isEmpty)
    #expect(coordinator.selectedIndexPaths.isEmpty)
    // Nor does the coordinator keep what was selected in it while the reload was owed.
    #expect(coordinator.selectedIndexes(of: old).isEmpty)
    #expect(adapter.entries.last == .reload(counts: [2]))
  }
}
