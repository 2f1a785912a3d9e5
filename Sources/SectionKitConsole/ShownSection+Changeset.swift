import Foundation
import SectionKit

extension ShownSection {
  /// The sections after `changeset`, applied to `old` with SectionKit's own applier
  /// (`Changeset.apply(to:insertedSection:newElement:newSectionCount:)`), as UIKit applies a batch: deletes and
  /// reloads in old coordinates, inserts in new ones, moves from old to new, every other element
  /// keeping its relative order (and its selection) within its section; a reloaded (or
  /// reconfigured) element keeps its selection.
  ///
  /// New texts (inserted, reloaded and reconfigured elements, inserted and reloaded sections) are
  /// read from `coordinator`, which must already answer with the new state; headers and footers
  /// are re-read for every section. Elements that were neither inserted, reloaded nor reconfigured
  /// keep the text they had.
  ///
  /// - Returns: the new sections, and a description of each way the changeset does not fit the
  ///   old state or the coordinator's new counts. When there is any, the sections are read afresh
  ///   from the coordinator (and the selection is lost), as a view would have to reload.
  /// `old` is emptied: its rows are moved into the result and changed in place.
  ///
  /// - Complexity: O(s + k log k) for s sections and k changes, plus the elements that shift
  ///   in the sections the changeset touches (an array insert or remove).
  static func applying(
    _ changeset: Changeset, to old: inout [ShownSection], reading coordinator: Coordinator
  ) -> (sections: [ShownSection], problems: [String]) {
    /// A value the data source cannot give: the changeset names a path it does not have.
    struct Unanswered: Error, CustomStringConvertible {
      var description: String
    }
    let sectionCount = coordinator.numberOfSections
    // A reloaded or reconfigured element keeps its selection, as a collection view's cell does.
    var keptSelection: [IndexPath: Bool] = [:]
    for (from, to) in zip(
      changeset.reloadedElements + changeset.reconfiguredElements,
      changeset.reloadedElementDestinations + changeset.reconfiguredElementDestinations)
    where from.count == 2 && old.indices.contains(from[0])
      && old[from[0]].rows.indices.contains(from[1])
    {
      keptSelection[to] = old[from[0]].rows[from[1]].isSelected
    }
    // The rows move out of `old`, so that each section's array is changed in place.
    var rows = old.map(\.rows)
    old = []
    do {
      try changeset.apply(
        to: &rows,
        insertedSection: { index in
          guard index < sectionCount else {
            throw Unanswered(description: "section \(index) is not in the data source")
          }
          return ShownSection(coordinator: coordinator, at: index).rows
        },
        newElement: { path in
          guard path[0] < sectionCount, path[1] < coordinator.numberOfElements(inSection: path[0])
          else {
            throw Unanswered(description: "element \(format(path)) is not in the data source")
          }
          return Row(
            text: text(of: coordinator.section(at: path[0]), at: path[1]),
            isSelected: keptSelection[path] ?? false)
        },
        newSectionCount: sectionCount)
    } catch {
      return (snapshot(of: coordinator), ["\(error)"])
    }
    guard rows.count == sectionCount else {
      return (
        snapshot(of: coordinator),
        ["the changeset leaves \(rows.count) sections, the data source has \(sectionCount)"]
      )
    }
    var problems: [String] = []
    for (index, sectionRows) in rows.enumerated()
    where sectionRows.count != coordinator.numberOfElements(inSection: index) {
      problems.append(
        "section \(index) has \(elementCount(sectionRows.count)) after the changeset, the data "
          + "source has \(elementCount(coordinator.numberOfElements(inSection: index)))")
    }
    guard problems.isEmpty else { return (snapshot(of: coordinator), problems) }
    let sections = rows.enumerated().map { index, sectionRows in
      var section = ShownSection(rows: sectionRows)
      section.refreshDecorations(coordinator: coordinator, at: index)
      return section
    }
    return (sections, [])
  }
}

/// `[section, element]`.
func format(_ indexPath: IndexPath) -> String {
  "[" + indexPath.map(String.init).joined(separator: ", ") + "]"
}
