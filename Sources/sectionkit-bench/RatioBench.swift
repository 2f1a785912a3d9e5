import Foundation
import SectionKit
import SectionKitTesting

/// The benchmarks of the performance targets, each figure printed beside an in-run reference: a
/// plain `[[Int]]` doing the same edits on the same random draws, with a Fenwick tree of element
/// counts for global offsets. Ratios, not just times, so that a reader on any machine can compare.
///
/// Every series uses one tree shape at 10², 10³ and 10⁴ sections: a root, 10 providers, the
/// sections split evenly under them, 100 elements each. Figures are medians of ``runs`` runs with
/// the lowest and highest beside them.
enum Ratios {
  /// The benchmarks, run by name (`sectionkit-bench lookup single`), all of them by default.
  static let names = ["lookup", "single", "batch", "bigbuild"]
  static let sizes = [100, 1_000, 10_000]
  static let runs = 5
  static let elementsPerSection = 100

  static func run(_ name: String) {
    switch name {
    case "lookup": lookups()
    case "single": singleChanges()
    case "batch": batches()
    case "bigbuild": bigBuild()
    default: preconditionFailure("Ratios.run: unknown benchmark \(name)")
    }
  }

  // MARK: Measuring

  /// A median with the lowest and highest of the runs, per operation.
  struct Figure {
    var median: Double
    var low: Double
    var high: Double

    init(_ samples: [Double], per operations: Int) {
      let sorted = samples.map { $0 / Double(operations) }.sorted()
      median = sorted[sorted.count / 2]
      low = sorted[0]
      high = sorted[sorted.count - 1]
    }

    /// `1.23 µs (1.20–1.40)`.
    func text(_ unit: Unit = .micro) -> String {
      let format = median * unit.scale < 10 ? "%.3f" : "%.1f"
      return String(format: format, median * unit.scale) + " \(unit.rawValue) ("
        + String(format: format, low * unit.scale) + "–"
        + String(format: format, high * unit.scale) + ")"
    }

    enum Unit: String {
      case micro = "µs"
      case milli = "ms"
      var scale: Double { self == .micro ? 1e6 : 1e3 }
    }
  }

  static func ratio(_ figure: Figure, _ reference: Figure) -> String {
    String(format: "%.1f×", figure.median / reference.median)
  }

  // MARK: The trees

  /// A tree of `sections` sections of ``elementsPerSection`` elements, under 10 providers.
  final class Tree {
    let root = ComposedSectionProvider()
    var sections: [ArraySection<Int>] = []

    init(sections count: Int, elements: Int = elementsPerSection) {
      let providers = (0..<10).map { _ in ComposedSectionProvider() }
      for provider in providers { root.append(provider) }
      for index in 0..<count {
        let section = ArraySection<Int>(0..<elements)
        sections.append(section)
        providers[index * 10 / count].append(section)
      }
    }

    func apply(_ edit: Edit) {
      let section = sections[edit.section]
      switch edit.kind {
      case .insert: section.insert(-1, at: edit.a)
      case .remove: section.remove(at: edit.a)
      // A different value: an equal write is no change.
      case .update: section[edit.a] = section[edit.a] &+ 1
      case .move: section.move(from: edit.a, to: edit.b)
      }
    }
  }

  /// Receives the mapping's events and does nothing: the cost of the events alone.
  final class NullMappingDelegate: SectionProviderMappingDelegate {
    var events = 0
    func mapping(_ mapping: SectionProviderMapping, didReceive event: SectionProviderMapping.Event)
    {
      events &+= 1
    }
  }

  /// One random element change.
  struct Edit {
    enum Kind { case insert, remove, update, move }
    var kind: Kind
    var section: Int
    var a: Int
    var b = 0
  }

