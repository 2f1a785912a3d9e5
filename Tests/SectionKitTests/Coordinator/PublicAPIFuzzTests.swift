import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// A section that adopts every handler, checks every index it is handed, and — when the fuzzer
/// arms it — changes the model from inside its own callbacks.
final class FuzzSection: ArraySection<String>, SelectionHandler, EditingHandler, MoveHandler,
  ActionHandler
{
  weak var world: FuzzWorld?
  var multiple = false
  var allowsMultipleSelection: Bool { multiple }

  func didSelect(at index: Int) { world?.handed(self, "didSelect(at:)", index) }
  func didDeselect(at index: Int) { world?.reenter() }
  func shouldSelect(at index: Int) -> Bool {
    world?.check(self, "shouldSelect(at:)", index)
    return index % 5 != 4
  }
  func didSetEditing(_ editing: Bool, at index: Int) {
    world?.handed(self, "didSetEditing(_:at:)", index)
  }
  func canMove(at index: Int) -> Bool {
    world?.check(self, "canMove(at:)", index)
    return true
  }
  func actions(at index: Int) -> [ElementAction] {
    world?.check(self, "actions(at:)", index)
    return [ElementAction(name: "rename"), ElementAction(name: "delete", isDestructive: true)]
  }
  func performAction(named name: String, at index: Int) {
    world?.check(self, "performAction(named:at:)", index)
    if name == "delete" { remove(at: index) } else { self[index] = world?.fresh() ?? "?" }
  }
}

/// A random tree with a coordinator and a strict test adapter (which re-enters from `apply`), and
/// the random calls a user, a view and the sections' own handlers make on it.
final class FuzzWorld {
  var rng: SeededGenerator
  let adapter = HookedAdapter()
  var coordinator: Coordinator!
  var sections: [FuzzSection] = []
  var segmented: [SegmentedSectionProvider] = []
  var composed: [ComposedSectionProvider] = []
  var counter = 0
  /// How many more times handlers and the adapter may change the model from their callbacks.
  var reentryBudget = 0
  var problems: [String] = []
  var log: [String] = []

  /// `keepsChangesets`: whether the test adapter keeps each changeset, or lets it go as a UIKit
  /// adapter does (the coordinator then reuses its storage).
  init(seed: UInt64, keepsChangesets: Bool = true) {
    rng = SeededGenerator(seed: seed)
    adapter.inner.keepsChangesets = keepsChangesets
    coordinator = Coordinator(sectionProvider: makeTree())
    coordinator.adapter = adapter
  }

  func fresh() -> String {
    counter += 1
    return "e\(counter)"
  }

