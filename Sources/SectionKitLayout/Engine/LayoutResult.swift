import Foundation

/// The frame and z-index of one element (cell).
public struct ElementAttributes: Sendable, Hashable, Codable {
  /// The element's index in its section.
  public var item: Int
  /// The element's frame in the layout's content coordinates.
  public var frame: Rect
  /// The element's z-index.
  public var zIndex: Int

  /// Creates element attributes.
  public init(item: Int, frame: Rect, zIndex: Int) {
    self.item = item
    self.frame = frame
    self.zIndex = zIndex
  }
}

/// The frame and z-index of a supplementary or decoration view.
public struct SupplementaryAttributes: Sendable, Hashable, Codable {
  /// The element kind.
  public var kind: String
  /// `[section, item]` for item and group supplementaries, `[section, 0]` for section headers,
  /// footers and backgrounds, `[0]` for layout-wide headers and footers.
  public var indexPath: IndexPath
  /// The frame in the layout's content coordinates.
  public var frame: Rect
  /// The z-index.
  public var zIndex: Int

  /// Creates supplementary attributes.
  public init(kind: String, indexPath: IndexPath, frame: Rect, zIndex: Int) {
    self.kind = kind
    self.indexPath = indexPath
    self.frame = frame
    self.zIndex = zIndex
  }
}

/// The scrolling strip of an orthogonally scrolling section.
///
/// Element frames inside the strip are reported unscrolled: for a vertical layout their `x`
/// runs from `frame.minX` to `frame.minX + contentSize.width`, beyond the container's width.
public struct OrthogonalRegion: Sendable, Hashable, Codable {
  /// The section.
  public var section: Int
  /// The visible strip: the section's full cross-axis extent between its headers and footers.
  public var frame: Rect
  /// The size of the scrollable content, content insets included.
  public var contentSize: Size
  /// The scrolling behaviour.
  public var behavior: OrthogonalScrollingBehavior
  /// The strip's visible length along its scrolling axis (the container's width for a vertical
  /// layout).
  public var visibleLength: Double
  /// The content's length along the scrolling axis, content insets included.
  public var contentLength: Double
  /// Where the first group starts along the strip, from its leading end.
  public var firstGroupOffset: Double
  /// The length of one group along the strip (of the first, when estimated lengths differ).
  public var groupLength: Double
  /// The space between consecutive groups.
  public var groupSpacing: Double

  /// The scrollable content's width (its length along the strip, for vertical layouts).
  public var contentWidth: Double { contentSize.width }
}

/// The layout of one section.
public struct SectionLayoutInfo: Sendable, Hashable, Codable {
  /// The section's index.
  public var index: Int
  /// The number of elements the section was laid out for.
  public var itemCount: Int
  /// The section's boundary: headers, content insets, groups and footers.
  public var frame: Rect
  /// The part of the boundary between the headers and the footers (content insets included).
  public var contentFrame: Rect
  /// The elements, sorted by item (all of them, or the visible ones for a viewport query).
  public var elements: [ElementAttributes]
  /// The scrolling strip, for orthogonally scrolling sections.
  public var orthogonalRegion: OrthogonalRegion?
}

/// Everything a layout pass computed: element, supplementary and decoration frames, z-indexes,
/// the content size and the orthogonal scrolling regions. A value: compare it, store it, print
/// it (`description` is a stable text dump used by the golden files).
///
/// ```swift
/// let result = layout.frames(itemCounts: [10], container: Size(width: 320, height: 480))
/// result.frame(at: IndexPath(indexes: [0, 3]))  // [section, item]
/// result.supplementaryFrame(ofKind: "header", at: IndexPath(indexes: [0, 0]))
/// result.contentSize
/// ```
public struct LayoutResult: Sendable, Hashable, Codable {
  /// The container the layout was computed for.
  public var container: Size
  /// The layout's scroll direction.
  public var scrollDirection: ScrollDirection
  /// The size of the scrollable content.
  public var contentSize: Size
  /// The sections, in order.
  public var sections: [SectionLayoutInfo]
  /// Supplementary views (item, group, boundary), in layout order.
  public var supplementaries: [SupplementaryAttributes]
  /// Decoration views (section backgrounds), in section order.
  public var decorations: [SupplementaryAttributes]
  /// The rectangle of a viewport query, or `nil` for a full layout.
  public var viewport: Rect?
  /// The views the sections' ``LayoutSection/visibleItemsInvalidationHandler``s received, with
  /// the transform, alpha and z-index they gave them, section by section; `nil` when no handler
  /// ran (no scroll position, or no section with a handler).
  public var visibleItems: [VisibleLayoutItem]?

  /// The frame of the element at `indexPath`, or `nil` if it was not laid out (out of range, or
  /// outside the viewport of a viewport query).
  ///
  /// - Complexity: O(1) for a full layout, O(log *n*) for a viewport query.
  public func frame(at indexPath: IndexPath) -> Rect? {
    attributes(at: indexPath)?.frame
  }

  /// The attributes of the element at `indexPath`, if laid out.
  ///
  /// - Complexity: O(1) for a full layout, O(log *n*) for a viewport query.
  public func attributes(at indexPath: IndexPath) -> ElementAttributes? {
    guard indexPath.count == 2, sections.indices.contains(indexPath.layoutSection) else {
      return nil
    }
    let elements = sections[indexPath.layoutSection].elements
    let item = indexPath.layoutItem
    if item >= 0, item < elements.count, elements[item].item == item { return elements[item] }
    var low = 0
    var high = elements.count
    while low < high {
      let mid = (low + high) / 2
      if elements[mid].item < item { low = mid + 1 } else { high = mid }
    }
    return low < elements.count && elements[low].item == item ? elements[low] : nil
  }

  /// The frame of the supplementary view of `kind` at `indexPath`.
  ///
  /// - Complexity: O(*s*) in the number of supplementary views.
  public func supplementaryFrame(ofKind kind: String, at indexPath: IndexPath) -> Rect? {
    supplementaries.first { $0.kind == kind && $0.indexPath == indexPath }?.frame
  }

  /// The frame of the decoration view of `kind` at `indexPath`.
  ///
  /// - Complexity: O(*d*) in the number of decoration views.
  public func decorationFrame(ofKind kind: String, at indexPath: IndexPath) -> Rect? {
    decorations.first { $0.kind == kind && $0.indexPath == indexPath }?.frame
  }

  /// The scrolling strips of orthogonally scrolling sections.
  public var orthogonalRegions: [OrthogonalRegion] {
    sections.compactMap(\.orthogonalRegion)
  }

  /// Every element as `(indexPath, attributes)`, section by section.
  ///
  /// - Complexity: O(*n*).
  public var allElements: [(indexPath: IndexPath, attributes: ElementAttributes)] {
    sections.flatMap { section in
      section.elements.map { (IndexPath(layoutSection: section.index, item: $0.item), $0) }
    }
  }

  /// The number of elements laid out.
  public var elementCount: Int {
    sections.reduce(0) { $0 + $1.elements.count }
  }
}
