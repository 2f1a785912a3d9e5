import Foundation
import SectionKit

extension ConsoleRenderer {
  /// The log entry of one changeset: a summary line, then one line per part in the order UIKit
  /// applies them (deletes, reloads, moves, inserts), sections before elements.
  ///
  /// ```text
  /// changeset 3: 1 element deleted, 1 element reloaded, 1 section inserted
  ///   deleted  [1, 0] Mum
  ///   reloaded [0, 0] Contacts → All contacts
  ///   inserted section 3 "Colleagues" (2 elements)
  /// ```
  ///
  /// Old texts come from `old` (what the changeset took away, remembered before it was applied),
  /// new texts from `new`. The changeset
  /// must fit both (``ShownSection/applying(_:to:reading:)`` found no problem): its section sets
  /// are iterated index by index.
  static func changesetLines(
    _ changeset: Changeset, number: Int, old: RememberedTexts, new: [ShownSection]
  ) -> [StyledLine] {
    var lines = [StyledLine("changeset \(number): " + summary(of: changeset), .note)]
    func add(_ verb: String, _ style: TextStyle, _ text: String) {
      var line = StyledLine("  ")
      line.append(verb.padding(toLength: max(8, verb.count), withPad: " ", startingAt: 0), style)
      line.append(" " + text)
      lines.append(line)
    }
    func oldText(_ path: IndexPath) -> String? { old.texts[path] }
    func newText(_ path: IndexPath) -> String? { text(at: path, in: new) }
    func labelled(_ path: IndexPath, _ text: String?) -> String {
      format(path) + (text.map { " " + $0 } ?? "")
    }

    for index in changeset.deletedSections {
      add("deleted", .deleted, old.sectionLabel(index))
    }
    for path in changeset.deletedElements {
      add("deleted", .deleted, labelled(path, oldText(path)))
    }
    for index in changeset.reloadedSections {
      add("reloaded", .reloaded, old.sectionLabel(index))
    }
    // A reconfigure is placed as a reload, and redraws its row the same way.
    for (verb, paths) in [
      ("reloaded", changeset.reloadedElements), ("reconfigured", changeset.reconfiguredElements),
    ] {
      for path in paths {
        let before = oldText(path)
        let after = newPosition(ofReloaded: path, in: changeset).flatMap(newText)
        var text = format(path)
        switch (before, after) {
        case (let before?, let after?) where before != after: text += " \(before) → \(after)"
        case (let before?, _): text += " \(before)"
        case (nil, let after?): text += " → \(after)"
        case (nil, nil): break
        }
        add(verb, .reloaded, text)
      }
    }
    for move in changeset.movedSections {
      add("moved", .moved, "section \(move.from) → \(move.to)" + old.titleSuffix(move.from))
    }
    for move in changeset.movedElements {
      let text = newText(move.to) ?? oldText(move.from)
      add(
        "moved", .moved, "\(format(move.from)) → \(format(move.to))" + (text.map { " " + $0 } ?? "")
      )
    }
    for index in changeset.insertedSections {
      add("inserted", .inserted, sectionLabel(index, in: new))
    }
    for path in changeset.insertedElements {
      add("inserted", .inserted, labelled(path, newText(path)))
    }
    return lines
  }

  /// `1 element deleted, 2 elements inserted`, in UIKit's order; `no changes` when empty.
  static func summary(of changeset: Changeset) -> String {
    var parts: [String] = []
    func add(_ count: Int, _ noun: String, _ verb: String) {
      guard count > 0 else { return }
      parts.append("\(count) \(noun)\(count == 1 ? "" : "s") \(verb)")
    }
    add(changeset.deletedSections.count, "section", "deleted")
    add(changeset.deletedElements.count, "element", "deleted")
    add(changeset.reloadedSections.count, "section", "reloaded")
    add(changeset.reloadedElements.count, "element", "reloaded")
    add(changeset.reconfiguredElements.count, "element", "reconfigured")
    add(changeset.movedSections.count, "section", "moved")
    add(changeset.movedElements.count, "element", "moved")
    add(changeset.insertedSections.count, "section", "inserted")
    add(changeset.insertedElements.count, "element", "inserted")
    return parts.isEmpty ? "no changes" : parts.joined(separator: ", ")
  }

