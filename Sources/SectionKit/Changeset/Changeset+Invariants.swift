import Foundation

/// What a changeset must satisfy whatever the view it is applied to — checked when decoding.
extension Changeset {
  /// The number of sections a changeset may name: every section index it holds, and every
  /// section range's upper bound, is below it (16,777,216). Decoding refuses a changeset that
  /// names more, and ``apply(to:insertedSection:newElement:newSectionCount:)`` and
  /// ``newCounts(from:insertedSectionCounts:)`` refuse one that would leave more sections: a
  /// payload cannot make a mirror allocate what no state can have.
  public static let sectionLimit = 1 << 24
  /// The number of elements a section may hold in a changeset: every element index is below it
  /// (`Int32.max`, 2,147,483,647). Decoding refuses a changeset that names more.
  public static let elementLimit = Int(Int32.max)

  /// The first place where a changeset breaks one of its own invariants.
  package struct InvariantViolation: Error {
    /// The field, then array indexes and `from`/`to` keys, as a coding path.
    var codingPath: [any CodingKey]
    /// The offending value, as text (`2..<6`, `[0, 1]`, `-1`).
    package var value: String
    /// Why it is wrong.
    package var reason: String

    /// `deletedElements[3].from`.
    package var fieldDescription: String {
      codingPath.reduce("") { text, key in
        if let index = key.intValue { return text + "[\(index)]" }
        return text.isEmpty ? key.stringValue : text + "." + key.stringValue
      }
    }
  }

