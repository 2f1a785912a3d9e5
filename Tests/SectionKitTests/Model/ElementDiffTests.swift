import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// The bulk path of `replaceElements(with:)`: a section's whole diff climbs the tree as one event
/// and the coordinator reads it off directly when it is the section's only change in the batch,
/// or expands it into its steps when the section (or the batch) has other changes.
///
/// The randomized test runs every batch twice, on twin trees: once as the library does it, and
/// once with every diff sent as steps (`ElementDiff.sendsSteps`, the path before diffs were one
/// event); both changesets go through the strict `TestAdapter`, replay to the model, and must be
/// the same size.
///
/// Reproduce a random failure with `SECTIONKIT_SEED=<seed> swift test --filter ElementDiffTests`;
/// run longer with `SECTIONKIT_FUZZ_ITERATIONS=<n>` (default 300).
@Suite struct ElementDiffTests {
  static let iterations =
    ProcessInfo.processInfo.environment["SECTIONKIT_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 300

  /// A random tree of sections (nested groups, a segmented group) under a coordinator with a
  /// strict test adapter.
  final class Twin {
    let root = ComposedSectionProvider()
    let coordinator: Coordinator
    var sections: [ArraySection<Item>] = []
    var failures: [TestAdapterFailure] = []
    var view: TestAdapter!

    init(_ shape: [[[Item]]], segmentedAt segmented: Int?) {
      for (index, group) in shape.enumerated() {
        if group.count == 1 && index != segmented {
          let section = ArraySection(group[0])
          sections.append(section)
          root.append(section)
        } else if index == segmented {
          let segments = SegmentedSectionProvider()
          for contents in group {
            let section = ArraySection(contents)
            sections.append(section)
            segments.append(section)
          }
          segments.currentIndex = group.count - 1
          root.append(segments)
        } else {
          let inner = ComposedSectionProvider()
          for contents in group {
            let section = ArraySection(contents)
            sections.append(section)
            inner.append(section)
          }
          root.append(inner)
        }
      }
      coordinator = Coordinator(sectionProvider: root)
      view = TestAdapter.toleratingReloadsWithMoves { [unowned self] in failures.append($0) }
      coordinator.adapter = view
    }

    /// What the view must show: every presented section's elements.
    var model: [[String]] {
      root.sections.map { ($0 as! ArraySection<Item>).elements.map(\.description) }
    }
  }

  /// One change of a batch, replayed on both twins.
  enum Operation {
    case diff(section: Int, new: [Item])
    case append(section: Int, Item)
    case remove(section: Int, at: Int)
    case move(section: Int, from: Int, to: Int)
    case update(section: Int, at: Int)
    case insertSection(at: Int, [Item])
    case moveChild(from: Int, to: Int)
    case removeChild(at: Int)

    func apply(to twin: Twin) throws {
      switch self {
      case .diff(let section, let new): try twin.sections[section].replaceElements(with: new)
      case .append(let section, let item): twin.sections[section].append(item)
      case .remove(let section, let index): twin.sections[section].remove(at: index)
      case .move(let section, let from, let to): twin.sections[section].move(from: from, to: to)
      case .update(let section, let index): twin.sections[section][index].version += 1
      case .insertSection(let index, let elements):
        let section = ArraySection(elements)
        twin.sections.append(section)
        twin.root.insert(section, at: index)
      case .moveChild(let from, let to): twin.root.moveChild(at: from, to: to)
      case .removeChild(let index):
        if case .section(let removed) = twin.root.remove(at: index) {
          twin.sections.removeAll { $0 === removed }
        }
      }
    }
  }

  static func size(_ changeset: Changeset) -> Int {
    changeset.deletedElements.count + changeset.insertedElements.count
      + changeset.reloadedElements.count + changeset.movedElements.count
      + changeset.deletedSections.count + changeset.insertedSections.count
      + changeset.reloadedSections.count + changeset.movedSections.count
  }

  /// A random operation on the state `twin` holds now.
  static func operation(
    _ twin: Twin, nextID: inout Int, diffsOnly: Bool, using random: inout SeededGenerator
  ) -> Operation {
    let section = Int.random(in: 0..<twin.sections.count, using: &random)
    let elements = twin.sections[section].elements
    switch diffsOnly ? 0 : Int.random(in: 0..<10, using: &random) {
    case 0...3:
      if Bool.random(using: &random) || elements.isEmpty {
        // Unrelated contents, drawn from ids this section may hold and new ones.
        let new =
          (elements.map(\.id)
          + (0..<Int.random(in: 0..<8, using: &random)).map {
            nextID + $0
          })
          .shuffled(using: &random)
          .prefix(Int.random(in: 0...elements.count + 4, using: &random))
          .map { Item(id: $0, version: Int.random(in: 0..<2, using: &random)) }
        nextID += 8
        return .diff(section: section, new: Array(new))
      }
      let (new, _) = ArraySectionDiffTests.churn(
        elements, percent: Int.random(in: 5...40, using: &random), nextID: nextID, using: &random)
      nextID += elements.count + 1
      return .diff(section: section, new: new)
    case 4:
      defer { nextID += 1 }
      return .append(section: section, Item(id: nextID))
    case 5 where !elements.isEmpty:
      return .remove(section: section, at: Int.random(in: 0..<elements.count, using: &random))
    case 6 where !elements.isEmpty:
      return .move(
        section: section, from: Int.random(in: 0..<elements.count, using: &random),
        to: Int.random(in: 0..<elements.count, using: &random))
    case 7 where !elements.isEmpty:
      return .update(section: section, at: Int.random(in: 0..<elements.count, using: &random))
    case 8:
      defer { nextID += 2 }
      return .insertSection(
        at: Int.random(in: 0...twin.root.children.count, using: &random),
        [Item(id: nextID + 1), Item(id: nextID)])
    case 9 where twin.root.children.count > 1:
      if Bool.random(using: &random), twin.sections.count > 1,
        case .section = twin.root.children.last!
      {
        // A removed section leaves the sections the operations choose from.
        return .removeChild(at: twin.root.children.count - 1)
      }
      return .moveChild(
        from: Int.random(in: 0..<twin.root.children.count, using: &random),
        to: Int.random(in: 0..<twin.root.children.count, using: &random))
    default:
      return .diff(section: section, new: elements.shuffled(using: &random))
    }
  }

  @Test func randomBatches_bulkAndStepsAgree_throughTheStrictAdapter() throws {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0xB0_1D)
    var random = SeededGenerator(seed: seed)
    var nextID = 10_000
    var bulkSections = 0
    for iteration in 0..<Self.iterations {
      // A random shape: top-level sections, groups, and one segmented group.
      let shape = (0..<Int.random(in: 1...4, using: &random)).map { _ in
        (0..<(Bool.random(using: &random) ? 1 : Int.random(in: 1...3, using: &random))).map {
          _ in
          let items = (0..<Int.random(in: 0..<30, using: &random)).map { Item(id: nextID + $0) }
          nextID += 30
          return items.shuffled(using: &random)
        }
      }
      let segmented =
        Bool.random(using: &random) ? Int.random(in: 0..<shape.count, using: &random) : nil
      let bulk = Twin(shape, segmentedAt: segmented)
      let steps = ElementDiff.$sendsSteps.withValue(true) { Twin(shape, segmentedAt: segmented) }
      for round in 0..<4 {
        // Round 0: one diff, a batch of its own; otherwise a batch of diffs only, or of diffs
        // mixed with element and section changes (before and after them, in the same sections).
        let alone = round == 0
        let count = alone ? 1 : Int.random(in: 1...6, using: &random)
        let diffsOnly = !alone && Bool.random(using: &random)
        var operations: [Operation] = []
        let before = (bulk.view.changesets.count, steps.view.changesets.count)
        func run() throws {
          for _ in 0..<count {
            let operation = Self.operation(
              bulk, nextID: &nextID, diffsOnly: alone || diffsOnly, using: &random)
            operations.append(operation)
            try operation.apply(to: bulk)
            try ElementDiff.$sendsSteps.withValue(true) { try operation.apply(to: steps) }
          }
        }
        if alone {
          try run()
        } else {
          try bulk.coordinator.performBatchUpdates {
            try steps.coordinator.performBatchUpdates { try run() }
          }
        }
        let bulkCount = bulk.view.changesets.count - before.0
        let stepCount = steps.view.changesets.count - before.1
        var problem: String?
        if !bulk.failures.isEmpty || !steps.failures.isEmpty {
          problem = "adapter failures \((bulk.failures + steps.failures).map(\.kinds))"
        } else if bulk.view.mirrorValues != bulk.model || steps.view.mirrorValues != steps.model {
          problem = "the view does not show the model"
        } else if bulk.model != steps.model {
          problem = "the twins differ"
        } else if bulkCount > 1 || bulkCount != stepCount {
          problem = "\(bulkCount) changesets (steps: \(stepCount))"
        } else if bulkCount == 1,
          Self.size(bulk.view.changesets.last!) != Self.size(steps.view.changesets.last!)
        {
          problem =
            "\(Self.size(bulk.view.changesets.last!)) changes, "
            + "\(Self.size(steps.view.changesets.last!)) by steps"
        }
        if let problem {
          let message =
            "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)), iteration \(iteration), round "
            + "\(round): \(problem); operations \(operations)"
          Issue.record(Comment(rawValue: message))
          return
        }
        if bulkCount == 1 { bulkSections += 1 }
      }
    }
    #expect(bulkSections > Self.iterations)
  }