  func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &rng) }
  func chance(_ percent: Int) -> Bool { int(0..<100) < percent }

  func makeSection() -> FuzzSection {
    let section = FuzzSection((0..<int(0..<5)).map { _ in fresh() })
    section.multiple = chance(50)
    section.world = self
    sections.append(section)
    return section
  }

  func makeTree() -> ComposedSectionProvider {
    let root = ComposedSectionProvider()
    composed.append(root)
    for _ in 0..<int(1..<4) { root.append(makeSection()) }
    let nested = ComposedSectionProvider()
    composed.append(nested)
    for _ in 0..<int(0..<3) { nested.append(makeSection()) }
    root.insert(nested, at: int(0..<root.children.count + 1))
    let segments = SegmentedSectionProvider()
    segmented.append(segments)
    segments.append(makeSection())
    segments.append(makeSection())
    root.append(segments)
    return root
  }

  // MARK: Checks made by the sections

  func check(_ section: FuzzSection, _ method: String, _ index: Int) {
    guard index < 0 || index >= section.count else { return }
    problems.append("\(method) was handed index \(index) of a section holding \(section.count)")
  }

  func handed(_ section: FuzzSection, _ method: String, _ index: Int) {
    check(section, method, index)
    reenter()
  }

  /// A handler or the adapter changes the model from its callback, now and then.
  func reenter() {
    guard reentryBudget > 0, chance(30) else { return }
    reentryBudget -= 1
    log.append("  (re-entrant)")
    step(depth: 1)
  }

  // MARK: Steps

  /// The shown sections that are fuzz sections, with their global index.
  var shown: [(index: Int, section: FuzzSection)] {
    (0..<coordinator.numberOfSections).compactMap { index in
      (coordinator.section(at: index) as? FuzzSection).map { (index, $0) }
    }
  }

  /// A path the adapter shows (inside `apply` the model may already be ahead of it).
  func randomPath() -> IndexPath? {
    let candidates = shown.filter { coordinator.numberOfElements(inSection: $0.index) > 0 }
    guard !candidates.isEmpty else { return nil }
    let pick = candidates[int(0..<candidates.count)]
    return [pick.index, int(0..<coordinator.numberOfElements(inSection: pick.index))]
  }

  func randomAttachedSection() -> FuzzSection? {
    let attached = sections.filter { coordinator.mapping.sectionOffset(for: $0) != nil }
    return attached.isEmpty ? nil : attached[int(0..<attached.count)]
  }

  func mutate(_ section: FuzzSection) {
    let count = section.count
    let kind = int(0..<8)
    log.append("[\(coordinator.mapping.sectionOffset(for: section) ?? -1)]:\(kind)")
    switch kind {
    case 0: section.append(fresh())
    case 1: section.insert(fresh(), at: int(0..<count + 1))
    case 2 where count > 0: section.remove(at: int(0..<count))
    case 3 where count > 0: section[int(0..<count)] = fresh()
    case 4 where count > 1: section.move(from: int(0..<count), to: int(0..<count))
    case 5 where count > 1: section.swapAt(int(0..<count), int(0..<count))
    case 6: section.removeAll { _ in chance(30) }
    default: section.insert(contentsOf: [fresh(), fresh()], at: int(0..<count + 1))
    }
  }

  func step(depth: Int = 0) {
    if !chance(depth == 0 ? 100 : 60) { return }
    switch int(0..<16) {
    case 0, 1, 2:
      guard let section = randomAttachedSection() else { return }
      log.append("mutate \(section.count)")
      mutate(section)
    case 3:
      log.append("batch")
      let root = composed[0]
      let body = {
        for _ in 0..<self.int(1..<4) {
          if let section = self.randomAttachedSection() { self.mutate(section) }
        }
      }
      if chance(50) {
        coordinator.performBatchUpdates(body)
      } else {
        root.performBatchUpdates(body)
      }
    case 4:
      guard let path = randomPath() else { return }
      log.append("userSelect \(path)")
      adapter.inner.userSelect(path, in: coordinator)
    case 5:
      guard let path = coordinator.selectedIndexPaths.randomElement(using: &rng) else { return }
      log.append("userDeselect \(path)")
      adapter.inner.userDeselect(path, in: coordinator)
    case 6:
      guard let (index, section) = shown.randomElement(using: &rng),
        coordinator.numberOfElements(inSection: index) > 0
      else { return }
      log.append("section select")
      section.select(index: int(0..<coordinator.numberOfElements(inSection: index)))
    case 7:
      guard let (_, section) = shown.randomElement(using: &rng) else { return }
      log.append("section selectAll/deselectAll")
      if chance(50) { section.selectAll() } else { section.deselectAll() }
    case 8:
      log.append("setEditing")
      coordinator.setEditing(!coordinator.isEditing)
    case 9:
      guard depth == 0, let path = randomPath() else { return }
      let count = coordinator.numberOfElements(inSection: path[0])
      log.append("userMove \(path)")
      adapter.inner.userMove(from: path, to: [path[0], int(0..<count)], in: coordinator)
    case 10:
      guard let path = randomPath() else { return }
      log.append("action \(path)")
      coordinator.performAction(chance(50) ? "rename" : "delete", at: path)
    case 11:
      let segments = segmented[int(0..<segmented.count)]
      guard coordinator.mapping.sectionOffset(for: segments) != nil || chance(20) else { return }
      log.append("switch segment")
      segments.currentIndex = segments.currentIndex == 0 ? 1 : 0
    case 12:
      guard let provider = composed.filter({ $0.children.count > 0 }).randomElement(using: &rng)
      else { return }
      log.append("add or remove a section")
      if chance(50) {
        provider.insert(makeSection(), at: int(0..<provider.children.count + 1))
      } else if case .section = provider.children[int(0..<provider.children.count)] {
        _ = provider.remove(at: int(0..<provider.children.count))
      }
    case 13:
      log.append("adapter re-enters from apply")
      adapter.insideApply = { [unowned self] _ in
        if self.chance(50), let path = self.randomPath() {
          self.log.append("  (in apply) userSelect \(path)")
          self.adapter.inner.userSelect(path, in: self.coordinator)
        } else if let section = self.randomAttachedSection() {
          self.log.append("  (in apply) mutate")
          self.mutate(section)
        }
      }
      if let section = randomAttachedSection() { mutate(section) }
    case 14:
      guard chance(25) else { return }
      log.append("replace the tree")
      sections.removeAll()
      segmented.removeAll()
      let old = composed[0]
      composed.removeAll()
      let tree = makeTree()
      if chance(50) {
        old.performBatchUpdates {
          if let section = old.sections.first as? FuzzSection { mutate(section) }
          coordinator.replace(sectionProvider: tree)
        }
      } else {
        coordinator.replace(sectionProvider: tree)
      }
    default:
      guard let path = randomPath() else { return }
      log.append("read \(path)")
      _ = coordinator.isSelected(path)
      _ = coordinator.actions(at: path)
      _ = coordinator.canMove(path)
      _ = coordinator.shouldSelect(path)
    }
  }

  // MARK: Invariants after each step

  func verify() -> String? {
    if let problem = problems.first { return problem }
    if coordinator.state != .idle { return "the coordinator is \(coordinator.state)" }
    if let failure = adapter.inner.failures.first { return "adapter: \(failure)" }
    let model = coordinator.mapping.sections.map { section in
      (0..<section.numberOfElements).map { TestAdapter.describeElement(section, at: $0) }
    }
    if adapter.inner.mirrorValues != model {
      return "the adapter shows \(adapter.inner.mirrorValues), the model is \(model)"
    }
    let selected = coordinator.selectedIndexPaths
    if adapter.inner.mirrorSelectedIndexPaths != selected {
      return "the adapter shows \(adapter.inner.mirrorSelectedIndexPaths) selected, the "
        + "coordinator \(selected)"
    }
    for path in selected where path[1] >= model[path[0]].count {
      return "selected \(path) is out of range"
    }
    return nil
  }
}

