import Foundation
import SectionKit
import SectionKitTesting

/// An adapter that accepts everything and does no work, so that the figures measure SectionKit.
final class NullAdapter: ViewAdapter {
  var changesets = 0
  var operations = 0
  /// Element moves whose section index changes.
  var movesAcross = 0
  func reloadData(from coordinator: Coordinator) {}
  func apply(
    _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
  ) {
    updateData()
    changesets += 1
    operations += changeset.count
    movesAcross += changeset.movedElements.count { $0.from[0] != $0.to[0] }
  }
}

enum Bench {
  enum Attachment { case mapping, coordinator }

  static func seconds(_ body: () -> Void) -> Double {
    let start = ContinuousClock.now
    body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }

  /// The median of five runs.
  static func median(_ body: () -> Void) -> Double {
    let runs = (0..<5).map { _ in seconds(body) }.sorted()
    return runs[2]
  }

  /// The median of `runs` measurements, each returned by `measure` in seconds.
  static func medianOf(_ runs: Int, _ measure: () -> Double) -> Double {
    let results = (0..<runs).map { _ in measure() }.sorted()
    return results[runs / 2]
  }

  /// Builds `providers` × 100 sections × 100 elements child by child with a mapping or a
  /// coordinator (and an adapter) attached to the root from the start.
  static func buildTree(providers: Int, attach: Attachment) {
    let root = ComposedSectionProvider()
    var keep: AnyObject
    switch attach {
    case .mapping: keep = SectionProviderMapping(sectionProvider: root)
    case .coordinator:
      let coordinator = Coordinator(sectionProvider: root)
      coordinator.adapter = NullAdapter()
      keep = coordinator
    }
    appendProviders(providers, to: root)
    withExtendedLifetime(keep) {}
  }

  /// Appends `count` providers × 100 sections × 100 elements to `root`, one child at a time
  /// (each element by its own `append(_:)`, or each section's 100 by one
  /// `append(contentsOf:)`).
  static func appendProviders(
    _ count: Int, to root: ComposedSectionProvider, contentsOf: Bool = false
  ) {
    for _ in 0..<count {
      let provider = ComposedSectionProvider()
      root.append(provider)
      for _ in 0..<100 {
        let section = ArraySection<Int>()
        provider.append(section)
        if contentsOf {
          section.append(contentsOf: 0..<100)
        } else {
          for element in 0..<100 { section.append(element) }
        }
      }
    }
  }

  /// Applies `changes` random element changes (insert, remove, update, move) to a tree of
  /// `sections` sections (under 100 providers) of `elements` elements, `batchSize` changes per
  /// batch, with a coordinator and a null adapter attached. Returns the time of the changes only.
  static func churn(sections: Int, elements: Int, changes: Int, batchSize: Int) -> Double {
    let root = ComposedSectionProvider()
    var all: [ArraySection<Int>] = []
    let perProvider = max(1, sections / 100)
    var provider = ComposedSectionProvider()
    for index in 0..<sections {
      if index % perProvider == 0 {
        provider = ComposedSectionProvider()
        root.append(provider)
      }
      let section = ArraySection<Int>(0..<elements)
      all.append(section)
      provider.append(section)
    }
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = NullAdapter()
    coordinator.adapter = adapter
    var rng = SeededGenerator(seed: 42)
    let time = seconds {
      for _ in 0..<(changes / batchSize) {
        root.performBatchUpdates {
          for _ in 0..<batchSize {
            let section = all[Int.random(in: 0..<all.count, using: &rng)]
            let count = section.count
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: section.insert(-1, at: Int.random(in: 0...count, using: &rng))
            case 1 where count > 1: section.remove(at: Int.random(in: 0..<count, using: &rng))
            case 2 where count > 0:
              // A different value: an equal write is no change (the random draws stay the same).
              let index = Int.random(in: 0..<count, using: &rng)
              section[index] = section[index] &+ 1
            case 3 where count > 1:
              section.move(
                from: Int.random(in: 0..<count, using: &rng),
                to: Int.random(in: 0..<count, using: &rng))
            default: section.append(0)
            }
          }
        }
      }
    }
    precondition(adapter.changesets > 0)
    return time
  }

  /// Inserts `count` sections into a tree in one batch; returns the time and the number of
  /// changesets delivered.
  static func insertSectionsInOneBatch(_ count: Int) -> (Double, Int) {
    let root = ComposedSectionProvider()
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = NullAdapter()
    coordinator.adapter = adapter
    let sections = (0..<count).map { ArraySection<Int>([$0]) }
    let time = seconds {
      root.performBatchUpdates {
        for section in sections { root.append(section) }
      }
    }
    precondition(coordinator.numberOfSections == count)
    return (time, adapter.changesets)
  }
}
