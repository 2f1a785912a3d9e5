import Foundation

/// One element slot of a laid-out group, relative to the group's origin.
struct LeafSlot: Sendable {
  var frame: Rect
  var zIndex: Int
}

/// One item or group supplementary of a laid-out group, relative to the group's origin.
/// `leaf` is the ordinal of the element it belongs to (a group's first element); it exists only
/// when that element exists. Under `LayoutRules.groupSupplementariesIndexedByGroup` a group's
/// supplementary has `group`, the ordinal of its group among the groups of the instance that carry
/// a supplementary of its kind, and `groupsOfKind`, the number of those groups per instance: its
/// index path is then `[section, instance × groupsOfKind + group]`, otherwise the element's.
struct SupplementarySlot: Sendable {
  var kind: String
  var frame: Rect
  var zIndex: Int
  var leaf: Int
  var group: Int? = nil
  var groupsOfKind = 0
}

/// A group supplementary under UIKit's rules, anchored only once the section knows where the
/// group lies in its visible area (see `GroupLayoutEngine.resolveGroupSupplementaries`). Pending
/// supplementaries are kept with each group's before those of the groups inside it.
struct PendingGroupSupplementary: Sendable {
  var item: SupplementaryItem
  /// The group's frame inside its content insets.
  var groupFrame: Rect
  var leaf: Int
}

/// A laid-out group (or item): its size and the frames of everything in it.
struct GroupLayout: Sendable {
  var size: Size
  var leaves: [LeafSlot] = []
  var supplementaries: [SupplementarySlot] = []
  /// Group supplementaries still to be anchored (UIKit's rules only).
  var pendingGroupSupplementaries: [PendingGroupSupplementary] = []

  /// Appends `child`, laid out at `origin`, renumbering its leaves after ours.
  mutating func append(_ child: GroupLayout, at origin: Point) {
    let base = leaves.count
    for pending in child.pendingGroupSupplementaries {
      pendingGroupSupplementaries.append(
        PendingGroupSupplementary(
          item: pending.item, groupFrame: pending.groupFrame.offsetBy(dx: origin.x, dy: origin.y),
          leaf: base + pending.leaf))
    }
    for leaf in child.leaves {
      leaves.append(
        LeafSlot(frame: leaf.frame.offsetBy(dx: origin.x, dy: origin.y), zIndex: leaf.zIndex))
    }
    for slot in child.supplementaries {
      supplementaries.append(
        SupplementarySlot(
          kind: slot.kind, frame: slot.frame.offsetBy(dx: origin.x, dy: origin.y),
          zIndex: slot.zIndex,
          leaf: base + slot.leaf))
    }
  }

  /// The union of the group's rectangle and every frame in it.
  var bounds: Rect {
    var result = Rect(origin: .zero, size: size)
    for leaf in leaves { result = result.union(leaf.frame) }
    for slot in supplementaries { result = result.union(slot.frame) }
    return result
  }
}

/// The state threaded through one group layout: which element comes next and how many are left.
struct GroupLayoutContext {
  let section: Int
  let scrollDirection: ScrollDirection
  let rules: LayoutRules
  let measure: ((MeasurementRequest) -> Size)?
  var nextElement: Int
  var remaining: Int
}

/// Lays out items and groups, UIKit's way. Pure functions over the DSL values.
enum GroupLayoutEngine {
  /// Lays `node` out in `proposed` (its resolved size), relative to `(0, 0)`.
  ///
  /// - Complexity: O(leaves + supplementaries) of the result.
  static func layout(
    _ node: LayoutNode, proposed: Size, estimatesWidth: Bool, estimatesHeight: Bool,
    context: inout GroupLayoutContext
  ) -> GroupLayout {
    switch node.storage {
    case .item(let item):
      return layoutItem(
        item, proposed: proposed, estimatesWidth: estimatesWidth, estimatesHeight: estimatesHeight,
        context: &context)
    case .group(let group):
      return layoutGroup(
        group, proposed: proposed, estimatesWidth: estimatesWidth, estimatesHeight: estimatesHeight,
        context: &context)
    }
  }

