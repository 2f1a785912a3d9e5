import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// An `ArraySection<Item>` that takes selection and moves, and records what it hears.
/// Even ids allow multiple selection; items whose id is a multiple of 5 refuse selection and
/// those whose id is a multiple of 7 refuse deselection.
final class SelectableItems: ArraySection<Item>, SelectionHandler, MoveHandler {
  var multiple = false
  var heard: [String] = []
  var allowsMultipleSelection: Bool { multiple }
  func shouldSelect(at index: Int) -> Bool { self[index].id % 5 != 0 }
  func shouldDeselect(at index: Int) -> Bool { self[index].id % 7 != 0 }
  func didSelect(at index: Int) { heard.append("select \(index)") }
  func didDeselect(at index: Int) { heard.append("deselect \(index)") }
}

/// One step of the randomized selection test, naming sections and items by identity.
enum SelectionStep: CustomStringConvertible {
  case tree(TreeOperation)
  case userSelect(section: Int, item: Int)
  case userDeselect(section: Int, item: Int)
  case sectionSelect(section: Int, item: Int)
  case sectionDeselect(section: Int, item: Int)
  case sectionSelectAll(section: Int)
  case sectionDeselectAll(section: Int)
  case userMove(section: Int, item: Int, to: Int)

  var description: String {
    switch self {
    case .tree(let operation): "\(operation)"
    case .userSelect(let s, let i): "user selects item \(i) of #\(s)"
    case .userDeselect(let s, let i): "user deselects item \(i) of #\(s)"
    case .sectionSelect(let s, let i): "#\(s).select(item \(i))"
    case .sectionDeselect(let s, let i): "#\(s).deselect(item \(i))"
    case .sectionSelectAll(let s): "#\(s).selectAll()"
    case .sectionDeselectAll(let s): "#\(s).deselectAll()"
    case .userMove(let s, let i, let to): "user moves item \(i) of #\(s) to \(to)"
    }
  }
}

/// Replays selection steps on a real tree with a coordinator and a `TestAdapter`, against a
/// reference that tracks selected item identities.
final class SelectionRun {
  let fixture = TreeFixture()
  let coordinator: Coordinator
  let adapter = TestAdapter(onFailure: { _ in })
  /// The reference selection: section id → selected item ids.
  var selected: [Int: Set<Int>] = [:]

  init() {
    fixture.makeArraySection = { id, items in
      let section = SelectableItems(items)
      section.multiple = id % 2 == 0
      return section
    }
    coordinator = Coordinator(sectionProvider: fixture.root)
    coordinator.adapter = adapter
  }

  var presented: [(id: Int, items: [Item])] { fixture.reference.flattened }

  func section(_ id: Int) -> SelectableItems? { fixture.objects[id] as? SelectableItems }

  /// The expected calls per section id, sorted, for a step.
  var expected: [Int: [String]] = [:]

  func position(of item: Int, in sectionID: Int) -> (section: Int, index: Int)? {
    for (offset, entry) in presented.enumerated() where entry.id == sectionID {
      guard let index = entry.items.firstIndex(where: { $0.id == item }) else { return nil }
      return (offset, index)
    }
    return nil
  }

  private func select(_ item: Int, in sectionID: Int, index: Int) {
    let section = section(sectionID)!
    if !section.multiple {
      for old in selected[sectionID] ?? [] {
        expected[sectionID, default: []].append(
          "deselect \(position(of: old, in: sectionID)!.index)")
      }
      selected[sectionID] = []
    }
    selected[sectionID, default: []].insert(item)
    expected[sectionID, default: []].append("select \(index)")
  }

  private func deselect(_ item: Int, in sectionID: Int, index: Int) {
    selected[sectionID]?.remove(item)
    expected[sectionID, default: []].append("deselect \(index)")
  }

