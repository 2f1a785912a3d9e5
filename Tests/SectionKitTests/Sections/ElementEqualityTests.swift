import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// Issue 16: writing an equal value reloads; an element changed in place needs an explicit
/// reload.
@Suite("Writing equal values, reloading in place")
struct ElementEqualityTests {
  final class Box {
    var name: String
    init(_ name: String) { self.name = name }
  }

  static func attach<E>(_ section: ArraySection<E>) -> (Coordinator, RecordingAdapter) {
    let adapter = RecordingAdapter()
    let coordinator = coordinate([section], adapter: adapter)
    _ = adapter.take()
    return (coordinator, adapter)
  }

  @Test func assigningAnEqualValueReloadsNothing() {
    let list: ArraySection<String> = ["a", "b", "c"]
    let (coordinator, adapter) = Self.attach(list)
    list[1] = list[1]
    #expect(adapter.changesets.isEmpty)
    list[1] = "B"
    #expect(adapter.changesets == [Changeset(reloadedElements: [[0, 1]])])
    _ = coordinator
  }

  @Test func replacingWithIdenticalContentsReloadsNothing() {
    let list: ArraySection<String> = ["a", "b", "c"]
    let (coordinator, adapter) = Self.attach(list)
    list.replaceSubrange(0..<3, with: ["a", "b", "c"])
    #expect(adapter.changesets.isEmpty)
    list[0..<2] = ["a", "X"]
    #expect(adapter.changesets == [Changeset(reloadedElements: [[0, 1]])])
    list.replaceSubrange(1..<3, with: ["X", "c", "d"])
    #expect(adapter.changesets.last == Changeset(insertedElements: [[0, 3]]))
    #expect(list.elements == ["a", "X", "c", "d"])
    _ = coordinator
  }

  /// Elements that are not `Equatable` reload on every write, as before.
  @Test func elementsThatAreNotEquatableStillReload() {
    let box = Box("a")
    let list = ArraySection([box])
    let (coordinator, adapter) = Self.attach(list)
    list[0] = box
    #expect(adapter.changesets == [Changeset(reloadedElements: [[0, 0]])])
    _ = coordinator
  }

  /// A reference element changed in place is reloaded explicitly, without a self-assignment.
  @Test func anElementChangedInPlaceIsReloadedExplicitly() {
    let list = ArraySection([Box("a"), Box("b")])
    let (coordinator, adapter) = Self.attach(list)
    list[1].name = "B"
    #expect(adapter.changesets.isEmpty)
    list.reload(at: 1)
    #expect(adapter.changesets == [Changeset(reloadedElements: [[0, 1]])])
    list.reload(at: 0..<2)
    #expect(adapter.changesets.last == Changeset(reloadedElements: [[0, 0], [0, 1]]))
    _ = coordinator
  }

  @Test func reloadTrapsOutOfRange() async {
    await #expect(processExitsWith: .failure) {
      let list: ArraySection<String> = ["a"]
      list.reload(at: 1)
    }
  }
}
