import Foundation
import Testing

@testable import SectionKit

/// The child list keeps a child's position in its link (no table by identity) and stores no
/// offsets while no child is a provider: the lookups that replaced those tables.
@Suite("Child positions in the links, offsets only beside provider children")
struct ChildListMemoryTests {
  @Test func positionsFollowInsertionsRemovalsAndMovesAtTheFront() {
    let provider = ComposedSectionProvider()
    var sections = (0..<6).map { ArraySection<Int>([$0]) }
    for section in sections { provider.append(section) }
    let first = ArraySection<Int>([-1])
    provider.insert(first, at: 0)
    sections.insert(first, at: 0)
    #expect(
      sections.indices.map { provider.index(ofChild: sections[$0]) } == sections.indices.map { $0 })
    provider.moveChild(at: 6, to: 1)
    sections.insert(sections.remove(at: 6), at: 1)
    provider.remove(at: 0)
    sections.remove(at: 0)
    #expect(
      sections.indices.map { provider.index(ofChild: sections[$0]) } == sections.indices.map { $0 })
    #expect(provider.index(ofChild: first) == nil)
  }

  @Test func aProviderBuiltByAppendingGrowsItsLinksByHalf() {
    // Doubled, as `Array` grows, 1,100 links would take 2,048 slots.
    let provider = ComposedSectionProvider()
    let sections = (0..<1_100).map { ArraySection<Int>([$0]) }
    for section in sections { provider.append(section) }
    #expect(provider.childList.links.capacity <= 1_100 * 3 / 2 + 1)
    #expect(provider.index(ofChild: sections[1_099]) == 1_099)
    #expect(provider.index(ofChild: sections[0]) == 0)
  }

  @Test func aChildOfAnotherParentOrOfNoneIsNotFound() {
    let provider = ComposedSectionProvider()
    let other = ComposedSectionProvider()
    let mine = ArraySection<Int>([1])
    let theirs = ArraySection<Int>([2])
    provider.append(mine)
    other.append(theirs)
    #expect(provider.index(ofChild: theirs) == nil)
    #expect(provider.index(ofChild: ArraySection<Int>()) == nil)
    #expect(provider.index(ofChild: mine) == 0)
  }

  @Test func aChildWhoseDelegateWasReplacedIsStillFound() {
    let provider = ComposedSectionProvider()
    let sections = (0..<3).map { ArraySection<Int>([$0]) }
    for section in sections { provider.append(section) }
    sections[1].updateDelegate = nil
    #expect(provider.index(ofChild: sections[1]) == 1)
    #expect(provider.contains(sections[1]))
  }

  @Test func offsetsAppearWithTheFirstProviderChildAndGoWithTheLast() {
    let provider = ComposedSectionProvider()
    for value in 0..<3 { provider.append(ArraySection<Int>([value])) }
    let nested = ComposedSectionProvider()
    let inner = (0..<2).map { ArraySection<Int>([10 + $0]) }
    for section in inner { nested.append(section) }
    provider.insert(nested, at: 1)
    let last = ArraySection<Int>([9])
    provider.append(last)
    #expect(provider.numberOfSections == 6)
    #expect(provider.sectionOffset(for: inner[1]) == 2)
    #expect(provider.sectionOffset(for: last) == 5)
    #expect((provider.section(at: 2) as? ArraySection<Int>) === inner[1])
    #expect((provider.section(at: 3) as? ArraySection<Int>)?.elements == [1])
    provider.remove(nested)
    #expect(provider.numberOfSections == 4)
    #expect(provider.sectionOffset(for: last) == 3)
    #expect((provider.section(at: 3) as? ArraySection<Int>) === last)
    #expect(provider.index(ofChild: last) == 3)
  }
}
