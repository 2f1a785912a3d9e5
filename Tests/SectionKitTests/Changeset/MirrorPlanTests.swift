import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

@Suite("MirrorPlan: the short way for changesets that change no section")
struct MirrorPlanTests {
  /// What a plan decides, comparable: the sections' sources, and each touched section's
  /// departures and arrivals.
  struct Decided: Equatable {
    var newToOld: [Int?]
    var elements: [Int: String]

    init(_ plan: MirrorPlan) {
      newToOld = plan.newToOld
      elements = plan.elements.mapValues { arrivals in
        let fixed = arrivals.fixed.map { arrival in
          switch arrival.source {
          case .new: "\(arrival.index) new"
          case .moved(let from): "\(arrival.index) from \(format(from))"
          }
        }
        return "removed \(arrivals.removed), arriving \(fixed)"
      }
    }
  }

  /// The plan of `changeset` on `counts`, the short way or the long way, or its error.
  static func plan(
    _ changeset: Changeset, _ counts: [Int], newSectionCount: Int?, general: Bool
  ) -> Result<Decided, ChangesetMismatch> {
    do {
      return .success(
        Decided(
          try MirrorPlan(
            changeset, oldCounts: counts, newSectionCount: newSectionCount, general: general)))
    } catch {
      return .failure(error as! ChangesetMismatch)
    }
  }

  /// Random changesets — mostly of element changes only, valid and not (indexes out of range,
  /// negative, repeated, in every part), some with section changes — planned the short way and
  /// the long way: the same plan, or the same error.
  @Test func theShortWayPlansAsTheLongWay() {
    var shortWays = 0
    var planned = 0
    for seed in randomizedSeeds(base: 81_000, count: 4_000) {
      var rng = SeededGenerator(seed: seed)
      func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
      let counts = (0..<int(0...4)).map { _ in int(0...8) }
      func path() -> IndexPath {
        // Now and then a path of another length, or an extreme index.
        switch int(0...40) {
        case 0: return [int(0...3)]
        case 1: return [0, Int.max]
        case 2: return [0, Int.min]
        default: return [int(-1...counts.count), int(-1...9)]
        }
      }
      var changeset = Changeset()
      for _ in 0..<int(0...10) {
        switch int(0...40) {
        case 0: changeset.deletedSections.insert(int(0...counts.count))
        case 1: changeset.insertedSections.insert(int(0...counts.count))
        case 2: changeset.movedSections.append(.init(from: int(0...3), to: int(0...3)))
        case 3...12: changeset.deletedElements.append(path())
        case 13...22: changeset.insertedElements.append(path())
        case 23...32: changeset.reloadedElements.append(path())
        default: changeset.movedElements.append(.init(from: path(), to: path()))
        }
      }
      let newSectionCount = int(0...9) == 0 ? int(0...4) : nil
      if MirrorPlan.keepsSections(changeset) { shortWays += 1 }
      let short = Self.plan(changeset, counts, newSectionCount: newSectionCount, general: false)
      let long = Self.plan(changeset, counts, newSectionCount: newSectionCount, general: true)
      if case .success = long { planned += 1 }
      #expect(
        short == long,
        "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)): \(changeset) on counts \(counts)")
      // The reload destinations, where the changeset's own arithmetic has them.
      if MirrorPlan.keepsSections(changeset) {
        #expect(
          MirrorPlan.reloadDestinationsWithinSections(changeset)
            == changeset.reloadedElementDestinations,
          "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)): \(changeset)")
      }
    }
    // Enough of both kinds for the comparison to mean something.
    let replaying = ProcessInfo.processInfo.environment["SECTIONKIT_SEED"] != nil
    #expect(replaying || (shortWays > 2_500 && planned > 400))
  }
}
