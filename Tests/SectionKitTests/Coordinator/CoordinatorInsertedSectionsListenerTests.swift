import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// Sections inserted in the open batch drop their element events only while every listener
/// above them is built in: any listener of the user's (a custom provider, a provider's, section's
/// or mapping's delegate set by hand, before the batch or in the middle of it) still hears every
/// event.
@Suite("Listeners of the user's hear every event of sections inserted in the open batch")
struct CoordinatorInsertedSectionsListenerTests {
  // MARK: Fixtures

  /// A delegate of the user's set in place of a section's or provider's delegate: it logs each
  /// element event and passes every event on to the delegate it replaced.
  final class Forwarder: SectionUpdateDelegate, SectionProviderUpdateDelegate {
    /// The element events heard (of the section, or of the provider's sections), in order.
    var elementEvents: [String] = []
    let sectionTarget: (any SectionUpdateDelegate)?
    let providerTarget: (any SectionProviderUpdateDelegate)?

    init(replacingDelegateOf section: any Section) {
      sectionTarget = section.updateDelegate
      providerTarget = nil
    }

    init(replacingDelegateOf provider: any SectionProvider) {
      sectionTarget = nil
      providerTarget = provider.updateDelegate
    }

    func willBeginUpdating(_ section: any Section) {
      sectionTarget?.willBeginUpdating(section)
    }
    func didEndUpdating(_ section: any Section) {
      sectionTarget?.didEndUpdating(section)
    }
    func invalidateAll(_ section: any Section) {
      sectionTarget?.invalidateAll(section)
    }
    func section(_ section: any Section, didInsertElementAt index: Int) {
      elementEvents.append("insert \(index)")
      sectionTarget?.section(section, didInsertElementAt: index)
    }
    func section(_ section: any Section, didRemoveElementAt index: Int) {
      elementEvents.append("remove \(index)")
      sectionTarget?.section(section, didRemoveElementAt: index)
    }
    func section(_ section: any Section, didUpdateElementAt index: Int) {
      elementEvents.append("update \(index)")
      sectionTarget?.section(section, didUpdateElementAt: index)
    }
    func section(_ section: any Section, didMoveElementAt index: Int, to newIndex: Int) {
      elementEvents.append("move \(index)->\(newIndex)")
      sectionTarget?.section(section, didMoveElementAt: index, to: newIndex)
    }

    func willBeginUpdating(_ provider: any SectionProvider) {
      providerTarget?.willBeginUpdating(provider)
    }
    func didEndUpdating(_ provider: any SectionProvider) {
      providerTarget?.didEndUpdating(provider)
    }
    func invalidateAll(_ provider: any SectionProvider) {
      providerTarget?.invalidateAll(provider)
    }
    func provider(
      _ provider: any SectionProvider, didInsertSections sections: [any Section],
      at indexes: IndexSet
    ) {
      providerTarget?.provider(provider, didInsertSections: sections, at: indexes)
    }
    func provider(
      _ provider: any SectionProvider, didRemoveSections sections: [any Section],
      at indexes: IndexSet
    ) {
      providerTarget?.provider(provider, didRemoveSections: sections, at: indexes)
    }
    func provider(
      _ provider: any SectionProvider, section: any Section, at sectionIndex: Int,
      didChange change: ElementChange
    ) {
      elementEvents.append("section \(sectionIndex): \(change)")
      providerTarget?.provider(provider, section: section, at: sectionIndex, didChange: change)
    }

  }

  /// A provider of the user's: it presents sections it owns, is their delegate, and reports
  /// their element events in its own coordinates.
  final class CustomProvider: SectionProvider, SectionUpdateDelegate {
    weak var updateDelegate: (any SectionProviderUpdateDelegate)?
    private(set) var owned: [ArraySection<Int>] = []
    var heard: [String] = []

    var sections: [any Section] { owned }
    var numberOfSections: Int { owned.count }

    func append(_ section: ArraySection<Int>) {
      owned.append(section)
      section.updateDelegate = self
      updateDelegate?.willBeginUpdating(self)
      updateDelegate?.provider(self, didInsertSections: [section], at: [owned.count - 1])
      updateDelegate?.didEndUpdating(self)
    }

    func willBeginUpdating(_ section: any Section) { updateDelegate?.willBeginUpdating(self) }
    func didEndUpdating(_ section: any Section) { updateDelegate?.didEndUpdating(self) }
    func invalidateAll(_ section: any Section) { updateDelegate?.invalidateAll(self) }
    func section(_ section: any Section, didInsertElementAt index: Int) {
      report(section, .insert(index))
    }
    func section(_ section: any Section, didRemoveElementAt index: Int) {
      report(section, .remove(index))
    }
    func section(_ section: any Section, didUpdateElementAt index: Int) {
      report(section, .update(index))
    }
    func section(_ section: any Section, didMoveElementAt index: Int, to newIndex: Int) {
      report(section, .move(from: index, to: newIndex))
    }

    private func report(_ section: any Section, _ change: ElementChange) {
      let index = owned.firstIndex { $0 === section }!
      heard.append("\(index): \(change)")
      updateDelegate?.provider(self, section: section, at: index, didChange: change)
    }
  }

  // MARK: Listeners of the user's

