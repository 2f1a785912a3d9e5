/// A rectangle given by its origin (top-left corner) and size. The y axis points down.
///
/// ```swift
/// let frame = Rect(x: 16, y: 8, width: 100, height: 44)
/// frame.maxX  // 116
/// ```
public struct Rect: Sendable, Hashable, Codable {
  /// The top-left corner.
  public var origin: Point
  /// The width and height.
  public var size: Size

  /// Creates a rectangle from an origin and a size.
  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  /// Creates a rectangle from coordinates.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.origin = Point(x: x, y: y)
    self.size = Size(width: width, height: height)
  }

  /// The empty rectangle at the origin.
  public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

  /// The left edge.
  public var minX: Double { origin.x }
  /// The horizontal centre.
  public var midX: Double { origin.x + size.width / 2 }
  /// The right edge.
  public var maxX: Double { origin.x + size.width }
  /// The top edge.
  public var minY: Double { origin.y }
  /// The vertical centre.
  public var midY: Double { origin.y + size.height / 2 }
  /// The bottom edge.
  public var maxY: Double { origin.y + size.height }
  /// The width.
  public var width: Double { size.width }
  /// The height.
  public var height: Double { size.height }

  /// Whether the two rectangles share interior area. Rectangles that only touch, and empty
  /// rectangles, do not intersect.
  ///
  /// - Complexity: O(1).
  public func intersects(_ other: Rect) -> Bool {
    minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
  }

  /// Whether `other` lies entirely inside this rectangle (edges may touch).
  ///
  /// - Parameters:
  ///   - other: The rectangle that may lie inside this one.
  ///   - tolerance: slack allowed for floating-point rounding.
  public func contains(_ other: Rect, tolerance: Double = 1e-9) -> Bool {
    other.minX >= minX - tolerance && other.maxX <= maxX + tolerance
      && other.minY >= minY - tolerance && other.maxY <= maxY + tolerance
  }

  /// The rectangle moved by `dx`, `dy`.
  public func offsetBy(dx: Double, dy: Double) -> Rect {
    Rect(x: origin.x + dx, y: origin.y + dy, width: size.width, height: size.height)
  }

  /// The rectangle shrunk by `insets` (negative insets grow it).
  ///
  /// Insets longer together than the rectangle on one axis leave it empty on that axis (never a
  /// negative size), at the point that divides the side as the two insets do:
  /// `Rect(x: 0, y: 0, width: 10, height: 10).inset(by: EdgeInsets(all: 8))` is the empty
  /// rectangle at `(5, 5)`.
  public func inset(by insets: EdgeInsets) -> Rect {
    let insets = insets.fitted(to: size)
    return Rect(
      x: origin.x + insets.leading, y: origin.y + insets.top,
      width: max(0, size.width - insets.horizontal), height: max(0, size.height - insets.vertical))
  }

  /// The smallest rectangle containing both.
  public func union(_ other: Rect) -> Rect {
    let x0 = Swift.min(minX, other.minX)
    let y0 = Swift.min(minY, other.minY)
    return Rect(
      x: x0, y: y0, width: Swift.max(maxX, other.maxX) - x0,
      height: Swift.max(maxY, other.maxY) - y0)
  }
}
