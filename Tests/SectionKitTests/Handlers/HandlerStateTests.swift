import Foundation
import Testing

@testable import SectionKit

final class Single: ArraySection<Int>, SelectionHandler, EditingHandler {}
final class Multiple: ArraySection<Int>, SelectionHandler, EditingHandler {
  var allowsMultipleSelection: Bool { true }
}

@Suite("SelectionState and EditingState: the coordinator's handler state as values")
struct HandlerStateTests {
  @Test func singleSelectionReplacesAndReturnsThePrevious() {
    var state = SelectionState()
    let single = Single([0, 1, 2])
    #expect(state.insert(1, of: single) == [])
    #expect(state.insert(2, of: single) == [1])
    #expect(state.indexes(of: single) == [2])
    #expect(state.contains(single, 2) && !state.contains(single, 1))
  }

  @Test func multipleSelectionStaysAscendingAndUnique() {
    var state = SelectionState()
    let multiple = Multiple([0, 1, 2, 3])
    for index in [3, 0, 2, 0] { #expect(state.insert(index, of: multiple) == []) }
    #expect(state.indexes(of: multiple) == [0, 2, 3])
    #expect(state.remove([2, 1], of: multiple) == [2])
    #expect(state.selectAll(of: multiple, count: 4) == [1, 2])
    #expect(state.remove([0, 1, 2, 3], of: multiple) == [0, 1, 2, 3])
    #expect(state.isEmpty)
  }

  @Test func remapFollowsAChangesetAsACollectionViewDoes() {
    var state = SelectionState()
    let a = Multiple([0, 1, 2, 3, 4])
    let b = Multiple([0, 1])
    let gone = Multiple([0])
    for index in [0, 1, 3, 4] { _ = state.insert(index, of: a) }
    _ = state.insert(1, of: b)
    _ = state.insert(0, of: gone)
    let tracked = state.track(a, [4, 2, 1])
    // Old sections [gone, a, b]: delete section 0; in a delete 1, move 3 → 0, insert at 2.
    let changeset = Changeset(
      deletedSections: [0], deletedElements: [[1, 1]], insertedElements: [[0, 2]],
      movedElements: [.init(from: [1, 3], to: [0, 0])])
    let sections: [any Section] = [gone, a, b]
    let deselected = state.remap(through: changeset) { sections[$0] }
    #expect(
      Set(deselected.map { "\(ObjectIdentifier($0.section) == ObjectIdentifier(a)) \($0.index)" })
        == ["false 0", "true 1"])
    // a: [0, 1, 2, 3, 4] → [3, 0, new, 2, 4]: 0 → 1, 3 → 0, 4 → 4.
    #expect(state.indexes(of: a) == [0, 1, 4])
    #expect(state.indexes(of: b) == [1])
    #expect(state.indexes(of: gone) == [])
    #expect(tracked.indexes == [4, 3, nil])
  }

  @Test func anAdapterMoveAndAReloadMoveTheTrackedIndexesToo() {
    var state = SelectionState()
    let a = Multiple([0, 1, 2, 3])
    _ = state.insert(0, of: a)
    let tracked = state.track(a, [0, 3])
    state.remapMove(in: a, from: 0, to: 3)
    #expect(state.indexes(of: a) == [3])
    #expect(tracked.indexes == [3, 2])
    let removed = state.removeAll()
    #expect(removed.map(\.index) == [3])
    #expect(tracked.indexes == [nil, nil])
    state.untrack(tracked)
    #expect(state.tracked.isEmpty)
  }

  @Test func editingStateTellsWhoJoinsAndWhoLeaves() {
    var state = EditingState()
    let a = Single([0])
    let b = Multiple([0])
    let plain = ArraySection<Int>([0])
    #expect(state.set(true, shown: [a, plain]).count == 1)
    #expect(state.set(true, shown: [a, plain]).isEmpty)
    #expect(state.join(b) === b)
    #expect(state.join(plain) == nil)
    #expect(state.contains(a) && state.contains(b))
    #expect(state.leave(a) === a)
    #expect(state.leave(a) == nil)
    let (left, joined) = state.reset(shown: [a])
    #expect(left.map { ObjectIdentifier($0) } == [ObjectIdentifier(b)])
    #expect(joined.map { ObjectIdentifier($0) } == [ObjectIdentifier(a)])
    #expect(state.set(false, shown: []).map { ObjectIdentifier($0) } == [ObjectIdentifier(a)])
    #expect(!state.isEditing && !state.contains(a))
  }
}