  /// `section 3 "Colleagues" (2 elements)`, or `section 3` when it is not in `sections`.
  static func sectionLabel(_ index: Int, in sections: [ShownSection]) -> String {
    guard sections.indices.contains(index) else { return "section \(index)" }
    return "section \(index)" + titleSuffix(index, sections)
      + " (\(elementCount(sections[index].rows.count)))"
  }

  private static func titleSuffix(_ index: Int, _ sections: [ShownSection]) -> String {
    guard sections.indices.contains(index), let title = sections[index].title else { return "" }
    return " \"\(title)\""
  }

  private static func text(at path: IndexPath, in sections: [ShownSection]) -> String? {
    guard path.count == 2, sections.indices.contains(path[0]),
      sections[path[0]].rows.indices.contains(path[1])
    else { return nil }
    return sections[path[0]].rows[path[1]].text
  }

  /// Where UIKit puts a reloaded (or reconfigured) element: its old index shifted by the section's explicit deletes
  /// and inserts (moves ignored), in the section's new index. `nil` when its section goes away.
  static func newPosition(ofReloaded path: IndexPath, in changeset: Changeset) -> IndexPath? {
    guard path.count == 2, path[0] >= 0, !changeset.deletedSections.contains(path[0]) else {
      return nil
    }
    let oldSection = path[0]
    if changeset.movedSections.contains(where: { $0.from == oldSection }) { return nil }
    var newSection = oldSection - changeset.deletedSections.count(in: 0..<oldSection)
    for inserted in changeset.insertedSections where inserted <= newSection { newSection += 1 }
    var index = path[1]
    index -=
      changeset.deletedElements.filter {
        $0.count == 2 && $0[0] == oldSection && $0[1] < path[1]
      }.count
    let inserts = changeset.insertedElements.filter { $0.count == 2 && $0[0] == newSection }
      .map { $0[1] }.sorted()
    for inserted in inserts where inserted <= index { index += 1 }
    return [newSection, index]
  }
}

/// What the log entry of a changeset needs of the state before it: the texts of the elements it
/// deletes, reloads or moves, and the titles and counts of the sections it deletes, reloads or
/// moves — remembered before the changeset is applied, so that the shown rows can be changed in
/// place (no copy of what stays).
///
/// - Complexity: O(k) for the k parts of the changeset; section ranges are clamped to the
///   sections shown before anything is iterated.
struct RememberedTexts {
  var texts: [IndexPath: String] = [:]
  var sections: [Int: (title: String?, count: Int)] = [:]

  init(_ changeset: Changeset, in old: [ShownSection]) {
    func keep(_ path: IndexPath) {
      guard path.count == 2, old.indices.contains(path[0]),
        old[path[0]].rows.indices.contains(path[1])
      else { return }
      texts[path] = old[path[0]].rows[path[1]].text
    }
    for path in changeset.deletedElements { keep(path) }
    for path in changeset.reloadedElements + changeset.reconfiguredElements { keep(path) }
    for move in changeset.movedElements { keep(move.from) }
    func keep(_ index: Int) {
      guard old.indices.contains(index) else { return }
      sections[index] = (old[index].title, old[index].rows.count)
    }
    for range in changeset.deletedSectionRanges + changeset.reloadedSectionRanges {
      for index in range.clamped(to: 0..<old.count) { keep(index) }
    }
    for move in changeset.movedSections { keep(move.from) }
  }

  /// `section 3 "Colleagues" (2 elements)`, or `section 3` when it was not shown.
  func sectionLabel(_ index: Int) -> String {
    guard let section = sections[index] else { return "section \(index)" }
    return "section \(index)" + titleSuffix(index) + " (\(elementCount(section.count)))"
  }

  func titleSuffix(_ index: Int) -> String {
    guard let title = sections[index]?.title else { return "" }
    return " \"\(title)\""
  }
}
