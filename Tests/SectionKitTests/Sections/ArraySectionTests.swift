import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

@Suite("ArraySection emits precise element events")
struct ArraySectionTests {
  func observed(_ elements: [Int]) -> (ArraySection<Int>, EventRecorder) {
    let section = ArraySection(elements)
    let recorder = EventRecorder()
    section.updateDelegate = recorder
    return (section, recorder)
  }

  @Test func appendEmitsOneInsertInABracket() {
    let (section, recorder) = observed([1, 2])
    section.append(3)
    #expect(recorder.take() == ["begin", "insert 2", "end"])
    #expect(section.elements == [1, 2, 3])
    #expect(section.numberOfElements == 3)
  }

  @Test func insertRemoveAndSubscriptSet() {
    let (section, recorder) = observed([1, 2, 3])
    section.insert(9, at: 1)
    #expect(recorder.take() == ["begin", "insert 1", "end"])
    #expect(section.remove(at: 0) == 1)
    #expect(recorder.take() == ["begin", "remove 0", "end"])
    section[1] = 7
    #expect(recorder.take() == ["begin", "update 1", "end"])
    #expect(section.elements == [9, 7, 3])
  }

  @Test func replaceSubrangeUpdatesSharedPositionsThenRemovesOrInserts() {
    let (section, recorder) = observed([0, 1, 2, 3, 4])
    section.replaceSubrange(1..<4, with: [10])
    #expect(recorder.take() == ["begin", "update 1", "remove 3", "remove 2", "end"])
    #expect(section.elements == [0, 10, 4])
    section.replaceSubrange(0..<1, with: [5, 6, 7])
    #expect(recorder.take() == ["begin", "update 0", "insert 1", "insert 2", "end"])
    #expect(section.elements == [5, 6, 7, 10, 4])
    section.replaceSubrange(2..<2, with: [Int]())
    #expect(recorder.take().isEmpty)
  }

  @Test func rangeInsertsAndRemoves() {
    let (section, recorder) = observed([1, 2])
    section.insert(contentsOf: [7, 8], at: 1)
    #expect(recorder.take() == ["begin", "insert 1", "insert 2", "end"])
    section.append(contentsOf: [9])
    #expect(recorder.take() == ["begin", "insert 4", "end"])
    section.removeSubrange(0..<2)
    #expect(recorder.take() == ["begin", "remove 1", "remove 0", "end"])
    #expect(section.elements == [8, 2, 9])
    section.removeFirst()
    section.removeLast()
    #expect(recorder.take() == ["begin", "remove 0", "end", "begin", "remove 1", "end"])
    #expect(section.popLast() == 2)
    #expect(section.popLast() == nil)
  }

  @Test func removeAllWhereRemovesHighestFirstInOneBracket() {
    let (section, recorder) = observed([1, 2, 3, 4, 5])
    section.removeAll { $0 % 2 == 1 }
    #expect(recorder.take() == ["begin", "remove 4", "remove 2", "remove 0", "end"])
    #expect(section.elements == [2, 4])
    section.removeAll { $0 > 100 }
    #expect(recorder.take().isEmpty)
  }

  @Test func removeAllEmitsEveryRemoval() {
    let (section, recorder) = observed([1, 2, 3])
    section.removeAll()
    #expect(recorder.take() == ["begin", "remove 2", "remove 1", "remove 0", "end"])
    section.removeAll()
    #expect(recorder.take().isEmpty)
  }

  @Test func moveAndSwapAtAreMoves() {
    let (section, recorder) = observed([0, 1, 2, 3])
    section.move(from: 3, to: 0)
    #expect(recorder.take() == ["begin", "move 3->0", "end"])
    #expect(section.elements == [3, 0, 1, 2])
    section.swapAt(0, 3)
    #expect(recorder.take() == ["begin", "move 0->3", "move 2->0", "end"])
    #expect(section.elements == [2, 0, 1, 3])
    section.swapAt(1, 2)
    #expect(recorder.take() == ["begin", "move 1->2", "end"])
    #expect(section.elements == [2, 1, 0, 3])
    section.move(from: 1, to: 1)
    section.swapAt(2, 2)
    #expect(recorder.take().isEmpty)
  }

  @Test func performBatchUpdatesNestsIntoOneBracket() {
    let (section, recorder) = observed([])
    section.performBatchUpdates {
      section.append(1)
      section.performBatchUpdates { section.append(2) }
      section.remove(at: 0)
    }
    #expect(recorder.take() == ["begin", "insert 0", "insert 1", "remove 0", "end"])
    section.performBatchUpdates {}
    #expect(recorder.take().isEmpty, "an empty batch sends nothing")
  }

  @Test func collectionConformances() {
    let section: ArraySection<Int> = [3, 1, 2]
    #expect(Array(section) == [3, 1, 2])
    #expect(section.count == 3 && section.first == 3 && section.last == 2)
    #expect(section.element(at: 1) == 1)
    #expect(Array(section[1..<3]) == [1, 2])
    #expect(section.map { $0 * 2 } == [6, 2, 4])
    #expect(section == ArraySection([3, 1, 2]))
    #expect(section != ArraySection([1, 2, 3]))
    #expect(Set([section, ArraySection([3, 1, 2])]).count == 1)
    #expect(section.description == "ArraySection<Int>([3, 1, 2])")
    let built = ArraySection<Int>(repeating: 7, count: 2)
    #expect(built.elements == [7, 7])
  }

