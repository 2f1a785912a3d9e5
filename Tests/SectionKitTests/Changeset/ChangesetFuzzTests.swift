import Foundation
import SectionKit
import SectionKitConsole
import SectionKitTesting
import Testing

/// Random and mutated changesets, decoded and applied: decoding either throws a `DecodingError`
/// or gives a changeset that re-encodes identically; the console adapter and the validator never
/// crash or hang on anything, report what does not fit, and the adapter keeps working.
///
/// Reproduce a failure with `SECTIONKIT_SEED=<seed> swift test --filter ChangesetFuzzTests`; run
/// longer with `SECTIONKIT_FUZZ_ITERATIONS=<n>` (default 1,000 per test).
@Suite struct ChangesetFuzzTests {
  static let iterations =
    ProcessInfo.processInfo.environment["SECTIONKIT_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 1_000

  /// Records a failure with its seed and iteration.
  static func record(_ seed: UInt64, _ iteration: Int, _ problem: String) {
    let text =
      "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)), iteration \(iteration): \(problem)"
    Issue.record(Comment(rawValue: text))
  }

  static func makeGenerator(default seed: UInt64) -> SeededGenerator {
    SeededGenerator(seed: SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: seed))
  }

  /// A number a payload might hold: mostly small, sometimes negative, huge or `Int.max`.
  static func number(_ random: inout SeededGenerator) -> Int {
    let extremes = [-1, -2, Int.max, Int.max - 1, 1 << 62, -(1 << 62), Int.min + 1, 1 << 31]
    return Int.random(in: 0..<5, using: &random) == 0
      ? extremes.randomElement(using: &random)!
      : Int.random(in: 0..<6, using: &random)
  }

  // MARK: Decoding

