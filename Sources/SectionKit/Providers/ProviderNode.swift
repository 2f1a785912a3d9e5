import Foundation

/// What ``ComposedSectionProvider`` and ``SegmentedSectionProvider`` share: a child list, the
/// parent rules, brackets, and the re-indexing of their children's events.
protocol ProviderNode: SectionProvider, LinkOwner {
  var childList: ChildList { get set }
  var bracket: UpdateBracket { get set }
  /// The link this provider reports to when its parent is a built-in provider or a mapping.
  var uplink: ChildLink? { get }
  /// ``uplink``, unretained.
  var unmanagedUplink: Unmanaged<ChildLink>? { get }
  /// The offset, in this provider's coordinates, of the child at `index`, or `nil` when that
  /// child's sections are not presented (an inactive segment).
  func presentedOffset(ofChildAt index: Int) -> Int?
  /// ``presentedOffset(ofChildAt:)`` when it is known without counting any child's sections.
  func cachedOffset(ofChildAt index: Int) -> CachedOffset
  /// The links to the children whose sections this provider presents, in order.
  var presentedChildren: ArraySlice<TreeLink> { get }
  /// The positions of the children whose counts ``finishCount(through:_:)`` needs to count the
  /// sections presented before child `index`.
  func childrenToCount(through index: Int) -> Range<Int>
  /// The number of sections presented before child `index`, given the counts of
  /// ``childrenToCount(through:)``; caches them where the provider keeps a cache.
  func finishCount(through index: Int, _ counts: [Int]) -> Int
  /// The number of sections this provider presents, when a cache holds it.
  var cachedSectionCount: Int? { get }
}

/// The number of sections `root` presents before its child `index` (all of them for
/// `index == root.childList.count`), refreshing stale caches of the built-in providers below
/// with an explicit stack: the first count after a change at the bottom of a chain of any depth
/// costs no stack frames.
///
/// - Complexity: O(stale entries below).
func sectionCount(of root: any ProviderNode, through index: Int) -> Int {
  struct Frame {
    let node: any ProviderNode
    let through: Int
    let children: Range<Int>
    var counts: [Int] = []
  }
  var stack = [Frame(node: root, through: index, children: root.childrenToCount(through: index))]
  var result = 0
  while let frame = stack.last {
    guard frame.counts.count < frame.children.count else {
      result = frame.node.finishCount(through: frame.through, frame.counts)
      stack.removeLast()
      if !stack.isEmpty { stack[stack.count - 1].counts.append(result) }
      continue
    }
    switch frame.node.childList[frame.children.lowerBound + frame.counts.count] {
    case .section:
      stack[stack.count - 1].counts.append(1)
    case .provider(let provider):
      if let node = provider as? any ProviderNode {
        if let cached = node.cachedSectionCount {
          stack[stack.count - 1].counts.append(cached)
        } else {
          let end = node.childList.count
          stack.append(
            Frame(node: node, through: end, children: node.childrenToCount(through: end)))
        }
      } else {
        stack[stack.count - 1].counts.append(provider.numberOfSections)
      }
    }
  }
  return result
}

/// The sections `root` presents, flattened, in order: built-in providers below are walked with
/// an explicit stack, so a chain of any depth costs no stack frames.
///
/// The array is allocated at its final size, as ``presentedSectionList(of:)``'s.
func presentedSections(of root: any ProviderNode) -> [any Section] {
  var sections: [any Section] = []
  sections.reserveCapacity(root.numberOfSections)
  walkPresentedChildren(
    of: root,
    section: { link in
      if case .section(let section) = link.child { sections.append(section) }
    },
    custom: { sections.append(contentsOf: $0.sections) })
  return sections
}

/// The sections `root` presents, flattened, in order, as the links that hold them (the mapping's
/// list of sections).
///
/// The list is allocated at its final size: the mapping keeps it, where the spare capacity of an
/// array grown by appending cost 21 bytes a section (dhat, 10⁴ sections: 36.9 bytes a section
/// for 16-byte entries; see `Docs/Performance.md`, Memory).
func presentedSectionList(of root: any ProviderNode) -> SectionList {
  var links: [TreeLink] = []
  links.reserveCapacity(root.numberOfSections)
  walkPresentedChildren(
    of: root, section: { links.append($0) },
    custom: { links.append(contentsOf: $0.sections.map(SectionList.link(holding:))) })
  return SectionList(links: links)
}

