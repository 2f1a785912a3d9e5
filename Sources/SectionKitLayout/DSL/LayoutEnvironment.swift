/// What a section provider or a ``CustomGroup`` closure knows about its container, a small
/// counterpart of UIKit's `NSCollectionLayoutEnvironment` (with the trait collection's layout
/// direction and the collection view's safe area, layout margins and readable content guide).
///
/// ```swift
/// let environment = LayoutEnvironment(
///   containerSize: Size(width: 375, height: 812), layoutDirection: .rightToLeft,
///   safeAreaInsets: EdgeInsets(top: 47, leading: 0, bottom: 34, trailing: 0))
/// let result = layout.frames(itemCounts: [10], environment: environment)
/// ```
public struct LayoutEnvironment: Sendable, Hashable {
  /// For a section provider: the layout's container size. For a custom group: the group's
  /// area after its content insets.
  public var containerSize: Size
  /// The layout's scroll direction.
  public var scrollDirection: ScrollDirection
  /// Left to right (the default) or right to left: in a right-to-left layout every frame is
  /// mirrored, so leading is the right side.
  public var layoutDirection: LayoutDirection
  /// The container's safe area insets (``ContentInsetsReference/safeArea``).
  public var safeAreaInsets: EdgeInsets
  /// The container's layout margins (``ContentInsetsReference/layoutMargins``).
  public var layoutMargins: EdgeInsets
  /// The insets of the container's readable content guide
  /// (``ContentInsetsReference/readableContent``).
  public var readableContentInsets: EdgeInsets

  /// Creates an environment; the insets default to zero, the direction to left to right.
  public init(
    containerSize: Size, scrollDirection: ScrollDirection = .vertical,
    layoutDirection: LayoutDirection = .leftToRight, safeAreaInsets: EdgeInsets = .zero,
    layoutMargins: EdgeInsets = .zero, readableContentInsets: EdgeInsets = .zero
  ) {
    self.containerSize = containerSize
    self.scrollDirection = scrollDirection
    self.layoutDirection = layoutDirection
    self.safeAreaInsets = safeAreaInsets
    self.layoutMargins = layoutMargins
    self.readableContentInsets = readableContentInsets
  }
}

/// The direction of a layout's leading edge, as in UIKit's
/// `UIUserInterfaceLayoutDirection`.
public enum LayoutDirection: Sendable, Hashable, Codable, CaseIterable {
  /// Leading is left.
  case leftToRight
  /// Leading is right: every frame is mirrored across the content's width.
  case rightToLeft
}

/// What a section's content insets are measured from, as in UIKit's
/// `UIContentInsetsReference`. The environment supplies the reference insets; the section's
/// insets add to them on the two edges across the scroll direction (leading and trailing in a
/// vertical layout).
public enum ContentInsetsReference: Sendable, Hashable, Codable, CaseIterable {
  /// The configuration's reference (for a section), or the safe area (for the configuration).
  case automatic
  /// The container's edges.
  case none
  /// The container's safe area (``LayoutEnvironment/safeAreaInsets``).
  case safeArea
  /// The container's layout margins (``LayoutEnvironment/layoutMargins``).
  case layoutMargins
  /// The container's readable content guide (``LayoutEnvironment/readableContentInsets``).
  case readableContent

  /// The insets this reference takes from `environment`; `fallback` resolves ``automatic``.
  func insets(in environment: LayoutEnvironment, fallback: ContentInsetsReference) -> EdgeInsets {
    switch self {
    case .automatic:
      return fallback == .automatic
        ? environment.safeAreaInsets
        : fallback.insets(in: environment, fallback: .automatic)
    case .none: return .zero
    case .safeArea: return environment.safeAreaInsets
    case .layoutMargins: return environment.layoutMargins
    case .readableContent: return environment.readableContentInsets
    }
  }
}
