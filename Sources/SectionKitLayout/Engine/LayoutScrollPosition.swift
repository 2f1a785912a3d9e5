/// Where a layout is scrolled: the collection view's content offset and each orthogonally
/// scrolling section's own offset along its strip.
///
/// Given to ``CompositionalLayout/frames(itemCounts:environment:scroll:measure:)``, it makes the
/// result report what UIKit shows at that position: elements of an orthogonal section (and their
/// supplementaries) moved by the section's offset, pinned headers and footers at the edges of
/// the visible rectangle `Rect(origin: contentOffset, size: container)`, and the sections'
/// ``LayoutSection/visibleItemsInvalidationHandler`` applied.
///
/// ```swift
/// let position = LayoutScrollPosition(contentOffset: Point(x: 0, y: 120), orthogonalOffsets: [0: 200])
/// let result = layout.frames(itemCounts: [10], environment: environment, scroll: position)
/// ```
public struct LayoutScrollPosition: Sendable, Hashable, Codable {
  /// The collection view's content offset, in content coordinates.
  public var contentOffset: Point
  /// Each orthogonal section's offset along its strip, from its leading end (points scrolled);
  /// sections not listed are at 0.
  public var orthogonalOffsets: [Int: Double]

  /// Creates a scroll position.
  public init(contentOffset: Point = .zero, orthogonalOffsets: [Int: Double] = [:]) {
    precondition(
      contentOffset.x.isFinite && contentOffset.y.isFinite,
      "LayoutScrollPosition: contentOffset \(contentOffset) must be finite")
    for (section, offset) in orthogonalOffsets {
      precondition(
        offset.isFinite,
        "LayoutScrollPosition: orthogonal offset \(offset) of section \(section) must be finite")
    }
    self.contentOffset = contentOffset
    self.orthogonalOffsets = orthogonalOffsets
  }

  /// The orthogonal offset of `section` (0 when not listed).
  public func orthogonalOffset(ofSection section: Int) -> Double {
    orthogonalOffsets[section] ?? 0
  }
}

extension LayoutScrollPosition {
  /// Decodes a scroll position; throws `DecodingError.dataCorrupted` at `contentOffset` or
  /// `orthogonalOffsets` for an offset that is NaN or infinite, as
  /// ``LayoutScrollPosition/init(contentOffset:orthogonalOffsets:)`` refuses them.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let contentOffset = try container.decode(Point.self, forKey: .contentOffset)
    guard contentOffset.x.isFinite && contentOffset.y.isFinite else {
      throw DecodingError.dataCorruptedError(
        forKey: .contentOffset, in: container,
        debugDescription: "LayoutScrollPosition.contentOffset \(contentOffset) must be finite")
    }
    let orthogonalOffsets = try container.decode([Int: Double].self, forKey: .orthogonalOffsets)
    if let (section, offset) = orthogonalOffsets.filter({ !$0.value.isFinite }).min(by: {
      $0.key < $1.key
    }) {
      throw DecodingError.dataCorruptedError(
        forKey: .orthogonalOffsets, in: container,
        debugDescription:
          "LayoutScrollPosition.orthogonalOffsets: offset \(offset) of section \(section) must be finite"
      )
    }
    self.init(contentOffset: contentOffset, orthogonalOffsets: orthogonalOffsets)
  }
}
