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

  /// Runs `steps` as one batch on a fresh tree of two sections ([0, 1, 2] and [10, 11]); returns
  /// the first problem.
  static func failure(of steps: [Step]) -> String? {
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
    var applied = false
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
        applied = true
      }
    }
    if let failure = failures.first { return "\(steps): \(failure)" }
    if applied && adapter.changesets.count > 1 { return "\(steps): more than one changeset" }
    let expected = sections.map { $0.elements.map(\.description) }
    if adapter.mirrorValues != expected {
      return "\(steps): the view shows \(adapter.mirrorValues), the model holds \(expected)"
    }
    return nil
  }

  @Test func everyPairOfMutationsOfBothSectionsAndTheSectionList() {
    let alphabet =
      Self.elementSteps(section: 0, count: 3) + Self.elementSteps(section: 1, count: 2)
      + [
        .removeSection(0), .removeSection(1), .insertSection(at: 0), .insertSection(at: 1),
        .insertSection(at: 2),
      ]
    var checked = 0
    for first in alphabet {
      for second in alphabet {
        if let failure = Self.failure(of: [first, second]) {
          Issue.record(Comment(rawValue: failure))
          return
        }
        checked += 1
      }
    }
    #expect(checked == alphabet.count * alphabet.count)
  }

  @Test func everyTripleOfMutationsOfOneSection() {
    let alphabet = Self.elementSteps(section: 0, count: 3)
    for first in alphabet {
      for second in alphabet {
        for third in alphabet {
          if let failure = Self.failure(of: [first, second, third]) {
            Issue.record(Comment(rawValue: failure))
            return
          }
        }
      }
    }
  }
}
