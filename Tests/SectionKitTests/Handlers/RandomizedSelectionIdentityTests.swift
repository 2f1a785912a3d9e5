import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

// Snapshot sections take selection here, so that diffs between sections carry selected elements.
extension IdentifiedSection: SelectionHandler {
  public var allowsMultipleSelection: Bool { true }
}

/// Random batches of reloads, moves, swaps, section moves, moves between sections and diffs
/// (`replaceElements`, `SnapshotSectionProvider`), with selections in between, judged against the
/// elements' identities: after each batch the selected identities are those selected before that
/// are still in their section, reloaded or not, plus those a changeset moved to another section;
/// the coordinator, its sections, the adapter's view (a strict `TestAdapter` that follows every
/// changeset as UIKit does) and `lastSelectedIndexPath` all agree with it.
@Suite("Randomized: selection follows identity through reloads, moves and diffs")
struct RandomizedSelectionIdentityTests {
  final class Run {
    let root = ComposedSectionProvider()
    let lists = (0..<3).map { _ in HeardItems([]) }
    let snapshot = SnapshotSectionProvider<Int, Item>(identifiedBy: \.id, isUpdated: !=)
    var failures: [TestAdapterFailure] = []
    lazy var adapter = TestAdapter.toleratingReloadsWithMoves { [unowned self] in
      self.failures.append($0)
    }
    let coordinator: Coordinator
    var nextID = 0
    /// The most recently selected identity.
    var last: (section: ObjectIdentifier, id: Int)?
    var log: [String] = []

    init<R: RandomNumberGenerator>(using rng: inout R) {
      for list in lists {
        for _ in 0..<Int.random(in: 0...5, using: &rng) { list.append(Item(id: 0)) }
      }
      root.append(lists[0])
      root.append(snapshot.provider)
      root.append(lists[1])
      root.append(lists[2])
      coordinator = Coordinator(sectionProvider: root)
      for list in lists {
        for index in list.indices { list[index] = Item(id: fresh()) }
      }
      try! snapshot.apply(
        (0..<2).map { id in
          SectionContents(
            id: id,
            elements: (0..<Int.random(in: 1...4, using: &rng)).map { _ in Item(id: fresh()) })
        })
      coordinator.adapter = adapter
    }

    func fresh() -> Int {
      nextID += 1
      return nextID
    }

    /// The sections in the order the coordinator shows them.
    var sections: [any SelectionHandler] {
      (0..<coordinator.numberOfSections).map {
        coordinator.section(at: $0) as! any SelectionHandler
      }
    }

    func items(_ section: any Section) -> [Item] {
      if let list = section as? HeardItems { return list.elements }
      return (section as! IdentifiedSection<Int, Item>).elements
    }

    /// The selected elements by section identity and element id, as the coordinator says.
    func selectedIdentities() -> Set<Pair> {
      Set(
        coordinator.selectedIndexPaths.map { path in
          let section = coordinator.section(at: path[0])
          return Pair(section: ObjectIdentifier(section), id: items(section)[path[1]].id)
        })
    }

    struct Pair: Hashable, Comparable {
      var section: ObjectIdentifier
      var id: Int
      static func < (a: Pair, b: Pair) -> Bool { a.id < b.id }
    }

    /// Where each element is, by id: its section and global path.
    func positions() -> [Int: (section: ObjectIdentifier, path: IndexPath)] {
      var result: [Int: (section: ObjectIdentifier, path: IndexPath)] = [:]
      for (offset, section) in sections.enumerated() {
        for (index, item) in items(section).enumerated() {
          result[item.id] = (ObjectIdentifier(section), IndexPath(item: index, section: offset))
        }
      }
      return result
    }

    // MARK: Steps