@Suite("Fuzz: random trees and random public calls, re-entrant handlers and adapter")
struct PublicAPIFuzzTests {
  /// The number of seeds (each 120 random calls): `SECTIONKIT_FUZZ_ITERATIONS`, 40 by default
  /// (about two seconds).
  static var seedCount: Int {
    let count = ProcessInfo.processInfo.environment["SECTIONKIT_FUZZ_ITERATIONS"].flatMap(Int.init)
    return max(1, count ?? 40)
  }

  /// Through an adapter that keeps every changeset and one that lets each go.
  @Test(arguments: [true, false])
  func randomCallsKeepEveryPromise(keepsChangesets: Bool) {
    for seed in randomizedSeeds(base: 90_000, count: Self.seedCount) {
      let world = FuzzWorld(seed: seed, keepsChangesets: keepsChangesets)
      for number in 0..<120 {
        world.reentryBudget = 3
        world.log.append("\(number + 1).")
        world.step()
        if let failure = world.verify() {
          Issue.record(
            """
            seed \(seed) (replay with SECTIONKIT_SEED=\(seed)), step \(number + 1): \(failure)
            last steps: \(world.log.suffix(30).joined(separator: " "))
            adapter: \(world.adapter.log.suffix(40))
            """)
          return
        }
      }
    }
  }

  /// Out-of-range calls trap (each in its own process) with a message that names the method,
  /// the value and the valid range; the path is drawn at random from the seed.
  @Test func randomOutOfRangeCallsTrapNamingTheRange() async {
    let seed = randomizedSeeds(base: 91_000, count: 1)[0]
    var rng = SeededGenerator(seed: seed)
    for _ in 0..<4 {
      let method = Int.random(in: 0..<6, using: &rng)
      let section = Int.random(in: -3..<4, using: &rng)
      let item = section >= 0 && section < 2 ? Int.random(in: 3..<9, using: &rng) : 0
      let result = await #expect(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) { [method = method as Int, section = section as Int, item = item as Int] in
        let root = ComposedSectionProvider()
        root.append(FuzzSection(["a", "b", "c"]))
        root.append(FuzzSection(["d"]))
        let coordinator = Coordinator(sectionProvider: root)
        coordinator.adapter = TestAdapter()
        let path: IndexPath = [section, item]
        switch method {
        case 0: coordinator.selectElement(at: path)
        case 1: coordinator.deselectElement(at: path)
        case 2: _ = coordinator.isSelected(path)
        case 3: _ = coordinator.actions(at: path)
        case 4: coordinator.performAction("rename", at: path)
        default: _ = coordinator.canMove(path)
        }
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(
        message.contains("out of range 0..<"),
        "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)): method \(method) at [\(section), \(item)]"
      )
    }
  }
}
