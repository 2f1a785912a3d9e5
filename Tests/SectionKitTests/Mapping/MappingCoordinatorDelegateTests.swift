import Foundation
import SectionKit
import SectionKitTesting
import Testing

/// The mapping holds the coordinator presenting it without a weak reference (so that the
/// coordinator's reference counting stays on the runtime's fast path); these tests pin that it
/// still behaves as the documented weak `delegate`.
@Suite struct MappingCoordinatorDelegateTests {
  @Test func mappingThatOutlivesItsCoordinator_hasNoDelegateAndKeepsWorking() {
    let section: ArraySection<Int> = [1]
    let root = ComposedSectionProvider()
    root.append(section)
    var coordinator: Coordinator? = Coordinator(sectionProvider: root)
    let mapping = coordinator!.mapping
    #expect(mapping.delegate === coordinator)

    coordinator = nil

    #expect(mapping.delegate == nil)
    section.append(2)
    #expect(mapping.indexPath(for: 1, in: section) == IndexPath(item: 1, section: 0))
  }

  @Test func replacedMapping_hasNoDelegate() {
    let coordinator = Coordinator(sectionProvider: ComposedSectionProvider())
    let old = coordinator.mapping
    coordinator.replace(sectionProvider: ComposedSectionProvider())
    #expect(old.delegate == nil)
    #expect(coordinator.mapping.delegate === coordinator)
  }

  /// A coordinator made the delegate of a mapping it does not present is held weakly, and
  /// hears nothing from it.
  @Test func coordinatorAsTheDelegateOfAnotherMapping_isHeldWeakly() {
    let section: ArraySection<Int> = [1]
    let root = ComposedSectionProvider()
    root.append(section)
    let other = SectionProviderMapping(sectionProvider: root)
    var coordinator: Coordinator? = Coordinator(sectionProvider: ComposedSectionProvider())
    let adapter = TestAdapter(strict: true, elementReader: nil)
    coordinator!.adapter = adapter
    adapter.removeAllHistory()
    other.delegate = coordinator
    #expect(other.delegate === coordinator)

    section.append(2)
    #expect(adapter.changesets.isEmpty)

    coordinator = nil
    #expect(other.delegate == nil)
  }
}
