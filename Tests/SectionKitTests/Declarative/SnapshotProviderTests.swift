import Foundation
import SectionKit
import SectionKitTesting
import Testing

/// `SnapshotSectionProvider`: whole snapshots diffed by identity — sections and elements across
/// the whole snapshot — through the coordinator and the strict `TestAdapter` (every changeset
/// valid under UIKit's rules, and its replay equal to the new snapshot).
///
/// Reproduce a random failure with `SECTIONKIT_SEED=<seed> swift test --filter
/// SnapshotProviderTests`; run longer with `SECTIONKIT_FUZZ_ITERATIONS=<n>` (default 300).
@Suite struct SnapshotProviderTests {
  static let iterations =
    ProcessInfo.processInfo.environment["SECTIONKIT_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 300

  typealias Snapshot = [SectionContents<Int, Item>]

  /// A snapshot provider under a coordinator with a strict test adapter.
  final class Fixture {
    let sections = SnapshotSectionProvider<Int, Item>()
    let coordinator: Coordinator
    var failures: [TestAdapterFailure] = []
    var view: TestAdapter!

    init(_ snapshot: Snapshot = []) {
      try! sections.apply(snapshot)
      coordinator = Coordinator(sectionProvider: sections.provider)
      view = TestAdapter.toleratingReloadsWithMoves { [unowned self] in failures.append($0) }
      coordinator.adapter = view
    }

    /// Applies `snapshot`, and checks one valid changeset at most (none when nothing changed)
    /// whose replay shows it; returns the changeset.
    @discardableResult
    func apply(_ snapshot: Snapshot, sourceLocation: SourceLocation = #_sourceLocation) throws
      -> Changeset?
    {
      let before = view.changesets.count
      try sections.apply(snapshot)
      #expect(
        failures.isEmpty, "\(failures.map(\.kinds)) \(failures.map(\.violations).prefix(3))",
        sourceLocation: sourceLocation)
      #expect(sections.snapshot == snapshot, sourceLocation: sourceLocation)
      #expect(view.mirrorValues == shown(snapshot), sourceLocation: sourceLocation)
      #expect(view.changesets.count - before <= 1, sourceLocation: sourceLocation)
      return view.changesets.count > before ? view.changesets.last : nil
    }
  }

  static func items(_ ids: some Sequence<Int>, version: Int = 0) -> [Item] {
    ids.map { Item(id: $0, version: version) }
  }

  /// A snapshot of sections `(id, element ids)`.
  static func snapshot(_ sections: [(Int, [Int])]) -> Snapshot {
    sections.map { SectionContents(id: $0.0, elements: items($0.1)) }
  }

  /// The number of changes in a changeset (each section and element change counts one).
  static func size(_ changeset: Changeset?) -> Int { changeset?.count ?? 0 }

  // MARK: Exact changes

  @Test func sectionsInsertedDeletedAndMoved_elementsDiffed() throws {
    let fixture = Fixture(Self.snapshot([(0, [1, 2]), (10, [11]), (20, [21, 22]), (30, [])]))
    // 10 gone, 40 new, 30 moved to the front, 20 gains 23 and loses 21.
    let changeset = try fixture.apply(
      Self.snapshot([(30, []), (0, [1, 2]), (20, [22, 23]), (40, [41])]))
    #expect(changeset?.deletedSections == [1])
    #expect(changeset?.insertedSections == [3])
    #expect(changeset?.movedSections == [.init(from: 3, to: 0)])
    #expect(changeset?.deletedElements == [IndexPath(item: 0, section: 2)])
    #expect(changeset?.insertedElements == [IndexPath(item: 1, section: 2)])
    #expect(Self.size(changeset) == 5)
  }

  @Test func anElementMovedToAnotherSection_isOneMove() throws {
    let fixture = Fixture(Self.snapshot([(0, [1, 2, 3]), (10, [11, 12])]))
    let changeset = try fixture.apply(Self.snapshot([(0, [1, 3]), (10, [11, 2, 12])]))
    #expect(changeset?.deletedElements == [])
    #expect(changeset?.insertedElements == [])
    #expect(
      changeset?.movedElements
        == [.init(from: IndexPath(item: 1, section: 0), to: IndexPath(item: 1, section: 1))])
    #expect(Self.size(changeset) == 1)
  }

