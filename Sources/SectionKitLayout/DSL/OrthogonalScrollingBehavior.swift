/// How a section scrolls across the layout's scroll direction, as in UIKit's
/// `UICollectionLayoutSectionOrthogonalScrollingBehavior`.
///
/// Every value other than ``none`` lays the section's groups out in one strip along the
/// orthogonal axis. Only ``groupPagingCentered`` changes frames (the groups are centred in the
/// section's width); the paging values are otherwise scrolling hints for the adapter.
public enum OrthogonalScrollingBehavior: Sendable, Hashable, Codable, CaseIterable {
  /// The section scrolls with the layout.
  case none
  /// Free scrolling.
  case continuous
  /// Free scrolling that comes to rest on a group's leading edge.
  case continuousGroupLeadingBoundary
  /// Pages of the container's width.
  case paging
  /// Pages of one group.
  case groupPaging
  /// Pages of one group, each centred.
  case groupPagingCentered
}

/// The layout's main scroll direction.
public enum ScrollDirection: Sendable, Hashable, Codable, CaseIterable {
  /// Sections stack top to bottom.
  case vertical
  /// Sections stack left to right.
  case horizontal
}
