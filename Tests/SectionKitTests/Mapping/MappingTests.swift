import Foundation
import Testing

@testable import SectionKit

@Suite("SectionProviderMapping")
struct MappingTests {
  /// Composed's README example: provider → section 1, provider[section 2, section 3], section 4.
  @Test func composedReadmeExample() {
    let section1: ArraySection<String> = ["a", "b"]
    let section2: ArraySection<String> = ["c"]
    let section3: ArraySection<String> = ["d", "e", "f"]
    let section4: ArraySection<String> = []
    let nested = ComposedSectionProvider()
    nested.append(section2)
    nested.append(section3)
    let root = ComposedSectionProvider()
    root.append(section1)
    root.append(nested)
    root.append(section4)

    let mapping = SectionProviderMapping(sectionProvider: root)
    let recorder = MappingRecorder(mapping)
    #expect(mapping.numberOfSections == 4)
    #expect(mapping.sectionOffset(for: section1) == 0)
    #expect(mapping.sectionOffset(for: nested) == 1)
    #expect(mapping.sectionOffset(for: section3) == 2)
    #expect(mapping.sectionOffset(for: section4) == 3)
    #expect(root.sectionOffset(for: section3) == 2)
    #expect(nested.sectionOffset(for: section3) == 1)
    #expect(root.numberOfElements(inSection: 2) == 3)
    #expect(mapping.numberOfElements(inSection: 2) == 3)
    #expect(mapping.indexPath(for: 2, in: section3) == IndexPath(item: 2, section: 2))
    let located = mapping.sectionAndIndex(for: IndexPath(item: 1, section: 2))
    #expect(located.section === section3 && located.index == 1)
    #expect(mapping.section(at: 1) === section2)

    section3.append("g")
    #expect(
      recorder.take() == [.willBeginUpdating, .element(.insert(3), inSection: 2), .didEndUpdating])

    let section5: ArraySection<String> = ["x"]
    nested.insert(section5, at: 0)
    #expect(recorder.take() == [.willBeginUpdating, .insertSections([1]), .didEndUpdating])
    #expect(mapping.sectionOffset(for: section2) == 2)
    #expect(mapping.sectionOffset(for: section4) == 4)

