/// A section of a ``CompositionalLayout``: one group repeated for the section's elements, as in
/// UIKit's `NSCollectionLayoutSection`. It is CompositionalLayoutDSL's `Section`, renamed so that
/// a file importing both `SectionKit` (whose `Section` is the data-model protocol) and
/// `SectionKitLayout` reads without module qualification.
///
/// The group's fractional sizes are relative to the container minus the section's content
/// insets. Groups stack along the scroll direction separated by `interGroupSpacing`, or along
/// the orthogonal axis in one strip when `orthogonalScrollingBehavior` is not `.none`.
///
/// ```swift
/// LayoutSection {
///   HGroup { Item().width(.fractionalWidth(0.25)) }.height(.absolute(80))
/// }
/// .interGroupSpacing(8)
/// .contentInsets(horizontal: 16, vertical: 8)
/// .boundarySupplementaryItems {
///   BoundarySupplementaryItem(elementKind: "header").height(.absolute(30))
/// }
/// ```
public struct LayoutSection: Sendable, LayoutInsettable, LayoutSectionConvertible {
  /// The group repeated for the section's elements.
  public var group: LayoutNode
  /// Insets between the section's boundary and its groups.
  public var contentInsets: EdgeInsets = .zero
  /// Space between consecutive groups.
  public var interGroupSpacing: Double = 0
  /// How the section scrolls across the layout.
  public var orthogonalScrollingBehavior: OrthogonalScrollingBehavior = .none
  /// Whether top and bottom boundary items are inset horizontally like the content. Default:
  /// `true`, as in UIKit.
  public var supplementariesFollowContentInsets: Bool = true
  /// Headers and footers.
  public var boundarySupplementaryItems: [BoundarySupplementaryItem] = []
  /// Backgrounds.
  public var decorationItems: [DecorationItem] = []
  /// What the content insets are measured from. Default: ``ContentInsetsReference/automatic``
  /// (the configuration's).
  public var contentInsetsReference: ContentInsetsReference = .automatic
  /// Called with the section's visible views on every layout that has a scroll position (see
  /// ``LayoutScrollPosition``); it may change their transform, alpha and z-index for that pass.
  public var visibleItemsInvalidationHandler: VisibleItemsInvalidationHandler?

  /// Creates a section from its group.
  ///
  /// The builder must produce exactly one subitem. A lone ``Item`` is wrapped in an ``HGroup``
  /// of the item's size, so `LayoutSection { Item().height(.absolute(44)) }` is a list.
  public init(@SubitemBuilder group: () -> [LayoutNode]) {
    let nodes = group()
    precondition(
      nodes.count == 1,
      "LayoutSection: the builder must produce exactly one group, got \(nodes.count)")
    self.init(group: nodes[0])
  }

  /// Creates a section from its group (a lone item is wrapped as with the builder initializer).
  public init(group: some GroupSubitem) {
    let node = group.layoutNode
    switch node.storage {
    case .group:
      self.group = node
    case .item(let item):
      var wrapper = HGroup { item }
      wrapper.layoutSize = item.layoutSize
      var inner = item
      inner.layoutSize = LayoutSize(
        width: item.layoutSize.width.isEstimated ? item.layoutSize.width : .fractionalWidth(1),
        height: item.layoutSize.height.isEstimated ? item.layoutSize.height : .fractionalHeight(1))
      wrapper.subitems = [inner.layoutNode]
      self.group = wrapper.layoutNode
    }
  }

  /// The section itself.
  public var layoutSection: LayoutSection { self }

  /// Sets the space between consecutive groups.
  public func interGroupSpacing(_ value: Double) -> Self {
    checkLength(value, "LayoutSection.interGroupSpacing")
    return updated(self, \.interGroupSpacing, value)
  }

  /// Sets the orthogonal scrolling behaviour.
  public func orthogonalScrollingBehavior(_ value: OrthogonalScrollingBehavior) -> Self {
    updated(self, \.orthogonalScrollingBehavior, value)
  }

  /// Sets whether boundary items follow the content insets.
  public func supplementariesFollowContentInsets(_ value: Bool) -> Self {
    updated(self, \.supplementariesFollowContentInsets, value)
  }

  /// Sets what the content insets are measured from.
  public func contentInsetsReference(_ value: ContentInsetsReference) -> Self {
    updated(self, \.contentInsetsReference, value)
  }

  /// Sets the handler that may change the visible views' transform, alpha and z-index.
  ///
  /// ```swift
  /// LayoutSection { HGroup { Item() }.width(.fractionalWidth(0.8)).height(.absolute(200)) }
  ///   .orthogonalScrollingBehavior(.groupPagingCentered)
  ///   .visibleItemsInvalidationHandler { items, offset, environment in
  ///     for index in items.indices {
  ///       let distance = abs(items[index].center.x - offset.x - environment.containerSize.width / 2)
  ///       let scale = max(0.8, 1 - distance / environment.containerSize.width)
  ///       items[index].transform = LayoutTransform(scaleX: scale, y: scale)
  ///     }
  ///   }
  /// ```
  public func visibleItemsInvalidationHandler(_ handler: VisibleItemsInvalidationHandler?) -> Self {
    updated(self, \.visibleItemsInvalidationHandler, handler)
  }

  /// Appends headers and footers.
  public func boundarySupplementaryItems(
    @LayoutListBuilder<BoundarySupplementaryItem> _ content: () -> [BoundarySupplementaryItem]
  ) -> Self {
    var copy = self
    copy.boundarySupplementaryItems += content()
    return copy
  }

  /// Appends backgrounds.
  public func decorationItems(@LayoutListBuilder<DecorationItem> _ content: () -> [DecorationItem])
    -> Self
  {
    var copy = self
    copy.decorationItems += content()
    return copy
  }
}

/// Anything a section builder accepts: ``LayoutSection``, ``ListSection`` or your own preset.
///
/// ```swift
/// struct CardsSection: LayoutSectionConvertible {
///   var layoutSection: LayoutSection {
///     LayoutSection { HGroup { Item() }.height(.absolute(120)) }.interGroupSpacing(8)
///   }
/// }
/// ```
public protocol LayoutSectionConvertible: Sendable {
  /// The section this value stands for.
  var layoutSection: LayoutSection { get }
}
