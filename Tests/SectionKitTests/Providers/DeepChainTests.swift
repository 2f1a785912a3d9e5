import Testing

@testable import SectionKit

/// Chains of providers thousands of levels deep: reading, building and releasing them walks the
/// chain with loops, never with one stack frame per level.
@Suite("Deep provider chains")
struct DeepChainTests {
  /// A chain `depth` providers deep built bottom-up (each new provider becomes the parent of the
  /// chain so far), alternating composed and segmented providers, with `bottom` at the bottom.
  static func chainBuiltBottomUp(
    depth: Int, bottom: SectionProviderChild
  ) -> any SectionProvider {
    var top: any SectionProvider = {
      let provider = ComposedSectionProvider()
      provider.insert(bottom, at: 0)
      return provider
    }()
    for level in 1..<depth {
      if level % 2 == 0 {
        let parent = ComposedSectionProvider()
        parent.append(ArraySection<Int>([level]))
        parent.append(top)
        top = parent
      } else {
        let parent = SegmentedSectionProvider()
        parent.append(top)
        top = parent
      }
    }
    return top
  }

  @Test func aChainOneHundredThousandDeep_isBuiltReadAndReleasedWithoutRecursion() {
    let depth = 100_000
    let bottom = ArraySection<Int>([1, 2, 3])
    do {
      let root = ComposedSectionProvider()
      root.append(Self.chainBuiltBottomUp(depth: depth, bottom: .section(bottom)))
      let sections = root.sections
      #expect(sections.count == depth / 2)
      #expect(sections.last === bottom)
      #expect(root.numberOfSections == depth / 2)
      #expect(root.sectionOffset(for: bottom) == depth / 2 - 1)
      #expect(root.section(at: depth / 2 - 1) === bottom)
    }
    // Released with the scope above: the bottom section is detached, not leaked.
    #expect(bottom.updateDelegate == nil)
  }

  @Test func buildingAChainBottomUp_doesNotGatherTheSectionsBelowAtEachLevel() {
    // Counted: attaching a subtree to a provider nobody listens to reads none of its sections, so
    // building a chain of depth n bottom-up is O(n), not O(n²).
    let counter = CountingProvider()
    let chain = Self.chainBuiltBottomUp(depth: 1_000, bottom: .provider(counter))
    #expect(counter.timesRead == 0, "building read the bottom provider \(counter.timesRead) times")
    #expect(chain.numberOfSections == 1_000 / 2)
  }
}

/// A provider of one section that counts how often its sections are gathered.
private final class CountingProvider: SectionProvider {
  weak var updateDelegate: (any SectionProviderUpdateDelegate)?
  let section = ArraySection<Int>()
  var numberOfSections: Int { 1 }
  private(set) var timesRead = 0
  var sections: [any Section] {
    timesRead += 1
    return [section]
  }
}
