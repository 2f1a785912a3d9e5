import Foundation

extension BoundaryAlignment {
  var isTop: Bool { self == .top || self == .topLeading || self == .topTrailing }
  var isBottom: Bool { self == .bottom || self == .bottomLeading || self == .bottomTrailing }

  /// The x of an item of width `width` in the span `[x, x + span]`.
  func x(width: Double, spanX: Double, span: Double) -> Double {
    switch self {
    case .leading, .topLeading, .bottomLeading, .none: return spanX
    case .trailing, .topTrailing, .bottomTrailing: return spanX + span - width
    case .top, .bottom: return spanX + (span - width) / 2
    }
  }
}

/// One vertical layout pass: stacks sections top to bottom. Horizontal layouts run through it
/// transposed (see `Transposition.swift`).
struct LayoutPass {
  let container: Size
  let configuration: CompositionalLayout.Configuration
  let measure: ((MeasurementRequest) -> Size)?
  let viewport: Rect?
  let scroll: LayoutScrollPosition?
  /// The rectangle pinned boundary items stick to: the viewport of a viewport query, else the
  /// visible rectangle of the scroll position, else none.
  let pinViewport: Rect?
  var supplementaries: [SupplementaryAttributes] = []
  var decorations: [SupplementaryAttributes] = []
  var sections: [SectionLayoutInfo] = []

  init(
    container: Size, configuration: CompositionalLayout.Configuration,
    measure: ((MeasurementRequest) -> Size)?, viewport: Rect?, scroll: LayoutScrollPosition? = nil
  ) {
    self.container = container
    self.configuration = configuration
    self.measure = measure
    self.viewport = viewport
    self.scroll = scroll
    self.pinViewport = viewport ?? scroll.map { Rect(origin: $0.contentOffset, size: container) }
  }

  func isVisible(_ frame: Rect) -> Bool {
    guard let viewport else { return true }
    return frame.intersects(viewport)
  }

  mutating func emitSupplementary(_ attributes: SupplementaryAttributes) {
    if isVisible(attributes.frame) { supplementaries.append(attributes) }
  }

  func boundarySize(_ item: BoundarySupplementaryItem, span: Double, indexPath: IndexPath) -> Size {
    let size = item.layoutSize.resolved(in: Size(width: span, height: container.height))
    let estimatesWidth = item.layoutSize.width.isEstimated
    let estimatesHeight = item.layoutSize.height.isEstimated
    guard estimatesWidth || estimatesHeight, let measure else { return size }
    return MeasurementRequest(
      category: .supplementary(kind: item.elementKind), indexPath: indexPath, proposedSize: size,
      estimatesWidth: estimatesWidth, estimatesHeight: estimatesHeight
    ).measured(by: measure)
  }

  /// Places boundary items around `[contentTop, contentBottom]`-to-be; returns the frames.
  /// Top items that extend the boundary stack from `top` down, bottom ones from the content's
  /// end; the rest sit inside the boundary.
  func pinned(
    _ frame: Rect, item: BoundarySupplementaryItem, boundaryTop: Double, boundaryBottom: Double
  ) -> Rect {
    guard item.pinToVisibleBounds, let viewport = pinViewport else { return frame }
    var result = frame
    if item.alignment.isBottom {
      result.origin.y = min(frame.minY, max(viewport.maxY - frame.height, boundaryTop))
    } else {
      result.origin.y = max(frame.minY, min(viewport.minY, boundaryBottom - frame.height))
    }
    return result
  }

  /// Places the layout-wide boundary items of one end (not yet emitted); returns the new cursor.
  func layoutWideItems(top: Bool, cursor start: Double) -> (
    frames: [(BoundarySupplementaryItem, Rect)], cursor: Double
  ) {
    var cursor = start
    var frames: [(BoundarySupplementaryItem, Rect)] = []
    for item in configuration.boundarySupplementaryItems where item.alignment.isBottom != top {
      let size = boundarySize(item, span: container.width, indexPath: IndexPath(index: 0))
      let x = item.alignment.x(width: size.width, spanX: 0, span: container.width)
      var y = cursor
      if item.extendsBoundary {
        cursor += size.height
      } else if !top {
        y = start - size.height
      }
      frames.append((item, Rect(x: x, y: y, width: size.width, height: size.height)))
    }
    return (frames, cursor)
  }

