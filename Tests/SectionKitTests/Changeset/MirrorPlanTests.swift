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

    /// What the flat plan of a changeset that changes no section decides, in the same terms.
    init(_ plan: ElementMirrorPlan, sections: Int) {
      newToOld = Array(0..<sections)
      var removed: [Int: [Int]] = [:]
      var fixed: [Int: [String]] = [:]
      for path in plan.removed { removed[path.section, default: []].append(path.item) }
      for arrival in plan.arrivals {
        let (section, item) = (arrival.path.section, arrival.path.item)
        fixed[section, default: []].append(
          arrival.from.map { "\(item) from \(format([$0.section, $0.item]))" } ?? "\(item) new")
      }
      elements = [:]
      for section in Set(removed.keys).union(fixed.keys) {
        elements[section] = "removed \(removed[section] ?? []), arriving \(fixed[section] ?? [])"
      }
    }
  }

  /// A random changeset — mostly of element changes only, valid and not (indexes out of range,
  /// negative, repeated, in every part), some with section changes — with the counts it is
  /// planned on and, now and then, the number of sections expected.
  static func randomChangeset(seed: UInt64) -> (Changeset, counts: [Int], newSectionCount: Int?) {
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
    return (changeset, counts, newSectionCount)
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
      let (changeset, counts, newSectionCount) = Self.randomChangeset(seed: seed)
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

  /// The same random changesets planned flat (``ElementMirrorPlan``, the applier's way for
  /// changesets of element changes only): the long way's plan, and no plan exactly where the long
  /// way throws (the applier then throws the long way's error).
  @Test func theFlatPlanPlansAsTheLongWay() {
    var flat = 0
    for seed in randomizedSeeds(base: 81_000, count: 4_000) {
      let (changeset, counts, newSectionCount) = Self.randomChangeset(seed: seed)
      let long = Self.plan(changeset, counts, newSectionCount: newSectionCount, general: true)
      let context = "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)): \(changeset) on \(counts)"
      if let plan = ElementMirrorPlan(
        changeset, oldCounts: counts, newSectionCount: newSectionCount)
      {
        flat += 1
        #expect(long == .success(Decided(plan, sections: counts.count)), "\(context)")
      } else if MirrorPlan.keepsSections(changeset) {
        guard case .failure = long else {
          Issue.record("no flat plan for a changeset the long way plans: \(context)")
          continue
        }
      }
    }
    let replaying = ProcessInfo.processInfo.environment["SECTIONKIT_SEED"] != nil
    #expect(replaying || flat > 300, "\(flat) flat plans")
  }
}
