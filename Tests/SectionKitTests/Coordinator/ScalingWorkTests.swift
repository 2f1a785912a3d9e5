import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// Counts the work behind each complexity claim of the hot paths on trees of 10², 10³ and 10⁴
/// sections of the same shape (a root, 10 providers, the sections split evenly under them):
/// a local → global lookup and a single element change touch O(1) nodes, whatever the size of the
/// tree; a batch of k changes costs O(k log k) in the reducer and nothing more in the pipe.
/// (`BatchWorkTests` counts the reducer alone on trees of 10³ and 10⁶ elements.)
@Suite("Work counted per lookup and per change, at 10², 10³ and 10⁴ sections")
struct ScalingWorkTests {
  final class SilentAdapter: ViewAdapter {
    var changesets = 0
    func reloadData(from coordinator: Coordinator) {}
    func apply(
      _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
    ) {
      updateData()
      changesets += 1
    }
  }

  /// A tree of `size` sections of 20 elements under 10 providers, with a coordinator.
  struct Tree {
    let root = ComposedSectionProvider()
    let providers = (0..<10).map { _ in ComposedSectionProvider() }
    var sections: [ArraySection<Int>] = []
    let coordinator: Coordinator
    let adapter = SilentAdapter()

    init(size: Int) {
      for provider in providers { root.append(provider) }
      for index in 0..<size {
        let section = ArraySection<Int>(0..<20)
        sections.append(section)
        providers[index * 10 / size].append(section)
      }
      coordinator = Coordinator(sectionProvider: root)
      coordinator.adapter = adapter
    }

    /// Times a provider looked up a child by identity because its link's position was stale.
    var identityLookups: Int {
      providers.reduce(root.childList.identityLookups) { $0 + $1.childList.identityLookups }
    }

    /// One random element change (insert, remove, update or move) in a random section.
    func change(using rng: inout SeededGenerator) {
      let section = sections[Int.random(in: 0..<sections.count, using: &rng)]
      let count = section.count
      switch Int.random(in: 0..<4, using: &rng) {
      case 1 where count > 1: section.remove(at: Int.random(in: 0..<count, using: &rng))
      case 2 where count > 0:
        // A different value: an equal write is no change at all.
        let index = Int.random(in: 0..<count, using: &rng)
        section[index] = section[index] &+ 1
      case 3 where count > 1:
        let from = Int.random(in: 0..<count, using: &rng)
        section.move(from: from, to: (from + 1) % count)
      default: section.insert(-1, at: Int.random(in: 0...count, using: &rng))
      }
    }
  }

  static let sizes = [100, 1_000, 10_000]

  @Test(arguments: sizes)
  func aLookupAndItsInverseRefreshNothingOnceTheIndexIsBuilt(size: Int) {
    let tree = Tree(size: size)
    let mapping = tree.coordinator.mapping
    // The first lookup builds the index: one entry per section, once.
    #expect(mapping.indexPath(for: 0, in: tree.sections[0]) == [0, 0])
    #expect(mapping.refreshedPositions == size)
    var rng = SeededGenerator(seed: 1)
    for _ in 0..<1_000 {
      let global = Int.random(in: 0..<size, using: &rng)
      let path = mapping.indexPath(for: 3, in: tree.sections[global])
      #expect(path == [global, 3])
      let (section, index) = mapping.sectionAndIndex(for: [global, 3])
      #expect(section === tree.sections[global] && index == 3)
    }
    #expect(mapping.refreshedPositions == size, "lookups after the first refreshed entries")
    // Element changes do not move sections: the index stays valid.
    for _ in 0..<1_000 { tree.change(using: &rng) }
    #expect(mapping.indexPath(for: 0, in: tree.sections[size - 1]) == [size - 1, 0])
    #expect(mapping.refreshedPositions == size)
  }

  @Test
  func appendingSectionsBetweenLookupsRefreshesEachEntryOnce() {
    let tree = Tree(size: 100)
    let mapping = tree.coordinator.mapping
    _ = mapping.sectionOffset(for: tree.sections[0])
    let last = tree.providers[9]
    for step in 0..<1_000 {
      let section = ArraySection<Int>([1])
      last.append(section)
      #expect(mapping.sectionOffset(for: section) == 100 + step)
    }
    // 100 entries built first, then one per appended section: linear, not quadratic.
    #expect(mapping.refreshedPositions == 1_100)
    // A section inserted at the front makes the next lookup refresh every entry after it.
    tree.providers[0].insert(ArraySection<Int>([1]), at: 0)
    #expect(mapping.sectionOffset(for: tree.sections[0]) == 1)
    #expect(mapping.refreshedPositions == 1_100 + 1_101)
  }

  @Test(arguments: sizes)
  func aSingleChangeLooksUpNoChildByIdentityAndCostsTheReducerNothing(size: Int) {
    let tree = Tree(size: size)
    var rng = SeededGenerator(seed: 2)
    // Warm-up: each link learns its child's position.
    for section in tree.sections { section.append(0) }
    let lookups = tree.identityLookups
    let changesets = tree.adapter.changesets
    for _ in 0..<1_000 {
      var work = -1
      tree.coordinator.performBatchUpdates {
        tree.change(using: &rng)
        // A batch of one element change is read off without a reducer (the one-event path).
        work = tree.coordinator.singleChange != nil ? tree.coordinator.reducer?.work ?? 0 : -1
      }
      #expect(work == 0, "a batch of one change visited \(work) run-tree nodes, or had a reducer")
    }
    #expect(tree.identityLookups == lookups, "\(tree.identityLookups - lookups) identity lookups")
    #expect(tree.adapter.changesets == changesets + 1_000)
  }

  @Test(arguments: [10, 100])
  func aBatchOfKChangesCostsTheSameAtEverySize(k: Int) {
    var visits: [Int] = []
    for size in Self.sizes {
      let tree = Tree(size: size)
      for section in tree.sections { section.append(0) }
      let lookups = tree.identityLookups
      var rng = SeededGenerator(seed: 3)
      // The changes land in ten sections at every size, so that the draws are comparable.
      let targets = (0..<10).map { tree.sections[$0 * size / 10] }
      var work = 0
      tree.coordinator.performBatchUpdates {
        for _ in 0..<k {
          let section = targets[Int.random(in: 0..<10, using: &rng)]
          let count = section.count
          if Bool.random(using: &rng), count > 1 {
            section.move(from: Int.random(in: 0..<count, using: &rng), to: 0)
          } else {
            section.insert(-1, at: Int.random(in: 0...count, using: &rng))
          }
        }
        work = tree.coordinator.reducer?.work ?? 0
      }
      #expect(tree.identityLookups == lookups)
      visits.append(work)
    }
    let bound = Int(12 * Double(k) * log2(Double(k) + 1))
    #expect(visits.allSatisfy { $0 > 0 && $0 <= bound }, "visits \(visits), bound \(bound)")
    // Independent of the size: the same draws visit the same number of nodes.
    #expect(Set(visits).count == 1, "visits at 10², 10³, 10⁴ sections: \(visits)")
  }
}