  /// Draws `count` random edits valid on sections of `counts` elements, and updates `counts`.
  static func draw(
    _ count: Int, counts: inout [Int], using rng: inout SeededGenerator
  ) -> [Edit] {
    (0..<count).map { _ in
      let section = Int.random(in: 0..<counts.count, using: &rng)
      let n = counts[section]
      switch Int.random(in: 0..<4, using: &rng) {
      case 1 where n > 1:
        counts[section] -= 1
        return Edit(kind: .remove, section: section, a: Int.random(in: 0..<n, using: &rng))
      case 2 where n > 0:
        return Edit(kind: .update, section: section, a: Int.random(in: 0..<n, using: &rng))
      case 3 where n > 1:
        // Never a move onto itself, which changes nothing and reports nothing.
        let from = Int.random(in: 0..<n, using: &rng)
        let offset = Int.random(in: 1..<n, using: &rng)
        return Edit(kind: .move, section: section, a: from, b: (from + offset) % n)
      default:
        counts[section] += 1
        return Edit(kind: .insert, section: section, a: Int.random(in: 0...n, using: &rng))
      }
    }
  }

  /// The reference: an array of arrays, with a Fenwick tree of element counts for the global
  /// offset of each change.
  struct Plain {
    var sections: [[Int]]
    var fenwick: [Int]
    var checksum = 0

    init(sections: Int) {
      self.sections = Array(repeating: Array(0..<elementsPerSection), count: sections)
      fenwick = Array(repeating: 0, count: sections + 1)
      for index in 0..<sections { add(elementsPerSection, at: index) }
    }

    mutating func add(_ delta: Int, at section: Int) {
      var index = section + 1
      while index < fenwick.count {
        fenwick[index] += delta
        index += index & -index
      }
    }

    /// The number of elements before `section`.
    func offset(of section: Int) -> Int {
      var index = section
      var total = 0
      while index > 0 {
        total += fenwick[index]
        index -= index & -index
      }
      return total
    }

    mutating func apply(_ edit: Edit) {
      switch edit.kind {
      case .insert:
        sections[edit.section].insert(-1, at: edit.a)
        add(1, at: edit.section)
      case .remove:
        sections[edit.section].remove(at: edit.a)
        add(-1, at: edit.section)
      case .update: sections[edit.section][edit.a] &+= 1
      case .move:
        let element = sections[edit.section].remove(at: edit.a)
        sections[edit.section].insert(element, at: edit.b)
      }
      // The global offset of the change, as a view would need it.
      checksum &+= offset(of: edit.section) + edit.a
    }
  }

  // MARK: The benchmarks

  static func lookups() {
    print("## Local → global lookup and back: section + index → IndexPath → section + index")
    print("   (SectionProviderMapping.indexPath(for:in:) then sectionAndIndex(for:), and the")
    print("   coordinator's; reference: a position array by section id and [[Int]]; 100,000 round")
    print("   trips per run)")
    let count = 100_000
    for size in sizes {
      let tree = Tree(sections: size)
      let coordinator = Coordinator(sectionProvider: tree.root)
      coordinator.adapter = NullAdapter()
      let plain = Plain(sections: size)
      let position = Array(0..<size)
      var rng = SeededGenerator(seed: 10)
      let draws = (0..<count).map { _ in
        (Int.random(in: 0..<size, using: &rng), Int.random(in: 0..<elementsPerSection, using: &rng))
      }
      var checksum = 0
      let kit = Figure(
        (0..<runs).map { _ in
          Bench.seconds {
            checksum &+= mappingRoundTrips(coordinator.mapping, tree.sections, draws)
          }
        }, per: count)
      let viaCoordinator = Figure(
        (0..<runs).map { _ in
          Bench.seconds { checksum &+= coordinatorRoundTrips(coordinator, tree.sections, draws) }
        }, per: count)
      let reference = Figure(
        (0..<runs).map { _ in
          Bench.seconds { checksum &+= referenceRoundTrips(plain, position, draws) }
        }, per: count)
      precondition(checksum > 0)
      print(
        "   \(pad(size)) sections: \(kit.text()) per round trip; reference \(reference.text()); "
          + "\(ratio(kit, reference))  (target ≤ 0.1 µs)")
      print(
        "          coordinator: \(viaCoordinator.text()), \(ratio(viaCoordinator, reference))")
    }
    print()
  }

