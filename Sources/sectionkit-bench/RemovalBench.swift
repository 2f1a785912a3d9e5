import SectionKit
import SectionKitTesting

/// A section of `count` anonymous elements that reports whatever removals it is told to make:
/// the benchmark measures the reducer, not an array's own memmove.
final class CountedSection: Section {
  private(set) var numberOfElements: Int
  weak var updateDelegate: (any SectionUpdateDelegate)?

  init(count: Int) { numberOfElements = count }

  /// Removes the elements at `indexes` (each valid at its point of the sequence), in one bracket.
  func remove(_ indexes: [Int]) {
    updateDelegate?.willBeginUpdating(self)
    for index in indexes {
      numberOfElements -= 1
      updateDelegate?.section(self, didRemoveElementAt: index)
    }
    updateDelegate?.didEndUpdating(self)
  }
}

extension Bench {
  /// The order in which a batch removes every other element.
  enum RemovalOrder: String, CaseIterable { case descending, ascending, random }

  /// Removes every other element of one section of `count` elements in one batch, in `order`,
  /// with a coordinator and an adapter attached. Returns the time of the batch.
  static func removeEveryOther(count: Int, order: RemovalOrder) -> Double {
    let section = CountedSection(count: count)
    let root = ComposedSectionProvider()
    root.append(section)
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = NullAdapter()
    coordinator.adapter = adapter
    let indexes = removalIndexes(count: count, order: order)
    let time = seconds { section.remove(indexes) }
    precondition(adapter.changesets == 1 && adapter.operations == indexes.count)
    return time
  }

  /// `removeAll(where:)` removing every other element of an `ArraySection` of `count` elements
  /// (its events come highest index first), with a coordinator and an adapter attached.
  static func removeAllEveryOther(count: Int) -> Double {
    let section = ArraySection(0..<count)
    let root = ComposedSectionProvider()
    root.append(section)
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = NullAdapter()
    coordinator.adapter = adapter
    let time = seconds { section.removeAll { $0 % 2 == 1 } }
    precondition(adapter.changesets == 1 && section.count == count - count / 2)
    return time
  }

  /// The indexes, each valid at its point of the sequence, that remove the odd old positions of
  /// `0..<count` in `order`.
  static func removalIndexes(count: Int, order: RemovalOrder) -> [Int] {
    var targets = Array(stride(from: 1, to: count, by: 2))
    switch order {
    case .descending: targets.reverse()
    case .ascending: break
    case .random:
      var rng = SeededGenerator(seed: 7)
      targets.shuffle(using: &rng)
    }
    // A Fenwick tree counts the old positions still present below each target.
    var tree = [Int](repeating: 0, count: count + 1)
    func add(_ position: Int, _ delta: Int) {
      var index = position + 1
      while index <= count {
        tree[index] += delta
        index += index & -index
      }
    }
    func present(below position: Int) -> Int {
      var index = position
      var total = 0
      while index > 0 {
        total += tree[index]
        index -= index & -index
      }
      return total
    }
    for position in 0..<count { add(position, 1) }
    return targets.map { target in
      defer { add(target, -1) }
      return present(below: target)
    }
  }
}
