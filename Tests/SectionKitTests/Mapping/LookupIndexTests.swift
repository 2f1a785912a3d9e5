import Foundation
import Testing

@testable import SectionKit

/// The mapping's lookup index: a section of a built-in provider keeps its global index in its own
/// link (nothing hashed), a section of a custom provider by identity; both stay right through
/// section insertions, removals and moves, and after the coordinator replaces its mapping.
@Suite("The lookup index kept in the sections' links")
struct LookupIndexTests {
  /// A custom provider presenting its sections itself (no links).
  final class PlainProvider: SectionProvider {
    weak var updateDelegate: (any SectionProviderUpdateDelegate)?
    let owned: [ArraySection<Int>]
    init(_ count: Int) { owned = (0..<count).map { ArraySection<Int>([$0]) } }
    var numberOfSections: Int { owned.count }
    var sections: [any Section] { owned }
  }

  @Test
  func sectionsOfBuiltInProvidersAreFoundThroughTheirLinksWithoutHashing() {
    let root = ComposedSectionProvider()
    let sections = (0..<50).map { ArraySection<Int>([$0]) }
    for section in sections { root.append(section) }
    let mapping = SectionProviderMapping(sectionProvider: root)
    for (index, section) in sections.enumerated() {
      #expect(mapping.indexPath(for: 0, in: section) == [index, 0])
    }
    #expect(mapping.hashedPositions == 0)
    #expect(mapping.refreshedPositions == 50)
  }

  @Test
  func aBuiltInSectionAnswersItsLinkWithItselfAndASectionOfTheUsersWithNone() {
    final class Plain: Section {
      weak var updateDelegate: (any SectionUpdateDelegate)?
      var numberOfElements: Int { 1 }
    }
    let array = ArraySection<Int>([1])
    let single = SingleElementSection(element: 1)
    #expect(array._sectionKitLink?.takeUnretainedValue() === array)
    #expect(single._sectionKitLink?.takeUnretainedValue() === single)
    #expect(Plain()._sectionKitLink == nil)
    // Both found through it, in a built-in provider, after the first lookup refreshed the index:
    // a second round refreshes and hashes nothing.
    let root = ComposedSectionProvider()
    root.append(array)
    root.append(single)
    let mapping = SectionProviderMapping(sectionProvider: root)
    for _ in 0..<2 {
      #expect(mapping.indexPath(for: 0, in: array) == [0, 0])
      #expect(mapping.indexPath(for: 0, in: single) == [1, 0])
      #expect(mapping.sectionAndIndex(for: [1, 0]).section === single)
    }
    #expect(mapping.refreshedPositions == 2)
    #expect(mapping.hashedPositions == 0)
  }

  @Test
  func sectionsOfACustomProviderAreFoundByIdentity() {
    let root = ComposedSectionProvider()
    let before = ArraySection<Int>([1])
    let custom = PlainProvider(3)
    root.append(before)
    root.append(custom)
    let mapping = SectionProviderMapping(sectionProvider: root)
    #expect(mapping.sectionOffset(for: custom.owned[2]) == 3)
    #expect(mapping.sectionOffset(for: before) == 0)
    #expect(mapping.hashedPositions == 3)
    root.remove(at: 0)
    #expect(mapping.sectionOffset(for: custom.owned[2]) == 2)
    #expect(mapping.sectionOffset(for: before) == nil)
  }

  @Test
  func insertionsRemovalsAndMovesKeepEveryLookupRight() {
    let root = ComposedSectionProvider()
    let providers = (0..<4).map { _ in ComposedSectionProvider() }
    for provider in providers { root.append(provider) }
    var all: [ArraySection<Int>] = []
    for step in 0..<40 {
      let section = ArraySection<Int>([step])
      all.append(section)
      providers[step % 4].append(section)
    }
    let coordinator = Coordinator(sectionProvider: root)
    let mapping = coordinator.mapping
    func expectAllFound() {
      for (index, section) in mapping.sections.enumerated() {
        #expect(mapping.sectionOffset(for: section) == index)
        #expect(coordinator.indexPath(for: 0, in: section) == [index, 0])
      }
    }
    expectAllFound()
    providers[1].insert(ArraySection<Int>([-1]), at: 0)
    expectAllFound()
    providers[2].remove(at: 3)
    expectAllFound()
    root.moveChild(at: 3, to: 0)
    expectAllFound()
    let removed = all[0]
    providers[0].remove(at: 0)
    #expect(mapping.sectionOffset(for: removed) == nil)
    #expect(coordinator.indexPath(for: 0, in: removed) == nil)
    // The removed section joins the tree elsewhere, with a new link.
    providers[3].append(removed)
    expectAllFound()
    #expect(mapping.hashedPositions == 0)
  }

  @Test
  func aReplacedMappingNeitherAnswersForNorDisturbsTheNewOne() {
    let root = ComposedSectionProvider()
    let sections = (0..<10).map { ArraySection<Int>([$0]) }
    for section in sections { root.append(section) }
    let coordinator = Coordinator(sectionProvider: root)
    let old = coordinator.mapping
    coordinator.replace(sectionProvider: root)
    let new = coordinator.mapping
    // Only the new mapping hears of this insertion.
    root.insert(ArraySection<Int>([0]), at: 0)
    #expect(new.sectionOffset(for: sections[9]) == 10)
    // The old mapping answers from the sections it had; its lookups leave the links alone.
    #expect(old.sectionOffset(for: sections[8]) == 8)
    #expect(new.sectionOffset(for: sections[8]) == 9)
    #expect(new.sectionOffset(for: sections[9]) == 10)
  }

  @Test
  func theCoordinatorAnswersNilForAnIndexItDoesNotShow() {
    let root = ComposedSectionProvider()
    let section = ArraySection<Int>([1, 2])
    root.append(section)
    let coordinator = Coordinator(sectionProvider: root)
    #expect(coordinator.indexPath(for: 1, in: section) == [0, 1])
    #expect(coordinator.indexPath(for: 2, in: section) == nil)
    #expect(coordinator.indexPath(for: -1, in: section) == nil)
    #expect(coordinator.indexPath(for: 0, in: ArraySection<Int>([1])) == nil)
  }
}
