import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

@Suite("Changeset.apply: element changes applied in one pass, against a rebuilt reference")
struct ElementMirrorApplyTests {
  /// Random sections of up to 60 elements and a random changeset of element changes only
  /// (deletes, inserts, reloads, moves within and across sections; now and then an index out of
  /// range, negative, repeated, or a path of another length), and the generator, to go on.
  static func randomCase(seed: UInt64) -> (
    old: [[String]], changeset: Changeset, generator: SeededGenerator
  ) {
    var rng = SeededGenerator(seed: seed)
    func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    let old = (0..<int(1...4)).map { section in
      (0..<int(0...60)).map { "\(section).\($0)" }
    }
    func section() -> Int { int(0...40) == 0 ? int(-1...old.count) : int(0...old.count - 1) }
    func oldPath() -> IndexPath {
      let section = section()
      let count = old.indices.contains(section) ? old[section].count : 3
      switch int(0...60) {
      case 0: return [section]
      case 1: return [section, -1]
      case 2: return [section, count]
      default: return [section, int(0...max(0, count - 1))]
      }
    }
    func newPath() -> IndexPath {
      let section = section()
      let count = old.indices.contains(section) ? old[section].count : 3
      return int(0...60) == 0 ? [section, -1] : [section, int(0...count + 1)]
    }
    var changeset = Changeset()
    for _ in 0..<(int(0...5) == 0 ? int(0...30) : int(0...6)) {
      switch int(0...3) {
      case 0: changeset.deletedElements.append(oldPath())
      case 1: changeset.insertedElements.append(newPath())
      case 2: changeset.reloadedElements.append(oldPath())
      default: changeset.movedElements.append(.init(from: oldPath(), to: newPath()))
      }
    }
    return (old, changeset, rng)
  }

  /// The value the tests give a new element.
  static func value(_ path: IndexPath) -> String { "new \(path)" }

  /// The values the rebuilding applier asks for, by path, the sections it makes of `old`, and
  /// whether `changeset` fits them (`old` itself when not).
  static func rebuilt(_ old: [[String]], _ changeset: Changeset) -> (
    asked: [IndexPath: String], sections: [[String]], fits: Bool
  ) {
    var asked: [IndexPath: String] = [:]
    var sections = old
    do {
      try changeset.applyByRebuilding(
        to: &sections,
        newElement: { path in
          asked[path] = value(path)
          return value(path)
        })
      return (asked, sections, true)
    } catch {
      return (asked, old, false)
    }
  }