  /// Emits layout-wide boundary items once the content height is known.
  mutating func emitLayoutWide(_ frames: [(BoundarySupplementaryItem, Rect)], contentHeight: Double)
  {
    for (item, frame) in frames {
      var placed = frame.offsetBy(dx: item.absoluteOffset.x, dy: item.absoluteOffset.y).inset(
        by: item.contentInsets)
      placed = pinned(placed, item: item, boundaryTop: 0, boundaryBottom: contentHeight)
      emitSupplementary(
        SupplementaryAttributes(
          kind: item.elementKind, indexPath: IndexPath(index: 0), frame: placed, zIndex: item.zIndex
        ))
    }
  }

  /// Runs the pass over every section.
  mutating func run(
    itemCounts: [Int], section provide: (Int) -> LayoutSection
  ) -> LayoutResult {
    let head = layoutWideItems(top: true, cursor: 0)
    var cursor = head.cursor
    for (index, count) in itemCounts.enumerated() {
      if index > 0 { cursor += configuration.interSectionSpacing }
      cursor = layoutSection(provide(index), index: index, count: count, top: cursor)
    }
    let tail = layoutWideItems(top: false, cursor: cursor)
    cursor = tail.cursor
    emitLayoutWide(head.frames + tail.frames, contentHeight: cursor)
    return LayoutResult(
      container: container, scrollDirection: .vertical,
      contentSize: Size(width: container.width, height: cursor),
      sections: sections, supplementaries: supplementaries, decorations: decorations,
      viewport: viewport)
  }