  @Test func updatedElement_isReloaded() throws {
    let fixture = Fixture(Self.snapshot([(0, [1, 2]), (10, [11])]))
    var next = Self.snapshot([(0, [1, 2]), (10, [11])])
    next[0].elements[1].version = 1
    let changeset = try fixture.apply(next)
    #expect(changeset?.reloadedElements == [IndexPath(item: 1, section: 0)])
    #expect(Self.size(changeset) == 1)
    // The same section object stays.
    #expect(fixture.sections.section(withID: 0) === fixture.sections.sections[0])
  }

  @Test func theSameSnapshot_emitsNothing() throws {
    let snapshot = Self.snapshot([(0, [1, 2]), (10, []), (20, [21])])
    let fixture = Fixture(snapshot)
    #expect(try fixture.apply(snapshot) == nil)
    #expect(fixture.view.changesets.isEmpty)
  }

  @Test func sectionsKeepTheirObjectsAndIdentities() throws {
    let fixture = Fixture(Self.snapshot([(0, [1]), (10, [11])]))
    let first = fixture.sections.sections[0]
    try fixture.apply(Self.snapshot([(10, [11]), (0, [1, 2])]))
    #expect(fixture.sections.sections[1] === first)
    #expect(fixture.sections.sectionIDs == [10, 0])
    #expect(fixture.sections.sections.map { ($0 as! IdentifiedSection<Int, Item>).id } == [10, 0])
    #expect(fixture.sections.section(withID: 0) === first)
    #expect(fixture.sections.section(withID: 99) == nil)
  }

  @Test func aSectionMutatedDirectly_isDiffedFromWhatItHolds() throws {
    let fixture = Fixture(Self.snapshot([(0, [1, 2, 3])]))
    fixture.sections.sections[0].remove(at: 1)
    #expect(fixture.view.mirrorValues == [["1@0", "3@0"]])
    let changeset = try fixture.apply(Self.snapshot([(0, [1, 2, 3])]))
    #expect(changeset?.insertedElements == [IndexPath(item: 1, section: 0)])
  }

  // MARK: Worst cases

  /// Ten sections of ten elements each, ids `10 s + e`.
  static let grid = (0..<10).map { section in (section, Array(section * 10..<section * 10 + 10)) }

  @Test func reversedSections_areNineSectionMoves() throws {
    let fixture = Fixture(Self.snapshot(Self.grid))
    let changeset = try fixture.apply(Self.snapshot(Self.grid.reversed()))
    #expect(changeset?.movedSections.count == 9)
    #expect(Self.size(changeset) == 9)
  }

  @Test func rotatedSections_areOneSectionMove() throws {
    let fixture = Fixture(Self.snapshot(Self.grid))
    let left = try fixture.apply(Self.snapshot(Array(Self.grid[1...] + Self.grid[..<1])))
    #expect(left?.movedSections == [.init(from: 0, to: 9)])
    let right = try fixture.apply(Self.snapshot(Self.grid))
    #expect(right?.movedSections == [.init(from: 9, to: 0)])
  }

  @Test func allNew_deletesAndInsertsEverySection() throws {
    let fixture = Fixture(Self.snapshot(Self.grid))
    let changeset = try fixture.apply(
      Self.snapshot(Self.grid.map { ($0.0 + 100, $0.1.map { $0 + 1_000 }) }))
    #expect(changeset?.deletedSections == IndexSet(0..<10))
    #expect(changeset?.insertedSections == IndexSet(0..<10))
    #expect(Self.size(changeset) == 20)
  }

  @Test func allSame_emitsNothing() throws {
    let fixture = Fixture(Self.snapshot(Self.grid))
    #expect(try fixture.apply(Self.snapshot(Self.grid)) == nil)
  }

