import Foundation

/// Draws a ``LayoutResult`` in character cells: a pure function from frames to a `String`.
///
/// Elements and supplementary views are boxes (`+--+`, `|`, label inside when it fits; a
/// one-row box is `[label]`), decorations are filled with ``backgroundFill``, views are drawn
/// in z-index order. The drawing is clipped to the container across the scroll direction, so
/// an orthogonally scrolling section shows as a strip with ``overflowIndicator`` on its last
/// column when more content lies beyond.
///
/// ```swift
/// let result = layout.frames(itemCounts: [6], container: Size(width: 80, height: 40))
/// print(LayoutTextRenderer(scale: 1).render(result))
/// ```
///
/// A cell covers `horizontalScale × verticalScale` points; a frame covers the cells between its
/// rounded edges.
///
/// Any result can be drawn, also one decoded from elsewhere: a non-finite or negative extent
/// draws nothing on that axis, and the drawing is at most ``maximumColumns`` wide and
/// ``maximumRows`` tall (what lies beyond is clipped like content outside the container).
public struct LayoutTextRenderer: Sendable {
  /// Points per character column; positive and finite (setting another value traps).
  public var horizontalScale: Double {
    didSet { Self.checkScale(horizontalScale, "horizontalScale") }
  }
  /// Points per character row; positive and finite (setting another value traps).
  public var verticalScale: Double {
    didSet { Self.checkScale(verticalScale, "verticalScale") }
  }
  /// The most columns a drawing has.
  public static let maximumColumns = 10_000
  /// The most rows a drawing has.
  public static let maximumRows = 100_000
  /// The character that fills decorations (section backgrounds).
  public var backgroundFill: Character = "."
  /// The character drawn where an orthogonal strip has more content than is shown.
  public var overflowIndicator: Character = ">"

  /// Creates a renderer with the same scale on both axes.
  public init(scale: Double = 1) {
    self.init(horizontalScale: scale, verticalScale: scale)
  }

  /// Creates a renderer with a scale per axis (terminal cells are about twice as tall as wide).
  public init(horizontalScale: Double, verticalScale: Double) {
    Self.checkScale(horizontalScale, "horizontalScale")
    Self.checkScale(verticalScale, "verticalScale")
    self.horizontalScale = horizontalScale
    self.verticalScale = verticalScale
  }

  static func checkScale(_ scale: Double, _ name: String) {
    precondition(
      scale > 0 && scale.isFinite,
      "LayoutTextRenderer: \(name) \(scale) must be positive and finite")
  }

  /// The number of cells `length` points cover at `scale`, between 0 and `limit`.
  static func cellCount(_ length: Double, scale: Double, limit: Int) -> Int {
    let cells = (length / scale).rounded(.up)
    guard cells.isFinite, cells > 0 else { return 0 }
    return cells < Double(limit) ? Int(cells) : limit
  }

  /// The default labels: the item number for elements, the kind for supplementary views, none
  /// for decorations.
  public static func defaultLabel(_ id: LayoutElementID) -> String? {
    switch id {
    case .element(let indexPath): return String(indexPath.layoutItem)
    case .supplementary(let kind, _): return kind
    case .decoration: return nil
    }
  }

  /// Draws `result`.
  ///
  /// - Parameters:
  ///   - result: a layout (full or viewport).
  ///   - labels: the text inside each box; `nil` draws an empty box.
  /// - Returns: one line per row, trailing spaces removed, each line ending in a newline.
  /// - Complexity: O(cells + views × box area).
  public func render(
    _ result: LayoutResult, labels: (LayoutElementID) -> String? = LayoutTextRenderer.defaultLabel
  ) -> String {
    let vertical = result.scrollDirection == .vertical
    let width = vertical ? result.container.width : result.contentSize.width
    let height = vertical ? result.contentSize.height : result.container.height
    let columns = Self.cellCount(width, scale: horizontalScale, limit: Self.maximumColumns)
    let rows = Self.cellCount(height, scale: verticalScale, limit: Self.maximumRows)
    var grid = [[Character]](repeating: [Character](repeating: " ", count: columns), count: rows)

    enum Shape {
      case box(String?)
      case fill
    }
    var drawables: [(zIndex: Int, order: Int, frame: Rect, shape: Shape)] = []
    for decoration in result.decorations {
      let id = LayoutElementID.decoration(kind: decoration.kind, indexPath: decoration.indexPath)
      _ = labels(id)
      drawables.append((decoration.zIndex, drawables.count, decoration.frame, .fill))
    }
    for section in result.sections {
      for element in section.elements {
        let id = LayoutElementID.element(
          IndexPath(layoutSection: section.index, item: element.item))
        drawables.append((element.zIndex, drawables.count, element.frame, .box(labels(id))))
      }
    }
    for supplementary in result.supplementaries {
      let id = LayoutElementID.supplementary(
        kind: supplementary.kind, indexPath: supplementary.indexPath)
      drawables.append(
        (supplementary.zIndex, drawables.count, supplementary.frame, .box(labels(id))))
    }
    drawables.sort { ($0.zIndex, $0.order) < ($1.zIndex, $1.order) }

    func put(_ character: Character, _ row: Int, _ column: Int) {
      guard row >= 0, row < rows, column >= 0, column < columns else { return }
      grid[row][column] = character
    }
    let visible = (rows: 0..<rows, columns: 0..<columns)
    for drawable in drawables {
      guard let cells = cells(of: drawable.frame) else { continue }
      let (r0, r1, c0, c1) = cells
      switch drawable.shape {
      case .fill:
        for row in (r0..<r1).clamped(to: visible.rows) {
          for column in (c0..<c1).clamped(to: visible.columns) { put(backgroundFill, row, column) }
        }
      case .box(let label):
        drawBox(
          rows: r0..<r1, columns: c0..<c1, label: label ?? "", visible: visible, put: put)
      }
    }
    for region in result.orthogonalRegions {
      guard let (r0, r1, c0, c1) = cells(of: region.frame) else { continue }
      if vertical, region.contentSize.width > region.frame.width + 1e-9 {
        put(overflowIndicator, (r0 + r1 - 1) / 2, min(c1, columns) - 1)
      } else if !vertical, region.contentSize.height > region.frame.height + 1e-9 {
        put("v", min(r1, rows) - 1, (c0 + c1 - 1) / 2)
      }
    }
    var text = ""
    for line in grid {
      var string = String(line)
      while string.last == " " { string.removeLast() }
      text += string + "\n"
    }
    return text
  }

