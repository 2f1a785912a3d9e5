import Foundation

extension Rect {
  /// The rectangle mirrored across the vertical line at `axis / 2`: `x` becomes `axis − maxX`.
  func mirrored(across axis: Double) -> Rect {
    Rect(x: axis - maxX, y: minY, width: width, height: height)
  }
}

extension LayoutResult {
  /// The result with every frame mirrored across `axis` (a right-to-left layout).
  func mirrored(across axis: Double) -> LayoutResult {
    var copy = self
    copy.viewport = viewport?.mirrored(across: axis)
    for index in copy.supplementaries.indices {
      copy.supplementaries[index].frame = supplementaries[index].frame.mirrored(across: axis)
    }
    for index in copy.decorations.indices {
      copy.decorations[index].frame = decorations[index].frame.mirrored(across: axis)
    }
    for index in copy.sections.indices {
      copy.sections[index].frame = sections[index].frame.mirrored(across: axis)
      copy.sections[index].contentFrame = sections[index].contentFrame.mirrored(across: axis)
      for element in copy.sections[index].elements.indices {
        copy.sections[index].elements[element].frame =
          sections[index].elements[element].frame.mirrored(across: axis)
      }
      copy.sections[index].orthogonalRegion?.frame =
        sections[index].orthogonalRegion?.frame.mirrored(across: axis) ?? .zero
    }
    return copy
  }

  /// Calls each section's handler with its views that intersect the visible rectangle (an
  /// orthogonal section's elements: the part of its strip inside it), and records what they
  /// changed in `visibleItems`.
  mutating func applyVisibleItemsHandlers(
    _ handlers: [Int: VisibleItemsInvalidationHandler], scroll: LayoutScrollPosition,
    environment: LayoutEnvironment
  ) {
    let visible = Rect(origin: scroll.contentOffset, size: container)
    var all: [VisibleLayoutItem] = []
    let views =
      supplementaries.map { ($0, VisibleLayoutItem.Category.supplementary(kind: $0.kind)) }
      + decorations.map { ($0, VisibleLayoutItem.Category.decoration(kind: $0.kind)) }
    for section in sections {
      guard let handler = handlers[section.index] else { continue }
      var bounds = visible
      var offset = scroll.contentOffset
      if let region = section.orthogonalRegion {
        let low = Point(
          x: max(visible.minX, region.frame.minX), y: max(visible.minY, region.frame.minY))
        bounds = Rect(
          x: low.x, y: low.y, width: max(0, min(visible.maxX, region.frame.maxX) - low.x),
          height: max(0, min(visible.maxY, region.frame.maxY) - low.y))
        let along = scroll.orthogonalOffset(ofSection: section.index)
        offset = scrollDirection == .vertical ? Point(x: along, y: 0) : Point(x: 0, y: along)
      }
      var items: [VisibleLayoutItem] = []
      for element in section.elements where element.frame.intersects(bounds) {
        items.append(
          VisibleLayoutItem(
            category: .element, indexPath: IndexPath(indexes: [section.index, element.item]),
            frame: element.frame, zIndex: element.zIndex))
      }
      for (view, category) in views
      where view.indexPath.count == 2 && view.indexPath[0] == section.index
        && view.frame.intersects(visible)
      {
        items.append(
          VisibleLayoutItem(
            category: category, indexPath: view.indexPath, frame: view.frame, zIndex: view.zIndex))
      }
      let count = items.count
      handler(&items, offset, environment)
      precondition(
        items.count == count,
        "LayoutSection \(section.index).visibleItemsInvalidationHandler: it may change the items, not add or remove them (\(count) became \(items.count))"
      )
      for item in items {
        precondition(
          item.alpha.isFinite && (0...1).contains(item.alpha) && item.transform.isFinite,
          "LayoutSection \(section.index).visibleItemsInvalidationHandler: \(item.category) \(item.indexPath) has alpha \(item.alpha) (must be in 0...1) or a transform that is not finite: \(item.transform)"
        )
      }
      all += items
    }
    visibleItems = all
  }
}
