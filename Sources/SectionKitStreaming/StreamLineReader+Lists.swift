import Foundation
import SectionKit

/// The new elements of a line, as read: their paths in the order read, and their values in the
/// same order, read directly (strings, integers) or as the bytes of each for the value type's
/// `Codable` conformance.
struct ReadElements<Value> {
  var paths: [IndexPath] = []
  /// The values read directly, one per path (none when they are read as bytes).
  var values: [Value] = []
  /// The bytes of each value, one per path, when they are decoded with `JSONDecoder`.
  var raws: [Range<Int>] = []
  /// Whether every path was read as `[section, element]`, two plain integers (never negative),
  /// each after the one before: the checks of ``StreamLineDecoder`` on the paths then pass, and
  /// are not made again.
  var ascending = true
  /// The last path read as two plain integers.
  private var last = (-1, -1)

  /// Adds a value read at `path`; `pair`, its two indexes when it was read as two plain
  /// integers.
  mutating func append(_ value: ReadValue<Value>, at path: IndexPath, pair: (Int, Int)?) {
    if ascending, let pair, last < pair {
      last = pair
    } else {
      ascending = false
    }
    paths.append(path)
    switch value {
    case .value(let value): values.append(value)
    case .raw(let range): raws.append(range)
    }
  }

  /// Room for `count` elements, in the list each kind of value goes to.
  mutating func reserveCapacity(_ count: Int, direct: Bool) {
    paths.reserveCapacity(count)
    if direct { values.reserveCapacity(count) } else { raws.reserveCapacity(count) }
  }
}

/// A changeset's element lists as the reader reads them: whether, as far as read, they keep the
/// invariants `Changeset.invariantViolation()` checks, so that it need not check them again.
/// That is when every list of section changes and of moves is empty, and every path of the
/// deletes, inserts and reloads was read as two plain integers (never negative), each list
/// ascending without repeats, within ``/SectionKit/Changeset/sectionLimit`` and
/// ``/SectionKit/Changeset/elementLimit``, and no element is both deleted and reloaded.
struct ElementLists {
  /// Which list a path is in.
  enum List {
    case deleted, inserted, reloaded
  }

  /// Whether the lists keep the invariants, as far as read.
  var checked = true
  /// The deleted and the reloaded paths, to check that none is both.
  private var deleted: [(Int, Int)] = []
  private var reloaded: [(Int, Int)] = []

  /// What ``reset(to:)`` goes back to.
  var mark: (checked: Bool, deleted: Int, reloaded: Int) {
    (checked, deleted.count, reloaded.count)
  }

  /// Forgets what was followed since `mark`.
  mutating func reset(to mark: (checked: Bool, deleted: Int, reloaded: Int)) {
    checked = mark.checked
    deleted.removeLast(deleted.count - mark.deleted)
    reloaded.removeLast(reloaded.count - mark.reloaded)
  }

  /// Follows `pair`, read as two plain integers in `list`, after `last`, the pair before it in
  /// the list (then `pair`).
  @inline(__always)
  mutating func follow(_ pair: (Int, Int), after last: inout (Int, Int), in list: List) {
    guard checked else { return }
    guard last < pair, pair.0 < Changeset.sectionLimit, pair.1 < Changeset.elementLimit else {
      checked = false
      return
    }
    last = pair
    switch list {
    case .deleted: deleted.append(pair)
    case .reloaded: reloaded.append(pair)
    case .inserted: break
    }
  }

  /// Checks, once the lists are read, that no element is both deleted and reloaded: one walk of
  /// the two ascending lists.
  mutating func checkDisjoint() {
    guard checked, !deleted.isEmpty, !reloaded.isEmpty else { return }
    var cursor = 0
    for pair in reloaded {
      while cursor < deleted.count && deleted[cursor] < pair { cursor += 1 }
      if cursor < deleted.count && deleted[cursor] == pair {
        checked = false
        return
      }
    }
  }
}