  static func insets(_ insets: EdgeInsets, estimatesWidth: Bool, estimatesHeight: Bool)
    -> EdgeInsets
  {
    var result = insets
    if estimatesWidth {
      result.leading = 0
      result.trailing = 0
    }
    if estimatesHeight {
      result.top = 0
      result.bottom = 0
    }
    return result
  }

  static func layoutItem(
    _ item: Item, proposed: Size, estimatesWidth: Bool, estimatesHeight: Bool,
    context: inout GroupLayoutContext
  ) -> GroupLayout {
    var size = proposed
    let element = context.nextElement
    if estimatesWidth || estimatesHeight, let measure = context.measure {
      size = MeasurementRequest(
        category: .element, indexPath: IndexPath(layoutSection: context.section, item: element),
        proposedSize: size, estimatesWidth: estimatesWidth, estimatesHeight: estimatesHeight
      ).measured(by: measure)
    }
    let frame = Rect(origin: .zero, size: size).inset(
      by: insets(
        item.contentInsets, estimatesWidth: estimatesWidth, estimatesHeight: estimatesHeight))
    context.nextElement += 1
    context.remaining -= 1
    var result = GroupLayout(size: size, leaves: [LeafSlot(frame: frame, zIndex: item.zIndex)])
    for supplementary in item.supplementaryItems {
      result.supplementaries.append(
        anchor(supplementary, to: frame, leaf: 0, element: element, context: context))
    }
    return result
  }

  /// Places a supplementary item on `container` per its anchors (see ``SupplementaryItem``).
  static func anchor(
    _ supplementary: SupplementaryItem, to container: Rect, leaf: Int, element: Int,
    context: GroupLayoutContext
  ) -> SupplementarySlot {
    var size = supplementary.layoutSize.resolved(in: container.size)
    let estimatesWidth = supplementary.layoutSize.width.isEstimated
    let estimatesHeight = supplementary.layoutSize.height.isEstimated
    if estimatesWidth || estimatesHeight, let measure = context.measure {
      size = MeasurementRequest(
        category: .supplementary(kind: supplementary.elementKind),
        indexPath: IndexPath(layoutSection: context.section, item: element), proposedSize: size,
        estimatesWidth: estimatesWidth, estimatesHeight: estimatesHeight
      ).measured(by: measure)
    }
    func point(_ edges: DirectionalEdges, in rect: Rect) -> Point {
      let x =
        edges.contains(.leading) ? rect.minX : edges.contains(.trailing) ? rect.maxX : rect.midX
      let y = edges.contains(.top) ? rect.minY : edges.contains(.bottom) ? rect.maxY : rect.midY
      return Point(x: x, y: y)
    }
    func offset(_ anchor: LayoutAnchor) -> Point {
      switch anchor.offset {
      case .absolute(let point): return point
      case .fractional(let point): return Point(x: point.x * size.width, y: point.y * size.height)
      }
    }
    let containerPoint = point(supplementary.containerAnchor.edges, in: container)
    let ownAnchor =
      supplementary.itemAnchor ?? LayoutAnchor(edges: supplementary.containerAnchor.edges)
    let ownPoint = point(ownAnchor.edges, in: Rect(origin: .zero, size: size))
    let containerOffset = offset(supplementary.containerAnchor)
    let ownOffset = supplementary.itemAnchor.map(offset) ?? .zero
    let origin = Point(
      x: containerPoint.x - ownPoint.x + containerOffset.x - ownOffset.x,
      y: containerPoint.y - ownPoint.y + containerOffset.y - ownOffset.y)
    let frame = Rect(origin: origin, size: size).inset(
      by: insets(
        supplementary.contentInsets, estimatesWidth: estimatesWidth,
        estimatesHeight: estimatesHeight))
    return SupplementarySlot(
      kind: supplementary.elementKind, frame: frame, zIndex: supplementary.zIndex, leaf: leaf)
  }

