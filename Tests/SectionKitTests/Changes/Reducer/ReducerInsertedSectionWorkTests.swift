import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// Filling sections inserted in the same batch costs the reducer nothing per element event: an
/// inserted section's elements are covered by its insertion, and the section of the previous
/// event is not located again. Counted in run-tree node visits, never timed.
@Suite("Reducer work for events into sections inserted in the batch")
struct ReducerInsertedSectionWorkTests {
  final class SilentAdapter: ViewAdapter {
    var changesets: [Changeset] = []
    func reloadData(from coordinator: Coordinator) {}
    func apply(
      _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
    ) {
      changesets.append(changeset)
      updateData()
    }
  }

  /// The reducer's node visits for a batch that appends `sections` sections to a tree of 10 and
  /// fills each with `elements` appends, plus the changeset.
  static func build(sections: Int, elements: Int) -> (work: Int, changeset: Changeset?) {
    let root = ComposedSectionProvider()
    for _ in 0..<10 { root.append(ArraySection<Int>([0])) }
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = SilentAdapter()
    coordinator.adapter = adapter
    // A delegate of the user's between the root and the mapping: the element events reach the
    // reducer instead of stopping at their sections (CoordinatorInsertedSectionsTests).
    let forwarder = CoordinatorInsertedSectionsListenerTests.Forwarder(replacingDelegateOf: root)
    root.updateDelegate = forwarder
    var work = 0
    coordinator.performBatchUpdates {
      for _ in 0..<sections {
        let section = ArraySection<Int>()
        root.append(section)
        for element in 0..<elements { section.append(element) }
      }
      work = coordinator.reducer?.work ?? 0
    }
    #expect(forwarder.elementEvents.count == sections * elements)
    #expect(coordinator.numberOfSections == 10 + sections)
    return (work, adapter.changesets.last)
  }

  @Test(arguments: [1, 10, 100])
  func elementEventsIntoInsertedSectionsVisitNoNode(sections: Int) {
    let few = Self.build(sections: sections, elements: 1)
    let many = Self.build(sections: sections, elements: 1_000)
    // The same section events; a thousand times more element events visit no more nodes.
    #expect(few.work == many.work, "1 element: \(few.work) visits, 1,000: \(many.work)")
    #expect(few.work > 0)
    #expect(many.changeset?.insertedSectionRanges == [10..<10 + sections])
    #expect(many.changeset?.insertedElements.isEmpty == true)
  }

  @Test
  func aBatchOfElementEventsAloneVisitsNoSectionListNode() {
    // Two element changes in one section, one in another, no section event: only the first
    // section's element tree is visited.
    let root = ComposedSectionProvider()
    let sections = (0..<1_000).map { _ in ArraySection<Int>(Array(0..<10)) }
    for section in sections { root.append(section) }
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = SilentAdapter()
    coordinator.adapter = adapter
    var withOneTree = 0
    var withTwo = 0
    coordinator.performBatchUpdates {
      sections[500].append(1)
      sections[500].remove(at: 0)
      withOneTree = coordinator.reducer?.work ?? 0
      sections[900].append(1)
      withTwo = coordinator.reducer?.work ?? 0
    }
    // The third event, into a section touched once, builds no tree and locates nothing.
    #expect(withOneTree > 0 && withTwo == withOneTree, "\(withOneTree), then \(withTwo)")
    let changeset = adapter.changesets.last
    #expect(changeset?.deletedElements == [IndexPath(item: 0, section: 500)])
    #expect(
      changeset?.insertedElements == [
        IndexPath(item: 9, section: 500), IndexPath(item: 10, section: 900),
      ])
  }
}
