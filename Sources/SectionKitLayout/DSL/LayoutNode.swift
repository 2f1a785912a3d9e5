/// A subitem of a group: an ``Item``, an ``HGroup``, a ``VGroup`` or a ``CustomGroup``.
///
/// `LayoutNode` is opaque; only the library's building blocks create one. A custom building
/// block conforms to ``GroupSubitem`` by returning one of theirs, so the builders read
/// `layoutNode` exactly once and can never loop.
public struct LayoutNode: Sendable {
  indirect enum Storage: Sendable {
    case item(Item)
    case group(GroupNode)
  }

  let storage: Storage
}

/// Anything that can be a subitem of a group.
///
/// ```swift
/// struct Tile: GroupSubitem {
///   var layoutNode: LayoutNode { Item().contentInsets(value: 4).layoutNode }
/// }
/// HGroup { Tile(); Tile() }
/// ```
public protocol GroupSubitem: Sendable {
  /// The library building block this value stands for.
  var layoutNode: LayoutNode { get }
}

extension LayoutNode: GroupSubitem {
  /// The node itself.
  public var layoutNode: LayoutNode { self }
}

/// The engine's view of a group.
struct GroupNode: Sendable {
  enum Kind: Sendable {
    case horizontal
    case vertical
    case custom(@Sendable (LayoutEnvironment) -> [CustomGroupItem])
  }

  var kind: Kind
  var layoutSize: LayoutSize
  var contentInsets: EdgeInsets
  var edgeSpacing: LayoutEdgeSpacing?
  var supplementaryItems: [SupplementaryItem]
  var interItemSpacing: LayoutSpacing?
  var subitems: [LayoutNode]
  var count: Int?
}

extension LayoutNode {
  var layoutSize: LayoutSize {
    switch storage {
    case .item(let item): return item.layoutSize
    case .group(let group): return group.layoutSize
    }
  }

  var edgeSpacing: LayoutEdgeSpacing? {
    switch storage {
    case .item(let item): return item.edgeSpacing
    case .group(let group): return group.edgeSpacing
    }
  }

  /// Whether any dimension in the subtree is estimated.
  var containsEstimatedDimension: Bool {
    func estimated(_ size: LayoutSize) -> Bool { size.width.isEstimated || size.height.isEstimated }
    switch storage {
    case .item(let item):
      return estimated(item.layoutSize)
        || item.supplementaryItems.contains { estimated($0.layoutSize) }
    case .group(let group):
      return estimated(group.layoutSize)
        || group.supplementaryItems.contains { estimated($0.layoutSize) }
        || group.subitems.contains { $0.containsEstimatedDimension }
    }
  }
}