  static func layoutGroup(
    _ group: GroupNode, proposed: Size, estimatesWidth: Bool, estimatesHeight: Bool,
    context: inout GroupLayoutContext
  ) -> GroupLayout {
    let firstElement = context.nextElement
    let insets = insets(
      group.contentInsets, estimatesWidth: estimatesWidth, estimatesHeight: estimatesHeight
    ).fitted(to: proposed)
    let inner = Size(
      width: max(0, proposed.width - insets.horizontal),
      height: max(0, proposed.height - insets.vertical))
    var result = GroupLayout(size: proposed)
    let horizontal: Bool
    switch group.kind {
    case .custom(let provider):
      let items = provider(
        LayoutEnvironment(containerSize: inner, scrollDirection: context.scrollDirection))
      var extent = Size.zero
      for custom in items {
        guard context.remaining > 0 else { break }
        precondition(
          custom.frame.minX.isFinite && custom.frame.minY.isFinite
            && custom.frame.width.isLegalLength && custom.frame.height.isLegalLength,
          "CustomGroup: item frame \(custom.frame) must be finite with a size that is not negative")
        let frame = custom.frame.offsetBy(dx: insets.leading, dy: insets.top)
        result.leaves.append(LeafSlot(frame: frame, zIndex: custom.zIndex))
        extent.width = max(extent.width, custom.frame.maxX)
        extent.height = max(extent.height, custom.frame.maxY)
        context.nextElement += 1
        context.remaining -= 1
      }
      if estimatesWidth { result.size.width = extent.width }
      if estimatesHeight { result.size.height = extent.height }
      attachGroupSupplementaries(
        group, to: &result, insets: insets, firstElement: firstElement, context: context)
      return result
    case .horizontal: horizontal = true
    case .vertical: horizontal = false
    }
    precondition(
      !group.subitems.isEmpty,
      "\(horizontal ? "HGroup" : "VGroup"): a group needs at least one subitem")
    func along(_ size: Size) -> Double { horizontal ? size.width : size.height }
    func across(_ size: Size) -> Double { horizontal ? size.height : size.width }
    func axisEdges(_ spacing: LayoutEdgeSpacing?) -> (LayoutSpacing?, LayoutSpacing?) {
      horizontal ? (spacing?.leading, spacing?.trailing) : (spacing?.top, spacing?.bottom)
    }
    func crossEdges(_ spacing: LayoutEdgeSpacing?) -> (LayoutSpacing?, LayoutSpacing?) {
      horizontal ? (spacing?.top, spacing?.bottom) : (spacing?.leading, spacing?.trailing)
    }
    let gap = group.interItemSpacing ?? .fixed(0)
    let innerAlong = along(inner)
    var children: [(layout: GroupLayout, edges: LayoutEdgeSpacing?)] = []

    // UIKit resolves the fractions of a counted group's subitems along its axis against the
    // length left after the spacing (see `LayoutRules.countedGroupFractionsExcludeSpacing`).
    var fractionSpace = inner
    if let count = group.count, context.rules.countedGroupFractionsExcludeSpacing {
      let reduced = max(0, innerAlong - Double(count - 1) * gap.minimum)
      if horizontal { fractionSpace.width = reduced } else { fractionSpace.height = reduced }
    }

    func layoutChild(_ node: LayoutNode, forcedAlong: Double?) -> GroupLayout {
      var size = node.layoutSize.resolved(in: fractionSpace)
      var estimatesW = node.layoutSize.width.isEstimated
      var estimatesH = node.layoutSize.height.isEstimated
      if let forcedAlong {
        if horizontal {
          size.width = forcedAlong
          estimatesW = false
        } else {
          size.height = forcedAlong
          estimatesH = false
        }
      }
      return layout(
        node, proposed: size, estimatesWidth: estimatesW, estimatesHeight: estimatesH,
        context: &context)
    }

    if let count = group.count {
      // Equal shares; none is negative when the spacing is longer than the group.
      let share = max(0, (innerAlong - Double(count - 1) * gap.minimum) / Double(count))
      var remainingAtPassStart = context.remaining
      for index in 0..<count {
        guard context.remaining > 0 else { break }
        if index > 0 && index % group.subitems.count == 0 {
          // A pass over the subitems that placed no element would place none ever again.
          if context.remaining == remainingAtPassStart { break }
          remainingAtPassStart = context.remaining
        }
        let node = group.subitems[index % group.subitems.count]
        children.append((layoutChild(node, forcedAlong: share), node.edgeSpacing))
      }
    } else {
      var used = 0.0
      var index = 0
      var remainingAtPassStart = context.remaining
      while context.remaining > 0 {
        let node = group.subitems[index % group.subitems.count]
        let (lead, trail) = axisEdges(node.edgeSpacing)
        let length = along(node.layoutSize.resolved(in: inner))
        let need =
          (index > 0 ? gap.minimum : 0) + (lead?.minimum ?? 0) + length + (trail?.minimum ?? 0)
        if index > 0 && used + need > innerAlong + 1e-9 { break }
        children.append((layoutChild(node, forcedAlong: nil), node.edgeSpacing))
        used += need
        index += 1
        if index % group.subitems.count == 0 {
          // Zero-length subitems would fit forever, and a pass that placed no element would
          // repeat for as long as the lengths fit: stop after one such pass.
          if used <= 1e-9 || context.remaining == remainingAtPassStart { break }
          remainingAtPassStart = context.remaining
        }
      }
    }

    var fixedTotal = 0.0
    var flexibleCount = 0
    for (index, child) in children.enumerated() {
      fixedTotal += along(child.layout.size)
      let (lead, trail) = axisEdges(child.edges)
      for spacing in [lead, trail] {
        guard let spacing else { continue }
        fixedTotal += spacing.minimum
        if spacing.isFlexible { flexibleCount += 1 }
      }
      if index > 0 {
        fixedTotal += gap.minimum
        if gap.isFlexible { flexibleCount += 1 }
      }
    }
    let estimatesAlong = horizontal ? estimatesWidth : estimatesHeight
    let estimatesAcross = horizontal ? estimatesHeight : estimatesWidth
    let extra =
      !estimatesAlong && flexibleCount > 0
      ? max(0, innerAlong - fixedTotal) / Double(flexibleCount) : 0
    let innerAcross = across(inner)
    var cursor = 0.0
    var crossExtent = 0.0
    for (index, child) in children.enumerated() {
      if index > 0 { cursor += gap.minimum + (gap.isFlexible ? extra : 0) }
      let (lead, trail) = axisEdges(child.edges)
      if let lead { cursor += lead.minimum + (lead.isFlexible ? extra : 0) }
      let position = cursor
      cursor += along(child.layout.size)
      if let trail { cursor += trail.minimum + (trail.isFlexible ? extra : 0) }
      let (crossLead, crossTrail) = crossEdges(child.edges)
      let childAcross = across(child.layout.size)
      var crossPosition = crossLead?.minimum ?? 0
      let slack = innerAcross - childAcross - (crossLead?.minimum ?? 0) - (crossTrail?.minimum ?? 0)
      if !estimatesAcross && slack > 0 {
        switch (crossLead?.isFlexible == true, crossTrail?.isFlexible == true) {
        case (true, true): crossPosition += slack / 2
        case (true, false): crossPosition += slack
        default: break
        }
      }
      crossExtent = max(crossExtent, crossPosition + childAcross + (crossTrail?.minimum ?? 0))
      let origin =
        horizontal
        ? Point(x: insets.leading + position, y: insets.top + crossPosition)
        : Point(x: insets.leading + crossPosition, y: insets.top + position)
      result.append(child.layout, at: origin)
    }
    if horizontal {
      if estimatesWidth { result.size.width = cursor + insets.horizontal }
      if estimatesHeight { result.size.height = crossExtent + insets.vertical }
    } else {
      if estimatesHeight { result.size.height = cursor + insets.vertical }
      if estimatesWidth { result.size.width = crossExtent + insets.horizontal }
    }
    attachGroupSupplementaries(
      group, to: &result, insets: insets, firstElement: firstElement, context: context)
    return result
  }