  /// An array index in a coding path, spelled as the standard decoders spell it.
  struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String
    init(intValue: Int) {
      self.intValue = intValue
      self.stringValue = "Index \(intValue)"
    }
    init?(stringValue: String) { nil }
  }

  /// A move's `from` or `to`.
  enum MoveKey: String, CodingKey {
    case from, to
  }

  /// The first invariant the changeset breaks, or `nil` when it has none.
  ///
  /// The invariants are those that need no knowledge of the view's counts — UIKit's rules that
  /// hold whatever the counts, and the canonical form of `Docs/Batching.md`:
  /// - section sets: every range non-empty, non-negative, sorted, disjoint and not adjacent (as
  ///   `IndexSet.rangeView` gives them); the number of operations fits in an `Int`;
  /// - every index is non-negative and not `Int.max` (`NSNotFound`); every section index is
  ///   below ``Changeset/sectionLimit`` and every element index below ``Changeset/elementLimit``
  ///   (a payload never claims more than a state can hold); every index path is
  ///   `[section, item]`;
  /// - element lists sorted without duplicates, element moves sorted by destination; no section
  ///   or element moved twice, no two moved to the same place;
  /// - no section both deleted and reloaded, no element both deleted and reloaded; a
  ///   reconfigured element is not also deleted or reloaded; a move's source is not deleted,
  ///   reloaded or reconfigured, its destination not inserted;
  /// - nothing listed inside a deleted, reloaded or inserted section (the section operation
  ///   covers it), and no element operation touching a section that moves.
  ///
  /// - Complexity: O(k log k) for k operations; never proportional to the width of a range.
  package func invariantViolation() -> InvariantViolation? {
    do throws(InvariantViolation) {
      try checkSectionRanges()
      try checkSectionMoves()
      try checkElements()
      try checkElementMoves()
      return nil
    } catch {
      return error
    }
  }

  private func violation(_ path: [any CodingKey], _ value: String, _ reason: String)
    -> InvariantViolation
  {
    InvariantViolation(codingPath: path, value: value, reason: reason)
  }

  private static func isValidIndex(_ index: Int) -> Bool {
    index >= 0 && index != .max
  }

  /// The check of a section index against ``Changeset/sectionLimit``, with the reason.
  private static func sectionLimitProblem(_ section: Int) -> String? {
    section < sectionLimit
      ? nil : "names section \(section), past the limit of \(sectionLimit) sections"
  }

  // MARK: Sections

  private func checkSectionRanges() throws(InvariantViolation) {
    // Most changesets on the wire change no section: nothing to check, no list to build.
    if deletedSectionRanges.isEmpty && insertedSectionRanges.isEmpty
      && reloadedSectionRanges.isEmpty
    {
      return
    }
    var total = deletedElements.count + insertedElements.count + reloadedElements.count
    total += movedElements.count + movedSections.count + reconfiguredElements.count
    let lists: [(CodingKeys, [Range<Int>])] = [
      (.deletedSectionRanges, deletedSectionRanges),
      (.insertedSectionRanges, insertedSectionRanges),
      (.reloadedSectionRanges, reloadedSectionRanges),
    ]
    for (key, ranges) in lists {
      for (index, range) in ranges.enumerated() {
        let path: [any CodingKey] = [key, IndexKey(intValue: index)]
        if range.lowerBound < 0 {
          throw violation(path, "\(range)", "holds negative section indexes")
        }
        if range.isEmpty { throw violation(path, "\(range)", "is empty") }
        if range.upperBound > Self.sectionLimit {
          throw violation(
            path, "\(range)", "reaches past the limit of \(Self.sectionLimit) sections")
        }
        if index > 0 && range.lowerBound <= ranges[index - 1].upperBound {
          throw violation(
            path, "\(range)",
            "does not start after the range before it, \(ranges[index - 1]) (ranges must be "
              + "sorted, disjoint and not adjacent)")
        }
        let (sum, overflow) = total.addingReportingOverflow(range.count)
        if overflow {
          throw violation(path, "\(range)", "makes the number of operations overflow Int")
        }
        total = sum
        if key == .reloadedSectionRanges, let deleted = Self.overlap(range, deletedSectionRanges) {
          throw violation(
            path, "\(range)", "reloads section \(deleted), which is also deleted")
        }
      }
    }
  }

  private func checkSectionMoves() throws(InvariantViolation) {
    var sources: Set<Int> = []
    var destinations: Set<Int> = []
    for (index, move) in movedSections.enumerated() {
      func path(_ key: MoveKey) -> [any CodingKey] {
        [CodingKeys.movedSections, IndexKey(intValue: index), key]
      }
      for (key, value) in [(MoveKey.from, move.from), (.to, move.to)]
      where !Self.isValidIndex(value) {
        throw violation(path(key), "\(value)", "is negative or NSNotFound")
      }
      for (key, value) in [(MoveKey.from, move.from), (.to, move.to)] {
        if let problem = Self.sectionLimitProblem(value) {
          throw violation(path(key), "\(value)", problem)
        }
      }
      if !sources.insert(move.from).inserted {
        throw violation(path(.from), "\(move.from)", "is moved twice")
      }
      if !destinations.insert(move.to).inserted {
        throw violation(path(.to), "\(move.to)", "is the destination of two section moves")
      }
      if Self.contains(deletedSectionRanges, move.from) {
        throw violation(path(.from), "\(move.from)", "is both deleted and moved")
      }
      if Self.contains(reloadedSectionRanges, move.from) {
        throw violation(path(.from), "\(move.from)", "is both reloaded and moved")
      }
      if Self.contains(insertedSectionRanges, move.to) {
        throw violation(path(.to), "\(move.to)", "is both inserted and a move's destination")
      }
    }
  }

  // MARK: Elements

  /// Checks that `path` is `[section, item]` with valid indexes; returns the section and the
  /// item.
  @discardableResult
  private func checkShape(_ path: IndexPath, at codingPath: @autoclosure () -> [any CodingKey])
    throws(InvariantViolation) -> (Int, Int)
  {
    guard path.count == 2 else {
      throw violation(codingPath(), format(path), "is not [section, item]")
    }
    let section = path[0]
    let item = path[1]
    guard Self.isValidIndex(section) && Self.isValidIndex(item) else {
      throw violation(codingPath(), format(path), "has a negative or NSNotFound index")
    }
    if let problem = Self.sectionLimitProblem(section) {
      throw violation(codingPath(), format(path), problem)
    }
    guard item < Self.elementLimit else {
      throw violation(
        codingPath(), format(path),
        "names element \(item), past the limit of \(Self.elementLimit) elements a section")
    }
    return (section, item)
  }

  /// Old sections an element operation must not touch, with the reason.
  private func oldSectionProblem(_ section: Int, movedFrom: Set<Int>) -> String? {
    if Self.contains(deletedSectionRanges, section) { return "is inside a deleted section" }
    if Self.contains(reloadedSectionRanges, section) { return "is inside a reloaded section" }
    if !movedFrom.isEmpty, movedFrom.contains(section) { return "is in a section that moves" }
    return nil
  }

  /// New sections an element operation must not touch, with the reason.
  private func newSectionProblem(_ section: Int, movedTo: Set<Int>) -> String? {
    if Self.contains(insertedSectionRanges, section) { return "is inside an inserted section" }
    if !movedTo.isEmpty, movedTo.contains(section) { return "is in a section that moves" }
    return nil
  }

  private func checkElements() throws(InvariantViolation) {
    let movedFrom = Set(movedSections.map(\.from))
    let movedTo = Set(movedSections.map(\.to))
    // The deleted and reloaded paths as pairs, kept only to check reloads and reconfigures
    // against. Every list is checked sorted before it is looked up, and looked up in ascending
    // order: a cursor walks each kept list once (no set, no hashing).
    let keepsDeleted = !(reloadedElements.isEmpty && reconfiguredElements.isEmpty)
    let keepsReloaded = !reconfiguredElements.isEmpty
    var deleted: [(Int, Int)] = []
    var reloaded: [(Int, Int)] = []
    let lists: [(CodingKeys, [IndexPath])] = [
      (.deletedElements, deletedElements), (.reloadedElements, reloadedElements),
      (.insertedElements, insertedElements), (.reconfiguredElements, reconfiguredElements),
    ]
    for (key, paths) in lists {
      var previous = (-1, -1)
      var deletedCursor = 0
      var reloadedCursor = 0
      for (index, path) in paths.enumerated() {
        // Made only for an error: allocating it for every path cost more than the checks.
        func codingPath() -> [any CodingKey] { [key, IndexKey(intValue: index)] }
        let pair = try checkShape(path, at: codingPath())
        if index > 0 && !(previous < pair) {
          throw violation(
            codingPath(), format(path),
            "does not come after \(format(paths[index - 1])) (the list must be sorted, "
              + "without duplicates)")
        }
        previous = pair
        let problem =
          key == .insertedElements
          ? newSectionProblem(pair.0, movedTo: movedTo)
          : oldSectionProblem(pair.0, movedFrom: movedFrom)
        if let problem { throw violation(codingPath(), format(path), problem) }
        switch key {
        case .deletedElements where keepsDeleted: deleted.append(pair)
        case .reloadedElements:
          if Self.advance(&deletedCursor, in: deleted, to: pair) {
            throw violation(codingPath(), format(path), "is both deleted and reloaded")
          }
          if keepsReloaded { reloaded.append(pair) }
        case .reconfiguredElements:
          if Self.advance(&deletedCursor, in: deleted, to: pair) {
            throw violation(codingPath(), format(path), "is both deleted and reconfigured")
          }
          if Self.advance(&reloadedCursor, in: reloaded, to: pair) {
            throw violation(codingPath(), format(path), "is both reloaded and reconfigured")
          }
        default: break
        }
      }
    }
  }

  /// Moves `cursor` in `sorted` past the pairs before `pair`; whether `pair` is there. Called
  /// with ascending pairs, it walks `sorted` once.
  @inline(__always)
  private static func advance(
    _ cursor: inout Int, in sorted: [(Int, Int)], to pair: (Int, Int)
  ) -> Bool {
    while cursor < sorted.count && sorted[cursor] < pair { cursor += 1 }
    return cursor < sorted.count && sorted[cursor] == pair
  }

  private func checkElementMoves() throws(InvariantViolation) {
    guard !movedElements.isEmpty else { return }
    let movedFrom = Set(movedSections.map(\.from))
    let movedTo = Set(movedSections.map(\.to))
    let deleted = Set(deletedElements)
    let reloaded = Set(reloadedElements)
    let reconfigured = Set(reconfiguredElements)
    let inserted = Set(insertedElements)
    var sources: Set<IndexPath> = []
    for (index, move) in movedElements.enumerated() {
      func path(_ key: MoveKey) -> [any CodingKey] {
        [CodingKeys.movedElements, IndexKey(intValue: index), key]
      }
      try checkShape(move.from, at: path(.from))
      try checkShape(move.to, at: path(.to))
      if index > 0 && !movedElements[index - 1].to.lexicographicallyPrecedes(move.to) {
        throw violation(
          path(.to), format(move.to),
          "does not come after \(format(movedElements[index - 1].to)) (moves must be sorted "
            + "by destination, without two moves to one place)")
      }
      if !sources.insert(move.from).inserted {
        throw violation(path(.from), format(move.from), "is moved twice")
      }
      if deleted.contains(move.from) {
        throw violation(path(.from), format(move.from), "is both deleted and moved")
      }
      if reloaded.contains(move.from) {
        throw violation(path(.from), format(move.from), "is both reloaded and moved")
      }
      if reconfigured.contains(move.from) {
        throw violation(path(.from), format(move.from), "is both reconfigured and moved")
      }
      if inserted.contains(move.to) {
        throw violation(path(.to), format(move.to), "is both inserted and a move's destination")
      }
      if let problem = oldSectionProblem(move.from[0], movedFrom: movedFrom) {
        throw violation(path(.from), format(move.from), problem)
      }
      if let problem = newSectionProblem(move.to[0], movedTo: movedTo) {
        throw violation(path(.to), format(move.to), problem)
      }
    }
  }

  // MARK: Sorted ranges

  /// Whether sorted, disjoint `ranges` hold `index`.
  ///
  /// - Complexity: O(log r).
  static func contains(_ ranges: [Range<Int>], _ index: Int) -> Bool {
    let position = ranges.firstRange(endingAfter: index)
    return position < ranges.count && ranges[position].lowerBound <= index
  }

  /// The first index of `range` that sorted, disjoint `ranges` also hold, if any.
  static func overlap(_ range: Range<Int>, _ ranges: [Range<Int>]) -> Int? {
    let position = ranges.firstRange(endingAfter: range.lowerBound)
    guard position < ranges.count, ranges[position].lowerBound < range.upperBound else {
      return nil
    }
    return max(range.lowerBound, ranges[position].lowerBound)
  }
}