  /// The random changesets on their random sections: the in-place applier gives what
  /// rebuilding every touched section gives, or throws the same error and leaves the mirror as
  /// it was, also when the mirror's storage is shared or a value cannot be given.
  @Test func elementChangesApplyAsTheRebuildingApplier() {
    struct NoValue: Error, Equatable {}
    var applied = 0
    var moved = 0
    for seed in randomizedSeeds(base: 83_000, count: 3_000) {
      let (old, changeset, generator) = Self.randomCase(seed: seed)
      var rng = generator
      // Now and then a value that cannot be given.
      let refused: IndexPath? =
        Int.random(in: 0...20, using: &rng) == 0
        ? [Int.random(in: 0...old.count - 1, using: &rng), Int.random(in: 0...6, using: &rng)]
        : nil
      let newValue = { (path: IndexPath) throws(NoValue) -> String in
        guard path != refused else { throw NoValue() }
        return Self.value(path)
      }
      func outcome(_ apply: (inout [[String]]) throws -> Void) -> Result<[[String]], AnyError> {
        var mirror = old
        let shared = mirror  // a second reference: copy on write must keep it intact
        do {
          try apply(&mirror)
        } catch {
          #expect(mirror == old && shared == old, "seed \(seed): \(changeset) on \(old)")
          return .failure(AnyError(error))
        }
        #expect(shared == old, "seed \(seed): \(changeset) on \(old)")
        return .success(mirror)
      }
      let inPlace = outcome { try changeset.apply(to: &$0, newElement: newValue) }
      let rebuilt = outcome { try changeset.applyByRebuilding(to: &$0, newElement: newValue) }
      #expect(
        inPlace == rebuilt,
        "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)): \(changeset) on \(old)")
      if case .success = inPlace {
        applied += 1
        if !changeset.movedElements.isEmpty { moved += 1 }
      }
    }
    // Enough of the random changesets fit for the comparison to mean something.
    let replaying = ProcessInfo.processInfo.environment["SECTIONKIT_SEED"] != nil
    #expect(replaying || (applied > 600 && moved > 150), "\(applied) applied, \(moved) with moves")
  }

  /// The values given by path, as a stream's changeset carries them
  /// (`applyElementChanges(to:newValues:)`, the stream mirror's way): exactly the values the
  /// rebuilding applier asks for, or one of them left out, one more, or one at another path. It
  /// applies the changeset as the rebuilding applier does when the values are exactly those
  /// asked for, and otherwise declines and leaves the mirror as it was.
  @Test func valuesGivenByPathApplyAsTheRebuildingApplier() {
    var applied = 0
    var declined = 0
    for seed in randomizedSeeds(base: 84_000, count: 3_000) {
      let (old, changeset, generator) = Self.randomCase(seed: seed)
      var rng = generator
      // The values asked for, by the reference.
      let (asked, reference, fits) = Self.rebuilt(old, changeset)
      var given = asked
      let exact: Bool
      switch Int.random(in: 0...5, using: &rng) {
      case 0 where !given.isEmpty:
        given.removeValue(forKey: given.keys.sorted(by: { "\($0)" < "\($1)" })[0])
        exact = false
      case 1:
        let path: IndexPath = [
          Int.random(in: 0...old.count, using: &rng), Int.random(in: -1...8, using: &rng),
        ]
        exact = given[path] != nil
        given[path] = "extra"
        if exact { given[path] = Self.value(path) }
      case 2 where !given.isEmpty:
        let first = given.keys.sorted(by: { "\($0)" < "\($1)" })[0]
        let moved: IndexPath = [first[0], first[1] + 1]
        exact = given[moved] != nil
        if !exact {
          given.removeValue(forKey: first)
          given[moved] = Self.value(moved)
        }
      default: exact = true
      }
      Self.expectApplied(
        old, reference, fits: fits, exact: exact, applied: &applied, declined: &declined,
        "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)): \(changeset) on \(old), given \(given)"
      ) { changeset.applyElementChanges(to: &$0, newValues: given) }
    }
    let replaying = ProcessInfo.processInfo.environment["SECTIONKIT_SEED"] != nil
    #expect(
      replaying || (applied > 500 && declined > 100), "\(applied) applied, \(declined) declined")
  }

  /// The values given in the order of their paths with the path of each
  /// (`applyElementChanges(to:newValues:at:)`, the way of a stream's changeset that keeps its
  /// values sorted): exactly the values the rebuilding applier asks for, in path order, or one
  /// left out, one more, one at another path, or two swapped. It applies the changeset as the
  /// rebuilding applier does when the paths are exactly those asked for, in order, and otherwise
  /// declines and leaves the mirror, and a copy of it kept elsewhere, as they were.
  @Test func valuesGivenInPathOrderApplyAsTheRebuildingApplier() {
    var applied = 0
    var declined = 0
    for seed in randomizedSeeds(base: 85_000, count: 3_000) {
      let (old, changeset, generator) = Self.randomCase(seed: seed)
      var rng = generator
      let (asked, reference, fits) = Self.rebuilt(old, changeset)
      var paths = asked.keys.sorted()
      let exact: Bool
      switch Int.random(in: 0...6, using: &rng) {
      case 0 where !paths.isEmpty:
        paths.remove(at: Int.random(in: 0..<paths.count, using: &rng))
        exact = false
      case 1:
        let path: IndexPath = [
          Int.random(in: 0...old.count, using: &rng), Int.random(in: -1...8, using: &rng),
        ]
        paths.insert(path, at: Int.random(in: 0...paths.count, using: &rng))
        exact = false
      case 2 where !paths.isEmpty:
        let index = Int.random(in: 0..<paths.count, using: &rng)
        paths[index] = [paths[index][0], paths[index][1] + Int.random(in: 1...2, using: &rng)]
        exact = paths == asked.keys.sorted()
      case 3 where paths.count > 1:
        let index = Int.random(in: 1..<paths.count, using: &rng)
        paths.swapAt(index - 1, index)
        exact = false
      case 4 where !paths.isEmpty:
        paths[0] = [paths[0][0]]
        exact = false
      default: exact = true
      }
      let values = paths.map { Self.value($0) }
      Self.expectApplied(
        old, reference, fits: fits, exact: exact, applied: &applied, declined: &declined,
        "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)): \(changeset) on \(old), given \(paths)"
      ) { changeset.applyElementChanges(to: &$0, newValues: values, at: paths) }
    }
    let replaying = ProcessInfo.processInfo.environment["SECTIONKIT_SEED"] != nil
    #expect(
      replaying || (applied > 500 && declined > 200), "\(applied) applied, \(declined) declined")
  }

  /// Applies `apply` to a copy of `old` (and keeps another copy, as a client would elsewhere):
  /// it must apply exactly when the changeset `fits` and the values given are `exact`, leave the
  /// mirror equal to `reference` when it applies and to `old` when it declines, and never touch
  /// the other copy. Counts the cases applied and those declined although the changeset fits.
  static func expectApplied(
    _ old: [[String]], _ reference: [[String]], fits: Bool, exact: Bool, applied: inout Int,
    declined: inout Int, _ context: String, _ apply: (inout [[String]]) -> Bool
  ) {
    var mirror = old
    let shared = mirror
    let took = apply(&mirror)
    #expect(took == (fits && exact), "\(context)")
    #expect(mirror == (took ? reference : old), "\(context)")
    #expect(shared == old, "\(context)")
    if took { applied += 1 } else if fits { declined += 1 }
  }

  /// How many ``Tracked`` values are alive.
  final class Census {
    var alive = 0
  }

  /// A value that counts itself in a ``Census`` while it lives.
  final class Tracked {
    let census: Census
    init(_ census: Census) {
      self.census = census
      census.alive += 1
    }
    deinit { census.alive -= 1 }
  }

  /// Every value the appliers hold on the way — the ones removed, moved, given and gathered
  /// before a value could not be given — is released once: after each random changeset, applied
  /// or refused, with values asked for (one now and then refused), given by path or in path
  /// order, the values alive are the mirror's, and none once it goes.
  @Test func valuesAreReleasedOnceWhateverComes() {
    struct NoValue: Error {}
    var applied = 0
    for seed in randomizedSeeds(base: 86_000, count: 2_000) {
      let (old, changeset, generator) = Self.randomCase(seed: seed)
      var rng = generator
      let census = Census()
      var mirror = old.map { $0.map { _ in Tracked(census) } }
      let way = Int.random(in: 0...2, using: &rng)
      let refused = Int.random(in: 0...8, using: &rng) == 0
      do {
        var paths: [IndexPath] = []
        var reference = old
        try? changeset.applyByRebuilding(
          to: &reference,
          newElement: { path in
            paths.append(path)
            return ""
          })
        paths.sort()
        if refused && !paths.isEmpty { paths.removeLast() }
        let given = paths.map { _ in Tracked(census) }
        switch way {
        case 0:
          do {
            var asked = 0
            try changeset.apply(
              to: &mirror,
              newElement: { _ in
                asked += 1
                guard !refused || asked < 2 else { throw NoValue() }
                return Tracked(census)
              })
            applied += 1
          } catch {}
        case 1:
          let byPath = Dictionary(uniqueKeysWithValues: zip(paths, given))
          if changeset.applyElementChanges(to: &mirror, newValues: byPath) { applied += 1 }
        default:
          if changeset.applyElementChanges(to: &mirror, newValues: given, at: paths) {
            applied += 1
          }
        }
      }
      let held = mirror.reduce(0) { $0 + $1.count }
      #expect(
        census.alive == held,
        "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)), way \(way): \(census.alive) alive, \(held) in the mirror; \(changeset) on \(old)"
      )
      mirror = []
      #expect(census.alive == 0, "seed \(seed): \(census.alive) alive with no mirror")
    }
    let replaying = ProcessInfo.processInfo.environment["SECTIONKIT_SEED"] != nil
    #expect(replaying || applied > 400, "\(applied) applied")
  }

  /// An error, compared by its type and, for a mismatch, its field: when several sections do not
  /// fit, which one a plan names first follows a dictionary's order, which differs between two
  /// plans of the same changeset.
  struct AnyError: Error, Equatable {
    var description: String
    init(_ error: any Error) {
      description = (error as? ChangesetMismatch).map { "mismatch of \($0.field)" } ?? "\(error)"
    }
  }
}