  /// Attaches `group`'s supplementaries to its layout. Under UIKit's rules they are anchored on
  /// the group's frame inside its content `insets` (as an item's are on its frame inside its
  /// insets), once the section knows its visible area; under SectionKitLayout 1's on the whole
  /// frame, at once.
  static func attachGroupSupplementaries(
    _ group: GroupNode, to result: inout GroupLayout, insets: EdgeInsets, firstElement: Int,
    context: GroupLayoutContext
  ) {
    guard !result.leaves.isEmpty, !group.supplementaryItems.isEmpty else { return }
    let frame = Rect(origin: .zero, size: result.size)
    guard context.rules.groupSupplementariesIndexedByGroup else {
      for supplementary in group.supplementaryItems {
        result.supplementaries.append(
          anchor(supplementary, to: frame, leaf: 0, element: firstElement, context: context))
      }
      return
    }
    // UIKit: a group's content insets keep its supplementaries in, as an item's keep its own
    // (a trailing inset as wide as a trailing supplementary offset by its own width holds it).
    let contentFrame = frame.inset(by: insets)
    // This group comes before the groups inside it, so it is numbered before them.
    result.pendingGroupSupplementaries.insert(
      contentsOf: group.supplementaryItems.map {
        PendingGroupSupplementary(item: $0, groupFrame: contentFrame, leaf: 0)
      }, at: 0)
  }