/// Calls `section` with the link of each section child and `custom` with each custom provider
/// that `root` presents, in order: built-in providers below are walked with an explicit stack.
private func walkPresentedChildren(
  of root: any ProviderNode, section: (TreeLink) -> Void, custom: (any SectionProvider) -> Void
) {
  var pending = [root.presentedChildren]
  while var children = pending.popLast() {
    guard let link = children.popFirst() else { continue }
    pending.append(children)
    switch link.child {
    case .section:
      section(link)
    case .provider(let provider):
      if let node = provider as? any ProviderNode {
        pending.append(node.presentedChildren)
      } else {
        custom(provider)
      }
    }
  }
}

/// Releases the children of a provider being deinitialized, and the children of every built-in
/// provider below that nothing else holds, with a loop: releasing a chain 100,000 providers deep
/// would otherwise deinitialize each level from inside the deinit of the level above, and
/// overflow the stack.
func releaseDescendants(_ children: inout ChildList) {
  var pending = children.removeAllClearingLinks()
  while !pending.isEmpty {
    var composed: ComposedSectionProvider?
    var segmented: SegmentedSectionProvider?
    take(pending.removeLast(), as: &composed, &segmented)
    // Unless something outside the tree holds it, the provider is released at the end of this
    // iteration: its children are moved here first, so that its deinit has nothing to release.
    if isKnownUniquelyReferenced(&composed), let node = composed {
      pending.append(contentsOf: node.takeChildrenForRelease())
    }
    if isKnownUniquelyReferenced(&segmented), let node = segmented {
      pending.append(contentsOf: node.takeChildrenForRelease())
    }
  }
}

/// Moves a built-in provider child into the variable of its type (a function of its own, so
/// that no temporary copy is alive at the uniqueness check; an `AnyObject` existential is not
/// reliably found unique).
private func take(
  _ child: consuming SectionProviderChild, as composed: inout ComposedSectionProvider?,
  _ segmented: inout SegmentedSectionProvider?
) {
  guard case .provider(let provider) = child else { return }
  composed = provider as? ComposedSectionProvider
  segmented = provider as? SegmentedSectionProvider
}

extension ProviderNode {
  var typeName: String { "\(Self.self)" }

  /// Empties the child list of a provider about to be released, for ``releaseDescendants(_:)``.
  func takeChildrenForRelease() -> [SectionProviderChild] {
    childList.removeAllClearingLinks()
  }

  /// Runs `updates` inside one bracket of this provider.
  func withBracket<R>(_ updates: () throws -> R) rethrows -> R {
    bracket.open()
    defer { closeBracket() }
    return try updates()
  }

  private func closeBracket() {
    if bracket.close(owner: typeName) { emit(Hop(end: true)) }
  }

  /// Sends one event of this provider's own up the tree, inside its bracket. The event is built
  /// only when someone listens: building a deep chain bottom-up, with no delegate yet, stays
  /// linear.
  func send(_ event: @autoclosure () -> TreeEvent) {
    guard updateDelegate != nil else { return }
    var hop = Hop()
    hop.add(event(), bracket.delivery())
    emit(hop)
  }

  /// Sends `hop` up: through the link, or as method calls to a custom delegate.
  private func emit(_ hop: Hop) {
    if let uplink {
      uplink.carry(hop)
    } else if let delegate = updateDelegate {
      hop.deliver(to: delegate, from: self)
    }
  }

  var delegateObject: AnyObject? { updateDelegate }
  var presentingCoordinator: Coordinator? { nil }

  /// One step of the pipe: re-indexes what the child behind `link` sent and passes it on.
  func take(_ hop: Hop, from link: TreeLink) -> (Hop, TreeLink)? {
    var next = Hop()
    if hop.begin {
      link.openBrackets += 1
      bracket.open()
    }
    // One weak load per level in the common case (a built-in parent): the uplink is read once.
    let uplink = self.uplink
    if let event = hop.event, let event = reindex(event, from: link),
      uplink != nil || updateDelegate != nil
    {
      next.add(event, bracket.delivery())
    }
    if hop.end {
      guard link.openBrackets > 0 else {
        preconditionFailure(
          "\(typeName): \(type(of: link.childObject)) sent didEndUpdating without a matching "
            + "willBeginUpdating")
      }
      link.openBrackets -= 1
      if bracket.close(owner: typeName) { next.end = true }
    }
    guard !next.isEmpty else { return nil }
    if let uplink { return (next, uplink) }
    if let delegate = updateDelegate { next.deliver(to: delegate, from: self) }
    return nil
  }

