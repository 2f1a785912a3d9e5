import Foundation
import SectionKit

/// Renders what a ``/SectionKit/Coordinator`` presents as text: a pure function of the
/// coordinator's state, the options and a selection.
///
/// ```swift
/// let text = ConsoleRenderer.render(
///     coordinator: coordinator, options: ConsoleOptions(showsIndexPaths: true, style: .plain),
///     selection: [IndexPath(item: 1, section: 1)])
/// ```
///
/// ```text
/// ── Section 0 (1 element) ──
///    [0, 0] Contacts
/// ── Family ──
///    [1, 0] Mum
///  ▸ [1, 1] Dad
///    └ 2 people
/// ```
///
/// Each section is a header line (the ``ConsolePresentable`` header, or `Section n (k elements)`
/// for other sections; none when a presentable section's header is `nil`), one line per element
/// (`▸` marks a selected one) and an optional footer line. With a ``ConsoleOptions/width``, header
/// rules reach the width and longer lines are cut with `…` (widths count characters, so wide
/// characters make a line look longer than it counts).
public enum ConsoleRenderer {
  /// The text of everything `coordinator` presents, one line per header, element and footer.
  ///
  /// - Parameters:
  ///   - coordinator: the data source; read through its data-source API only.
  ///   - options: index paths, width, style. `.auto` style renders plain (the renderer does not
  ///     know where the text goes; ``ConsoleAdapter`` resolves `.auto` first). The mode is ignored.
  ///   - selection: global index paths to mark as selected.
  /// - Returns: the lines, each ending with a newline; `(no sections)` for an empty tree.
  /// - Complexity: O(n) for n elements.
  public static func render(
    coordinator: Coordinator, options: ConsoleOptions = ConsoleOptions(),
    selection: Set<IndexPath> = []
  ) -> String {
    var sections = ShownSection.snapshot(of: coordinator)
    for path in selection where path.count == 2 && sections.indices.contains(path[0]) {
      if sections[path[0]].rows.indices.contains(path[1]) {
        sections[path[0]].rows[path[1]].isSelected = true
      }
    }
    return options.render(treeLines(sections, options: options))
  }

  /// The lines of a tree.
  ///
  /// A section in editing mode has `✎` after its header; the element under `cursor` starts with
  /// `›`.
  static func treeLines(
    _ sections: [ShownSection], options: ConsoleOptions, cursor: IndexPath? = nil
  ) -> [StyledLine] {
    guard !sections.isEmpty else { return [StyledLine("(no sections)", .footer)] }
    var lines: [StyledLine] = []
    for (sectionIndex, section) in sections.enumerated() {
      if let header = section.header {
        let title = section.isEditing ? header + " ✎" : header
        lines.append(StyledLine(rule(title, width: options.width), .header))
      }
      for (index, row) in section.rows.enumerated() {
        let mark = cursor == [sectionIndex, index] ? "›" : " "
        var line = StyledLine(
          mark + (row.isSelected ? "▸ " : "  "), row.isSelected ? .selected : nil)
        if options.showsIndexPaths {
          line.append(format([sectionIndex, index]), .indexPath)
          line.append(" ")
        }
        line.append(row.text, row.isSelected ? .selected : nil)
        lines.append(line)
      }
      if let footer = section.footer {
        lines.append(StyledLine("   └ " + footer, .footer))
      }
    }
    return lines
  }

  /// `── title ──`, or `── title ─────…` up to `width`.
  static func rule(_ title: String, width: Int?) -> String {
    let start = "── " + title + " "
    guard let width else { return start + "──" }
    return start + String(repeating: "─", count: max(2, width - TerminalColumns.width(of: start)))
  }
}