  // MARK: Receivers other than a coordinator

  /// Records what a custom provider delegate hears.
  final class Recorder: SectionProviderUpdateDelegate {
    var log: [String] = []
    func willBeginUpdating(_ provider: any SectionProvider) { log.append("begin") }
    func didEndUpdating(_ provider: any SectionProvider) { log.append("end") }
    func invalidateAll(_ provider: any SectionProvider) { log.append("invalidateAll") }
    func provider(
      _ provider: any SectionProvider, didInsertSections sections: [any Section],
      at indexes: IndexSet
    ) { log.append("insertSections \(Array(indexes))") }
    func provider(
      _ provider: any SectionProvider, didRemoveSections sections: [any Section],
      at indexes: IndexSet
    ) { log.append("removeSections \(Array(indexes))") }
    func provider(
      _ provider: any SectionProvider, section: any Section, at sectionIndex: Int,
      didChange change: ElementChange
    ) { log.append("\(sectionIndex): \(change) of \(section.numberOfElements)") }
  }

  /// Records what a custom mapping delegate hears.
  final class MappingRecorder: SectionProviderMappingDelegate {
    var events: [SectionProviderMapping.Event] = []
    func mapping(_ mapping: SectionProviderMapping, didReceive event: SectionProviderMapping.Event)
    {
      events.append(event)
    }
  }