  /// The decoding property for one payload; a description of what went wrong, or `nil`.
  static func decodingProblem(_ data: Data) -> String? {
    let decoded: Changeset
    do {
      decoded = try JSONDecoder().decode(Changeset.self, from: data)
    } catch is DecodingError {
      return nil
    } catch {
      return "decoding threw \(error), not a DecodingError"
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    do {
      let encoded = try encoder.encode(decoded)
      let again = try JSONDecoder().decode(Changeset.self, from: encoded)
      guard again == decoded, try encoder.encode(again) == encoded else {
        return "decoded \(decoded), which re-encodes as another changeset"
      }
      return nil
    } catch {
      return "decoded \(decoded), whose own encoding does not decode: \(error)"
    }
  }

  /// A random JSON value shaped like a changeset part, sometimes not.
  static func randomPart(_ key: String, _ random: inout SeededGenerator) -> String {
    func list(_ element: (inout SeededGenerator) -> String) -> String {
      "["
        + (0..<Int.random(in: 0...3, using: &random)).map { _ in element(&random) }
        .joined(separator: ",") + "]"
    }
    func path(_ random: inout SeededGenerator) -> String {
      indexPathJSON(
        (0..<[2, 2, 2, 0, 1, 3].randomElement(using: &random)!).map { _ in
          number(&random)
        })
    }
    if Int.random(in: 0..<30, using: &random) == 0 {
      return ["null", "\"x\"", "{}", "[[1]]", "[1, 2]", "[{\"from\": 1}]"].randomElement(
        using: &random)!
    }
    switch key {
    case "deletedSectionRanges", "insertedSectionRanges", "reloadedSectionRanges":
      return list { random in
        let lower = number(&random)
        let upper = Bool.random(using: &random) ? lower &+ number(&random) : number(&random)
        return "[\(lower), \(upper)]"
      }
    case "movedSections":
      return list { "{\"from\": \(number(&$0)), \"to\": \(number(&$0))}" }
    case "movedElements":
      return list { "{\"from\": \(path(&$0)), \"to\": \(path(&$0))}" }
    default:
      return list(path)
    }
  }

  static let keys = [
    "deletedSectionRanges", "insertedSectionRanges", "reloadedSectionRanges", "movedSections",
    "deletedElements", "insertedElements", "reloadedElements", "movedElements",
  ]

  @Test func randomPayloads_throwADecodingErrorOrRoundTrip() {
    var random = Self.makeGenerator(default: 71)
    var decoded = 0
    for iteration in 0..<Self.iterations {
      var fields: [String] = []
      for key in Self.keys where Int.random(in: 0..<3, using: &random) == 0 {
        fields.append("\"\(key)\": \(Self.randomPart(key, &random))")
      }
      let data = Data(("{" + fields.joined(separator: ",") + "}").utf8)
      if let problem = Self.decodingProblem(data) {
        Self.record(random.seed, iteration, "\(String(decoding: data, as: UTF8.self)): \(problem)")
        return
      }
      if (try? JSONDecoder().decode(Changeset.self, from: data)) != nil { decoded += 1 }
    }
    // Some payloads are valid: the property is not only exercised on errors.
    #expect(decoded > Self.iterations / 20, "seed \(random.seed)")
  }

  /// Changesets the coordinator emits for random batches on three sections.
  static func emittedChangesets(_ random: inout SeededGenerator, count: Int) -> [Changeset] {
    let root = ComposedSectionProvider()
    let sections = (0..<3).map { _ in ArraySection<Int>(Array(0..<4)) }
    for section in sections { root.append(section) }
    let coordinator = Coordinator(sectionProvider: root)
    let view = TestAdapter(strict: false)
    coordinator.adapter = view
    var next = 100
    while view.changesets.count < count {
      root.performBatchUpdates {
        for _ in 0..<Int.random(in: 1...5, using: &random) {
          let section = sections.randomElement(using: &random)!
          let size = section.count
          switch Int.random(in: 0..<4, using: &random) {
          case 0 where size > 0: section.remove(at: Int.random(in: 0..<size, using: &random))
          case 1 where size > 1:
            section.move(
              from: Int.random(in: 0..<size, using: &random),
              to: Int.random(in: 0..<size, using: &random))
          case 2 where size > 0: section[Int.random(in: 0..<size, using: &random)] = next
          default: section.insert(next, at: Int.random(in: 0...size, using: &random))
          }
          next += 1
        }
      }
    }
    return view.changesets
  }

  /// `value` with one random change deep inside: a number replaced, an array element dropped,
  /// duplicated or swapped, an index path lengthened or shortened.
  static func mutate(_ value: Any, _ random: inout SeededGenerator) -> Any {
    switch value {
    case var object as [String: Any] where !object.isEmpty:
      let key = object.keys.sorted().randomElement(using: &random)!
      object[key] = mutate(object[key]!, &random)
      return object
    case var array as [Any]:
      let roll = Int.random(in: 0..<6, using: &random)
      if array.isEmpty || roll == 0 {
        array.append(array.last ?? number(&random))
      } else if roll == 1 {
        array.remove(at: Int.random(in: 0..<array.count, using: &random))
      } else if roll == 2 && array.count > 1 {
        array.swapAt(0, array.count - 1)
      } else if roll == 3 {
        array.insert(array.randomElement(using: &random)!, at: 0)
      } else {
        let index = Int.random(in: 0..<array.count, using: &random)
        array[index] = mutate(array[index], &random)
      }
      return array
    case is NSNumber:
      return number(&random)
    default:
      return value
    }
  }

  @Test func mutatedEmittedChangesets_throwADecodingErrorOrRoundTrip() throws {
    var random = Self.makeGenerator(default: 72)
    let changesets = Self.emittedChangesets(&random, count: 60)
    let valid = try changesets.map { try JSONEncoder().encode($0) }
    for data in valid { #expect(Self.decodingProblem(data) == nil) }
    for iteration in 0..<Self.iterations {
      var object = try JSONSerialization.jsonObject(with: valid.randomElement(using: &random)!)
      for _ in 0..<Int.random(in: 1...3, using: &random) { object = Self.mutate(object, &random) }
      let data = try JSONSerialization.data(withJSONObject: object)
      if let problem = Self.decodingProblem(data) {
        Self.record(random.seed, iteration, "\(String(decoding: data, as: UTF8.self)): \(problem)")
        return
      }
    }
  }

  // MARK: Applying

  /// A random in-memory changeset: anything the public initialiser accepts.
  static func randomChangeset(_ random: inout SeededGenerator) -> Changeset {
    func sections() -> IndexSet {
      var set = IndexSet()
      for _ in 0..<Int.random(in: 0...2, using: &random)
      where Int.random(in: 0..<3, using: &random) == 0 {
        let lower = number(&random)
        let width = Swift.max(0, number(&random))
        let (upper, overflow) = lower.addingReportingOverflow(width)
        let range = lower..<(overflow ? Int.max : upper)
        // Foundation's IndexSet traps when the indexes it holds outnumber `Int.max`.
        let (_, tooMany) = set.count.addingReportingOverflow(
          range.upperBound.subtractingReportingOverflow(range.lowerBound).overflow
            ? Int.max : range.count)
        if !tooMany { set.insert(integersIn: range) }
      }
      return set
    }
    func paths() -> [IndexPath] {
      (0..<Int.random(in: 0...2, using: &random)).map { _ in path() }
    }
    func path() -> IndexPath {
      let count = [2, 2, 2, 2, 0, 1, 3].randomElement(using: &random)!
      return IndexPath(indexes: (0..<count).map { _ in number(&random) })
    }
    return Changeset(
      deletedSections: sections(), insertedSections: sections(), reloadedSections: sections(),
      movedSections: (0..<Int.random(in: 0...1, using: &random)).map { _ in
        .init(from: number(&random), to: number(&random))
      },
      deletedElements: paths(), insertedElements: paths(), reloadedElements: paths(),
      movedElements: (0..<Int.random(in: 0...1, using: &random)).map { _ in
        .init(from: path(), to: path())
      })
  }

  /// Whether `changeset` names a section or element outside `counts` (the data source does not
  /// change, so old and new counts are the same), or a malformed or negative one.
  static func isOutOfBounds(_ changeset: Changeset, counts: [Int]) -> Bool {
    let sectionSets = [
      changeset.deletedSectionRanges, changeset.insertedSectionRanges,
      changeset.reloadedSectionRanges,
    ]
    if sectionSets.joined().contains(where: { $0.lowerBound < 0 || $0.upperBound > counts.count }
    ) {
      return true
    }
    func outside(_ path: IndexPath) -> Bool {
      path.count != 2 || !counts.indices.contains(path[0])
        || !(0..<counts[path[0]]).contains(path[1])
    }
    let moves = changeset.movedElements.flatMap { [$0.from, $0.to] }
    return
      (changeset.deletedElements + changeset.insertedElements + changeset.reloadedElements
      + moves).contains(where: outside)
      || changeset.movedSections.contains {
        !counts.indices.contains($0.from) || !counts.indices.contains($0.to)
      }
  }

  @Test func randomChangesets_areReportedByTheConsoleAndTheValidator_andTheConsoleKeepsWorking() {
    var random = Self.makeGenerator(default: 73)
    let root = ComposedSectionProvider()
    let sections = [
      ArraySection(["a", "b", "c"]), ArraySection<String>(), ArraySection(["d", "e"]),
    ]
    for section in sections { root.append(section) }
    let coordinator = Coordinator(sectionProvider: root)
    let console = ConsoleAdapter(output: String(), options: ConsoleOptions(style: .plain))
    coordinator.adapter = console
    let counts = [3, 0, 2]
    let validator = BatchValidator()
    var reported = 0
    for iteration in 0..<Self.iterations {
      let changeset = Self.randomChangeset(&random)
      func fail(_ problem: String) {
        Self.record(random.seed, iteration, "changeset:\n\(changeset)\n\(problem)")
      }
      let violations = validator.validate(
        oldCounts: counts, newCounts: counts, changeset: changeset)
      _ = validator.reloadDestinations(in: changeset)
      let start = console.output.endIndex
      console.apply(changeset, from: coordinator) {}
      let log = String(console.output[start...])
      let inconsistent = log.contains("! inconsistent changeset")
      if inconsistent { reported += 1 }
      if Self.isOutOfBounds(changeset, counts: counts) {
        if !inconsistent { return fail("the console did not report it:\n\(log)") }
        if !violations.contains(where: \.isError) {
          return fail("the validator found no error: \(violations)")
        }
      }
      if console.shownCounts != counts {
        return fail("the console shows counts \(console.shownCounts)")
      }
      if inconsistent
        && console.renderedTree
          != ConsoleRenderer.render(coordinator: coordinator, options: console.options)
      {
        return fail("the console did not re-read everything")
      }
      // Still usable: a real change is applied and logged as usual.
      let before = console.output.endIndex
      sections[1].append("x")
      sections[1].remove(at: 0)
      let next = String(console.output[before...])
      if next.contains("inconsistent") || !next.contains("inserted")
        || console.shownCounts != counts
      {
        return fail("the next changesets were not applied normally:\n\(next)")
      }
      console.reloadData(from: coordinator)
    }
    #expect(reported > Self.iterations / 2, "seed \(random.seed)")
  }

  // MARK: Reload arithmetic

  /// UIKit's reload arithmetic (`Docs/Batching.md`, rule B3) replayed operation by operation, as the
  /// validator did before it counted section ranges: the reference for small changesets.
  static func referenceDestinations(_ changeset: Changeset, legacy: Bool) -> [IndexPath: IndexPath]
  {
    typealias Op = (section: Int, item: Int?)
    func key(_ op: Op) -> (Int, Int) { (op.section, op.item ?? Int.max) }
    // Legacy UIKit removes duplicate element deletes and inserts first; modern counts each copy.
    func elements(_ paths: [IndexPath]) -> [Op] {
      (legacy ? Array(Set(paths)) : paths).map { ($0[0], $0[1]) }
    }
    let deletes: [Op] =
      (changeset.deletedSections.map { ($0, nil) } + elements(changeset.deletedElements))
      .sorted { key($0) > key($1) }
    let inserts: [Op] =
      (changeset.insertedSections.map { ($0, nil) } + elements(changeset.insertedElements))
      .sorted { key($0) < key($1) }
    var result: [IndexPath: IndexPath] = [:]
    reloads: for reload in Set(changeset.reloadedElements) {
      var section = reload[0]
      var row = reload[1]
      for delete in deletes {
        if delete.section == reload[0] && delete.item == reload[1] { continue reloads }
        if delete.item == nil {
          if delete.section == reload[0] { continue }
          if delete.section <= section { section -= 1 }
        } else if delete.section == section, delete.item! <= row,
          legacy || !changeset.deletedSections.contains(delete.section)
        {
          row -= 1
        }
      }
      for insert in inserts {
        if insert.item == nil {
          if insert.section <= section { section += 1 }
        } else if insert.section == section, insert.item! <= row,
          legacy || !changeset.insertedSections.contains(insert.section)
        {
          row += 1
        }
      }
      result[reload] = [section, row]
    }
    return result
  }

  @Test func reloadDestinations_matchOperationByOperationArithmetic() {
    var random = Self.makeGenerator(default: 74)
    func small() -> Int { Int.random(in: 0..<5, using: &random) }
    func sections() -> IndexSet {
      IndexSet((0..<Int.random(in: 0...3, using: &random)).map { _ in small() })
    }
    func paths(_ count: Int) -> [IndexPath] {
      (0..<Int.random(in: 0...count, using: &random)).map { _ in [small(), small()] }
    }
    for iteration in 0..<Self.iterations {
      let changeset = Changeset(
        deletedSections: sections(), insertedSections: sections(),
        deletedElements: paths(4), insertedElements: paths(4), reloadedElements: paths(3))
      for model in [BatchValidator.Model.modern, .legacy] {
        let expected = Self.referenceDestinations(changeset, legacy: model == .legacy)
        let actual = BatchValidator(model: model).reloadDestinations(in: changeset)
        if actual != expected {
          Self.record(
            random.seed, iteration, "\(model): \(actual) instead of \(expected) for\n\(changeset)")
          return
        }
      }
    }
  }
}
