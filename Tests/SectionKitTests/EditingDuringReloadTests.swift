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

/// Editing mode entered while a reload is owed (the tree was replaced in an open batch): the
/// sections the adapter still shows are told, but an index a handler's own change made stale is
/// never handed out, although the change reaches no coordinator (the section left the tree).
@Suite struct EditingDuringReloadTests {
  @Test func aDetachedSectionIsNeverHandedAnIndexItNoLongerHolds() {
    let old = ShrinkingEditor([0, 1, 2, 3])
    let oldRoot = ComposedSectionProvider()
    oldRoot.append(old)
    let coordinator = Coordinator(sectionProvider: oldRoot)
    let adapter = RecordingAdapter()
    coordinator.adapter = adapter
    let fresh = ShrinkingEditor([10, 11])
    let newRoot = ComposedSectionProvider()
    newRoot.append(fresh)
    coordinator.performBatchUpdates {
      coordinator.replace(sectionProvider: newRoot)
      coordinator.setEditing(true)
    }
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
}
