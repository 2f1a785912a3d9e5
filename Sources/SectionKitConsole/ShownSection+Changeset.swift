import Foundation
import SectionKit

extension ShownSection {
  /// The sections after `changeset`, applied to `old` as UIKit applies a batch: deletes and
  /// reloads in old coordinates, inserts in new ones, moves from old to new, every other element
  /// keeping its relative order (and its selection) within its section.
  ///
  /// New texts (inserted and reloaded elements, inserted and reloaded sections) are read from
  /// `coordinator`, which must already answer with the new state; headers and footers are re-read
  /// for every section. Elements that were neither inserted nor reloaded keep the text they had.
  ///
  /// - Returns: the new sections, and a description of each way the changeset does not fit the
  ///   old state or the coordinator's new counts. When there is any, the sections are read afresh
  ///   from the coordinator (and the selection is lost), as a view would have to reload.
  /// - Complexity: O(n + k log k) for n elements shown and k changes.
  static func applying(
    _ changeset: Changeset, to old: [ShownSection], reading coordinator: Coordinator
  ) -> (sections: [ShownSection], problems: [String]) {
    var problems: [String] = []
    let newCount = coordinator.numberOfSections

    // Sections: every range and move in bounds and free of conflicts before anything is indexed
    // or iterated (a range can be as wide as `Int.max`).
    func check(_ ranges: [Range<Int>], _ operation: String, _ state: String, _ count: Int) {
      for range in ranges where range.lowerBound < 0 || range.upperBound > count {
        let what = range.count == 1 ? "section \(range.lowerBound) is" : "sections \(range) are"
        problems.append("\(operation) \(what) out of range 0..<\(count) of the \(state) state")
      }
    }
    check(changeset.deletedSectionRanges, "deleted", "old", old.count)
    check(changeset.reloadedSectionRanges, "reloaded", "old", old.count)
    check(changeset.insertedSectionRanges, "inserted", "new", newCount)
    guard problems.isEmpty else { return (snapshot(of: coordinator), problems) }
    let deleted = changeset.deletedSections
    let reloadedSections = changeset.reloadedSections
    var origin = [Int?](repeating: nil, count: newCount)
    var taken = changeset.insertedSections
    var movedOut = IndexSet()
    for move in changeset.movedSections {
      guard (0..<old.count).contains(move.from), (0..<newCount).contains(move.to) else {
        problems.append("section move \(move) is out of range")
        continue
      }
      if deleted.contains(move.from) || reloadedSections.contains(move.from)
        || !movedOut.insert(move.from).inserted
      {
        problems.append("section move \(move) moves a deleted, reloaded or moved section")
      } else if !taken.insert(move.to).inserted {
        problems.append("section move \(move) goes to an inserted section or another's target")
      } else {
        origin[move.to] = move.from
      }
    }
    guard problems.isEmpty else { return (snapshot(of: coordinator), problems) }
    let survivors = (0..<old.count).filter { !deleted.contains($0) && !movedOut.contains($0) }
    if survivors.count + taken.count != newCount {
      problems.append(
        "the changeset leaves \(survivors.count + taken.count) sections, "
          + "the data source has \(newCount)")
    } else {
      var next = survivors.makeIterator()
      for index in 0..<newCount where !taken.contains(index) { origin[index] = next.next() }
    }
    guard problems.isEmpty else { return (snapshot(of: coordinator), problems) }

    // Elements: what leaves each old section, and what arrives at fixed slots of each new one.
    var leaving: [Int: Set<Int>] = [:]
    var reloaded: [Int: Set<Int>] = [:]
    var arriving: [Int: [Int: Row?]] = [:]  // new section → new index → carried row (nil: read)
    func oldRowExists(_ path: IndexPath, _ operation: String) -> Bool {
      guard path.count == 2, path[0] >= 0, path[0] < old.count, path[1] >= 0,
        path[1] < old[path[0]].rows.count
      else {
        problems.append("\(operation) \(format(path)) is not in the old state")
        return false
      }
      return true
    }
    func arrive(_ path: IndexPath, _ row: Row?, _ operation: String) {
      guard path.count == 2, path[0] >= 0, path[0] < newCount, path[1] >= 0 else {
        problems.append("\(operation) \(format(path)) is not in the new state")
        return
      }
      if arriving[path[0], default: [:]].updateValue(row, forKey: path[1]) != nil {
        problems.append("two elements arrive at \(format(path))")
      }
    }
    for path in changeset.deletedElements where oldRowExists(path, "deleted element") {
      leaving[path[0], default: []].insert(path[1])
    }
    for path in changeset.reloadedElements where oldRowExists(path, "reloaded element") {
      reloaded[path[0], default: []].insert(path[1])
    }
    for path in changeset.insertedElements { arrive(path, nil, "inserted element") }
    for move in changeset.movedElements where oldRowExists(move.from, "moved element") {
      leaving[move.from[0], default: []].insert(move.from[1])
      arrive(move.to, old[move.from[0]].rows[move.from[1]], "moved element")
    }
    guard problems.isEmpty else { return (snapshot(of: coordinator), problems) }

    var result: [ShownSection] = []
    result.reserveCapacity(newCount)
    for index in 0..<newCount {
      guard let source = origin[index], !reloadedSections.contains(source) else {
        result.append(ShownSection(coordinator: coordinator, at: index))
        continue
      }
      var section = old[source]
      let gone = leaving[source] ?? []
      let fixed = arriving[index] ?? [:]
      let refreshed = reloaded[source] ?? []
      guard !(gone.isEmpty && fixed.isEmpty && refreshed.isEmpty) else {
        if section.rows.count != coordinator.numberOfElements(inSection: index) {
          problems.append(countProblem(section.rows.count, coordinator, index))
        }
        section.refreshDecorations(coordinator: coordinator, at: index)
        result.append(section)
        continue
      }
      let sectionObject = coordinator.section(at: index)
      var staying: [(row: Row, reload: Bool)] = []
      for (position, row) in section.rows.enumerated() where !gone.contains(position) {
        staying.append((row, refreshed.contains(position)))
      }
      let count = staying.count + fixed.count
      guard count == coordinator.numberOfElements(inSection: index) else {
        problems.append(countProblem(count, coordinator, index))
        break
      }
      var rows: [Row] = []
      rows.reserveCapacity(count)
      var next = staying.makeIterator()
      for position in 0..<count {
        if let arrival = fixed[position] {
          rows.append(arrival ?? Row(text: text(of: sectionObject, at: position)))
        } else if let stay = next.next() {
          var row = stay.row
          if stay.reload { row.text = text(of: sectionObject, at: position) }
          rows.append(row)
        }
      }
      if let outside = fixed.keys.first(where: { $0 >= count }) {
        problems.append(
          "an element arrives at \(format([index, outside])), "
            + "but section \(index) has \(elementCount(count)) after the update")
        break
      }
      section.rows = rows
      section.refreshDecorations(coordinator: coordinator, at: index)
      result.append(section)
    }
    guard problems.isEmpty else { return (snapshot(of: coordinator), problems) }
    return (result, [])
  }

  private static func countProblem(_ count: Int, _ coordinator: Coordinator, _ index: Int)
    -> String
  {
    "section \(index) has \(elementCount(count)) after the changeset, "
      + "the data source has \(elementCount(coordinator.numberOfElements(inSection: index)))"
  }
}

/// `[section, element]`.
func format(_ indexPath: IndexPath) -> String {
  "[" + indexPath.map(String.init).joined(separator: ", ") + "]"
}