  // The round trips of `lookups`, kept out of line so that `valgrind --tool=callgrind
  // --toggle-collect='*RoundTrips*'` counts their instructions alone.

  @inline(never)
  static func mappingRoundTrips(
    _ mapping: SectionProviderMapping, _ sections: [ArraySection<Int>], _ draws: [(Int, Int)]
  ) -> Int {
    var checksum = 0
    for (section, index) in draws {
      let path = mapping.indexPath(for: index, in: sections[section])!
      let (found, local) = mapping.sectionAndIndex(for: path)
      precondition(found === sections[section])
      checksum &+= local
    }
    return checksum
  }

  @inline(never)
  static func coordinatorRoundTrips(
    _ coordinator: Coordinator, _ sections: [ArraySection<Int>], _ draws: [(Int, Int)]
  ) -> Int {
    var checksum = 0
    for (section, index) in draws {
      let path = coordinator.indexPath(for: index, in: sections[section])!
      let (found, local) = coordinator.sectionAndIndex(for: path)
      precondition(found === sections[section])
      checksum &+= local
    }
    return checksum
  }

  @inline(never)
  static func referenceRoundTrips(_ plain: Plain, _ position: [Int], _ draws: [(Int, Int)]) -> Int {
    var checksum = 0
    for (section, index) in draws {
      let path = IndexPath(item: index, section: position[section])
      precondition(path[1] < plain.sections[path[0]].count)
      checksum &+= path[1]
    }
    return checksum
  }

  static func singleChanges() {
    print("## One random element change per batch, through the coordinator to an adapter")
    print(
      "   (insert, remove, update or move; 100,000 changes per run; reference: [[Int]] + Fenwick)")
    let count = 100_000
    for size in sizes {
      let tree = Tree(sections: size)
      let coordinator = Coordinator(sectionProvider: tree.root)
      let adapter = NullAdapter()
      coordinator.adapter = adapter
      var plain = Plain(sections: size)
      var counts = Array(repeating: elementsPerSection, count: size)
      var rng = SeededGenerator(seed: 11)
      var kitSamples: [Double] = []
      var plainSamples: [Double] = []
      for _ in 0..<runs {
        let edits = draw(count, counts: &counts, using: &rng)
        kitSamples.append(Bench.seconds { for edit in edits { tree.apply(edit) } })
        plainSamples.append(Bench.seconds { for edit in edits { plain.apply(edit) } })
      }
      precondition(adapter.changesets == count * runs && plain.checksum != 0)
      let kit = Figure(kitSamples, per: count)
      let reference = Figure(plainSamples, per: count)
      print(
        "   \(pad(size)) sections: \(kit.text()) per change; reference \(reference.text()); "
          + "\(ratio(kit, reference))  (target ≤ 0.5 µs)")
    }
    print()
  }

  static func batches() {
    print(
      "## Batches of random element changes: the coordinator and its reducer vs the events alone")
    print("   (events alone: the same tree with a mapping and a delegate that does nothing;")
    print("   100,000 changes per run; reference: [[Int]] + Fenwick)")
    for batchSize in [10, 100] {
      let count = 100_000
      for size in sizes {
        let coordinated = Tree(sections: size)
        let coordinator = Coordinator(sectionProvider: coordinated.root)
        let adapter = NullAdapter()
        coordinator.adapter = adapter
        let alone = Tree(sections: size)
        let mapping = SectionProviderMapping(sectionProvider: alone.root)
        let delegate = NullMappingDelegate()
        mapping.delegate = delegate
        var plain = Plain(sections: size)
        var counts = Array(repeating: elementsPerSection, count: size)
        var rng = SeededGenerator(seed: 12)
        var samples: [[Double]] = [[], [], []]
        for _ in 0..<runs {
          let edits = draw(count, counts: &counts, using: &rng)
          samples[0].append(Bench.seconds { inBatches(edits, batchSize, coordinated) })
          samples[1].append(Bench.seconds { inBatches(edits, batchSize, alone) })
          samples[2].append(Bench.seconds { for edit in edits { plain.apply(edit) } })
        }
        precondition(adapter.changesets == count / batchSize * runs && delegate.events > 0)
        let batches = count / batchSize
        let kit = Figure(samples[0], per: batches)
        let events = Figure(samples[1], per: batches)
        let reference = Figure(samples[2], per: batches)
        print(
          "   \(batchSize) changes, \(pad(size)) sections: \(kit.text()) per batch; events alone "
            + "\(events.text()), \(ratio(kit, events)) (target ≤ 2×); reference "
            + "\(reference.text()), \(ratio(kit, reference))")
      }
    }
    print()
  }

