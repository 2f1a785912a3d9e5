/// A point in a layout's coordinate space, in points (or character cells for the console).
///
/// SectionKitLayout defines its own geometry so it runs where CoreGraphics does not.
///
/// ```swift
/// let origin = Point(x: 16, y: 8)
/// ```
public struct Point: Sendable, Hashable, Codable {
  /// The horizontal coordinate.
  public var x: Double
  /// The vertical coordinate.
  public var y: Double

  /// Creates a point.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The point `(0, 0)`.
  public static let zero = Point(x: 0, y: 0)
}