    section4.append("y")
    #expect(
      recorder.take() == [.willBeginUpdating, .element(.insert(0), inSection: 4), .didEndUpdating])

    root.remove(nested)
    #expect(recorder.take() == [.willBeginUpdating, .removeSections([1, 2, 3]), .didEndUpdating])
    #expect(mapping.sectionOffset(for: section4) == 1)
    #expect(mapping.sectionOffset(for: section2) == nil)
    #expect(nested.updateDelegate == nil)

    section2.append("z")
    #expect(recorder.take().isEmpty, "a removed subtree's changes reach no one")
    #expect(mapping.numberOfSections == 2)
  }

  /// Three levels, with sections added, removed and switched at every level.
  @Test func threeLevelTreeWithSegments() {
    let header = SingleElementSection(element: "Inbox")
    let pinned: ArraySection<String> = ["p1"]
    let unreadA: ArraySection<String> = ["u1", "u2"]
    let unreadB: ArraySection<String> = ["u3"]
    let unread = ComposedSectionProvider()
    unread.append(unreadA)
    unread.append(unreadB)
    let archive: ArraySection<String> = ["a1", "a2", "a3"]
    let tabs = SegmentedSectionProvider()
    tabs.append(unread)
    tabs.append(archive)
    let body = ComposedSectionProvider()
    body.append(pinned)
    body.append(tabs)
    let footer: ArraySection<String> = ["end"]
    let root = ComposedSectionProvider()
    root.append(header)
    root.append(body)
    root.append(footer)

    let mapping = SectionProviderMapping(sectionProvider: root)
    let recorder = MappingRecorder(mapping)
    // header 0, pinned 1, unreadA 2, unreadB 3, footer 4
    #expect(mapping.numberOfSections == 5)
    #expect(tabs.currentIndex == 0)
    #expect(mapping.sectionOffset(for: unreadB) == 3)
    #expect(mapping.sectionOffset(for: archive) == nil, "inactive segments are not presented")
    #expect(mapping.sectionOffset(for: footer) == 4)

    // Events from the inactive segment are not passed up.
    archive.append("a4")
    #expect(recorder.take().isEmpty)

    // Switch at level 2.
    tabs.currentIndex = 1
    #expect(
      recorder.take() == [
        .willBeginUpdating, .removeSections([2, 3]), .insertSections([2]), .didEndUpdating,
      ])
    #expect(mapping.sectionOffset(for: archive) == 2)
    #expect(mapping.sectionOffset(for: footer) == 3)
    #expect(mapping.numberOfElements(inSection: 2) == 4)

    // Clamped.
    tabs.currentIndex = 7
    #expect(tabs.currentIndex == 1)
    #expect(recorder.take().isEmpty)

    // Add and remove at level 3, inside the inactive segment: nothing is presented.
    let unreadC: ArraySection<String> = ["u4"]
    unread.insert(unreadC, after: unreadA)
    unread.remove(unreadB)
    #expect(recorder.take().isEmpty)

    // Switch back: the new state of the segment is presented.
    tabs.currentIndex = 0
    #expect(
      recorder.take() == [
        .willBeginUpdating, .removeSections([2]), .insertSections([2, 3]), .didEndUpdating,
      ])
    #expect(mapping.sectionOffset(for: unreadC) == 3)

    // Level 1: insert before the body, then remove it.
    let banner: ArraySection<String> = ["!"]
    root.insert(banner, before: body)
    #expect(recorder.take() == [.willBeginUpdating, .insertSections([1]), .didEndUpdating])
    #expect(mapping.sectionOffset(for: unreadA) == 3)
    root.remove(at: 0)
    #expect(recorder.take() == [.willBeginUpdating, .removeSections([0]), .didEndUpdating])

    // Level 3: an element change is re-indexed through every level.
    unreadC.move(from: 0, to: 0)
    unreadC.insert("u5", at: 0)
    #expect(
      recorder.take() == [.willBeginUpdating, .element(.insert(0), inSection: 3), .didEndUpdating])

    // One batch across levels: one bracket.
    root.performBatchUpdates {
      footer.remove(at: 0)
      body.remove(pinned)
      tabs.currentIndex = 1
    }
    #expect(
      recorder.take() == [
        .willBeginUpdating, .element(.remove(0), inSection: 4), .removeSections([1]),
        .removeSections([1, 2]), .insertSections([1]), .didEndUpdating,
      ])
    #expect(mapping.numberOfSections == 3)
    #expect(recorder.counts == [1, 4, 0])

    // Removing the current segment presents the next one (here: the new last).
    tabs.remove(at: 1)
    #expect(tabs.currentIndex == 0)
    #expect(
      recorder.take() == [
        .willBeginUpdating, .removeSections([1]), .insertSections([1, 2]), .didEndUpdating,
      ])
    #expect(archive.updateDelegate == nil)
  }

  @Test func customSectionEventsOutsideABracketBecomeABatchOfOne() {
    final class Ticker: Section {
      weak var updateDelegate: (any SectionUpdateDelegate)?
      var numberOfElements = 0
      func tick() {
        numberOfElements += 1
        updateDelegate?.section(self, didInsertElementAt: numberOfElements - 1)
      }
    }
    let ticker = Ticker()
    let root = ComposedSectionProvider()
    root.append(ticker)
    let mapping = SectionProviderMapping(sectionProvider: root)
    let recorder = MappingRecorder(mapping)
    ticker.tick()
    ticker.tick()
    #expect(
      recorder.take() == [
        .willBeginUpdating, .element(.insert(0), inSection: 0), .didEndUpdating,
        .willBeginUpdating, .element(.insert(1), inSection: 0), .didEndUpdating,
      ])
  }

  @Test func providerPerformBatchUpdatesGroupsNestedCalls() {
    let a: ArraySection<Int> = [1]
    let b: ArraySection<Int> = [2]
    let inner = ComposedSectionProvider()
    inner.append(b)
    let root = ComposedSectionProvider()
    root.append(a)
    root.append(inner)
    let mapping = SectionProviderMapping(sectionProvider: root)
    let recorder = MappingRecorder(mapping)
    root.performBatchUpdates {
      a.append(3)
      inner.performBatchUpdates {
        b.performBatchUpdates { b.append(4) }
        inner.append(ArraySection<Int>())
      }
    }
    #expect(
      recorder.take() == [
        .willBeginUpdating, .element(.insert(1), inSection: 0), .element(.insert(1), inSection: 1),
        .insertSections([2]), .didEndUpdating,
      ])
  }

  @Test func eventDescriptions() {
    #expect(
      SectionProviderMapping.Event.insertSections([1, 2, 3, 7]).description
        == "insertSections(1-3, 7)")
    #expect(
      SectionProviderMapping.Event.element(.move(from: 1, to: 2), inSection: 3).description
        == "move([3, 1] → [3, 2])")
  }

  @Test func badInputTraps() async {
    await #expect(processExitsWith: .failure) {
      let section = ArraySection<Int>()
      let first = ComposedSectionProvider()
      let second = ComposedSectionProvider()
      first.append(section)
      second.append(section)  // already has a parent
    }
    await #expect(processExitsWith: .failure) {
      let outer = ComposedSectionProvider()
      let inner = ComposedSectionProvider()
      outer.append(inner)
      inner.append(outer)  // cycle
    }
    await #expect(processExitsWith: .failure) {
      let provider = ComposedSectionProvider()
      provider.append(provider)
    }
    await #expect(processExitsWith: .failure) {
      let mapping = SectionProviderMapping(sectionProvider: ComposedSectionProvider())
      _ = mapping.section(at: 0)
    }
    await #expect(processExitsWith: .failure) {
      let root = ComposedSectionProvider()
      root.append(ArraySection<Int>([1]))
      let mapping = SectionProviderMapping(sectionProvider: root)
      _ = mapping.sectionAndIndex(for: IndexPath(item: 1, section: 0))
    }
    await #expect(processExitsWith: .failure) {
      let root = ComposedSectionProvider()
      let first = SectionProviderMapping(sectionProvider: root)
      _ = SectionProviderMapping(sectionProvider: root)  // a second mapping
      withExtendedLifetime(first) {}
    }
    await #expect(processExitsWith: .failure) {
      let root = ComposedSectionProvider()
      root.insert(ArraySection<Int>(), after: ArraySection<Int>())  // anchor is not a child
    }
  }

  @Test func childrenAPI() {
    let a = ArraySection<Int>()
    let b = ArraySection<Int>()
    let p = SegmentedSectionProvider()
    let root = ComposedSectionProvider()
    root.append(a)
    root.insert(p, after: a)
    root.insert(b, before: p)
    #expect(root.children.count == 3)
    #expect(root.firstIndex(of: b) == 1 && root.firstIndex(of: p) == 2)
    #expect(root.contains(a) && root.contains(p) && !root.contains(ArraySection<Int>()))
    #expect(root.providers.count == 1 && root.sections.count == 2)
    #expect(root.remove(ArraySection<Int>()) == false)
    #expect(root.remove(p))
    #expect(p.updateDelegate == nil)
    root.removeAll()
    #expect(root.numberOfSections == 0 && a.updateDelegate == nil)
    // A detached child can join another parent.
    let other = ComposedSectionProvider()
    other.append(a)
    #expect(other.sectionOffset(for: a) == 0)
  }
}