  /// Applies one step to the real tree and the reference; returns the first disagreement.
  func run(_ step: SelectionStep) -> String? {
    expected = [:]
    for object in fixture.objects.values { (object as? SelectableItems)?.heard = [] }
    switch step {
    case .tree(let operation):
      // Where every selected item was before the batch.
      var before: [Int: [Int: Int]] = [:]
      for (sectionID, items) in selected {
        for item in items {
          before[sectionID, default: [:]][item] = position(of: item, in: sectionID)!.index
        }
      }
      fixture.apply(operation, coordinator: coordinator)
      for (sectionID, items) in selected {
        for item in items where position(of: item, in: sectionID) == nil {
          deselect(item, in: sectionID, index: before[sectionID]![item]!)
        }
      }
    case .userSelect(let sectionID, let item):
      guard let (section, index) = position(of: item, in: sectionID) else { return nil }
      let path = IndexPath(item: index, section: section)
      if adapter.mirrorSelection[section][index] { return nil }
      adapter.userSelect(path, in: coordinator)
      if item % 5 != 0 && !(selected[sectionID]?.contains(item) ?? false) {
        select(item, in: sectionID, index: index)
      }
    case .userDeselect(let sectionID, let item):
      guard let (section, index) = position(of: item, in: sectionID) else { return nil }
      if !adapter.mirrorSelection[section][index] { return nil }
      adapter.userDeselect(IndexPath(item: index, section: section), in: coordinator)
      if item % 7 != 0 && (selected[sectionID]?.contains(item) ?? false) {
        deselect(item, in: sectionID, index: index)
      }
    case .sectionSelect(let sectionID, let item):
      guard let real = section(sectionID), let index = real.firstIndex(where: { $0.id == item })
      else { return nil }
      real.select(index: index)
      if position(of: item, in: sectionID) != nil && !(selected[sectionID]?.contains(item) ?? false)
      {
        select(item, in: sectionID, index: index)
      }
    case .sectionDeselect(let sectionID, let item):
      guard let real = section(sectionID), let index = real.firstIndex(where: { $0.id == item })
      else { return nil }
      real.deselect(index: index)
      if selected[sectionID]?.contains(item) ?? false {
        deselect(item, in: sectionID, index: index)
      }
    case .sectionSelectAll(let sectionID):
      guard let real = section(sectionID) else { return nil }
      real.selectAll()
      if real.multiple, presented.contains(where: { $0.id == sectionID }) {
        for (index, item) in real.elements.enumerated()
        where !(selected[sectionID]?.contains(item.id) ?? false) {
          select(item.id, in: sectionID, index: index)
        }
      }
    case .sectionDeselectAll(let sectionID):
      guard let real = section(sectionID) else { return nil }
      real.deselectAll()
      for item in selected[sectionID] ?? [] {
        deselect(item, in: sectionID, index: position(of: item, in: sectionID)!.index)
      }
    case .userMove(let sectionID, let item, let to):
      guard let (section, index) = position(of: item, in: sectionID) else { return nil }
      let count = presented[section].items.count
      let target = min(max(to, 0), count - 1)
      adapter.userMove(
        from: IndexPath(item: index, section: section),
        to: IndexPath(item: target, section: section), in: coordinator)
      fixture.updateReference(section: sectionID, .move(from: index, to: target))
    }
    return check()
  }

  func check() -> String? {
    if let failure = adapter.failures.first { return "the test adapter failed: \(failure)" }
    if let mismatch = fixture.mismatch(mapping: coordinator.mapping) { return mismatch }
    var paths: [IndexPath] = []
    for (sectionID, items) in selected {
      for item in items {
        guard let (section, index) = position(of: item, in: sectionID) else {
          return "reference keeps item \(item) of #\(sectionID), which is not shown"
        }
        paths.append(IndexPath(item: index, section: section))
      }
    }
    paths.sort { $0.lexicographicallyPrecedes($1) }
    if coordinator.selectedIndexPaths != paths {
      return "coordinator selection \(coordinator.selectedIndexPaths) != reference \(paths)"
    }
    if adapter.mirrorSelectedIndexPaths != paths {
      return "adapter's view selection \(adapter.mirrorSelectedIndexPaths) != reference \(paths)"
    }
    for (id, object) in fixture.objects {
      guard let section = object as? SelectableItems else { continue }
      let heard = section.heard.sorted()
      let wanted = (expected[id] ?? []).sorted()
      if heard != wanted { return "#\(id) heard \(heard), expected \(wanted)" }
      let indexes = section.selectedIndexes.map { section[$0].id }.sorted()
      if indexes != (selected[id] ?? []).sorted() {
        return
          "#\(id).selectedIndexes names items \(indexes), expected \((selected[id] ?? []).sorted())"
      }
    }
    return nil
  }