  static func inBatches(_ edits: [Edit], _ size: Int, _ tree: Tree) {
    var start = 0
    while start < edits.count {
      let end = Swift.min(start + size, edits.count)
      tree.root.performBatchUpdates {
        for edit in edits[start..<end] { tree.apply(edit) }
      }
      start = end
    }
  }

  static func bigBuild() {
    print("## Building 100 providers × 100 sections × 100 elements with a coordinator attached")
    print("   (reference: the same appends to [[Int]] with a Fenwick tree of counts)")
    func build(oneBatch: Bool, contentsOf: Bool = false) -> Double {
      bigBuildOnce(providers: 100, oneBatch: oneBatch, contentsOf: contentsOf)
    }
    let reference = Figure(
      (0..<runs).map { _ in
        var plain = Plain(sections: 0)
        return Bench.seconds {
          for _ in 0..<10_000 {
            plain.sections.append([])
            plain.fenwick.append(0)
            for element in 0..<100 { plain.sections[plain.sections.count - 1].append(element) }
          }
        }
      }, per: 1)
    let each = Figure((0..<runs).map { _ in build(oneBatch: false) }, per: 1)
    let one = Figure((0..<runs).map { _ in build(oneBatch: true) }, per: 1)
    let bulk = Figure((0..<runs).map { _ in build(oneBatch: true, contentsOf: true) }, per: 1)
    let eachBulk = Figure(
      (0..<runs).map { _ in build(oneBatch: false, contentsOf: true) }, per: 1)
    print(
      "   each append its own batch: \(each.text(.milli)), \(ratio(each, reference)) "
        + "(target ≤ 1,000 ms)")
    print(
      "   all in one batch:          \(one.text(.milli)), \(ratio(one, reference)) (target ≤ 100 ms)"
    )
    print(
      "   one batch, append(contentsOf:) per section: \(bulk.text(.milli)), "
        + "\(ratio(bulk, reference))")
    print(
      "   each append(contentsOf:) its own batch: \(eachBulk.text(.milli)), "
        + "\(ratio(eachBulk, reference))")
    print("   reference:                 \(reference.text(.milli))")
    print()
  }

  /// Builds `providers` × 100 sections × 100 elements with a coordinator and an adapter attached,
  /// all in one batch of the root or each change its own batch; returns the time of the build.
  /// `sectionkit-bench bigbuild1 [PROVIDERS] [contentsOf] [each]` runs it once, in one batch
  /// (each change its own batch with `each`), for callgrind (two values of PROVIDERS give the
  /// cost of one provider's 10,000 appends).
  static func bigBuildOnce(providers: Int, oneBatch: Bool, contentsOf: Bool) -> Double {
    let root = ComposedSectionProvider()
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = NullAdapter()
    coordinator.adapter = adapter
    let time = Bench.seconds {
      let body = { Bench.appendProviders(providers, to: root, contentsOf: contentsOf) }
      if oneBatch { root.performBatchUpdates(body) } else { body() }
    }
    precondition(coordinator.numberOfSections == providers * 100)
    // An empty provider inserts no section, hence no changeset: one per section and one per
    // element (one per section with `append(contentsOf:)`).
    let batches = providers * 100 * (contentsOf ? 2 : 101)
    precondition(adapter.changesets == (oneBatch ? 1 : batches))
    return time
  }

