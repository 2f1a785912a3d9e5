/// A width and a height.
///
/// ```swift
/// let container = Size(width: 320, height: 480)
/// ```
public struct Size: Sendable, Hashable, Codable {
  /// The horizontal extent.
  public var width: Double
  /// The vertical extent.
  public var height: Double

  /// Creates a size.
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// The size `0 × 0`.
  public static let zero = Size(width: 0, height: 0)
}