  @Test func oneElementFromTheFirstSectionToTheLast() throws {
    let fixture = Fixture(Self.snapshot(Self.grid))
    var next = Self.grid
    next[0].1.removeFirst()
    next[9].1.append(0)
    let changeset = try fixture.apply(Self.snapshot(next))
    #expect(
      changeset?.movedElements
        == [.init(from: IndexPath(item: 0, section: 0), to: IndexPath(item: 10, section: 9))])
    #expect(Self.size(changeset) == 1)
  }

  @Test func fromAndToEmpty() throws {
    let fixture = Fixture()
    let inserted = try fixture.apply(Self.snapshot(Self.grid))
    #expect(inserted?.insertedSections == IndexSet(0..<10))
    let deleted = try fixture.apply([])
    #expect(deleted?.deletedSections == IndexSet(0..<10))
  }

  // MARK: Errors

  /// Applies `snapshot`, expecting `error`, with nothing applied and nothing emitted.
  static func expectRejected(
    _ fixture: Fixture, _ snapshot: Snapshot, _ error: SnapshotError,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let before = (
      fixture.sections.snapshot, fixture.view.changesets.count, fixture.view.mirrorValues
    )
    let objects = fixture.sections.sections.map(ObjectIdentifier.init)
    #expect(throws: error, sourceLocation: sourceLocation) { try fixture.sections.apply(snapshot) }
    #expect(fixture.sections.snapshot == before.0, sourceLocation: sourceLocation)
    #expect(fixture.view.changesets.count == before.1, sourceLocation: sourceLocation)
    #expect(fixture.view.mirrorValues == before.2, sourceLocation: sourceLocation)
    #expect(
      fixture.sections.sections.map(ObjectIdentifier.init) == objects,
      sourceLocation: sourceLocation)
  }

  @Test func duplicateSections_throwNamingThePositions_andApplyNothing() {
    let fixture = Fixture(Self.snapshot([(0, [1]), (10, [11])]))
    let error = SnapshotError.duplicateSection(id: "10", positions: [1, 3])
    Self.expectRejected(fixture, Self.snapshot([(0, []), (10, []), (20, []), (10, [])]), error)
    #expect(
      error.description == "duplicate section identity 10 in the new snapshot, at positions 1 and 3"
    )
  }

  @Test func duplicateElementsInOneSection_throw_andApplyNothing() {
    let fixture = Fixture(Self.snapshot([(0, [1]), (10, [11])]))
    Self.expectRejected(
      fixture, Self.snapshot([(0, [1, 2, 1])]),
      .duplicateElement(
        id: "1", contents: .new,
        positions: [IndexPath(item: 0, section: 0), IndexPath(item: 2, section: 0)]))
  }

  @Test func duplicateElementsAcrossSections_throw_andApplyNothing() {
    let fixture = Fixture(Self.snapshot([(0, [1]), (10, [11])]))
    let error = SnapshotError.duplicateElement(
      id: "7", contents: .new,
      positions: [IndexPath(item: 1, section: 0), IndexPath(item: 0, section: 2)])
    Self.expectRejected(fixture, Self.snapshot([(0, [1, 7]), (10, []), (20, [7])]), error)
    #expect(
      error.description == "duplicate element identity 7 in the new snapshot, at [0, 1] and [2, 0]")
    // A new element and a surviving one: the first occurrence is named first.
    Self.expectRejected(
      fixture, Self.snapshot([(0, [11]), (10, [11])]),
      .duplicateElement(
        id: "11", contents: .new,
        positions: [IndexPath(item: 0, section: 0), IndexPath(item: 0, section: 1)]))
  }

  @Test func aDuplicateMadeByDirectMutation_isReportedAsOld() {
    let fixture = Fixture(Self.snapshot([(0, [1]), (10, [11])]))
    fixture.sections.sections[1].append(Item(id: 1))
    Self.expectRejected(
      fixture, Self.snapshot([(0, [1])]),
      .duplicateElement(
        id: "1", contents: .old,
        positions: [IndexPath(item: 0, section: 0), IndexPath(item: 1, section: 1)]))
  }

  @Test func changingTheProvidersChildrenOutsideApply_traps() async {
    await #expect(processExitsWith: .failure) {
      let sections = SnapshotSectionProvider<Int, Int>()
      try? sections.apply([SectionContents(id: 0, elements: [1])])
      sections.provider.append(ArraySection<Int>([2]))
      try? sections.apply([SectionContents(id: 0, elements: [1])])
    }
  }

  @Test func mutatingASectionFromInsideTheIdentityClosure_traps() async {
    await #expect(processExitsWith: .failure) {
      nonisolated(unsafe) var sections: SnapshotSectionProvider<Int, Int>!
      sections = SnapshotSectionProvider<Int, Int>(
        identifiedBy: { value in
          if let first = sections.sections.first, first.count < 5 { first.append(value + 100) }
          return value
        }, isUpdated: { _, _ in false })
      try? sections.apply([SectionContents(id: 0, elements: [1])])
      try? sections.apply([SectionContents(id: 0, elements: [1, 2])])
    }
  }

  @Test func applyingFromInsideTheIdentityClosure_traps() async {
    await #expect(processExitsWith: .failure) {
      nonisolated(unsafe) var sections: SnapshotSectionProvider<Int, Int>!
      nonisolated(unsafe) var nested = true
      sections = SnapshotSectionProvider<Int, Int>(
        identifiedBy: { value in
          if nested {
            nested = false
            try? sections.apply([SectionContents(id: 1, elements: [value])])
          }
          return value
        }, isUpdated: { _, _ in false })
      try? sections.apply([SectionContents(id: 0, elements: [1])])
    }
  }

  // MARK: Random snapshots

  /// Hands out fresh identities.
  struct Identities {
    var next = 0
    mutating func take() -> Int {
      next += 1
      return next
    }
  }

  /// A random snapshot of up to `maxSections` sections of up to `maxElements` elements.
  static func randomSnapshot(
    maxSections: Int, maxElements: Int, ids: inout Identities, using random: inout SeededGenerator
  ) -> Snapshot {
    (0..<Int.random(in: 0...maxSections, using: &random)).map { _ in
      SectionContents(
        id: ids.take(),
        elements: (0..<Int.random(in: 0...maxElements, using: &random)).map { _ in
          Item(id: ids.take(), version: Int.random(in: 0...1, using: &random))
        })
    }
  }

  /// `snapshot` after `count` random edits of elements (deletes, inserts, updates, moves within a
  /// section and across sections) and, when `sections` is true, of sections (deletes, inserts,
  /// moves, some of them empty).
  static func edited(
    _ snapshot: Snapshot, count: Int, sections: Bool, ids: inout Identities,
    using random: inout SeededGenerator
  ) -> Snapshot {
    var result = snapshot
    for _ in 0..<count {
      let nonEmpty = result.indices.filter { !result[$0].elements.isEmpty }
      switch Int.random(in: 0..<(sections ? 8 : 5), using: &random) {
      case 0 where !nonEmpty.isEmpty:
        let s = nonEmpty.randomElement(using: &random)!
        result[s].elements.remove(at: Int.random(in: result[s].elements.indices, using: &random))
      case 1 where !result.isEmpty:
        let s = Int.random(in: result.indices, using: &random)
        result[s].elements.insert(
          Item(id: ids.take()), at: Int.random(in: 0...result[s].elements.count, using: &random))
      case 2 where !nonEmpty.isEmpty:
        let s = nonEmpty.randomElement(using: &random)!
        result[s].elements[Int.random(in: result[s].elements.indices, using: &random)].version += 1
      case 3, 4:
        guard !nonEmpty.isEmpty else { continue }
        let s = nonEmpty.randomElement(using: &random)!
        let element = result[s].elements.remove(
          at: Int.random(in: result[s].elements.indices, using: &random))
        let t = Int.random(in: result.indices, using: &random)  // across sections, or not
        result[t].elements.insert(
          element, at: Int.random(in: 0...result[t].elements.count, using: &random))
      case 5 where !result.isEmpty:
        result.remove(at: Int.random(in: result.indices, using: &random))
      case 6:
        let elements = (0..<Int.random(in: 0...3, using: &random)).map { _ in Item(id: ids.take()) }
        result.insert(
          SectionContents(id: ids.take(), elements: elements),
          at: Int.random(in: 0...result.count, using: &random))
      case 7 where result.count > 1:
        let section = result.remove(at: Int.random(in: result.indices, using: &random))
        result.insert(section, at: Int.random(in: 0...result.count, using: &random))
      default:
        continue
      }
    }
    return result
  }

  /// `snapshot` with one duplicate identity (a section's, or an element's in another section or
  /// the same), or `nil` when it has too little to duplicate.
  static func withDuplicate(_ snapshot: Snapshot, using random: inout SeededGenerator) -> Snapshot?
  {
    var result = snapshot
    let nonEmpty = result.indices.filter { !result[$0].elements.isEmpty }
    if Bool.random(using: &random), !result.isEmpty {
      let copy = result[Int.random(in: result.indices, using: &random)].id
      result.insert(
        SectionContents(id: copy, elements: []),
        at: Int.random(in: 0...result.count, using: &random))
      return result
    }
    guard let s = nonEmpty.randomElement(using: &random) else { return nil }
    let copy = result[s].elements.randomElement(using: &random)!
    let t = Int.random(in: result.indices, using: &random)
    result[t].elements.insert(
      copy, at: Int.random(in: 0...result[t].elements.count, using: &random))
    return result
  }

  /// Random snapshots applied again and again — known edits of sections and elements (moves
  /// across sections, section reorders, empty sections), unrelated snapshots, the same snapshot,
  /// snapshots with a duplicate — each through the strict adapter: at most one valid changeset,
  /// its replay equal to the new snapshot, none when nothing changed, and nothing applied when a
  /// duplicate is rejected.
  @Test func randomSnapshots_replayThroughTheStrictAdapter() throws {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0x5AA)
    var random = SeededGenerator(seed: seed)
    var ids = Identities()
    var fixture = Fixture()
    var (rejected, changesets, crossSectionMoves, emittedAcross) = (0, 0, 0, 0)
    for iteration in 0..<Self.iterations * 4 {
      if iteration % 30 == 0 { fixture = Fixture() }
      let current = fixture.sections.snapshot
      var next: Snapshot
      var duplicate = false
      switch Int.random(in: 0..<10, using: &random) {
      case 0:
        next = Self.randomSnapshot(maxSections: 6, maxElements: 6, ids: &ids, using: &random)
      case 1:
        next = current
      case 2:
        guard let bad = Self.withDuplicate(current, using: &random) else { continue }
        next = bad
        duplicate = true
      default:
        next = Self.edited(
          current.isEmpty
            ? Self.randomSnapshot(maxSections: 5, maxElements: 5, ids: &ids, using: &random)
            : current,
          count: Int.random(in: 1...6, using: &random), sections: true, ids: &ids, using: &random)
      }
      let before = (fixture.view.changesets.count, fixture.failures.count)
      do {
        try fixture.sections.apply(next)
        #expect(!duplicate, "applied a snapshot with a duplicate")
      } catch {
        #expect(duplicate, "\(error)")
        rejected += 1
        next = current
      }
      let delivered = fixture.view.changesets.count - before.0
      #expect(delivered <= (duplicate || next == current ? 0 : 1))
      if next != current { #expect(delivered == 1) }
      changesets += delivered
      crossSectionMoves += Self.crossSectionMoves(from: current, to: next)
      if delivered == 1, let changeset = fixture.view.changesets.last {
        emittedAcross += changeset.movedElements.count {
          current[$0.from[0]].id != next[$0.to[0]].id
        }
      }
      #expect(fixture.sections.snapshot == next)
      if fixture.failures.count > before.1 || fixture.view.mirrorValues != shown(next) {
        let violations = fixture.failures.suffix(1).map { "\($0.violations)" }
        Issue.record(
          Comment(
            rawValue: "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)), iteration \(iteration): "
              + "\(current) → \(next): \(violations)"))
        return
      }
    }
    // The run exercised every path.
    #expect(rejected > Self.iterations / 20 && changesets > Self.iterations)
    #expect(crossSectionMoves > Self.iterations / 4)
    // Most of them as moves across sections (the others changed, in a section that moves, or
    // beside reloads that would cost more to convert than the moves save).
    #expect(emittedAcross * 10 > crossSectionMoves * 7)
  }

  /// The elements of `old` that are in another section of `new` (whose old section stays).
  static func crossSectionMoves(from old: Snapshot, to new: Snapshot) -> Int {
    var sectionOf: [Int: Int] = [:]
    for section in old { for element in section.elements { sectionOf[element.id] = section.id } }
    let staying = Set(old.map(\.id)).intersection(new.map(\.id))
    var count = 0
    for section in new where staying.contains(section.id) {
      for element in section.elements {
        if let was = sectionOf[element.id], was != section.id, staying.contains(was) { count += 1 }
      }
    }
    return count
  }

  /// Random 20% churns of ten sections of 100 elements (5% each deletes, inserts, updates and
  /// moves, nine in ten of the moves across sections): the changes emitted are at most 1.25 times
  /// the known edits (a move counting one, although a move across sections is a delete and an
  /// insert).
  @Test func editCount_staysCloseToTheKnownEdits() throws {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0xED17)
    var random = SeededGenerator(seed: seed)
    var (emitted, known) = (0, 0)
    for _ in 0..<max(Self.iterations / 15, 5) {
      var ids = Identities()
      let old = (0..<10).map { _ in
        SectionContents(id: ids.take(), elements: (0..<100).map { _ in Item(id: ids.take()) })
      }
      let (new, edits) = Self.churned(old, ids: &ids, using: &random)
      let fixture = Fixture(old)
      let changeset = try fixture.apply(new)
      emitted += Self.size(changeset)
      known += edits
    }
    let ratio = Double(emitted) / Double(known)
    #expect(ratio <= 1.25, "ratio \(ratio)")
  }

  /// `old` with 5% of its elements each deleted, inserted, updated and moved (to a random place
  /// of a random section), and the number of those edits.
  static func churned(
    _ old: Snapshot, ids: inout Identities, using random: inout SeededGenerator
  ) -> (Snapshot, Int) {
    var new = old
    let total = old.reduce(0) { $0 + $1.elements.count }
    let k = total / 20
    func randomElement(_ random: inout SeededGenerator) -> (Int, Int) {
      while true {
        let s = Int.random(in: new.indices, using: &random)
        if !new[s].elements.isEmpty {
          return (s, Int.random(in: new[s].elements.indices, using: &random))
        }
      }
    }
    for _ in 0..<k {
      let (s, e) = randomElement(&random)
      new[s].elements.remove(at: e)
    }
    // Updates of elements not yet updated, so that each is one edit.
    var updated = Set<Int>()
    while updated.count < k {
      let (s, e) = randomElement(&random)
      guard updated.insert(new[s].elements[e].id).inserted else { continue }
      new[s].elements[e].version += 1
    }
    for _ in 0..<k {
      let (s, e) = randomElement(&random)
      let element = new[s].elements.remove(at: e)
      let t = Int.random(in: new.indices, using: &random)
      new[t].elements.insert(element, at: Int.random(in: 0...new[t].elements.count, using: &random))
    }
    for _ in 0..<k {
      let t = Int.random(in: new.indices, using: &random)
      new[t].elements.insert(
        Item(id: ids.take()), at: Int.random(in: 0...new[t].elements.count, using: &random))
    }
    return (new, 4 * k)
  }
}

/// What a view shows of `snapshot`: each section's elements, described.
private func shown(_ snapshot: [SectionContents<Int, Item>]) -> [[String]] {
  snapshot.map { $0.elements.map(\.description) }
}
