import Foundation
import SectionKit
import SectionKitTesting
import Testing

/// What `TestAdapter` does by default: tolerated rules, program code's selections shown in the
/// simulated selection, changesets let go (recorded as copies).
@Suite struct TestAdapterDefaultsTests {
  typealias Fixture = TestAdapterTests.Fixture
  typealias FailureLog = TestAdapterTests.FailureLog

  final class Pickable: ArraySection<String>, SelectionHandler {
    var allowsMultipleSelection: Bool { true }
  }

  // MARK: Tolerated rules

  @Test func aToleratedRule_doesNotFail_butOtherStrictWarningsDo() {
    let log = FailureLog()
    let view = TestAdapter(
      strict: true, tolerating: [.duplicateEntry], onFailure: { log.failures.append($0) })
    let fixture = Fixture(view: view)
    // A duplicate reload: the tolerated warning (and a changeset decoding refuses).
    view.apply(
      Changeset(reloadedElements: [path(0, 0), path(0, 0)]), from: fixture.coordinator
    ) {}
    #expect(log.failures.isEmpty)
    #expect(view.toleratedRules == [.duplicateEntry])

    // A delete inside a deleted section: another strict warning, not tolerated (the counts do
    // not change either, an error).
    view.apply(
      Changeset(deletedSections: [1], deletedElements: [path(1, 0)]), from: fixture.coordinator
    ) {}
    let rules = log.failures.first?.violations.map(\.rule) ?? []
    #expect(rules.contains(.itemDeleteOrReloadInsideRemovedSection))
  }

  @Test func aToleratedError_isNotReported() {
    let log = FailureLog()
    let view = TestAdapter(
      tolerating: [.deleteItemOutOfBounds, .invalidNumberOfItems],
      onFailure: { log.failures.append($0) })
    let fixture = Fixture(view: view)
    view.apply(Changeset(deletedElements: [path(0, 5)]), from: fixture.coordinator) {}
    #expect(log.failures.isEmpty)
    view.toleratedRules = []
    view.apply(Changeset(deletedElements: [path(0, 5)]), from: fixture.coordinator) {}
    #expect(log.failures.first?.violations.first?.rule == .deleteItemOutOfBounds)
  }

  // MARK: Selection made by program code

  func pickableFixture(answers: Bool = true) -> (Coordinator, Pickable, TestAdapter) {
    let section = Pickable(["a", "b", "c"])
    let root = ComposedSectionProvider()
    root.append(section)
    let coordinator = Coordinator(sectionProvider: root)
    let view = TestAdapter(strict: true)
    view.answersShowsSelected = answers
    coordinator.adapter = view
    return (coordinator, section, view)
  }

  @Test func programSelection_showsInTheSimulatedSelection() {
    let (coordinator, _, view) = pickableFixture()
    #expect(coordinator.selectElement(at: path(0, 1)))
    #expect(view.mirrorSelectedIndexPaths == [path(0, 1)])
    #expect(view.selections == [[path(0, 1)]])
    #expect(view.showsSelected(path(0, 1)) == true)
    #expect(view.showsSelected(path(0, 2)) == false)
    #expect(view.showsSelected(path(3, 0)) == nil)

    // The user's own tap is not told back.
    #expect(view.userSelect(path(0, 2), in: coordinator))
    #expect(view.selections == [[path(0, 1)]])
    #expect(view.mirrorSelectedIndexPaths == coordinator.selectedIndexPaths)

    #expect(coordinator.deselectElement(at: path(0, 1)))
    #expect(view.deselections == [[path(0, 1)]])
    #expect(view.mirrorSelectedIndexPaths == [path(0, 2)])
    #expect(view.failures.isEmpty)
  }

  @Test func anAdapterThatDoesNotAnswer_isStillToldOfProgramSelection() {
    let (coordinator, _, view) = pickableFixture(answers: false)
    #expect(coordinator.selectElement(at: path(0, 1)))
    #expect(view.showsSelected(path(0, 1)) == nil)
    #expect(view.selections == [[path(0, 1)]])
    #expect(view.mirrorSelectedIndexPaths == [path(0, 1)])
    #expect(coordinator.selectedIndexPaths == [path(0, 1)])
  }

