import Foundation
import SectionKit

/// The list's lines and elements in order: which line or element comes next, first or last,
/// and where a shown element goes through a changeset.
extension ConsoleListView {
  // MARK: Lines

  /// One line of the list.
  enum Line: Hashable, Comparable {
    case header(Int)
    case element(Int, Int)
    case empty(Int)
    case footer(Int)

    var section: Int {
      switch self {
      case .header(let section), .element(let section, _), .empty(let section),
        .footer(let section):
        section
      }
    }

    private var key: (Int, Int, Int) {
      switch self {
      case .header(let section): (section, 0, 0)
      case .element(let section, let index): (section, 1, index)
      case .empty(let section): (section, 1, 0)
      case .footer(let section): (section, 2, 0)
      }
    }

    static func < (lhs: Line, rhs: Line) -> Bool { lhs.key < rhs.key }
  }

  func hasHeader(_ section: Int) -> Bool { header(section) != nil }

  /// Whether the header of `line`'s section is pinned above it: the line is not the header, the
  /// section has one, and the list has a row for the line below it (with a single row, a pinned
  /// header would hide the cursor).
  func pinsHeader(above line: Line) -> Bool {
    if case .header = line { return false }
    guard bodyRows > 1 else { return false }
    return hasHeader(line.section)
  }

  func firstLine(of section: Int) -> Line? {
    if hasHeader(section) { return .header(section) }
    return firstLine(afterHeaderOf: section)
  }

  func firstLine(afterHeaderOf section: Int) -> Line? {
    if counts[section] > 0 { return .element(section, 0) }
    if emptyState(section) != nil { return .empty(section) }
    if footer(section) != nil { return .footer(section) }
    return nil
  }

  func lastLine(of section: Int) -> Line? {
    if footer(section) != nil { return .footer(section) }
    return lastLine(beforeFooterOf: section)
  }

  func lastLine(beforeFooterOf section: Int) -> Line? {
    if counts[section] > 0 { return .element(section, counts[section] - 1) }
    if emptyState(section) != nil { return .empty(section) }
    if hasHeader(section) { return .header(section) }
    return nil
  }

  /// The first line of the first section at or after `section` that has one.
  func firstLine(from section: Int) -> Line? {
    var index = max(0, section)
    while index < counts.count {
      if let line = firstLine(of: index) { return line }
      index += 1
    }
    return nil
  }

  /// The last line of the last section before `section` that has one.
  func lastLine(before section: Int) -> Line? {
    var index = min(section, counts.count) - 1
    while index >= 0 {
      if let line = lastLine(of: index) { return line }
      index -= 1
    }
    return nil
  }

  func next(_ line: Line) -> Line? {
    switch line {
    case .header(let section):
      return firstLine(afterHeaderOf: section)
        ?? (footer(section) != nil ? .footer(section) : nil)
        ?? firstLine(from: section + 1)
    case .element(let section, let index):
      if index + 1 < counts[section] { return .element(section, index + 1) }
      return footer(section) != nil ? .footer(section) : firstLine(from: section + 1)
    case .empty(let section):
      return footer(section) != nil ? .footer(section) : firstLine(from: section + 1)
    case .footer(let section):
      return firstLine(from: section + 1)
    }
  }

  func previous(_ line: Line) -> Line? {
    switch line {
    case .header(let section):
      return lastLine(before: section)
    case .element(let section, let index):
      if index > 0 { return .element(section, index - 1) }
      return hasHeader(section) ? .header(section) : lastLine(before: section)
    case .empty(let section):
      return hasHeader(section) ? .header(section) : lastLine(before: section)
    case .footer(let section):
      return lastLine(beforeFooterOf: section) ?? lastLine(before: section)
    }
  }

  /// `line` moved back by up to `count` lines (stops at the first line).
  func line(_ line: Line, back count: Int) -> Line {
    var result = line
    var remaining = count
    while remaining > 0, let previous = previous(result) {
      result = previous
      remaining -= 1
    }
    return result
  }

  // MARK: Elements

  func firstElement(from section: Int) -> IndexPath? {
    var index = max(0, section)
    while index < counts.count {
      if counts[index] > 0 { return [index, 0] }
      index += 1
    }
    return nil
  }

  func lastElement(before section: Int) -> IndexPath? {
    var index = min(section, counts.count) - 1
    while index >= 0 {
      if counts[index] > 0 { return [index, counts[index] - 1] }
      index -= 1
    }
    return nil
  }

  /// The element `offset` elements after (or before) `path`, across sections, stopping at the
  /// first and last element.
  ///
  /// - Complexity: O(s) for the s sections crossed.
  func element(_ path: IndexPath, offsetBy offset: Int) -> IndexPath {
    var section = path[0]
    var index = path[1] + offset
    var result = path
    if offset >= 0 {
      while section < counts.count {
        if index < counts[section] { return [section, index] }
        if counts[section] > 0 { result = [section, counts[section] - 1] }
        index -= counts[section]
        section += 1
      }
    } else {
      while section >= 0 {
        if index >= 0 { return [section, index] }
        if counts[section] > 0 { result = [section, 0] }
        section -= 1
        if section >= 0 { index += counts[section] }
      }
    }
    return result
  }

  /// `path` when it is an element shown, else `nil`.
  func isShown(_ path: IndexPath) -> IndexPath? {
    path.count == 2 && counts.indices.contains(path[0]) && path[1] >= 0
      && path[1] < counts[path[0]] ? path : nil
  }

  func checkShown(_ path: IndexPath, _ method: String) {
    precondition(
      isShown(path) != nil,
      "ConsoleListView.\(method): \(format(path)) is not an element shown "
        + "(\(counts.count) sections)")
  }

  /// The new path of the old element at `path`, or, when it is gone, of the nearest old element
  /// after it in its section that survives, else before it; `nil` when none survives.
  ///
  /// - Complexity: O(g log k) for the g elements gone around it and the k parts of the changeset.
  static func newPathOrNeighbour(
    of path: IndexPath, oldCount: Int, in positions: ChangesetPositions
  ) -> IndexPath? {
    if let new = positions.newPath(ofOld: path) { return new }
    // Past as many elements as leave the section one by one, the next one survives (or none
    // does: the section is gone).
    let limit = positions.leavingCount(inOld: path[0]) + 1
    for index in path[1] + 1..<min(oldCount, path[1] + 1 + limit) {
      if let new = positions.newPath(ofOld: [path[0], index]) { return new }
    }
    for index in stride(from: path[1] - 1, through: max(0, path[1] - limit), by: -1) {
      if let new = positions.newPath(ofOld: [path[0], index]) { return new }
    }
    return nil
  }

  /// Where the cursor goes when its element and its neighbours in its section are gone: the
  /// first element from its section's new place on, else the last before it (sections A(3),
  /// B(2), the cursor in B, B removed: `[0, 2]`).
  func nearestElement(to path: IndexPath, in positions: ChangesetPositions) -> IndexPath? {
    let start = newPlace(ofSection: path[0], in: positions)
    return firstElement(from: start) ?? lastElement(before: start)
  }

  /// Where old section `section` is after a changeset: its new index; when it is deleted, the
  /// place after the nearest section before it that survives (0 when none does).
  ///
  /// - Complexity: O(s·k) for the s sections walked back over and the k parts of the changeset.
  func newPlace(ofSection section: Int, in positions: ChangesetPositions) -> Int {
    var index = section
    while index >= 0 {
      if let new = positions.newSection(ofOld: index) { return index == section ? new : new + 1 }
      index -= 1
    }
    return 0
  }
}
