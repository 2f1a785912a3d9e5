import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// The bulk mutators of `ArraySection` (`append(contentsOf:)`, `insert(contentsOf:at:)`,
/// `replaceSubrange(_:with:)`, `subscript(bounds:)`, `removeSubrange(_:)`, `removeFirst(_:)`,
/// `removeLast(_:)`, `removeAll(keepingCapacity:)`, `removeAll(where:)`, and `reload(at:)` of a
/// range) report exactly what the same change made element by element in one bracket reports: the
/// same events to a delegate of the user's, the same changesets through a coordinator (which gets
/// a change of more than one event as one ``ElementDiff``), whether the section was inserted in
/// the open batch (its element events then stop at the section) or not.
///
/// Reproduce a random failure with `SECTIONKIT_SEED=<seed> swift test --filter ArraySectionBulkMutatorTests`;
/// run longer with `SECTIONKIT_FUZZ_ITERATIONS=<n>` (default 300).
@Suite struct ArraySectionBulkMutatorTests {
  static let iterations =
    ProcessInfo.processInfo.environment["SECTIONKIT_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 300

  /// One call of a bulk mutator, and the same change made element by element.
  enum Bulk: CustomStringConvertible {
    case append([Item])
    /// `append(contentsOf:)` with a sequence that is not a collection.
    case appendSequence([Item])
    case insert([Item], at: Int)
    case replace(Range<Int>, [Item])
    case setBounds(Range<Int>, [Item])
    case removeSubrange(Range<Int>)
    case removeFirst(Int)
    case removeLast(Int)
    case removeAll
    case removeAllWhere(Set<Int>)
    case reload(Range<Int>)

    var description: String {
      switch self {
      case .append(let items): "append(contentsOf: \(items))"
      case .appendSequence(let items): "append(contentsOf: sequence \(items))"
      case .insert(let items, let index): "insert(contentsOf: \(items), at: \(index))"
      case .replace(let range, let items): "replaceSubrange(\(range), with: \(items))"
      case .setBounds(let range, let items): "[\(range)] = \(items)"
      case .removeSubrange(let range): "removeSubrange(\(range))"
      case .removeFirst(let k): "removeFirst(\(k))"
      case .removeLast(let k): "removeLast(\(k))"
      case .removeAll: "removeAll()"
      case .removeAllWhere(let ids): "removeAll(where: id in \(ids.sorted()))"
      case .reload(let range): "reload(at: \(range))"
      }
    }

    /// The change as a replacement of a range: the elements in `range` replaced by `new`.
    func replacement(of old: [Item]) -> (range: Range<Int>, new: [Item])? {
      switch self {
      case .append(let items), .appendSequence(let items): (old.count..<old.count, items)
      case .insert(let items, let index): (index..<index, items)
      case .replace(let range, let items), .setBounds(let range, let items): (range, items)
      case .removeSubrange(let range): (range, [])
      case .removeFirst(let k): (0..<k, [])
      case .removeLast(let k): ((old.count - k)..<old.count, [])
      case .removeAll: (0..<old.count, [])
      case .removeAllWhere, .reload: nil
      }
    }

    /// Calls the bulk mutator.
    func apply(to section: ArraySection<Item>) {
      switch self {
      case .append(let items): section.append(contentsOf: items)
      case .appendSequence(let items):
        section.append(contentsOf: AnySequence(items.lazy.map { $0 }))
      case .insert(let items, let index): section.insert(contentsOf: items, at: index)
      case .replace(let range, let items): section.replaceSubrange(range, with: items)
      case .setBounds(let range, let items): section[range] = ArraySlice(items)
      case .removeSubrange(let range): section.removeSubrange(range)
      case .removeFirst(let k): section.removeFirst(k)
      case .removeLast(let k): section.removeLast(k)
      case .removeAll: section.removeAll()
      case .removeAllWhere(let ids): section.removeAll { ids.contains($0.id) }
      case .reload(let range): section.reload(at: range)
      }
    }

    /// Makes the same change element by element, in one bracket of the section: an update for
    /// each shared position whose value changes, then removals (highest first) or insertions.
    func applyByElements(to section: ArraySection<Item>) {
      section.performBatchUpdates {
        guard let (range, new) = replacement(of: section.elements) else {
          switch self {
          case .removeAllWhere(let ids):
            for index in section.indices.reversed() where ids.contains(section[index].id) {
              section.remove(at: index)
            }
          case .reload(let range):
            for index in range { section.reload(at: index) }
          default: break
          }
          return
        }
        let shared = min(range.count, new.count)
        for offset in 0..<shared { section[range.lowerBound + offset] = new[offset] }
        for index in (range.lowerBound + shared..<range.upperBound).reversed() {
          section.remove(at: index)
        }
        for offset in shared..<new.count {
          section.insert(new[offset], at: range.lowerBound + offset)
        }
      }
    }

    /// A random bulk call on `old`, with new items numbered from `nextID`.
    static func random(
      _ old: [Item], nextID: inout Int, using random: inout SeededGenerator
    ) -> Bulk {
      func items(_ count: Int) -> [Item] {
        defer { nextID += count }
        return (0..<count).map { Item(id: nextID + $0) }
      }
      func range() -> Range<Int> {
        let lower = Int.random(in: 0...old.count, using: &random)
        return lower..<Int.random(in: lower...old.count, using: &random)
      }
      switch Int.random(in: 0..<11, using: &random) {
      case 0: return .append(items(Int.random(in: 0...12, using: &random)))
      case 1: return .appendSequence(items(Int.random(in: 0...12, using: &random)))
      case 2:
        return .insert(
          items(Int.random(in: 0...6, using: &random)),
          at: Int.random(in: 0...old.count, using: &random))
      case 3, 4:
        // Each shared position keeps its element, gets a new version of it, or a new one.
        let range = range()
        var new = items(Int.random(in: 0...range.count + 3, using: &random))
        for offset in 0..<min(range.count, new.count) {
          var kept = old[range.lowerBound + offset]
          switch Int.random(in: 0..<3, using: &random) {
          case 0: new[offset] = kept
          case 1:
            kept.version += 1
            new[offset] = kept
          default: break
          }
        }
        return Bool.random(using: &random) ? .replace(range, new) : .setBounds(range, new)
      case 5: return .removeSubrange(range())
      case 6: return .removeFirst(Int.random(in: 0...old.count, using: &random))
      case 7: return .removeLast(Int.random(in: 0...old.count, using: &random))
      case 8: return .removeAll
      case 9:
        return .removeAllWhere(Set(old.map(\.id).filter { _ in Bool.random(using: &random) }))
      default: return .reload(range())
      }
    }
  }

  // MARK: A delegate of the user's

  @Test func randomBulkCalls_sendADelegateTheEventsOfTheElementByElementChange() {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0xB_0C)
    var random = SeededGenerator(seed: seed)
    var nextID = 0
    var events = 0
    for iteration in 0..<Self.iterations {
      let start = (0..<Int.random(in: 0..<12, using: &random)).map { Item(id: nextID + $0) }
      nextID += 12
      let bulk = ArraySection(start)
      let elements = ArraySection(start)
      let (bulkLog, elementLog) = (EventRecorder(), EventRecorder())
      bulk.updateDelegate = bulkLog
      elements.updateDelegate = elementLog
      for _ in 0..<4 {
        let call = Bulk.random(bulk.elements, nextID: &nextID, using: &random)
        call.apply(to: bulk)
        call.applyByElements(to: elements)
        guard bulkLog.log == elementLog.log, bulk.elements == elements.elements else {
          Issue.record(
            Comment(
              rawValue: "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)), iteration "
                + "\(iteration): \(call) sent \(bulkLog.log), element by element \(elementLog.log)")
          )
          return
        }
      }
      events += bulkLog.log.count
    }
    #expect(events > Self.iterations)
  }

