import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// Every short batch over a small alphabet of mutations, through a coordinator and a strict
/// `TestAdapter`: each changeset must be valid under UIKit's rules and replay to the new state.
@Suite("Exhaustive: every batch of up to three small mutations")
struct ExhaustiveBatchTests {
  enum Step: CustomStringConvertible {
    case element(section: Int, ElementOperation)
    case removeSection(Int)
    case insertSection(at: Int)

    var description: String {
      switch self {
      case .element(let section, let operation): "s\(section).\(operation)"
      case .removeSection(let index): "root.remove(at: \(index))"
      case .insertSection(let index): "root.insert(new, at: \(index))"
      }
    }
  }

  /// Element mutations of a section of `count` elements that apply to it.
  static func elementSteps(section: Int, count: Int) -> [Step] {
    var steps: [ElementOperation] = []
    for index in 0...count { steps.append(.insert(Item(id: 900 + index), at: index)) }
    for index in 0..<count {
      steps.append(.remove(at: index))
      steps.append(.update(at: index))
      for target in 0..<count where target != index { steps.append(.move(from: index, to: target)) }
    }
    return steps.map { .element(section: section, $0) }
  }

  /// What a batch did: the first problem found, and how many of its steps applied (a step that
  /// does not fit the tree the earlier steps left, such as an index past the end of a section
  /// they shortened, is skipped).
  struct Outcome {
    var failure: String?
    var appliedSteps = 0
  }

  /// Runs `steps` as one batch on a fresh tree of two sections ([0, 1, 2] and [10, 11]).
  static func outcome(of steps: [Step]) -> Outcome {
    let root = ComposedSectionProvider()
    var sections = [
      ArraySection<Item>((0..<3).map { Item(id: $0) }),
      ArraySection<Item>([Item(id: 10), Item(id: 11)]),
    ]
    for section in sections { root.append(section) }
    let coordinator = Coordinator(sectionProvider: root)
    var failures: [TestAdapterFailure] = []
    let adapter = TestAdapter(
      strict: true,
      onFailure: { failure in
        if !(failure.kinds == [.invalidChangeset]
          && failure.violations.allSatisfy { $0.rule == .reloadCombinedWithMoves })
        {
          failures.append(failure)
        }
      })
    coordinator.adapter = adapter
    var outcome = Outcome()
    root.performBatchUpdates {
      for step in steps {
        switch step {
        case .element(let index, let operation):
          guard index < sections.count, operation.applied(to: sections[index].elements) != nil
          else {
            continue
          }
          operation.apply(to: sections[index])
        case .removeSection(let index):
          guard index < sections.count else { continue }
          root.remove(at: index)
          sections.remove(at: index)
        case .insertSection(let index):
          guard index <= sections.count else { continue }
          let section = ArraySection<Item>([Item(id: 50 + index)])
          root.insert(section, at: index)
          sections.insert(section, at: index)
        }
        outcome.appliedSteps += 1
      }
    }
    let expected = sections.map { $0.elements.map(\.description) }
    if let failure = failures.first {
      outcome.failure = "\(steps): \(failure)"
    } else if adapter.changesets.count > 1 {
      outcome.failure = "\(steps): more than one changeset"
    } else if adapter.mirrorValues != expected {
      outcome.failure =
        "\(steps): the view shows \(adapter.mirrorValues), the model holds \(expected)"
    }
    return outcome
  }

  @Test func everyPairOfMutationsOfBothSectionsAndTheSectionList() {
    let alphabet =
      Self.elementSteps(section: 0, count: 3) + Self.elementSteps(section: 1, count: 2)
      + [
        .removeSection(0), .removeSection(1), .insertSection(at: 0), .insertSection(at: 1),
        .insertSection(at: 2),
      ]
    #expect(alphabet.count == 16 + 9 + 5)
    var bothApplied = 0
    for first in alphabet {
      for second in alphabet {
        let outcome = Self.outcome(of: [first, second])
        if let failure = outcome.failure {
          Issue.record(Comment(rawValue: failure))
          return
        }
        #expect(outcome.appliedSteps >= 1, "the first step always fits the fresh tree")
        if outcome.appliedSteps == 2 { bothApplied += 1 }
      }
    }
    // Of the 900 pairs, 77 have a second step that the first made impossible: after
    // `root.remove(at: 0)` 18 (7 steps of section 0 past its new 2 elements, the 9 of a section 1
    // that no longer exists, `remove(at: 1)`, `insert(at: 2)`), after `root.remove(at: 1)` 11,
    // after each of the 3 removes from section 0 7, after each of the 2 removes from section 1 5,
    // after `root.insert(new, at: 0)` 12 (section 0 is then the new 1-element section) and after
    // `root.insert(new, at: 1)` 5.
    #expect(bothApplied == 900 - (18 + 11 + 3 * 7 + 2 * 5 + 12 + 5))
  }

  @Test func everyTripleOfMutationsOfOneSection() {
    let alphabet = Self.elementSteps(section: 0, count: 3)
    #expect(alphabet.count == 16)
    var allApplied = 0
    for first in alphabet {
      for second in alphabet {
        for third in alphabet {
          let outcome = Self.outcome(of: [first, second, third])
          if let failure = outcome.failure {
            Issue.record(Comment(rawValue: failure))
            return
          }
          if outcome.appliedSteps == 3 { allApplied += 1 }
        }
      }
    }
    // Of the 4,096 triples, 681 have a step that an earlier remove made impossible (an index
    // past the end of the shortened section); counted with the section's length alone.
    #expect(allApplied == 4_096 - 681)
  }
}