  /// Lays out section `index` starting at `top`; returns the section's bottom.
  ///
  /// - Complexity: O(1 + visible elements) when the section has no estimated dimension (or no
  ///   measuring closure), O(elements) otherwise.
  mutating func layoutSection(_ section: LayoutSection, index: Int, count: Int, top: Double)
    -> Double
  {
    precondition(count >= 0, "CompositionalLayout: itemCounts[\(index)] is negative (\(count))")
    let rules = configuration.rules
    // UIKit: a section without elements and boundary items takes no space.
    let collapses =
      rules.emptySectionsCollapse && count == 0 && section.boundarySupplementaryItems.isEmpty
    // Horizontal insets wider than the container are scaled down to fit it (see Rect.inset);
    // vertical ones add to the content's height, and only the group's container stops at zero.
    let insets =
      collapses
      ? .zero : section.contentInsets.fitted(to: Size(width: container.width, height: .infinity))
    let contentWidth = max(0, container.width - insets.horizontal)
    let orthogonal = section.orthogonalScrollingBehavior != .none
    // UIKit: an orthogonal section's group takes fractions of the container's full width.
    let groupContainer = Size(
      width: orthogonal && rules.orthogonalFractionsUseContainerWidth
        ? container.width : contentWidth,
      height: max(0, container.height - insets.vertical))
    // The section's visible area across, in a group instance's coordinates (UIKit's group
    // supplementaries stay inside it); an orthogonal strip holds all its groups.
    let clip: (min: Double, max: Double)? =
      orthogonal ? nil : (-insets.leading, container.width - insets.leading)
    let follows = section.supplementariesFollowContentInsets
    let spanX = follows ? insets.leading : 0
    let span = follows ? contentWidth : container.width
    let sectionIndexPath = IndexPath(layoutSection: index, item: 0)

    // Headers that extend the boundary.
    var cursor = top
    var boundaryFrames: [(item: BoundarySupplementaryItem, frame: Rect)] = []
    let sizes = section.boundarySupplementaryItems.map {
      boundarySize($0, span: span, indexPath: sectionIndexPath)
    }
    for (item, size) in zip(section.boundarySupplementaryItems, sizes)
    where item.extendsBoundary && item.alignment.isTop {
      let x = item.alignment.x(width: size.width, spanX: spanX, span: span)
      boundaryFrames.append((item, Rect(x: x, y: cursor, width: size.width, height: size.height)))
      cursor += size.height
    }
    let contentTop = cursor
    let itemsTop = contentTop + insets.top

    // Groups.
    var elements: [ElementAttributes] = []
    var itemsExtent = 0.0
    var stripLength = 0.0
    let spacing = section.interGroupSpacing
    let groupNode = section.group
    let groupSize = groupNode.layoutSize.resolved(in: groupContainer)
    let estimatesWidth = groupNode.layoutSize.width.isEstimated
    let estimatesHeight = groupNode.layoutSize.height.isEstimated
    let centered = section.orthogonalScrollingBehavior == .groupPagingCentered
    let centering = centered ? max(0, (contentWidth - groupSize.width) / 2) : 0
    let startX = insets.leading + centering
    // Elements of an orthogonal strip are reported where its scroll offset puts them.
    let shift = orthogonal ? (scroll?.orthogonalOffset(ofSection: index) ?? 0) : 0
    var groupLength = 0.0
    if count > 0 {
      var context = GroupLayoutContext(
        section: index, scrollDirection: configuration.scrollDirection, rules: rules,
        measure: measure, nextElement: 0, remaining: count)
      if measure == nil || !groupNode.containsEstimatedDimension {
        var template = GroupLayoutEngine.layout(
          groupNode, proposed: groupSize, estimatesWidth: estimatesWidth,
          estimatesHeight: estimatesHeight,
          context: &context)
        var unused: [String: Int] = [:]
        GroupLayoutEngine.resolveGroupSupplementaries(
          of: &template, clip: clip, running: &unused, absolute: false, context: context)
        let perGroup = template.leaves.count
        precondition(perGroup > 0, "LayoutSection \(index): the group lays out no item")
        let groups = (count + perGroup - 1) / perGroup
        let stride = (orthogonal ? template.size.width : template.size.height) + spacing
        let along = orthogonal ? template.size.width : template.size.height
        groupLength = template.size.width
        itemsExtent =
          orthogonal ? template.size.height : Double(groups) * along + Double(groups - 1) * spacing
        stripLength =
          startX + Double(groups) * along + Double(groups - 1) * spacing + insets.trailing
          + centering
        var range = 0..<groups
        if let viewport, stride > 0 {
          let bounds = template.bounds
          let base = orthogonal ? startX - shift : itemsTop
          let low = orthogonal ? viewport.minX : viewport.minY
          let high = orthogonal ? viewport.maxX : viewport.maxY
          let boundsLow = orthogonal ? bounds.minX : bounds.minY
          let boundsHigh = orthogonal ? bounds.maxX : bounds.maxY
          let first = ((low - base - boundsHigh) / stride).rounded(.down) - 1
          let last = ((high - base - boundsLow) / stride).rounded(.up) + 1
          let lower = Int(max(0, min(Double(groups), first)))
          let upper = Int(max(0, min(Double(groups), last + 1)))
          range = lower..<max(lower, upper)
        } else {
          elements.reserveCapacity(count)
        }
        for group in range {
          let origin =
            orthogonal
            ? Point(x: startX - shift + Double(group) * stride, y: itemsTop)
            : Point(x: insets.leading, y: itemsTop + Double(group) * stride)
          emit(
            template, at: origin, firstElement: group * perGroup, instance: group, count: count,
            section: index, into: &elements)
        }
      } else {
        context.remaining = count
        var along = 0.0
        var across = 0.0
        var groups = 0
        var groupsOfKind: [String: Int] = [:]
        while context.remaining > 0 {
          let first = context.nextElement
          var layout = GroupLayoutEngine.layout(
            groupNode, proposed: groupSize, estimatesWidth: estimatesWidth,
            estimatesHeight: estimatesHeight,
            context: &context)
          precondition(
            context.nextElement > first, "LayoutSection \(index): the group lays out no item")
          GroupLayoutEngine.resolveGroupSupplementaries(
            of: &layout, clip: clip, running: &groupsOfKind, absolute: true, context: context)
          let origin =
            orthogonal
            ? Point(x: startX - shift + along, y: itemsTop)
            : Point(x: insets.leading, y: itemsTop + along)
          if groups == 0 { groupLength = layout.size.width }
          emit(
            layout, at: origin, firstElement: first, instance: groups, count: count,
            section: index, into: &elements)
          along += (orthogonal ? layout.size.width : layout.size.height) + spacing
          across = max(across, orthogonal ? layout.size.height : layout.size.width)
          groups += 1
        }
        along -= spacing
        itemsExtent = orthogonal ? across : along
        stripLength = startX + along + insets.trailing + centering
      }
    } else {
      stripLength = insets.horizontal
    }
    let contentBottom = itemsTop + itemsExtent + insets.bottom

    // Footers that extend the boundary, then the items that sit inside it.
    cursor = contentBottom
    for (item, size) in zip(section.boundarySupplementaryItems, sizes)
    where item.extendsBoundary && item.alignment.isBottom {
      let x = item.alignment.x(width: size.width, spanX: spanX, span: span)
      boundaryFrames.append((item, Rect(x: x, y: cursor, width: size.width, height: size.height)))
      cursor += size.height
    }
    let bottom = cursor
    for (item, size) in zip(section.boundarySupplementaryItems, sizes)
    where !(item.extendsBoundary && (item.alignment.isTop || item.alignment.isBottom)) {
      let x = item.alignment.x(width: size.width, spanX: spanX, span: span)
      let y = item.alignment.isBottom ? contentBottom - size.height : contentTop
      boundaryFrames.append((item, Rect(x: x, y: y, width: size.width, height: size.height)))
    }
    for (item, frame) in boundaryFrames {
      var placed = frame.offsetBy(dx: item.absoluteOffset.x, dy: item.absoluteOffset.y).inset(
        by: item.contentInsets)
      placed = pinned(placed, item: item, boundaryTop: top, boundaryBottom: bottom)
      emitSupplementary(
        SupplementaryAttributes(
          kind: item.elementKind, indexPath: sectionIndexPath, frame: placed, zIndex: item.zIndex))
    }

    // Backgrounds and the orthogonal strip.
    let contentFrame = Rect(
      x: 0, y: contentTop, width: container.width, height: contentBottom - contentTop)
    for decoration in section.decorationItems where !collapses {
      let frame = contentFrame.inset(by: decoration.contentInsets)
      if isVisible(frame) {
        decorations.append(
          SupplementaryAttributes(
            kind: decoration.elementKind, indexPath: sectionIndexPath, frame: frame,
            zIndex: decoration.zIndex))
      }
    }
    let region =
      orthogonal
      ? OrthogonalRegion(
        section: index, frame: contentFrame,
        contentSize: Size(width: stripLength, height: contentFrame.height),
        behavior: section.orthogonalScrollingBehavior, visibleLength: container.width,
        contentLength: stripLength, firstGroupOffset: startX, groupLength: groupLength,
        groupSpacing: spacing)
      : nil
    sections.append(
      SectionLayoutInfo(
        index: index, itemCount: count,
        frame: Rect(x: 0, y: top, width: container.width, height: bottom - top),
        contentFrame: contentFrame, elements: elements, orthogonalRegion: region))
    return bottom
  }

