import Foundation
import Testing

@testable import SectionKit

/// An element whose `==` empties the section it is in: user code called by a setter that
/// compares the new element with the old one.
struct Reentrant: Equatable {
  var value: Int
  nonisolated(unsafe) static var array: ArraySection<Reentrant>?
  nonisolated(unsafe) static var single: SingleElementSection<Reentrant?>?

  static func == (lhs: Reentrant, rhs: Reentrant) -> Bool {
    if let array, !array.isEmpty { array.removeAll() }
    if let single, single.numberOfElements == 1 { single.replace(element: nil) }
    return lhs.value == rhs.value
  }
}

/// A section mutated from inside the `==` its own setter calls traps with SectionKit's message
/// naming the method, not with the standard library's bounds check or a reducer trap blaming the
/// section for a change it did not make.
@Suite struct ReentrantEqualityTests {
  @Test func anArraySectionMutatedFromItsElementsEquality_trapsNamingTheSetter() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let section = ArraySection([Reentrant(value: 1), Reentrant(value: 2)])
      Reentrant.array = section
      section[1] = Reentrant(value: 3)
    }
    let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      text.contains("subscript(_:): the section was mutated from inside its elements' =="),
      "\(text)")
  }

  @Test func aSingleElementSectionMutatedFromItsElementsEquality_trapsNamingReplace() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let section = SingleElementSection<Reentrant?>(element: Reentrant(value: 1))
      Reentrant.single = section
      section.replace(element: Reentrant(value: 2))
    }
    let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(text.contains("replace(element:): the section was mutated while"), "\(text)")
  }

  /// An `==` that only reads is fine.
  @Test func equalityThatOnlyReads_isFine() {
    let section = ArraySection([Reentrant(value: 1)])
    section[0] = Reentrant(value: 1)
    section[0] = Reentrant(value: 2)
    #expect(section.elements == [Reentrant(value: 2)])
  }

  /// A section of a `SectionTree` mutated from the tree's identity closure during a render traps
  /// at once, naming the closure (it trapped later, in the reducer, blaming the section for a
  /// change it did not make).
  @Test func aTreesSectionMutatedFromItsIdentityClosure_trapsNamingTheClosure() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      nonisolated(unsafe) var victim: ArraySection<String>?
      let tree = SectionTree<String>(
        identifiedBy: { element in
          if let section = victim, section.count == 1 { section.append("sneaky") }
          return element
        },
        isUpdated: { _, _ in false })
      try? tree.render(nodes: [
        SectionNode(id: "a", elements: ["x", "y"]), SectionNode(id: "b", elements: ["z"]),
      ])
      let coordinator = Coordinator(sectionProvider: tree.provider)
      coordinator.adapter = RecordingOnlyAdapter()
      // Another section than the one being matched when the closure runs.
      victim = tree.provider.children.last?.object as? ArraySection<String>
      try? tree.render(nodes: [
        SectionNode(id: "a", elements: ["y", "x"]), SectionNode(id: "b", elements: ["z", "w"]),
      ])
    }
    let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      text.contains(
        "render(_:) of its SectionTree: the section was mutated from inside the "
          + "tree's identity or comparison closure"), "\(text)")
  }
}

/// An adapter that follows nothing (the coordinator needs one to reduce batches).
final class RecordingOnlyAdapter: ViewAdapter {
  func reloadData(from coordinator: Coordinator) {}
  func apply(
    _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
  ) { updateData() }
}
