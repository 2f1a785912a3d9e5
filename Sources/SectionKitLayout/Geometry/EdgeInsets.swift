/// Direction-aware insets, like UIKit's `NSDirectionalEdgeInsets` (leading is left in the
/// left-to-right layouts SectionKitLayout computes).
///
/// ```swift
/// let insets = EdgeInsets(top: 8, leading: 16, bottom: 8, trailing: 16)
/// ```
public struct EdgeInsets: Sendable, Hashable, Codable {
  /// The inset at the top edge.
  public var top: Double
  /// The inset at the leading (left) edge.
  public var leading: Double
  /// The inset at the bottom edge.
  public var bottom: Double
  /// The inset at the trailing (right) edge.
  public var trailing: Double

  /// Creates insets from the four edges.
  public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
    self.top = top
    self.leading = leading
    self.bottom = bottom
    self.trailing = trailing
  }

  /// Creates insets with the same value on every edge.
  public init(all value: Double) {
    self.init(top: value, leading: value, bottom: value, trailing: value)
  }

  /// No insets.
  public static let zero = EdgeInsets()

  /// `leading + trailing`.
  public var horizontal: Double { leading + trailing }
  /// `top + bottom`.
  public var vertical: Double { top + bottom }
}

extension EdgeInsets {
  /// The insets with each axis's pair scaled down, in proportion, to the length of `size` on
  /// that axis when together they are longer: what is left inside is then empty, at the point
  /// that divides the length as the two insets do, never a negative size.
  func fitted(to size: Size) -> EdgeInsets {
    var result = self
    let horizontal = horizontal
    if horizontal > 0, horizontal > size.width {
      let scale = max(0, size.width) / horizontal
      result.leading *= scale
      result.trailing *= scale
    }
    let vertical = vertical
    if vertical > 0, vertical > size.height {
      let scale = max(0, size.height) / vertical
      result.top *= scale
      result.bottom *= scale
    }
    return result
  }
}