  static func failure(of steps: [SelectionStep]) -> String? {
    let run = SelectionRun()
    for (number, step) in steps.enumerated() {
      if let failure = run.run(step) { return "step \(number + 1) (\(step)): \(failure)" }
    }
    return nil
  }
}

/// Random steps: mostly tree operations (sometimes several in one coordinator batch), and
/// selection input from the user and from the sections.
func randomSelectionStep<R: RandomNumberGenerator>(
  _ generator: SelectionRun, using rng: inout R
) -> SelectionStep {
  let shown = generator.presented.filter { generator.section($0.id) != nil && !$0.items.isEmpty }
  func noReplace(_ operation: TreeOperation) -> TreeOperation {
    // `replaceSubrange` reports shared positions as updates (identity kept), which an
    // identity-tracking reference cannot follow: split it into a removal and an insertion.
    guard case .elements(let id, .replaceSubrange(let range, let items)) = operation else {
      return operation
    }
    return .batch(
      on: id, depth: 1,
      [.elements(section: id, .removeSubrange(range))]
        + (items.isEmpty
          ? [] : [.elements(section: id, .insertContents(items, at: range.lowerBound))]))
  }
  let roll = Int.random(in: 0..<20, using: &rng)
  if shown.isEmpty || roll < 8 {
    if Int.random(in: 0..<4, using: &rng) == 0 {
      // Several operations in one coordinator batch.
      var steps: [TreeOperation] = []
      for _ in 0..<Int.random(in: 2...4, using: &rng) {
        steps.append(noReplace(generator.fixture.randomOperation(using: &rng)))
      }
      return .tree(.batch(on: nil, depth: 1, steps))
    }
    return .tree(noReplace(generator.fixture.randomOperation(using: &rng)))
  }
  let entry = shown.randomElement(using: &rng)!
  let item = entry.items.randomElement(using: &rng)!.id
  switch roll {
  case 8..<12: return .userSelect(section: entry.id, item: item)
  case 12, 13: return .userDeselect(section: entry.id, item: item)
  case 14: return .sectionSelect(section: entry.id, item: item)
  case 15: return .sectionDeselect(section: entry.id, item: item)
  case 16: return .sectionSelectAll(section: entry.id)
  case 17: return .sectionDeselectAll(section: entry.id)
  default:
    return .userMove(
      section: entry.id, item: item, to: Int.random(in: 0..<entry.items.count, using: &rng))
  }
}

@Suite("Randomized: selection follows every changeset like a collection view's")
struct RandomizedSelectionTests {
  @Test func randomBatchesInterleavedWithSelections() {
    for seed in randomizedSeeds(base: 4_000, count: 30) {
      var rng = SeededGenerator(seed: seed)
      let run = SelectionRun()
      var steps: [SelectionStep] = []
      var failure: String?
      for number in 0..<150 {
        let step = randomSelectionStep(run, using: &rng)
        steps.append(step)
        if let found = run.run(step) {
          failure = "step \(number + 1) (\(step)): \(found)"
          break
        }
      }
      guard let failure else { continue }
      let minimal = shrinkSteps(steps) { SelectionRun.failure(of: $0) }
      Issue.record(
        """
        seed \(seed) (replay with SECTIONKIT_SEED=\(seed)): \(failure)
        failing sequence of \(steps.count) steps shrunk to \(minimal.count):
        \(minimal.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n"))
        replayed minimal: \(SelectionRun.failure(of: minimal) ?? "passes")
        """)
      return
    }
  }
}
