import Foundation
import Testing

@testable import SectionKit

/// A built-in section in a built-in parent is its own link: the parent's list of children holds
/// the section itself, no link object, and what a link did (carry the section's changes up, keep
/// its position and global index) the section does. Its `updateDelegate` is a view of that link:
/// reading it and setting it back, or calling it, works as with a link object.
@Suite("A built-in section is its own link")
struct SectionOwnLinkTests {
  @Test func theParentsListHoldsTheSectionsThemselvesAndLinksForProviders() {
    let root = ComposedSectionProvider()
    let section = ArraySection<Int>([1])
    let single = SingleElementSection(element: "header")
    let nested = ComposedSectionProvider()
    root.append(section)
    root.append(single)
    root.append(nested)
    #expect(root.childList.links[0] === section)
    #expect(root.childList.links[1] === single)
    #expect(root.childList.links[2] is ChildLink)
    #expect(section.ownerObject === root && section.reportsToOwner)
    #expect(root.children[0].parent === root && root.children[2].parent === root)
    root.remove(section)
    #expect(section.ownerObject == nil && !section.reportsToOwner)
    #expect(section.updateDelegate == nil)
  }

  @Test func aDelegateReadAndSetBackReportsToTheParentAgain() {
    let root = ComposedSectionProvider()
    let section = ArraySection<Int>([1, 2])
    root.append(section)
    let mapping = SectionProviderMapping(sectionProvider: root)
    let recorder = MappingRecorder(mapping)
    let view = section.updateDelegate
    #expect(view != nil)
    section.updateDelegate = nil
    section.append(3)
    #expect(recorder.events.isEmpty, "a section with no delegate reports to no one")
    section.updateDelegate = view
    section.append(4)
    #expect(
      recorder.events == [.willBeginUpdating, .element(.insert(3), inSection: 0), .didEndUpdating])
    // Calling the view carries the call up from the section, as a link object would.
    view?.invalidateAll(section)
    #expect(recorder.events.suffix(3) == [.willBeginUpdating, .invalidateAll, .didEndUpdating])
    #expect(mapping.sectionOffset(for: section) == 0)
  }

  @Test func theViewOfAnotherSectionsLinkIsADelegateOfTheUsers() {
    let root = ComposedSectionProvider()
    let first = ArraySection<Int>([1])
    let second = ArraySection<Int>([2])
    root.append(first)
    root.append(second)
    let mapping = SectionProviderMapping(sectionProvider: root)
    let recorder = MappingRecorder(mapping)
    let view = second.updateDelegate
    first.updateDelegate = view
    #expect(!first.reportsToOwner)
    first.append(5)
    // The view carries the change up from the section it stands for.
    #expect(
      recorder.events == [.willBeginUpdating, .element(.insert(1), inSection: 1), .didEndUpdating])
    withExtendedLifetime(view) {}
  }

  @Test func aSectionMovedBetweenParentsKeepsOnePlace() {
    let left = ComposedSectionProvider()
    let right = ComposedSectionProvider()
    let root = ComposedSectionProvider()
    root.append(left)
    root.append(right)
    let sections = (0..<5).map { ArraySection<Int>([$0]) }
    for section in sections { left.append(section) }
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = RecordingAdapter()
    coordinator.adapter = adapter
    left.remove(at: 1)
    right.append(sections[1])
    sections[1].append(9)
    #expect(left.index(ofChild: sections[1]) == nil)
    #expect(right.index(ofChild: sections[1]) == 0)
    #expect(left.index(ofChild: sections[2]) == 1)
    #expect(coordinator.mapping.sectionOffset(for: sections[1]) == 4)
    #expect(RecordingAdapter.counts(coordinator) == [1, 1, 1, 1, 2])
  }
}
