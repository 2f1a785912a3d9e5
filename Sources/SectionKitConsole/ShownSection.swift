import SectionKit
import SectionKitLayoutBridge

/// What the console shows of one section: the texts it last read or was told about.
///
/// The adapter keeps an array of these as its "view": it is built afresh on a reload and then
/// only changed by applying changesets, exactly as a `UICollectionView` changes its cells — so the
/// log can name what was deleted, and a changeset that does not fit shows up as a warning.
struct ShownSection {
  /// One element line.
  struct Row {
    var text: String
    var isSelected = false
  }

  /// The header as written (a presentable header, or the default `Section n (k elements)`).
  var header: String?
  /// The section's own header, when it is ``ConsolePresentable`` and has one.
  var title: String?
  /// The footer.
  var footer: String?
  /// The element lines.
  var rows: [Row]
  /// Whether the section is an `EditingHandler` in editing mode.
  var isEditing = false
  /// The section, when it chooses its own layout (read by `ConsoleLayoutRenderer`).
  weak var layoutProvider: (any LayoutProvidingSection)?

  /// Reads the section the coordinator presents at `index`, all rows unselected.
  /// - Complexity: O(k) for k elements.
  init(coordinator: Coordinator, at index: Int) {
    let section = coordinator.section(at: index)
    let count = coordinator.numberOfElements(inSection: index)
    rows = (0..<count).map { Row(text: Self.text(of: section, at: $0)) }
    header = nil
    title = nil
    footer = nil
    refreshDecorations(coordinator: coordinator, at: index)
  }

  /// A section showing `rows`, with no header or footer yet (``refreshDecorations(coordinator:at:)``
  /// reads them).
  init(rows: [Row]) {
    self.rows = rows
  }

  /// Re-reads header and footer (they may depend on the count or the index).
  mutating func refreshDecorations(coordinator: Coordinator, at index: Int) {
    let section = coordinator.section(at: index)
    isEditing = (section as? any EditingHandler)?.isEditing ?? false
    layoutProvider = section as? any LayoutProvidingSection
    if let presentable = section as? any ConsolePresentable {
      title = presentable.consoleHeader.map(singleLine)
      header = title
      footer = presentable.consoleFooter.map(singleLine)
    } else {
      title = nil
      header = "Section \(index) (\(elementCount(rows.count)))"
      footer = nil
    }
  }

  /// The text of the element at `index` of `section`, on one line.
  static func text(of section: any Section, at index: Int) -> String {
    if let presentable = section as? any ConsolePresentable {
      return singleLine(presentable.consoleText(forElementAt: index))
    }
    return singleLine(describeElement(of: section, at: index) ?? "element \(index)")
  }

  /// Every section the coordinator presents.
  ///
  /// - Complexity: O(n) for n elements.
  static func snapshot(of coordinator: Coordinator) -> [ShownSection] {
    (0..<coordinator.numberOfSections).map { ShownSection(coordinator: coordinator, at: $0) }
  }
}

/// `1 element`, `3 elements`.
func elementCount(_ count: Int) -> String {
  count == 1 ? "1 element" : "\(count) elements"
}