  /// One level of ``ChildLink/carryOwnBatch(_:)``: the element change of section `section`, in
  /// the coordinates of the child behind `link`, made as a batch of its own. Returns the link it
  /// goes on through, with `section` now in this provider's coordinates; ``OwnBatchStep/dropped``
  /// when the child is not presented; ``OwnBatchStep/general`` when this provider must take it as
  /// a ``Hop`` (a bracket of its own is open, its delegate is not a link, or the child's offset
  /// must be counted).
  ///
  /// The same as ``take(_:from:)`` of the hop `(begin, .element(change, section), end)`: with its
  /// bracket closed, a provider opens it, passes the event on announced, and closes it again,
  /// which leaves the bracket and the link's count as they were and sends `(begin, event, end)`
  /// up; or drops the event, when the child is not presented, and sends nothing.
  @inline(__always)
  func passOwnBatch(from link: TreeLink, section: inout Int) -> OwnBatchStep {
    guard !bracket.isOpen, let uplink = unmanagedUplink else { return .general }
    let next = Unmanaged<TreeLink>.passUnretained(uplink.takeUnretainedValue())
    guard let index = childList.index(of: link) else { notAChild(link) }
    switch cachedOffset(ofChildAt: index) {
    case .offset(let offset):
      section += offset
      return .up(next)
    case .notPresented: return .dropped
    case .stale: return .general
    }
  }

  private func notAChild(_ link: TreeLink) -> Never {
    preconditionFailure(
      "\(typeName) received an event from \(type(of: link.childObject)), which is not its child")
  }

  // MARK: Children

  /// Makes `child` a child of this provider, trapping when it already has a parent or when it
  /// would make the tree a cycle; returns the link the child now reports to: a built-in section
  /// itself, or a new ``ChildLink``.
  func attach(_ child: SectionProviderChild, _ operation: @autoclosure () -> String) -> TreeLink {
    switch child {
    case .section(let section):
      precondition(
        section.updateDelegate == nil,
        "\(typeName).\(operation()): \(type(of: section)) already has a parent "
          + "(\(parentDescription(section.updateDelegate!))); remove it from its parent first")
      guard let own = section._sectionKitLink?.takeUnretainedValue() else {
        let link = ChildLink(owner: self, child: child)
        section.updateDelegate = link
        return link
      }
      // A built-in section is its own link. One whose delegate was cleared by hand may still
      // be a child of its parent: it cannot hold two places.
      precondition(
        own.ownerObject == nil,
        "\(typeName).\(operation()): \(type(of: section)) is still a child of "
          + "\(type(of: own.ownerObject!)); remove it from its parent first")
      own.attach(to: self)
      // As a new link would be: no bracket counted, not marked by a coordinator.
      own.openBrackets = 0
      own.coversElementEvents = false
      own.reportsToOwner = true
      own.linkDidChange()
      return own
    case .provider(let provider):
      let link = ChildLink(owner: self, child: child)
      precondition(
        provider !== self, "\(typeName).\(operation()): a provider cannot contain itself")
      precondition(
        provider.updateDelegate == nil,
        "\(typeName).\(operation()): \(type(of: provider)) already has a parent "
          + "(\(parentDescription(provider.updateDelegate!))); remove it from its parent first")
      precondition(
        !isAncestor(provider),
        "\(typeName).\(operation()): \(type(of: provider)) is an ancestor of this provider; "
          + "adding it would make a cycle")
      provider.updateDelegate = link
      return link
    }
  }

  /// Whether `candidate`, a provider with no parent, is an ancestor of this provider (the root of
  /// its tree). Walks up from this provider and down `candidate`'s subtree in turns and stops
  /// when either walk ends, so the cost is O(min(depth, subtree)): building a chain top-down
  /// (small subtrees under a deep parent) or bottom-up (a deep subtree under a new root) is
  /// linear overall.
  private func isAncestor(_ candidate: any SectionProvider) -> Bool {
    var up = parentObject(of: self)
    // `nil` once the subtree holds a custom provider, whose children cannot be walked.
    var down: [any ProviderNode]? = (candidate as? any ProviderNode).map { [$0] }
    var steps = 0
    defer { AncestorWalk.counter?.steps += steps }
    while let node = up {
      if node === candidate { return true }
      up = parentObject(of: node)
      steps += 1
      guard var pending = down else { continue }
      guard let next = pending.popLast() else { return false }
      for case .provider(let child) in next.childList.children {
        if child === self { return true }
        guard let node = child as? any ProviderNode else {
          down = nil
          break
        }
        pending.append(node)
        steps += 1
      }
      if down != nil { down = pending }
    }
    return false
  }

