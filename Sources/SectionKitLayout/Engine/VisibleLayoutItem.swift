import Foundation

/// An affine transform, as in CoreGraphics' `CGAffineTransform`: a point `(x, y)` maps to
/// `(a·x + c·y + tx, b·x + d·y + ty)`, about the view's centre.
///
/// ```swift
/// item.transform = LayoutTransform(scaleX: 0.9, y: 0.9)
/// ```
public struct LayoutTransform: Sendable, Hashable, Codable {
  /// The matrix entries.
  public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

  /// Creates a transform from its six entries.
  public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
    (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
  }

  /// A scale.
  public init(scaleX: Double, y: Double) {
    self.init(a: scaleX, b: 0, c: 0, d: y, tx: 0, ty: 0)
  }

  /// A translation.
  public init(translationX: Double, y: Double) {
    self.init(a: 1, b: 0, c: 0, d: 1, tx: translationX, ty: y)
  }

  /// No change.
  public static let identity = LayoutTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

  /// Whether every entry is finite.
  var isFinite: Bool {
    a.isFinite && b.isFinite && c.isFinite && d.isFinite && tx.isFinite && ty.isFinite
  }
}

/// One view a section's ``LayoutSection/visibleItemsInvalidationHandler`` receives, as in
/// UIKit's `NSCollectionLayoutVisibleItem`: what it is and where it is (read-only), and the
/// transform, alpha and z-index the handler may change for this pass.
public struct VisibleLayoutItem: Sendable, Hashable, Codable {
  /// What the view is: an element, a supplementary or a decoration view.
  public enum Category: Sendable, Hashable, Codable {
    /// An element (cell).
    case element
    /// A supplementary view of this kind.
    case supplementary(kind: String)
    /// A decoration view of this kind.
    case decoration(kind: String)
  }

  /// What the view is.
  public let category: Category
  /// `[section, item]` (see ``SupplementaryAttributes/indexPath`` for supplementaries).
  public let indexPath: IndexPath
  /// The frame in content coordinates, where the view is for the scroll position.
  public let frame: Rect
  /// The transform the handler gives the view. Default: ``LayoutTransform/identity``.
  public var transform: LayoutTransform = .identity
  /// The opacity the handler gives the view, `0...1`. Default: 1.
  public var alpha: Double = 1
  /// The z-index; starts as the layout's.
  public var zIndex: Int

  /// Creates a visible item.
  public init(category: Category, indexPath: IndexPath, frame: Rect, zIndex: Int) {
    self.category = category
    self.indexPath = indexPath
    self.frame = frame
    self.zIndex = zIndex
  }

  /// The item's centre.
  public var center: Point { Point(x: frame.midX, y: frame.midY) }
}

/// The closure UIKit calls `visibleItemsInvalidationHandler`: it receives the section's visible
/// views, the scroll offset (the section's own, along its strip, for an orthogonal section; the
/// collection view's otherwise) and the environment, and may change the views' transform, alpha
/// and z-index.
public typealias VisibleItemsInvalidationHandler =
  @Sendable (_ items: inout [VisibleLayoutItem], _ offset: Point, _ environment: LayoutEnvironment)
  -> Void