  static let old = (0..<12).map { Item(id: $0) }
  static var new: [Item] {
    var new = Array(old.reversed().dropFirst(2)) + [Item(id: 40), Item(id: 41)]
    new[3].version = 1
    return new
  }

  @Test func aCustomProviderDelegateHearsTheSteps() throws {
    func log(stepsOnly: Bool) throws -> [String] {
      let root = ComposedSectionProvider()
      let inner = ComposedSectionProvider()
      let section = ArraySection(Self.old)
      root.append(ArraySection([Item(id: 100)]))
      inner.append(ArraySection([Item(id: 101)]))
      inner.append(section)
      root.append(inner)
      let recorder = Recorder()
      root.updateDelegate = recorder
      try ElementDiff.$sendsSteps.withValue(stepsOnly) {
        try section.replaceElements(with: Self.new)
      }
      return recorder.log
    }
    let bulk = try log(stepsOnly: false)
    #expect(bulk == (try log(stepsOnly: true)))
    #expect(bulk.count > 10)
    #expect(bulk.first == "begin" && bulk.last == "end")
  }

  @Test func aCustomMappingDelegateHearsTheSteps() throws {
    func events(stepsOnly: Bool) throws -> [SectionProviderMapping.Event] {
      let root = ComposedSectionProvider()
      let section = ArraySection(Self.old)
      root.append(ArraySection([Item(id: 100)]))
      root.append(section)
      let mapping = SectionProviderMapping(sectionProvider: root)
      let recorder = MappingRecorder()
      mapping.delegate = recorder
      try ElementDiff.$sendsSteps.withValue(stepsOnly) {
        try section.replaceElements(with: Self.new)
      }
      return recorder.events
    }
    let bulk = try events(stepsOnly: false)
    #expect(bulk == (try events(stepsOnly: true)))
    #expect(bulk.contains(.element(.insert(11), inSection: 1)))
  }

  /// An adapter that, inside `apply` and before `updateData`, follows every path it shows to the
  /// model, and records the batch's events.
  final class FollowingAdapter: ViewAdapter {
    var shown: [[Item]] = []
    var followed: [IndexPath: Item] = [:]
    var events: [SectionProviderMapping.Event] = []
    func reloadData(from coordinator: Coordinator) {
      shown = (0..<coordinator.numberOfSections).map { index in
        (coordinator.section(at: index) as! ArraySection<Item>).elements
      }
    }
    func apply(_ changeset: Changeset, from coordinator: Coordinator, updateData: () -> Void) {
      events = coordinator.currentBatchEvents
      followed = [:]
      for (section, items) in shown.enumerated() {
        for index in items.indices {
          let path = IndexPath(item: index, section: section)
          if let found = try? coordinator.element(.indexPath(path)) {
            followed[path] = (found.section as! ArraySection<Item>)[found.index]
          }
        }
      }
      updateData()
      reloadData(from: coordinator)
    }
  }

  @Test func insideApply_pathsFollowTheDiffAndTheEventsAreItsSteps() throws {
    let root = ComposedSectionProvider()
    let section = ArraySection(Self.old)
    root.append(ArraySection([Item(id: 100)]))
    root.append(section)
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = FollowingAdapter()
    coordinator.adapter = adapter
    try section.replaceElements(with: Self.new)
    // Every shown element that survives is found where it went, with its new content; the two
    // removed ones are not found.
    let survivors = Self.old.filter { old in Self.new.contains { $0.id == old.id } }
    #expect(adapter.followed.count == survivors.count + 1)
    for (path, item) in adapter.followed where path[0] == 1 {
      #expect(item.id == Self.old[path[1]].id)
      #expect(item == Self.new.first { $0.id == item.id })
    }
    let steps = ElementDiff(
      try IdentityMatching(old: Self.old, new: Self.new, id: \.id, isUpdated: !=)
    ).steps
    #expect(adapter.events == steps.map { .element($0, inSection: 1) })
  }

  /// A diff that changes nothing emits nothing, and the new values are kept.
  @Test func anUnchangedDiffEmitsNothing() throws {
    let root = ComposedSectionProvider()
    let section = ArraySection(Self.old)
    root.append(section)
    let coordinator = Coordinator(sectionProvider: root)
    let view = TestAdapter(strict: true)
    coordinator.adapter = view
    try section.replaceElements(with: Self.old)
    #expect(view.changesets.isEmpty)
  }
}
