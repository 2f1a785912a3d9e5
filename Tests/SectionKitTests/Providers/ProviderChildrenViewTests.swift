import Foundation
import Testing

@testable import SectionKit

/// `children` of the built-in providers is a view of their links: it reads as the array it
/// replaced did (a snapshot, in order, O(1) count and subscript).
@Suite("A provider's children as a view of its links")
struct ProviderChildrenViewTests {
  @Test func theViewListsTheChildrenInOrderAsAnArrayWould() {
    let provider = ComposedSectionProvider()
    let sections = (0..<4).map { ArraySection<Int>([$0]) }
    let nested = ComposedSectionProvider()
    provider.append(sections[0])
    provider.append(nested)
    for section in sections[1...] { provider.append(section) }
    let children = provider.children
    let expected: [AnyObject] = [sections[0], nested, sections[1], sections[2], sections[3]]
    #expect(children.count == 5)
    #expect(!children.isEmpty)
    #expect(children.indices == 0..<5)
    #expect(children.map(\.object).elementsEqual(expected, by: ===))
    var iterated: [AnyObject] = []
    for child in children { iterated.append(child.object) }
    #expect(iterated.elementsEqual(expected, by: ===))
    #expect(children.first?.object === sections[0])
    #expect(children.last?.object === sections[3])
    #expect(children[1].object === nested)
    if case .provider = children[1] {} else { Issue.record("child 1 is not a provider") }
    #expect(children.reversed().map(\.object).elementsEqual(expected.reversed(), by: ===))
    #expect(Array(children[1..<3]).map(\.object).elementsEqual(expected[1..<3], by: ===))
    #expect(children.firstIndex { $0.object === sections[2] } == 3)
    #expect(ComposedSectionProvider().children.isEmpty)
  }

  @Test func theViewIsASnapshotOfTheChildren() {
    let provider = SegmentedSectionProvider()
    let first = ArraySection<Int>([1])
    let second = ArraySection<Int>([2])
    provider.append(first)
    provider.append(second)
    let before = provider.children
    provider.remove(at: 0)
    provider.append(ArraySection<Int>([3]))
    #expect(before.count == 2)
    #expect(before[0].object === first)
    #expect(before[1].object === second)
    #expect(provider.children.count == 2)
    #expect(provider.children[0].object === second)
    // The removed child is detached although the snapshot still holds it.
    #expect(first.updateDelegate == nil)
  }

  @Test func aProviderHeldOnlyByASnapshotIsReleasedWithIt() {
    weak var released: ComposedSectionProvider?
    var snapshot: SectionProviderChildren?
    do {
      let root = ComposedSectionProvider()
      let nested = ComposedSectionProvider()
      nested.append(ArraySection<Int>([1]))
      root.append(nested)
      released = nested
      snapshot = root.children
    }
    #expect(released != nil)
    #expect(released?.updateDelegate == nil)
    snapshot = nil
    #expect(released == nil)
    _ = snapshot
  }

  @Test func readingOutOfRangeTraps() async {
    await #expect(processExitsWith: .failure) {
      let provider = ComposedSectionProvider()
      provider.append(ArraySection<Int>())
      _ = provider.children[1]
    }
  }
}