  @Test func outOfRangeIndexTrapsWithTheIndexAndCount() async {
    await #expect(processExitsWith: .failure) {
      let section: ArraySection<Int> = [1]
      _ = section.element(at: 3)
    }
    await #expect(processExitsWith: .failure) {
      let section: ArraySection<Int> = [1]
      section.remove(at: 1)
    }
  }
}

@Suite("SingleElementSection")
struct SingleElementSectionTests {
  @Test func nonOptionalElementIsAlwaysOneElement() {
    let section = SingleElementSection(element: "title")
    let recorder = EventRecorder()
    section.updateDelegate = recorder
    #expect(section.numberOfElements == 1)
    section.replace(element: "new")
    #expect(recorder.take() == ["begin", "update 0", "end"])
    #expect(section.element == "new" && section.element(at: 0) == "new")
  }

  @Test func optionalElementMovesBetweenInsertRemoveAndUpdate() {
    let section = SingleElementSection<String?>(element: nil)
    let recorder = EventRecorder()
    section.updateDelegate = recorder
    #expect(section.numberOfElements == 0)
    section.replace(element: "a")
    #expect(recorder.take() == ["begin", "insert 0", "end"])
    section.replace(element: "b")
    #expect(recorder.take() == ["begin", "update 0", "end"])
    section.replace(element: nil)
    #expect(recorder.take() == ["begin", "remove 0", "end"])
    section.replace(element: nil)
    #expect(recorder.take().isEmpty)
    #expect(section.numberOfElements == 0)
  }

  @Test func nestedOptionalCountsTheOuterLevel() {
    let section = SingleElementSection<String??>(element: .some(nil))
    #expect(section.numberOfElements == 1)
  }
}

@Suite("ArraySection reorders with moves")
struct ArraySectionPermutationTests {
  /// Applies the recorded move events to the old elements and returns the result.
  static func replay(_ log: [String], on old: [Int]) -> [Int] {
    var items = old
    for entry in log where entry.hasPrefix("move ") {
      let parts = entry.dropFirst(5).split(separator: "-").map {
        Int($0.trimmingCharacters(in: [">"]))!
      }
      items.insert(items.remove(at: parts[0]), at: parts[1])
    }
    return items
  }

  @Test func sortReverseAndShuffleEmitMovesThatReplayToTheNewOrder() {
    var rng = SeededGenerator(seed: 7)
    for size in [0, 1, 2, 5, 40] {
      let old = (0..<size).map { _ in Int.random(in: 0..<100, using: &rng) }
      for operation in ["sort", "reverse", "shuffle", "sortDescending"] {
        let section = ArraySection(old)
        let recorder = EventRecorder()
        section.updateDelegate = recorder
        switch operation {
        case "sort": section.sort()
        case "reverse": section.reverse()
        case "shuffle": section.shuffle(using: &rng)
        default: section.sort(by: >)
        }
        let log = recorder.take()
        #expect(Self.replay(log, on: old) == section.elements, "\(operation) of \(old)")
        if log.isEmpty { continue }
        #expect(log.first == "begin" && log.last == "end", "one bracket")
        #expect(log.dropFirst().dropLast().allSatisfy { $0.hasPrefix("move ") }, "only moves")
        #expect(log.count - 2 <= size, "at most one move per element")
      }
    }
    let sorted = ArraySection([1, 2, 3])
    let recorder = EventRecorder()
    sorted.updateDelegate = recorder
    sorted.sort()
    #expect(recorder.take().isEmpty, "sorting a sorted section changes nothing")
    sorted.sort(by: >)
    #expect(sorted.elements == [3, 2, 1])
  }
}

/// The mutators that make one element change do their work inline, in the client's
/// specialisation, when the change is a batch of its own; these tests pin what that path must
/// keep of the bracketed one.
@Suite struct ArraySectionOwnBatchTests {
  /// An element whose `deinit` appends to its section (once).
  final class Noisy {
    weak var section: ArraySection<Noisy>?
    let value: Int
    init(_ value: Int, section: ArraySection<Noisy>? = nil) {
      self.value = value
      self.section = section
    }
    deinit { section?.append(Noisy(-1)) }
  }

  /// A write outside any bracket releases the old element only once the update is reported:
  /// an old element whose `deinit` changes the section makes a batch of its own, after the
  /// update, and the adapter's mirror stays equal to the model.
  @Test func oldElementWhoseDeinitAppends_isABatchAfterTheUpdate() {
    let section = ArraySection<Noisy>()
    let root = ComposedSectionProvider()
    root.append(section)
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = TestAdapter(strict: true, elementReader: nil)
    coordinator.adapter = adapter
    section.append(Noisy(1, section: section))
    adapter.removeAllHistory()

    section[0] = Noisy(2)

    #expect(section.map(\.value) == [2, -1])
    #expect(
      adapter.changesets.map(\.reloadedElements) == [[IndexPath(item: 0, section: 0)], []])
    #expect(
      adapter.changesets.map(\.insertedElements) == [[], [IndexPath(item: 1, section: 0)]])
    #expect(adapter.failures.isEmpty)
    #expect(coordinator.numberOfElements(inSection: 0) == 2)
  }

  /// The fast paths still trap on a change made while the section runs user code.
  @Test func insertFromInsideRemoveAllPredicate_trapsNamingTheMethod() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let section: ArraySection<Int> = [1, 2, 3]
      let root = ComposedSectionProvider()
      root.append(section)
      section.removeAll { _ in
        section.insert(0, at: 0)
        return false
      }
    }
    let message = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
    #expect(
      message.contains(
        "ArraySection<Int>.removeAll(where:): the section was mutated from inside its own predicate"
      ))
  }
}
