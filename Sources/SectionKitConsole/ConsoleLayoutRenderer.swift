import SectionKit
import SectionKitLayout
import SectionKitLayoutBridge

/// Draws what a ``/SectionKit/Coordinator`` presents with a `CompositionalLayout`, in character
/// cells: a box per element (labelled with the element's console text, wrapped), headers and
/// footers (labelled with the section's console header and footer), section backgrounds, and
/// horizontal strips for orthogonally scrolling sections.
///
/// Estimated dimensions are measured from the text: an estimated height is as many lines as the
/// wrapped text needs (plus the box's borders), an estimated width as the text on one line.
///
/// ```swift
/// let drawing = ConsoleLayoutRenderer(layout: LayoutExamples.listKitStyle())
/// print(drawing.render(coordinator))
/// ```
///
/// Set it as a ``ConsoleAdapter``'s ``ConsoleAdapter/layout`` and the adapter draws the layout
/// instead of the list after every change.
///
/// With ``sectionsChoose`` set, the sections choose their layouts: each drawing composes the
/// layout from the sections the coordinator presents (`LayoutProvidingSection`s bring their own,
/// the others take the fallback), so a section a changeset inserts brings its layout and a
/// deleted one takes it away.
///
/// ```swift
/// console.layout = ConsoleLayoutRenderer(sectionsChoose: SectionChosenLayout())
/// ```
public struct ConsoleLayoutRenderer: Sendable {
  /// The layout, when the sections do not choose theirs (``sectionsChoose`` is `nil`).
  public var layout: CompositionalLayout
  /// When set, the layout is composed from the presented sections at every drawing, and
  /// ``layout`` is not used.
  public var sectionsChoose: SectionChosenLayout?
  /// The container the layout is computed for, in points.
  public var container: Size
  /// Points per character cell.
  public var renderer: LayoutTextRenderer
  /// The element kind drawn with the section's header text.
  public var headerKind: String
  /// The element kind drawn with the section's footer text.
  public var footerKind: String

  /// The default container: an iPhone-like 320 × 568 points.
  public static let defaultContainer = Size(width: 320, height: 568)
  /// The default scale: 4 points per column, 8 per row (80 columns for ``defaultContainer``).
  public static let defaultRenderer = LayoutTextRenderer(horizontalScale: 4, verticalScale: 8)

  /// Creates a renderer; by default an 80-column drawing of a 320 × 568-point container, with
  /// the header and footer kinds of `ListSection`.
  public init(
    layout: CompositionalLayout, container: Size = defaultContainer,
    renderer: LayoutTextRenderer = defaultRenderer,
    headerKind: String = ListSection.headerKind, footerKind: String = ListSection.footerKind
  ) {
    self.layout = layout
    self.container = container
    self.renderer = renderer
    self.headerKind = headerKind
    self.footerKind = footerKind
  }

  /// Creates a renderer whose sections choose their layouts (see ``sectionsChoose``).
  public init(
    sectionsChoose: SectionChosenLayout, container: Size = defaultContainer,
    renderer: LayoutTextRenderer = defaultRenderer,
    headerKind: String = ListSection.headerKind, footerKind: String = ListSection.footerKind
  ) {
    self.init(
      layout: CompositionalLayout(
        configuration: sectionsChoose.configuration, sections: [sectionsChoose.fallback]),
      container: container, renderer: renderer, headerKind: headerKind, footerKind: footerKind)
    self.sectionsChoose = sectionsChoose
  }

  /// The drawing of what `coordinator` presents.
  ///
  /// - Complexity: O(n) for n elements, plus the
  ///   drawing's cells.
  public func render(_ coordinator: Coordinator) -> String {
    render(ShownSection.snapshot(of: coordinator))
  }

  /// The layout of `sections`: ``layout``, or composed from their own choices.
  func layout(of sections: [ShownSection]) -> CompositionalLayout {
    guard let sectionsChoose else { return layout }
    let environment = LayoutEnvironment(containerSize: container)
    return sectionsChoose.layout(
      of: sections.map {
        $0.layoutProvider?.layoutSection(for: environment) ?? sectionsChoose.fallback
      })
  }

  /// The drawing of `sections`.
  func render(_ sections: [ShownSection]) -> String {
    let layout = layout(of: sections)
    func text(_ id: LayoutElementID) -> String? {
      switch id {
      case .element(let path):
        return sections[path[0]].rows[path[1]].text
      case .supplementary(let kind, let path) where path.count == 1:
        // A layout-wide boundary item (index path `[0]`) belongs to no section, and exists
        // even when there is none.
        return singleLine(kind)
      case .supplementary(let kind, let path):
        let section = sections[path[0]]
        if kind == headerKind { return section.title ?? section.header ?? singleLine(kind) }
        if kind == footerKind { return section.footer ?? singleLine(kind) }
        return singleLine(kind)
      case .decoration:
        return nil
      }
    }
    let result = layout.frames(itemCounts: sections.map(\.rows.count), container: container) {
      request in
      let id: LayoutElementID =
        switch request.category {
        case .element: .element(request.indexPath)
        case .supplementary(let kind): .supplementary(kind: kind, indexPath: request.indexPath)
        }
      return measure(text(id) ?? "", request)
    }
    return renderer.render(result, labels: text)
  }

  /// The size of a box showing `text`: an estimated width fits the text on one line (up to the
  /// container's width); an estimated height fits the text wrapped to the box's width.
  func measure(_ text: String, _ request: MeasurementRequest) -> Size {
    var size = request.proposedSize
    let borders = 2.0
    if request.estimatesWidth {
      let columns = Double(text.count) + borders
      size.width = min(container.width, columns * renderer.horizontalScale)
    }
    if request.estimatesHeight {
      // A container can be as wide as any finite number: the columns are counted up to the
      // widest drawing, so that the conversion to `Int` cannot overflow.
      let columns = (size.width / renderer.horizontalScale).rounded()
      let across = columns > 0 ? min(columns, Double(LayoutTextRenderer.maximumColumns)) : 0
      let inside = max(1, Int(across) - Int(borders))
      let lines = Double(LayoutTextRenderer.wrap(text, width: inside).count)
      size.height = (lines + borders) * renderer.verticalScale
    }
    return size
  }
}
