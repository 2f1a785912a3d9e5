/// A section background, as in UIKit's `NSCollectionLayoutDecorationItem.background(elementKind:)`.
///
/// It covers the section's full width and the height from the end of its headers to the start
/// of its footers (content insets included), shrunk by its own `contentInsets`. Its index path
/// is `[section, 0]`; its z-index defaults to -1 (below elements).
///
/// ```swift
/// LayoutSection { HGroup { Item() }.height(.absolute(44)) }
///   .decorationItems { DecorationItem.background(elementKind: "background").contentInsets(value: 8) }
/// ```
public struct DecorationItem: Sendable, Hashable, LayoutInsettable {
  /// The element kind reported with the frame.
  public var elementKind: String
  /// Insets that shrink the background inside the section.
  public var contentInsets: EdgeInsets = .zero
  /// The z-index reported with the frame. Default: -1.
  public var zIndex: Int = -1

  /// Creates a section background of the given kind.
  public init(background elementKind: String) {
    self.elementKind = elementKind
  }

  /// Creates a section background of the given kind.
  public static func background(elementKind: String) -> DecorationItem {
    DecorationItem(background: elementKind)
  }
}