  /// A mapping's delegate of the user's, and a provider's, hear a bulk call's change as the
  /// element events it always heard, not as one diff.
  @Test func aCustomMappingOrProviderDelegate_hearsTheElementEvents() {
    func heard(stepsOnly: Bool) -> ([SectionProviderMapping.Event], [String]) {
      let root = ComposedSectionProvider()
      let inner = ComposedSectionProvider()
      let section = ArraySection((0..<6).map { Item(id: $0) })
      root.append(ArraySection([Item(id: 100)]))
      inner.append(section)
      root.append(inner)
      let mapping = SectionProviderMapping(sectionProvider: root)
      let recorder = MappingRecorder(mapping)
      let providerLog = EventRecorder()
      let innerSection = ArraySection([Item(id: 200)])
      let custom = ComposedSectionProvider()
      custom.append(innerSection)
      custom.updateDelegate = providerLog
      ElementDiff.$sendsSteps.withValue(stepsOnly) {
        section.replaceSubrange(1..<5, with: [Item(id: 1, version: 1), Item(id: 9)])
        section.append(contentsOf: [Item(id: 10), Item(id: 11)])
        section.removeAll { $0.id.isMultiple(of: 2) }
        innerSection.append(contentsOf: [Item(id: 201), Item(id: 202)])
        innerSection.removeAll()
      }
      return (recorder.take(), providerLog.log)
    }
    let bulk = heard(stepsOnly: false)
    let steps = heard(stepsOnly: true)
    #expect(bulk.0 == steps.0)
    #expect(bulk.1 == steps.1)
    #expect(
      bulk.0.filter { if case .element = $0 { true } else { false } }.count == 4 + 2 + 2)
    #expect(bulk.1.filter { $0.contains(": ") }.count == 2 + 3)
  }

  // MARK: Through a coordinator

  /// A tree of inner providers of sections under a coordinator with a strict test adapter.
  final class Twin {
    let root = ComposedSectionProvider()
    var groups: [ComposedSectionProvider] = []
    var sections: [ArraySection<Item>] = []
    let coordinator: Coordinator
    let view = TestAdapter(strict: true)

    init(_ shape: [[[Item]]]) {
      for contents in shape {
        let group = ComposedSectionProvider()
        for items in contents {
          let section = ArraySection(items)
          sections.append(section)
          group.append(section)
        }
        groups.append(group)
        root.append(group)
      }
      coordinator = Coordinator(sectionProvider: root)
      coordinator.adapter = view
    }

    var model: [[String]] {
      root.sections.map { ($0 as! ArraySection<Item>).elements.map(\.description) }
    }
  }

  /// One change of a batch, made on both twins.
  enum Operation {
    case bulk(section: Int, Bulk)
    case insertSection(group: Int, [Item])
    case append(section: Int, Item)

    func apply(to twin: Twin, byElements: Bool) {
      switch self {
      case .bulk(let section, let call):
        if byElements {
          call.applyByElements(to: twin.sections[section])
        } else {
          call.apply(to: twin.sections[section])
        }
      case .insertSection(let group, let items):
        let section = ArraySection(items)
        twin.sections.append(section)
        twin.groups[group].append(section)
      case .append(let section, let item): twin.sections[section].append(item)
      }
    }
  }

  @Test func randomBulkCalls_makeTheChangesetsOfTheElementByElementChange() {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0xB_0D)
    var random = SeededGenerator(seed: seed)
    var nextID = 0
    var insertedAndFilled = 0
    for iteration in 0..<Self.iterations {
      let shape = (0..<Int.random(in: 1...3, using: &random)).map { _ in
        (0..<Int.random(in: 0...2, using: &random)).map { _ in
          defer { nextID += 10 }
          return (0..<Int.random(in: 0..<10, using: &random)).map { Item(id: nextID + $0) }
        }
      }
      let bulk = Twin(shape)
      let elements = Twin(shape)
      for round in 0..<4 {
        // Round 0: one call, a batch of its own; otherwise a batch of calls, sections inserted
        // in it (whose element events stop at the section) and single appends.
        let alone = round == 0
        var operations: [Operation] = []
        var inserted: Set<Int> = []
        func run() {
          for _ in 0..<(alone ? 1 : Int.random(in: 1...6, using: &random)) {
            let operation: Operation
            if !alone && Int.random(in: 0..<4, using: &random) == 0 {
              inserted.insert(bulk.sections.count)
              operation = .insertSection(
                group: Int.random(in: 0..<bulk.groups.count, using: &random),
                (0..<Int.random(in: 0...3, using: &random)).map { Item(id: nextID + $0) })
              nextID += 3
            } else if bulk.sections.isEmpty {
              continue
            } else if !alone && Int.random(in: 0..<5, using: &random) == 0 {
              operation = .append(
                section: Int.random(in: 0..<bulk.sections.count, using: &random),
                Item(id: nextID))
              nextID += 1
            } else {
              let section = Int.random(in: 0..<bulk.sections.count, using: &random)
              if inserted.contains(section) { insertedAndFilled += 1 }
              operation = .bulk(
                section: section,
                Bulk.random(bulk.sections[section].elements, nextID: &nextID, using: &random))
            }
            operations.append(operation)
            operation.apply(to: bulk, byElements: false)
            operation.apply(to: elements, byElements: true)
          }
        }
        if alone {
          run()
        } else {
          bulk.coordinator.performBatchUpdates {
            elements.coordinator.performBatchUpdates { run() }
          }
        }
        var problem: String?
        if !bulk.view.failures.isEmpty || !elements.view.failures.isEmpty {
          problem = "adapter failures \((bulk.view.failures + elements.view.failures).map(\.kinds))"
        } else if bulk.view.mirrorValues != bulk.model {
          problem = "the view does not show the model"
        } else if bulk.model != elements.model {
          problem = "the twins differ"
        } else if bulk.view.changesets != elements.view.changesets {
          problem =
            "changesets \(bulk.view.changesets.last.map { "\($0)" } ?? "none"), element by "
            + "element \(elements.view.changesets.last.map { "\($0)" } ?? "none")"
        }
        if let problem {
          Issue.record(
            Comment(
              rawValue: "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)), iteration "
                + "\(iteration), round \(round): \(problem); operations \(operations)"))
          return
        }
      }
    }
    #expect(insertedAndFilled > Self.iterations / 4)
  }

  // MARK: Sections inserted in the open batch

  /// Every bulk mutator, on a section inserted in the open batch: nothing reaches the reducer
  /// but the section's insertion, while a section whose provider has a delegate of the user's
  /// reports every event to it.
  @Test func onASectionInsertedInTheBatch_noElementEventClimbs_unlessSomeoneElseListens() {
    let root = ComposedSectionProvider()
    let quiet = ComposedSectionProvider()
    let heard = ComposedSectionProvider()
    root.append(quiet)
    root.append(heard)
    let (coordinator, adapter) = CoordinatorInsertedSectionsTests.present(root)
    let forwarder = CoordinatorInsertedSectionsListenerTests.Forwarder(replacingDelegateOf: heard)
    heard.updateDelegate = forwarder
    let calls: [Bulk] = [
      .append((0..<6).map { Item(id: $0) }), .appendSequence([Item(id: 6)]),
      .insert([Item(id: 7), Item(id: 8)], at: 1), .replace(0..<3, [Item(id: 0), Item(id: 9)]),
      .setBounds(2..<4, [Item(id: 10)]), .removeSubrange(1..<2), .removeFirst(1),
      .removeLast(1), .reload(0..<2), .removeAllWhere([4]), .removeAll, .append([Item(id: 11)]),
    ]
    var recorded: [SectionProviderMapping.Event] = []
    var expected: [String] = []
    root.performBatchUpdates {
      let (a, b) = (ArraySection<Item>(), ArraySection<Item>())
      quiet.append(a)
      heard.append(b)
      let recorder = EventRecorder()
      let twin = ArraySection<Item>()
      twin.updateDelegate = recorder
      for call in calls {
        call.apply(to: a)
        call.apply(to: b)
        call.applyByElements(to: twin)
      }
      recorded = CoordinatorInsertedSectionsTests.recordedElementEvents(coordinator)
      expected = recorder.log.filter { $0 != "begin" && $0 != "end" }.map {
        let parts = $0.split(separator: " ")
        let index = Int(parts[1])!
        let change: ElementChange =
          switch parts[0] {
          case "insert": .insert(index)
          case "remove": .remove(index)
          default: .update(index)
          }
        return "section 0: \(change)"
      }
    }
    #expect(expected.count > 20)
    #expect(forwarder.elementEvents == expected)
    // The events of the section under the provider with a delegate of the user's reached the
    // reducer; none of the other's did.
    #expect(recorded.count == expected.count)
    #expect(recorded.allSatisfy { if case .element(_, inSection: 1) = $0 { true } else { false } })
    #expect(adapter.failures.isEmpty)
    #expect(adapter.lastChangeset?.insertedSectionRanges == [0..<2])
    #expect(coordinator.numberOfElements(inSection: 0) == 1)
  }
}
