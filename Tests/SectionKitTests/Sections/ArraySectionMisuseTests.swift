import Foundation
import SectionKit
import SectionKitTesting
import Testing

/// What a trapping exit test wrote to standard error.
private func trapMessage(_ result: ExitTest.Result?) -> String {
  result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
}

/// A section that reports whatever element changes it is told to, in one bracket: a custom
/// section that gets its own indexes wrong.
private final class HandWrittenSection: Section {
  var numberOfElements: Int
  weak var updateDelegate: (any SectionUpdateDelegate)?
  init(count: Int) { numberOfElements = count }

  func report(removals: [Int]) {
    updateDelegate?.willBeginUpdating(self)
    for index in removals {
      numberOfElements -= 1
      updateDelegate?.section(self, didRemoveElementAt: index)
    }
    updateDelegate?.didEndUpdating(self)
  }
}

@Suite("ArraySection and SingleElementSection: user code that mutates the section")
struct SectionReentrancyTests {
  @Test func removeAllPredicateThatMutatesTheSection_trapsNamingTheMethod() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let section: ArraySection<String> = ["a", "b", "c"]
      section.removeAll {
        if $0 == "a" { section.append("d") }
        return $0 == "b"
      }
    }
    #expect(
      trapMessage(result).contains(
        "ArraySection<String>.removeAll(where:): the section was mutated from inside its own "
          + "predicate"))
  }

  @Test func sortComparatorThatMutatesTheSection_trapsNamingTheMethod() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let section: ArraySection<Int> = [3, 1, 2]
      section.sort { lhs, rhs in
        if section.count == 3 { section.removeLast() }
        return lhs < rhs
      }
    }
    #expect(
      trapMessage(result).contains(
        "ArraySection<Int>.sort(by:): the section was mutated from inside its own comparator"))
  }

  @Test func insertedCollectionThatMutatesTheSectionWhileRead_trapsNamingTheMethod() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let section: ArraySection<Int> = [1, 2, 3]
      section.insert(contentsOf: [10, 20].lazy.map { section.removeLast() + $0 }, at: 3)
    }
    #expect(
      trapMessage(result).contains(
        "ArraySection<Int>.insert(contentsOf:at:): the section was mutated while the new "
          + "elements were read"))
  }

  @Test func appendedSequenceThatMutatesTheSectionWhileRead_trapsNamingTheMethod() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let section: ArraySection<Int> = [1, 2, 3]
      section.append(
        contentsOf: (0..<2).lazy.map {
          section.append($0)
          return $0
        })
    }
    #expect(
      trapMessage(result).contains(
        "ArraySection<Int>.append(contentsOf:): the section was mutated while the new elements "
          + "were read"))
  }

  @Test func replacingThroughAMappedCollectionThatMutates_trapsNamingTheMethod() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let section: ArraySection<Int> = [1, 2, 3]
      section.replaceSubrange(0..<1, with: [7].lazy.map { section.removeFirst() + $0 })
    }
    #expect(
      trapMessage(result).contains(
        "ArraySection<Int>.replaceSubrange(_:with:): the section was mutated while the new "
          + "elements were read"))
  }

  @Test func shuffleGeneratorThatMutatesTheSection_trapsNamingTheMethod() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      struct Meddling: RandomNumberGenerator {
        let section: ArraySection<Int>
        mutating func next() -> UInt64 {
          section.append(0)
          return 1
        }
      }
      let section: ArraySection<Int> = [1, 2, 3]
      var generator = Meddling(section: section)
      section.shuffle(using: &generator)
    }
    #expect(
      trapMessage(result).contains(
        "ArraySection<Int>.shuffle(using:): the section was mutated from inside its own random "
          + "number generator"))
  }

  @Test func elementDeinitThatMutatesTheSectionDuringARemoval_trapsNamingTheMethod() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      final class Noisy {
        weak var section: ArraySection<Noisy>?
        deinit { section?.append(Noisy()) }
      }
      let section = ArraySection<Noisy>()
      let noisy = Noisy()
      noisy.section = section
      section.append(noisy)
      _ = consume noisy
      section.removeAll()
    }
    #expect(
      trapMessage(result).contains(
        "ArraySection<Noisy>.removeAll(keepingCapacity:): the section was mutated while it was "
          + "being changed"))
  }

  /// An element whose reflection (which `SingleElementSection` reads to tell `nil` apart)
  /// replaces the section's element: the outer replacement must see the inner one.
  struct Inspected: ExpressibleByNilLiteral, CustomReflectable {
    var isNil: Bool
    var onInspection: (() -> Void)?
    init(nilLiteral: ()) { isNil = true }
    init(onInspection: (() -> Void)?) {
      isNil = false
      self.onInspection = onInspection
    }
    var customMirror: Mirror {
      onInspection?()
      return isNil
        ? Mirror(self, children: [], displayStyle: .optional)
        : Mirror(self, children: ["value": 1], displayStyle: .struct)
    }
  }

  @Test func replaceWhoseNewElementReplacesTheSectionWhenInspected_reportsBothChanges() {
    let section = SingleElementSection<Inspected>(element: nil)
    let root = ComposedSectionProvider()
    root.append(section)
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = TestAdapter(strict: true, elementReader: nil)
    coordinator.adapter = adapter
    adapter.removeAllHistory()
    section.replace(
      element: Inspected(onInspection: {
        if section.numberOfElements == 0 { section.replace(element: Inspected(onInspection: nil)) }
      }))
    #expect(adapter.failures.isEmpty)
    #expect(adapter.mirrorCounts == [1])
    #expect(section.numberOfElements == 1)
  }
}