    func selectSome<R: RandomNumberGenerator>(using rng: inout R) {
      for _ in 0..<Int.random(in: 0...3, using: &rng) {
        let sections = self.sections
        let offset = Int.random(in: 0..<sections.count, using: &rng)
        let count = coordinator.numberOfElements(inSection: offset)
        guard count > 0 else { continue }
        let path = IndexPath(item: Int.random(in: 0..<count, using: &rng), section: offset)
        let id = items(sections[offset])[path[1]].id
        if adapter.mirrorSelection[path[0]][path[1]] {
          if Bool.random(using: &rng) {
            log.append("deselect \(id)")
            adapter.userDeselect(path, in: coordinator)
          }
        } else {
          log.append("select \(id)")
          if Bool.random(using: &rng) {
            adapter.userSelect(path, in: coordinator)
          } else {
            sections[offset].select(index: path[1])
          }
          last = (ObjectIdentifier(sections[offset]), id)
        }
      }
    }

    /// One element operation on the plain lists, inside the open batch.
    func mutateList<R: RandomNumberGenerator>(using rng: inout R, crossed: inout Set<Int>) {
      let list = lists.randomElement(using: &rng)!
      let roll = Int.random(in: 0..<9, using: &rng)
      if list.isEmpty || roll == 0 {
        let id = fresh()
        log.append("insert \(id)")
        list.insert(Item(id: id), at: Int.random(in: 0...list.count, using: &rng))
        return
      }
      let index = Int.random(in: 0..<list.count, using: &rng)
      switch roll {
      case 1, 2:
        log.append("update \(list[index].id)")
        list[index].version += 1
      case 3, 4:
        let to = Int.random(in: 0..<list.count, using: &rng)
        log.append("move \(list[index].id) to \(to)")
        list.move(from: index, to: to)
      case 5:
        let other = Int.random(in: 0..<list.count, using: &rng)
        log.append("swap \(list[index].id), \(list[other].id)")
        list.swapAt(index, other)
      case 6:
        log.append("remove \(list[index].id)")
        list.remove(at: index)
      case 7:
        // To another list (a removal and an insertion: its selection does not follow).
        guard !crossed.contains(list[index].id) else { return }
        let target = lists.randomElement(using: &rng)!
        guard target !== list else { return }
        let item = list.remove(at: index)
        crossed.insert(item.id)
        log.append("cross \(item.id)")
        target.insert(item, at: Int.random(in: 0...target.count, using: &rng))
      default:
        // A diff: keep some, update some, reorder, add fresh ones.
        var next = list.elements.filter { _ in Int.random(in: 0..<5, using: &rng) != 0 }
        for position in next.indices where Bool.random(using: &rng) { next[position].version += 1 }
        next.shuffle(using: &rng)
        if Bool.random(using: &rng) {
          next.insert(Item(id: fresh()), at: Int.random(in: 0...next.count, using: &rng))
        }
        log.append("replace with \(next)")
        try! list.replaceElements(with: next, identifiedBy: \.id, isUpdated: !=)
      }
    }

    /// A snapshot apply (a batch of its own): elements move between its sections, change place
    /// and content, leave and arrive; its sections may swap.
    func applySnapshot<R: RandomNumberGenerator>(using rng: inout R) {
      var contents = snapshot.snapshot
      for _ in 0..<Int.random(in: 1...3, using: &rng) {
        let from = Int.random(in: 0..<contents.count, using: &rng)
        guard !contents[from].elements.isEmpty else { continue }
        let index = Int.random(in: 0..<contents[from].elements.count, using: &rng)
        switch Int.random(in: 0..<5, using: &rng) {
        case 0:
          var item = contents[from].elements.remove(at: index)
          if Bool.random(using: &rng) { item.version += 1 }
          let to = 1 - from
          contents[to].elements.insert(
            item, at: Int.random(in: 0...contents[to].elements.count, using: &rng))
        case 1: contents[from].elements[index].version += 1
        case 2: contents[from].elements.shuffle(using: &rng)
        case 3: contents[from].elements.remove(at: index)
        default: contents[from].elements.insert(Item(id: fresh()), at: index)
        }
      }
      if Int.random(in: 0..<4, using: &rng) == 0 { contents.swapAt(0, 1) }
      log.append("snapshot \(contents.map { $0.elements.map(\.description) })")
      try! snapshot.apply(contents)
    }

