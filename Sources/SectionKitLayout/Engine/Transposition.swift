import Foundation

// A horizontal layout is the vertical layout of the transposed description (x ↔ y, width ↔
// height, leading ↔ top, trailing ↔ bottom, HGroup ↔ VGroup), transposed back.

extension Point {
  func transposed() -> Point { Point(x: y, y: x) }
}

extension Size {
  func transposed() -> Size { Size(width: height, height: width) }
}

extension Rect {
  func transposed() -> Rect { Rect(origin: origin.transposed(), size: size.transposed()) }
}

extension EdgeInsets {
  func transposed() -> EdgeInsets {
    EdgeInsets(top: leading, leading: top, bottom: trailing, trailing: bottom)
  }
}

extension LayoutDimension {
  func transposed() -> LayoutDimension {
    switch self {
    case .fractionalWidth(let value): return .fractionalHeight(value)
    case .fractionalHeight(let value): return .fractionalWidth(value)
    case .absolute, .estimated: return self
    }
  }
}

extension LayoutSize {
  func transposed() -> LayoutSize {
    LayoutSize(width: height.transposed(), height: width.transposed())
  }
}

extension LayoutEdgeSpacing {
  func transposed() -> LayoutEdgeSpacing {
    LayoutEdgeSpacing(leading: top, top: leading, trailing: bottom, bottom: trailing)
  }
}

extension DirectionalEdges {
  func transposed() -> DirectionalEdges {
    var result: DirectionalEdges = []
    if contains(.top) { result.insert(.leading) }
    if contains(.leading) { result.insert(.top) }
    if contains(.bottom) { result.insert(.trailing) }
    if contains(.trailing) { result.insert(.bottom) }
    return result
  }
}

extension LayoutAnchor {
  func transposed() -> LayoutAnchor {
    switch offset {
    case .absolute(let point):
      return LayoutAnchor(edges: edges.transposed(), absoluteOffset: point.transposed())
    case .fractional(let point):
      return LayoutAnchor(edges: edges.transposed(), fractionalOffset: point.transposed())
    }
  }
}

extension SupplementaryItem {
  func transposed() -> SupplementaryItem {
    var copy = self
    copy.containerAnchor = containerAnchor.transposed()
    copy.itemAnchor = itemAnchor?.transposed()
    copy.layoutSize = layoutSize.transposed()
    copy.contentInsets = contentInsets.transposed()
    return copy
  }
}

extension BoundaryAlignment {
  func transposed() -> BoundaryAlignment {
    switch self {
    case .top: return .leading
    case .leading: return .top
    case .bottom: return .trailing
    case .trailing: return .bottom
    case .topLeading: return .topLeading
    case .bottomTrailing: return .bottomTrailing
    case .topTrailing: return .bottomLeading
    case .bottomLeading: return .topTrailing
    case .none: return .none
    }
  }
}

extension BoundarySupplementaryItem {
  func transposed() -> BoundarySupplementaryItem {
    var copy = self
    copy.layoutSize = layoutSize.transposed()
    copy.alignment = alignment.transposed()
    copy.absoluteOffset = absoluteOffset.transposed()
    copy.contentInsets = contentInsets.transposed()
    return copy
  }
}

extension DecorationItem {
  func transposed() -> DecorationItem {
    var copy = self
    copy.contentInsets = contentInsets.transposed()
    return copy
  }
}

extension Item {
  func transposed() -> Item {
    var copy = self
    copy.layoutSize = layoutSize.transposed()
    copy.contentInsets = contentInsets.transposed()
    copy.edgeSpacing = edgeSpacing?.transposed()
    copy.supplementaryItems = supplementaryItems.map { $0.transposed() }
    return copy
  }
}

extension LayoutNode {
  func transposed() -> LayoutNode {
    switch storage {
    case .item(let item):
      return LayoutNode(storage: .item(item.transposed()))
    case .group(var group):
      switch group.kind {
      case .horizontal: group.kind = .vertical
      case .vertical: group.kind = .horizontal
      case .custom(let provider):
        group.kind = .custom { environment in
          var original = environment
          original.containerSize = environment.containerSize.transposed()
          original.scrollDirection = .horizontal
          return provider(original).map {
            CustomGroupItem(frame: $0.frame.transposed(), zIndex: $0.zIndex)
          }
        }
      }
      group.layoutSize = group.layoutSize.transposed()
      group.contentInsets = group.contentInsets.transposed()
      group.edgeSpacing = group.edgeSpacing?.transposed()
      group.supplementaryItems = group.supplementaryItems.map { $0.transposed() }
      group.subitems = group.subitems.map { $0.transposed() }
      return LayoutNode(storage: .group(group))
    }
  }
}

extension LayoutSection {
  func transposed() -> LayoutSection {
    var copy = self
    copy.group = group.transposed()
    copy.contentInsets = contentInsets.transposed()
    copy.boundarySupplementaryItems = boundarySupplementaryItems.map { $0.transposed() }
    copy.decorationItems = decorationItems.map { $0.transposed() }
    return copy
  }
}

extension MeasurementRequest {
  func transposed() -> MeasurementRequest {
    MeasurementRequest(
      category: category, indexPath: indexPath, proposedSize: proposedSize.transposed(),
      estimatesWidth: estimatesHeight, estimatesHeight: estimatesWidth)
  }
}

extension LayoutResult {
  func transposed() -> LayoutResult {
    func flip(_ attributes: SupplementaryAttributes) -> SupplementaryAttributes {
      var copy = attributes
      copy.frame = attributes.frame.transposed()
      return copy
    }
    var copy = self
    copy.container = container.transposed()
    copy.scrollDirection = scrollDirection == .vertical ? .horizontal : .vertical
    copy.contentSize = contentSize.transposed()
    copy.viewport = viewport?.transposed()
    copy.supplementaries = supplementaries.map(flip)
    copy.decorations = decorations.map(flip)
    copy.sections = sections.map { section in
      var flipped = section
      flipped.frame = section.frame.transposed()
      flipped.contentFrame = section.contentFrame.transposed()
      flipped.elements = section.elements.map {
        ElementAttributes(item: $0.item, frame: $0.frame.transposed(), zIndex: $0.zIndex)
      }
      if var region = section.orthogonalRegion {
        region.frame = region.frame.transposed()
        region.contentSize = region.contentSize.transposed()
        flipped.orthogonalRegion = region
      }
      return flipped
    }
    return copy
  }
}