  /// Detaches `child`: its delegate is cleared and any bracket it had open here is closed.
  func detach(_ child: SectionProviderChild, _ link: TreeLink) {
    switch child {
    case .section(let section): section.updateDelegate = nil
    case .provider(let provider): provider.updateDelegate = nil
    }
    link.detachFromOwner()
    let open = link.openBrackets
    link.openBrackets = 0
    for _ in 0..<open { closeBracket() }
  }

  // MARK: Re-indexing the children's events

  /// `event`, sent through `link` in its child's coordinates, in this provider's coordinates;
  /// `nil` when the child is not presented.
  private func reindex(_ event: TreeEvent, from link: TreeLink) -> TreeEvent? {
    guard let index = childList.index(of: link) else { notAChild(link) }
    switch event {
    case .element(let change, let local):
      guard let offset = presentedOffset(ofChildAt: index) else { return nil }
      return .element(change, inSection: offset + local)
    case .elements(let diff, let local):
      guard let offset = presentedOffset(ofChildAt: index) else { return nil }
      return .elements(diff, inSection: offset + local)
    case .invalidateAll:
      childList.childCountChanged(at: index)
      guard presentedOffset(ofChildAt: index) != nil else { return nil }
      return .invalidateAll
    case .insertSections(let sections, let indexes), .removeSections(let sections, let indexes):
      childList.childCountChanged(at: index)
      guard let offset = presentedOffset(ofChildAt: index) else { return nil }
      let shifted = indexes.shifted(by: offset)
      if case .insertSections = event { return .insertSections(sections, at: shifted) }
      return .removeSections(sections, at: shifted)
    case .moveSections(let range, let destination):
      guard let offset = presentedOffset(ofChildAt: index) else { return nil }
      return .moveSections(
        range.lowerBound + offset..<range.upperBound + offset, to: destination + offset)
    case .reloadSections(let indexes):
      guard let offset = presentedOffset(ofChildAt: index) else { return nil }
      return .reloadSections(indexes.shifted(by: offset))
    }
  }
  /// The offset of `node` (a section or provider anywhere below this provider) in this provider's
  /// coordinates, found by walking up the parents.
  ///
  /// - Complexity: O(depth).
  func offset(ofDescendant node: AnyObject) -> Int? {
    var total = 0
    var current = node
    while current !== self {
      guard let parent = parentObject(of: current) as? any ProviderNode,
        let index = parent.childList.index(of: current),
        let offset = parent.presentedOffset(ofChildAt: index)
      else { return nil }
      total += offset
      current = parent
    }
    return total
  }
}

/// ``ProviderNode/cachedOffset(ofChildAt:)``.
enum CachedOffset {
  /// The child's first section is at this offset in the provider's coordinates.
  case offset(Int)
  /// The provider does not present the child's sections (an inactive segment).
  case notPresented
  /// Only counting sections below would tell.
  case stale
}

/// What ``ProviderNode/passOwnBatch(from:section:)`` did with an element change.
enum OwnBatchStep {
  /// Passed on, through this link (which the provider keeps alive).
  case up(Unmanaged<TreeLink>)
  /// Dropped: no one above hears it.
  case dropped
  /// Not taken: the provider takes it as a ``Hop``.
  case general
}

extension IndexSet {
  /// These indexes, each plus `offset` (which is not negative).
  ///
  /// A run of consecutive indexes (the sections of one child, inserted or removed together: the
  /// common case) is made afresh from its bounds; `shift(startingAt:by:)` first copies the
  /// reference storage the set shares, which cost a section insertion under two providers 7,500
  /// instructions of 17,000 (callgrind, `sectionkit-bench bigbuild1`).
  func shifted(by offset: Int) -> IndexSet {
    guard offset != 0, let first, let last else { return self }
    if last - first + 1 == count { return IndexSet(integersIn: (first + offset)...(last + offset)) }
    var shifted = self
    shifted.shift(startingAt: 0, by: offset)
    return shifted
  }
}

/// Counts the steps of the cycle check of `attach`, for tests that check its cost.
enum AncestorWalk {
  final class Counter: @unchecked Sendable {
    var steps = 0
  }
  @TaskLocal static var counter: Counter?
}