    func batch<R: RandomNumberGenerator>(using rng: inout R) {
      if Int.random(in: 0..<4, using: &rng) == 0 {
        applySnapshot(using: &rng)
        return
      }
      var crossed: Set<Int> = []
      log.append("batch {")
      root.performBatchUpdates {
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
          if Int.random(in: 0..<6, using: &rng) == 0 {
            let from = Int.random(in: 0..<root.children.count, using: &rng)
            let to = Int.random(in: 0..<root.children.count, using: &rng)
            log.append("moveChild \(from) to \(to)")
            root.moveChild(at: from, to: to)
          } else {
            mutateList(using: &rng, crossed: &crossed)
          }
        }
      }
      log.append("}")
    }

    /// One batch, judged: returns the first disagreement.
    func step<R: RandomNumberGenerator>(using rng: inout R) -> String? {
      selectSome(using: &rng)
      let before = selectedIdentities()
      let oldPositions = positions()
      let changesets = adapter.changesets.count
      for list in lists { list.heard = [] }
      batch(using: &rng)
      let changeset = adapter.changesets.count > changesets ? adapter.changesets.last : nil
      let now = positions()
      var expected = Set<Pair>()
      var moved: Set<Int> = []
      for pair in before {
        guard let place = now[pair.id] else { continue }
        if place.section == pair.section {
          expected.insert(pair)
        } else if let old = oldPositions[pair.id]?.path,
          changeset?.movedElements.contains(where: { $0.from == old }) ?? false
        {
          expected.insert(Pair(section: place.section, id: pair.id))
          moved.insert(pair.id)
        }
      }
      if let failure = failures.first { return "the test adapter failed: \(failure)" }
      let actual = selectedIdentities()
      if actual != expected {
        return "selected \(actual.sorted().map(\.id)), expected \(expected.sorted().map(\.id))"
      }
      let view = Set(
        adapter.mirrorSelectedIndexPaths.map { path in
          let section = coordinator.section(at: path[0])
          return Pair(section: ObjectIdentifier(section), id: items(section)[path[1]].id)
        })
      if view != expected {
        return
          "the view selects \(view.sorted().map(\.id)), expected \(expected.sorted().map(\.id))"
      }
      for section in sections {
        let ids = Set(section.selectedIndexes.map { items(section)[$0].id })
        let wanted = Set(expected.filter { $0.section == ObjectIdentifier(section) }.map(\.id))
        if ids != wanted {
          return "a section's selectedIndexes name \(ids.sorted()), expected \(wanted.sorted())"
        }
      }
      for list in lists {
        // Each list hears a deselect for each of its selected elements that left, a select for
        // each that arrived; nothing for those that stayed.
        let key = ObjectIdentifier(list)
        let left = before.filter { $0.section == key && !expected.contains($0) }.count
        let arrived = expected.filter { $0.section == key && !before.contains($0) }.count
        let deselects = list.heard.filter { $0.hasPrefix("deselect") }.count
        let selects = list.heard.count - deselects
        if deselects != left || selects != arrived {
          return "a list heard \(list.heard), expected \(left) deselects and \(arrived) selects"
        }
      }
      if let last, expected.contains(Pair(section: last.section, id: last.id)),
        !moved.contains(last.id)
      {
        let path = coordinator.lastSelectedIndexPath
        let named = path.map { items(coordinator.section(at: $0[0]))[$0[1]].id }
        if named != last.id { return "lastSelectedIndexPath names \(String(describing: named))" }
      } else {
        last = nil
        if let path = coordinator.lastSelectedIndexPath {
          return "lastSelectedIndexPath is \(format(path)), expected nil"
        }
      }
      return nil
    }
  }

  @Test func selectionFollowsIdentityThroughEveryBatch() {
    for seed in randomizedSeeds(base: 90_000, count: 1_000) {
      var rng = SeededGenerator(seed: seed)
      let run = Run(using: &rng)
      for number in 0..<12 {
        if let failure = run.step(using: &rng) {
          Issue.record(
            """
            seed \(seed) (replay with SECTIONKIT_SEED=\(seed)), batch \(number + 1): \(failure)
            \(run.log.suffix(30).joined(separator: "\n"))
            """)
          return
        }
      }
    }
  }
}