  /// What `sectionkit-bench allocations …` runs under `valgrind --tool=dhat`, which counts every
  /// allocation (total blocks) and the peak of bytes in use (`At t-gmax`):
  /// - `changes N`: N single changes at 10³ sections after a warm-up; run with two values of N
  ///   and divide the difference of the block counts by the difference of N;
  /// - `tree S E`: builds S sections of E `Int` elements (the tree shape of this file) with a
  ///   coordinator and an adapter attached and the lookup index filled;
  /// - `plain S E`: the same elements in a `[[Int]]`.
  static func allocations(_ arguments: [String]) {
    let numbers = arguments.compactMap { Int($0) }
    switch (arguments.first, numbers.count) {
    case ("changes", 1): changes(numbers[0])
    case ("tree", 2):
      let tree = Tree(sections: numbers[0], elements: numbers[1])
      let coordinator = Coordinator(sectionProvider: tree.root)
      coordinator.adapter = NullAdapter()
      for section in tree.sections { _ = coordinator.mapping.sectionOffset(for: section) }
      withExtendedLifetime((tree, coordinator)) {}
    case ("batches", 3): batchChanges(numbers[0], numbers[1], numbers[2], coordinated: true)
    case ("batchesalone", 3): batchChanges(numbers[0], numbers[1], numbers[2], coordinated: false)
    case ("plain", 2):
      let plain = (0..<numbers[0]).map { _ in Array(0..<numbers[1]) }
      withExtendedLifetime(plain) {}
    default:
      print(
        "usage: sectionkit-bench allocations changes N | tree SECTIONS ELEMENTS | plain SECTIONS ELEMENTS"
          + " | batches SECTIONS BATCH N | batchesalone SECTIONS BATCH N")
    }
  }

  private static func changes(_ count: Int) {
    let tree = Tree(sections: 1_000)
    let coordinator = Coordinator(sectionProvider: tree.root)
    let adapter = NullAdapter()
    coordinator.adapter = adapter
    var counts = Array(repeating: elementsPerSection, count: 1_000)
    var rng = SeededGenerator(seed: 13)
    // No element array grows during the counted changes.
    for section in tree.sections { section.reserveCapacity(400) }
    let edits = draw(count + 1_000, counts: &counts, using: &rng)
    for edit in edits[..<1_000] { tree.apply(edit) }
    for edit in edits[1_000...] { tree.apply(edit) }
    precondition(adapter.changesets == count + 1_000)
  }

  /// `count` random element changes in batches of `batchSize` over `sections` sections, through a
  /// coordinator or (`coordinated == false`) to a mapping alone, for callgrind: the difference of
  /// two counts, divided by the difference of their `count`, is the cost of one change.
  private static func batchChanges(
    _ sections: Int, _ batchSize: Int, _ count: Int, coordinated: Bool
  ) {
    let tree = Tree(sections: sections)
    let coordinator = coordinated ? Coordinator(sectionProvider: tree.root) : nil
    let adapter = NullAdapter()
    coordinator?.adapter = adapter
    let mapping = coordinated ? nil : SectionProviderMapping(sectionProvider: tree.root)
    let delegate = NullMappingDelegate()
    mapping?.delegate = delegate
    var counts = Array(repeating: elementsPerSection, count: sections)
    var rng = SeededGenerator(seed: 12)
    let edits = draw(count, counts: &counts, using: &rng)
    inBatches(edits, batchSize, tree)
    precondition(coordinated ? adapter.changesets == count / batchSize : delegate.events > 0)
    withExtendedLifetime((coordinator, mapping)) {}
  }

  static func pad(_ size: Int) -> String {
    let text = size.formatted()
    return String(repeating: " ", count: Swift.max(0, 6 - text.count)) + text
  }
}
