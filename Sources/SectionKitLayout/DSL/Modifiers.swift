/// A layout value with a ``LayoutSize``: items, groups, supplementary and boundary items.
///
/// The modifiers return `Self`, so a chain keeps the concrete type and everything set before.
///
/// ```swift
/// Item().width(.fractionalWidth(0.5)).height(.absolute(44)).contentInsets(value: 2)
/// ```
public protocol LayoutSizable {
  /// The size of the value.
  var layoutSize: LayoutSize { get set }
}

extension LayoutSizable {
  /// Sets the width dimension, keeping the height.
  public func width(_ dimension: LayoutDimension) -> Self {
    updated(self, \.layoutSize.width, dimension.checked("\(Self.self).width"))
  }

  /// Sets the height dimension, keeping the width.
  public func height(_ dimension: LayoutDimension) -> Self {
    updated(self, \.layoutSize.height, dimension.checked("\(Self.self).height"))
  }

  /// Sets both dimensions.
  public func size(_ size: LayoutSize) -> Self {
    updated(self, \.layoutSize, size.checked("\(Self.self).size"))
  }
}

/// A layout value with content insets: items, groups, sections, supplementaries, decorations.
///
/// Each modifier changes only the edges it names.
///
/// ```swift
/// LayoutSection { HGroup { Item() } }.contentInsets(horizontal: 16).contentInsets(top: 8)
/// ```
public protocol LayoutInsettable {
  /// The content insets.
  var contentInsets: EdgeInsets { get set }
}

extension LayoutInsettable {
  /// Replaces all four insets.
  public func contentInsets(_ insets: EdgeInsets) -> Self {
    updated(self, \.contentInsets, insets.checked("\(Self.self).contentInsets"))
  }

  /// Sets all four edges to `value`.
  public func contentInsets(value: Double) -> Self {
    contentInsets(EdgeInsets(all: value))
  }

  /// Sets leading and trailing to `horizontal`, top and bottom to `vertical`; a `nil` argument
  /// keeps those edges.
  public func contentInsets(horizontal: Double? = nil, vertical: Double? = nil) -> Self {
    contentInsets(top: vertical, leading: horizontal, bottom: vertical, trailing: horizontal)
  }

  /// Sets the named edges; a `nil` argument keeps that edge.
  public func contentInsets(
    top: Double? = nil, leading: Double? = nil, bottom: Double? = nil, trailing: Double? = nil
  ) -> Self {
    var insets = contentInsets
    if let top { insets.top = top }
    if let leading { insets.leading = leading }
    if let bottom { insets.bottom = bottom }
    if let trailing { insets.trailing = trailing }
    return contentInsets(insets)
  }
}

/// A layout value with a z-index: items, supplementaries, boundary and decoration items.
public protocol LayoutZIndexable {
  /// The z-index reported with the frame.
  var zIndex: Int { get set }
}

extension LayoutZIndexable {
  /// Sets the z-index.
  public func zIndex(_ value: Int) -> Self {
    updated(self, \.zIndex, value)
  }
}

extension SupplementaryItem: LayoutZIndexable {}
extension BoundarySupplementaryItem: LayoutZIndexable {}
extension DecorationItem: LayoutZIndexable {}

/// An item or a group: something with edge spacing and supplementary items.
public protocol LayoutItemConfigurable: LayoutSizable, LayoutInsettable {
  /// Space around the item inside its group.
  var edgeSpacing: LayoutEdgeSpacing? { get set }
  /// Supplementary items anchored to the item or group.
  var supplementaryItems: [SupplementaryItem] { get set }
}

extension LayoutItemConfigurable {
  /// Replaces the edge spacing.
  public func edgeSpacing(_ spacing: LayoutEdgeSpacing?) -> Self {
    updated(self, \.edgeSpacing, spacing?.checked("\(Self.self).edgeSpacing"))
  }

  /// Sets the named edges' spacing; a `nil` argument keeps that edge.
  public func edgeSpacing(
    leading: LayoutSpacing? = nil, top: LayoutSpacing? = nil, trailing: LayoutSpacing? = nil,
    bottom: LayoutSpacing? = nil
  ) -> Self {
    var spacing = edgeSpacing ?? LayoutEdgeSpacing()
    if let leading { spacing.leading = leading }
    if let top { spacing.top = top }
    if let trailing { spacing.trailing = trailing }
    if let bottom { spacing.bottom = bottom }
    return edgeSpacing(spacing)
  }

  /// Appends supplementary items.
  public func supplementaryItems(
    @LayoutListBuilder<SupplementaryItem> _ content: () -> [SupplementaryItem]
  ) -> Self {
    var copy = self
    copy.supplementaryItems += content()
    return copy
  }
}

/// A group: an item with subitems and inter-item spacing.
public protocol LayoutGroupConfigurable: LayoutItemConfigurable {
  /// Space between consecutive subitems along the group's axis.
  var interItemSpacing: LayoutSpacing? { get set }
}

extension LayoutGroupConfigurable {
  /// Sets the space between consecutive subitems.
  public func interItemSpacing(_ spacing: LayoutSpacing?) -> Self {
    updated(self, \.interItemSpacing, spacing?.checked("\(Self.self).interItemSpacing"))
  }
}