@Suite("ArraySection and the reducer: trap messages name the method called")
struct SectionTrapMessageTests {
  @Test func removeFirstWithANegativeCount_trapsNamingTheMethod() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let section: ArraySection<Int> = [1, 2, 3]
      section.removeFirst(-1)
    }
    #expect(
      trapMessage(result).contains(
        "ArraySection<Int>.removeFirst(_:): count -1 is out of range 0...3"))
  }

  @Test func removeLastWithANegativeCount_trapsNamingTheMethod() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let section: ArraySection<Int> = [1, 2, 3]
      section.removeLast(-1)
    }
    #expect(
      trapMessage(result).contains(
        "ArraySection<Int>.removeLast(_:): count -1 is out of range 0...3"))
  }

  @Test func removeLastWithTooLargeACount_trapsNamingTheMethod() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let section: ArraySection<Int> = [1, 2, 3]
      section.removeLast(4)
    }
    #expect(
      trapMessage(result).contains(
        "ArraySection<Int>.removeLast(_:): count 4 is out of range 0...3"))
  }

  @Test func insertContentsOfOutOfRange_trapsNamingTheMethod() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let section: ArraySection<Int> = [1, 2, 3]
      section.insert(contentsOf: [4], at: 5)
    }
    #expect(
      trapMessage(result).contains(
        "ArraySection<Int>.insert(contentsOf:at:): index 5 is out of range 0...3"))
  }

  @Test func removeSubrangeOutOfRange_trapsNamingTheMethod() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let section: ArraySection<Int> = [1, 2, 3]
      section.removeSubrange(2..<5)
    }
    #expect(
      trapMessage(result).contains(
        "ArraySection<Int>.removeSubrange(_:): range 2..<5 is out of bounds 0..<3"))
  }

  @Test func settingASliceOutOfRange_trapsNamingTheSubscript() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let section: ArraySection<Int> = [1, 2, 3]
      section[2..<5] = [9]
    }
    #expect(
      trapMessage(result).contains(
        "ArraySection<Int>.subscript(bounds:): range 2..<5 is out of bounds 0..<3"))
  }

  @Test func customSectionsLoneOutOfRangeEvent_trapsAsInALongerBatch() async {
    let lone = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let section = HandWrittenSection(count: 2)
      let root = ComposedSectionProvider()
      root.append(section)
      let coordinator = Coordinator(sectionProvider: root)
      coordinator.adapter = TestAdapter(elementReader: nil)
      section.report(removals: [5])
    }
    let inBatch = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let section = HandWrittenSection(count: 2)
      let root = ComposedSectionProvider()
      root.append(section)
      let coordinator = Coordinator(sectionProvider: root)
      coordinator.adapter = TestAdapter(elementReader: nil)
      section.report(removals: [0, 5])
    }
    let message = "names element 5 of a section which has"
    #expect(trapMessage(lone).contains(message))
    #expect(trapMessage(inBatch).contains(message))
  }
}
