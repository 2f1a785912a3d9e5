extension OrthogonalRegion {
  /// How far a free scroll glides per point/second of velocity at UIKit's normal deceleration
  /// rate (0.998 per millisecond): `0.998 / (1 − 0.998) / 1000` seconds.
  public static let decelerationDistancePerVelocity = 0.499

  /// The offset along the strip where a gesture that ends at `offset` with `velocity` settles,
  /// as UIKit's orthogonal scroll view computes it for the region's ``behavior``:
  ///
  /// - `.none`, `.continuous`: where deceleration stops, `offset + 0.499 × velocity`.
  /// - `.continuousGroupLeadingBoundary`: the group leading edge (offsets `k × (group + spacing)`)
  ///   nearest to where deceleration would stop.
  /// - `.paging`: pages of ``visibleLength``; `.groupPaging`: one group's leading edge to the
  ///   next (`k × (group + spacing)`); `.groupPagingCentered`: offsets that centre group *k*.
  ///   A positive velocity moves to the next page after `offset`, a negative one to the page
  ///   before it, zero to the nearest page.
  ///
  /// Every result is clamped to `0...max(0, contentLength − visibleLength)`.
  ///
  /// ```swift
  /// let region = result.sections[0].orthogonalRegion!
  /// region.targetOffset(forEndingOffset: 130, velocity: 400)  // the next group's offset
  /// ```
  ///
  /// - Parameters:
  ///   - offset: where the finger lifted, in points from the strip's leading end.
  ///   - velocity: in points per second along the strip, positive towards the trailing end.
  /// - Complexity: O(1).
  public func targetOffset(forEndingOffset offset: Double, velocity: Double) -> Double {
    precondition(
      offset.isFinite && velocity.isFinite,
      "OrthogonalRegion.targetOffset: offset \(offset) and velocity \(velocity) must be finite")
    let maximum = max(0, contentLength - visibleLength)
    func clamped(_ value: Double) -> Double { min(max(0, value), maximum) }
    let projected = offset + velocity * Self.decelerationDistancePerVelocity
    let stride = groupLength + groupSpacing
    switch behavior {
    case .none, .continuous:
      return clamped(projected)
    case .continuousGroupLeadingBoundary:
      guard stride > 0 else { return clamped(projected) }
      return clamped((projected / stride).rounded() * stride)
    case .paging:
      return clamped(page(offset, velocity: velocity, first: 0, step: visibleLength))
    case .groupPaging:
      return clamped(page(offset, velocity: velocity, first: 0, step: stride))
    case .groupPagingCentered:
      let first = firstGroupOffset + groupLength / 2 - visibleLength / 2
      return clamped(page(offset, velocity: velocity, first: first, step: stride))
    }
  }

  /// The anchor `first + k × step` after `offset` (velocity > 0), before it (< 0) or nearest.
  private func page(_ offset: Double, velocity: Double, first: Double, step: Double) -> Double {
    guard step > 0 else { return offset }
    let position = (offset - first) / step
    let tolerance = 1e-9
    let index: Double =
      if velocity > 0 {
        (position + tolerance).rounded(.down) + 1
      } else if velocity < 0 {
        (position - tolerance).rounded(.up) - 1
      } else {
        position.rounded()
      }
    return first + index * step
  }
}