  @Test func randomProgramAndUserSelection_mirrorTheCoordinator() {
    var random = SeededGenerator(seed: 30)
    for _ in 0..<50 {
      let (coordinator, section, view) = pickableFixture()
      for step in 0..<40 {
        let count = section.count
        let index = count == 0 ? 0 : Int.random(in: 0..<count, using: &random)
        let target = path(0, index)
        switch Int.random(in: 0..<6, using: &random) {
        case 0 where count > 0: coordinator.selectElement(at: target)
        case 1 where count > 0: coordinator.deselectElement(at: target)
        case 2 where count > 0:
          if view.showsSelected(target) == true {
            view.userDeselect(target, in: coordinator)
          } else {
            view.userSelect(target, in: coordinator)
          }
        case 3 where count > 0: section.remove(at: index)
        case 4: section.insert("n\(step)", at: Int.random(in: 0...count, using: &random))
        default:
          if count > 1 { section.move(from: index, to: (index + 1) % count) }
        }
        #expect(view.mirrorSelectedIndexPaths == coordinator.selectedIndexPaths)
      }
      #expect(view.failures.isEmpty)
    }
  }

  // MARK: Changesets kept or let go

  @Test func byDefault_changesetsAreLetGoAndRecordedAsCopies() {
    let view = TestAdapter()
    #expect(!view.keepsChangesets && view.recordsChangesets)
  }

  /// The same random batches through an adapter that keeps the coordinator's changesets and one
  /// that lets them go: both strict and clean, and they record the same changesets.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func randomBatches_keptOrLetGo_recordTheSameChangesets(seed: UInt64) {
    func run(keeps: Bool) -> TestAdapter {
      var random = SeededGenerator(seed: seed)
      let sections = (0..<3).map { s in ArraySection((0..<6).map { "\(s).\($0)" }) }
      let root = ComposedSectionProvider()
      for section in sections { root.append(section) }
      let coordinator = Coordinator(sectionProvider: root)
      // Strict, but for the reloads beside moves the coordinator keeps only where they land
      // right (the replay checks them).
      let view = TestAdapter(strict: true, tolerating: [.reloadCombinedWithMoves])
      view.keepsChangesets = keeps
      coordinator.adapter = view
      var next = 0
      for _ in 0..<300 {
        root.performBatchUpdates {
          for _ in 0..<Int.random(in: 1...6, using: &random) {
            let section = sections[Int.random(in: 0..<3, using: &random)]
            let count = section.count
            next += 1
            switch Int.random(in: 0..<4, using: &random) {
            case 0: section.insert("x\(next)", at: Int.random(in: 0...count, using: &random))
            case 1 where count > 0: section.remove(at: Int.random(in: 0..<count, using: &random))
            case 2 where count > 1:
              section.move(
                from: Int.random(in: 0..<count, using: &random),
                to: Int.random(in: 0..<count, using: &random))
            case 3 where count > 0:
              section[Int.random(in: 0..<count, using: &random)] = "u\(next)"
            default: section.append("a\(next)")
            }
          }
        }
      }
      #expect(view.failures.isEmpty)
      return view
    }
    let kept = run(keeps: true)
    let letGo = run(keeps: false)
    #expect(kept.applyCount == letGo.applyCount && kept.applyCount > 250)
    #expect(kept.changesets == letGo.changesets)
  }

  @Test func recordsChangesetsFalse_recordsNothing_butStillChecks() {
    let fixture = Fixture()
    fixture.view.recordsChangesets = false
    fixture.fruit.append("cherry")
    #expect(fixture.view.changesets.isEmpty && fixture.view.applyCount == 1)
    #expect(fixture.view.mirrorValues == [["apple", "banana", "cherry"], ["kale"]])
  }
}