  @Test
  func aProviderDelegateSetInTheMiddleOfTheBatch_hearsEveryLaterEvent() {
    let root = ComposedSectionProvider()
    let provider = ComposedSectionProvider()
    root.append(ArraySection<Int>([0]))
    root.append(provider)
    let (coordinator, adapter) = CoordinatorInsertedSectionsTests.present(root)
    let section = ArraySection<Int>()
    var forwarder: Forwarder?
    root.performBatchUpdates {
      provider.append(section)
      section.append(0)
      forwarder = Forwarder(replacingDelegateOf: provider)
      provider.updateDelegate = forwarder
      section.append(1)
      section[0] = 5
    }
    #expect(forwarder?.elementEvents == ["section 0: insert(1)", "section 0: update(0)"])
    #expect(adapter.failures.isEmpty)
    #expect(adapter.lastChangeset?.insertedSectionRanges == [1..<2])
    #expect(coordinator.numberOfElements(inSection: 1) == 2)
  }

  @Test
  func theRootsDelegateSetInTheMiddleOfTheBatch_hearsEveryLaterEvent() {
    let root = ComposedSectionProvider()
    let (coordinator, adapter) = CoordinatorInsertedSectionsTests.present(root)
    let section = ArraySection<Int>()
    var forwarder: Forwarder?
    coordinator.performBatchUpdates {
      root.append(section)
      section.append(0)
      forwarder = Forwarder(replacingDelegateOf: root)
      root.updateDelegate = forwarder
      section.append(1)
    }
    #expect(forwarder?.elementEvents == ["section 0: insert(1)"])
    #expect(adapter.failures.isEmpty)
    #expect(coordinator.numberOfElements(inSection: 0) == 2)
  }

  @Test
  func aSegmentedProvidersDelegateSetInTheMiddleOfTheBatch_hearsEveryLaterEvent() {
    let root = ComposedSectionProvider()
    let segmented = SegmentedSectionProvider()
    let section = ArraySection<Int>()
    segmented.append(ArraySection<Int>([0]))
    segmented.append(section)
    root.append(segmented)
    let (coordinator, adapter) = CoordinatorInsertedSectionsTests.present(root)
    var forwarder: Forwarder?
    root.performBatchUpdates {
      segmented.currentIndex = 1
      section.append(0)
      forwarder = Forwarder(replacingDelegateOf: segmented)
      segmented.updateDelegate = forwarder
      section.append(1)
    }
    #expect(forwarder?.elementEvents == ["section 0: insert(1)"])
    #expect(adapter.failures.isEmpty)
    #expect(coordinator.numberOfElements(inSection: 0) == 2)
  }

  @Test
  func aProviderWithADelegateOfTheUsersBeforeTheBatch_hearsEveryEvent() {
    let root = ComposedSectionProvider()
    let provider = ComposedSectionProvider()
    root.append(provider)
    let (coordinator, adapter) = CoordinatorInsertedSectionsTests.present(root)
    let forwarder = Forwarder(replacingDelegateOf: provider)
    provider.updateDelegate = forwarder
    root.performBatchUpdates {
      let section = ArraySection<Int>()
      provider.append(section)
      section.append(0)
      section.append(1)
    }
    #expect(forwarder.elementEvents == ["section 0: insert(0)", "section 0: insert(1)"])
    #expect(adapter.failures.isEmpty)
    #expect(coordinator.numberOfElements(inSection: 0) == 2)
  }

  @Test
  func aSectionDelegateSetInTheMiddleOfTheBatch_hearsEveryLaterEvent() {
    let root = ComposedSectionProvider()
    let (coordinator, adapter) = CoordinatorInsertedSectionsTests.present(root)
    let section = ArraySection<Int>()
    var forwarder: Forwarder?
    root.performBatchUpdates {
      root.append(section)
      section.append(0)
      forwarder = Forwarder(replacingDelegateOf: section)
      section.updateDelegate = forwarder
      section.append(1)
      section.remove(at: 0)
    }
    #expect(forwarder?.elementEvents == ["insert 1", "remove 0"])
    #expect(adapter.failures.isEmpty)
    #expect(coordinator.numberOfElements(inSection: 0) == 1)
  }

  @Test
  func aCustomProvider_hearsEveryEventOfTheSectionsItInsertedInTheBatch() {
    let root = ComposedSectionProvider()
    let custom = CustomProvider()
    root.append(custom)
    let (coordinator, adapter) = CoordinatorInsertedSectionsTests.present(root)
    root.performBatchUpdates {
      let section = ArraySection<Int>()
      custom.append(section)
      section.append(0)
      section.append(1)
    }
    #expect(custom.heard == ["0: insert(0)", "0: insert(1)"])
    #expect(adapter.failures.isEmpty)
    #expect(coordinator.numberOfElements(inSection: 0) == 2)
  }

  @Test
  func aMappingWithADelegateOfTheUsers_hearsEveryEvent() {
    let root = ComposedSectionProvider()
    let mapping = SectionProviderMapping(sectionProvider: root)
    let recorder = MappingRecorder(mapping)
    root.performBatchUpdates {
      let section = ArraySection<Int>()
      root.append(section)
      section.append(0)
      section.append(1)
    }
    #expect(
      recorder.take() == [
        .willBeginUpdating, .insertSections([0]), .element(.insert(0), inSection: 0),
        .element(.insert(1), inSection: 0), .didEndUpdating,
      ])
  }

  @Test
  func aMappingDelegateSetInTheMiddleOfTheBatch_hearsEveryLaterEvent() {
    let root = ComposedSectionProvider()
    let coordinator = Coordinator(sectionProvider: root)
    coordinator.adapter = TestAdapter(strict: true)
    var recorder: MappingRecorder?
    root.performBatchUpdates {
      let section = ArraySection<Int>()
      root.append(section)
      section.append(0)
      recorder = MappingRecorder(coordinator.mapping)
      section.append(1)
    }
    #expect(recorder?.take() == [.element(.insert(1), inSection: 0), .didEndUpdating])
  }
}