  /// Anchors the group supplementaries of a section's group instance (UIKit's rules) on the part
  /// of each group's frame between `clip.min` and `clip.max` along x (the section's visible
  /// area, in the instance's coordinates; `nil` for no limit), and numbers the groups of each
  /// kind in order.
  ///
  /// With `running` (an instance laid out on its own), the groups are numbered from the counts in
  /// `running`, which then include them; without it (the section's template), from 0, with
  /// `groupsOfKind` set so that instance *i* numbers from *i* × `groupsOfKind`.
  static func resolveGroupSupplementaries(
    of layout: inout GroupLayout, clip: (min: Double, max: Double)?,
    running: inout [String: Int], absolute: Bool, context: GroupLayoutContext
  ) {
    guard !layout.pendingGroupSupplementaries.isEmpty else { return }
    var ordinals: [String: Int] = [:]
    let first = layout.supplementaries.count
    for pending in layout.pendingGroupSupplementaries {
      var frame = pending.groupFrame
      if let clip {
        let low = min(max(frame.minX, clip.min), clip.max)
        let high = max(low, min(frame.maxX, clip.max))
        frame = Rect(x: low, y: frame.minY, width: high - low, height: frame.height)
      }
      let kind = pending.item.elementKind
      let ordinal = ordinals[kind, default: 0] + (absolute ? running[kind, default: 0] : 0)
      ordinals[kind, default: 0] += 1
      var slot = anchor(
        pending.item, to: frame, leaf: pending.leaf, element: ordinal, context: context)
      slot.group = ordinal
      layout.supplementaries.append(slot)
    }
    if absolute {
      for (kind, count) in ordinals { running[kind, default: 0] += count }
    } else {
      for index in first..<layout.supplementaries.count {
        layout.supplementaries[index].groupsOfKind = ordinals[layout.supplementaries[index].kind]!
      }
    }
    layout.pendingGroupSupplementaries = []
  }
}
