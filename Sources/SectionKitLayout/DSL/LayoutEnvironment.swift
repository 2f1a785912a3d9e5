/// What a section provider or a ``CustomGroup`` closure knows about its container, a small
/// counterpart of UIKit's `NSCollectionLayoutEnvironment`.
public struct LayoutEnvironment: Sendable, Hashable {
  /// For a section provider: the layout's container size. For a custom group: the group's
  /// area after its content insets.
  public var containerSize: Size
  /// The layout's scroll direction.
  public var scrollDirection: ScrollDirection

  /// Creates an environment.
  public init(containerSize: Size, scrollDirection: ScrollDirection = .vertical) {
    self.containerSize = containerSize
    self.scrollDirection = scrollDirection
  }
}