  /// The cell ranges `(rowStart, rowEnd, columnStart, columnEnd)` a frame covers, ends
  /// exclusive, or `nil` for an empty frame.
  func cells(of frame: Rect) -> (Int, Int, Int, Int)? {
    guard frame.width > 0, frame.height > 0, frame.minX.isFinite, frame.maxY.isFinite else {
      return nil
    }
    func cell(_ value: Double, _ scale: Double) -> Int {
      Int(max(-1e9, min(1e9, (value / scale).rounded())))
    }
    let c0 = cell(frame.minX, horizontalScale)
    let r0 = cell(frame.minY, verticalScale)
    let c1 = max(c0 + 1, cell(frame.maxX, horizontalScale))
    let r1 = max(r0 + 1, cell(frame.maxY, verticalScale))
    return (r0, r1, c0, c1)
  }

  /// Draws a box on `rows` × `columns`, visiting only the cells inside `visible`, so that the
  /// work is bounded by the drawing's size, not by the box's.
  func drawBox(
    rows: Range<Int>, columns: Range<Int>, label: String,
    visible: (rows: Range<Int>, columns: Range<Int>), put: (Character, Int, Int) -> Void
  ) {
    let width = columns.count
    let height = rows.count
    let r0 = rows.lowerBound
    let r1 = rows.upperBound - 1
    let c0 = columns.lowerBound
    let c1 = columns.upperBound - 1
    let visibleRows = rows.clamped(to: visible.rows)
    let visibleColumns = columns.clamped(to: visible.columns)
    if width == 1 {
      for row in visibleRows { put("|", row, c0) }
      return
    }
    func write(_ text: String, row: Int, from column: Int, maxLength: Int) {
      for (offset, character) in text.prefix(max(0, maxLength)).enumerated() {
        put(character, row, column + offset)
      }
    }
    if height == 1 {
      for column in visibleColumns { put("-", r0, column) }
      put("[", r0, c0)
      put("]", r0, c1)
      write(label, row: r0, from: c0 + 1, maxLength: width - 2)
      return
    }
    for row in visibleRows {
      for column in visibleColumns {
        let edgeRow = row == r0 || row == r1
        let edgeColumn = column == c0 || column == c1
        put(edgeRow && edgeColumn ? "+" : edgeRow ? "-" : edgeColumn ? "|" : " ", row, column)
      }
    }
    guard height >= 3 else {
      write(label, row: r0, from: c0 + 1, maxLength: width - 2)
      return
    }
    // The label, wrapped to the box's inside, centred vertically as a block.
    let lines = Self.wrap(label, width: width - 2).prefix(height - 2)
    let firstRow = r0 + 1 + (height - 2 - lines.count) / 2
    for (offset, line) in lines.enumerated() {
      write(line, row: firstRow + offset, from: c0 + 1, maxLength: width - 2)
    }
  }

  /// `text` broken into lines of at most `width` characters: at spaces where possible, inside
  /// words longer than a line. An empty text is one empty line.
  ///
  /// The console measures estimated sizes with it, so that a box is as tall as its wrapped label.
  public static func wrap(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [""] }
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: true) {
      var word = Substring(word)
      if !line.isEmpty && line.count + 1 + word.count <= width {
        line += " " + word
        continue
      }
      if !line.isEmpty {
        lines.append(line)
        line = ""
      }
      while word.count > width {
        lines.append(String(word.prefix(width)))
        word = word.dropFirst(width)
      }
      line = String(word)
    }
    lines.append(line)
    return lines
  }
}