  /// Emits the elements and supplementaries of one group instance that exist and are visible;
  /// `instance` is the instance's index in the section (see `SupplementarySlot.groupsOfKind`).
  ///
  /// Always inlined into `layoutSection`, its only caller: as a call it costs the 100,000-element
  /// benchmark about 10% (measured with `sectionkit-bench layout`).
  @inline(__always)
  mutating func emit(
    _ layout: GroupLayout, at origin: Point, firstElement: Int, instance: Int, count: Int,
    section: Int, into elements: inout [ElementAttributes]
  ) {
    let available = count - firstElement
    let limit = min(available, layout.leaves.count)
    if viewport == nil {
      for ordinal in 0..<limit {
        let leaf = layout.leaves[ordinal]
        elements.append(
          ElementAttributes(
            item: firstElement + ordinal, frame: leaf.frame.offsetBy(dx: origin.x, dy: origin.y),
            zIndex: leaf.zIndex))
      }
    } else {
      for ordinal in 0..<limit {
        let leaf = layout.leaves[ordinal]
        let frame = leaf.frame.offsetBy(dx: origin.x, dy: origin.y)
        if isVisible(frame) {
          elements.append(
            ElementAttributes(item: firstElement + ordinal, frame: frame, zIndex: leaf.zIndex))
        }
      }
    }
    for slot in layout.supplementaries where slot.leaf < available {
      emitSupplementary(
        SupplementaryAttributes(
          kind: slot.kind,
          indexPath: IndexPath(
            layoutSection: section,
            item: slot.group.map { instance * slot.groupsOfKind + $0 } ?? firstElement + slot.leaf),
          frame: slot.frame.offsetBy(dx: origin.x, dy: origin.y), zIndex: slot.zIndex))
    }
  }
}
