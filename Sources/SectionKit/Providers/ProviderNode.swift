import Foundation

/// What ``ComposedSectionProvider`` and ``SegmentedSectionProvider`` share: a child list, the
/// parent rules, brackets, and the re-indexing of their children's events.
protocol ProviderNode: SectionProvider, SectionUpdateDelegate, SectionProviderUpdateDelegate {
  var childList: ChildList { get set }
  var bracket: UpdateBracket { get set }
  /// Brackets opened by each child and not yet closed.
  var openChildBrackets: ChildBrackets { get set }
  /// The offset, in this provider's coordinates, of the child at `index`, or `nil` when that
  /// child's sections are not presented (an inactive segment).
  func presentedOffset(ofChildAt index: Int) -> Int?
  /// The children whose sections this provider presents, in order.
  var presentedChildren: ArraySlice<SectionProviderChild> { get }
}

/// The sections `root` presents, flattened, in order: built-in providers below are walked with
/// an explicit stack, so a chain of any depth costs no stack frames.
func presentedSections(of root: any ProviderNode) -> [any Section] {
  var sections: [any Section] = []
  var pending = [root.presentedChildren]
  while var children = pending.popLast() {
    guard let child = children.popFirst() else { continue }
    pending.append(children)
    switch child {
    case .section(let section):
      sections.append(section)
    case .provider(let provider):
      if let node = provider as? any ProviderNode {
        pending.append(node.presentedChildren)
      } else {
        sections.append(contentsOf: provider.sections)
      }
    }
  }
  return sections
}

/// Releases the children of a provider being deinitialized, and the children of every built-in
/// provider below that nothing else holds, with a loop: releasing a chain 100,000 providers deep
/// would otherwise deinitialize each level from inside the deinit of the level above, and
/// overflow the stack.
func releaseDescendants(_ children: inout ChildList) {
  var pending = children.removeAll()
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
    childList.removeAll()
  }

  /// Runs `updates` inside one bracket of this provider.
  func withBracket<R>(_ updates: () throws -> R) rethrows -> R {
    bracket.open()
    defer { closeBracket() }
    return try updates()
  }

  private func closeBracket() {
    if bracket.close(owner: typeName) { updateDelegate?.didEndUpdating(self) }
  }

  /// Sends one event to the delegate inside this provider's bracket.
  func send(_ event: (any SectionProviderUpdateDelegate) -> Void) {
    guard let delegate = updateDelegate else { return }
    let delivery = bracket.delivery()
    deliver(
      delegate, delivery, begin: { $0.willBeginUpdating(self) }, end: { $0.didEndUpdating(self) },
      event: event)
  }

  // MARK: Children

  /// Makes `child` a child of this provider, trapping when it already has a parent or when it
  /// would make the tree a cycle.
  func attach(_ child: SectionProviderChild, _ operation: @autoclosure () -> String) {
    switch child {
    case .section(let section):
      precondition(
        section.updateDelegate == nil,
        "\(typeName).\(operation()): \(type(of: section)) already has a parent "
          + "(\(type(of: section.updateDelegate!))); remove it from its parent first")
      section.updateDelegate = self
    case .provider(let provider):
      precondition(
        provider !== self, "\(typeName).\(operation()): a provider cannot contain itself")
      precondition(
        provider.updateDelegate == nil,
        "\(typeName).\(operation()): \(type(of: provider)) already has a parent "
          + "(\(type(of: provider.updateDelegate!))); remove it from its parent first")
      var ancestor: AnyObject? = parentObject(of: self)
      while let node = ancestor {
        precondition(
          node !== provider,
          "\(typeName).\(operation()): \(type(of: provider)) is an ancestor of this provider; "
            + "adding it would make a cycle")
        ancestor = parentObject(of: node)
      }
      provider.updateDelegate = self
    }
  }

  /// Detaches `child`: its delegate is cleared and any bracket it had open here is closed.
  func detach(_ child: SectionProviderChild) {
    switch child {
    case .section(let section): section.updateDelegate = nil
    case .provider(let provider): provider.updateDelegate = nil
    }
    for _ in 0..<openChildBrackets.removeAll(of: child.object) { closeBracket() }
  }

  /// The position of `child`, trapping when the event comes from something that is not a child.
  func indexOfEventSource(_ child: AnyObject) -> Int {
    guard let index = childList.index(of: child) else {
      preconditionFailure(
        "\(typeName) received an event from \(type(of: child)), which is not its child")
    }
    return index
  }

  // MARK: Children's brackets

  func childWillBeginUpdating(_ child: AnyObject) {
    openChildBrackets.open(child)
    bracket.open()
  }

  func childDidEndUpdating(_ child: AnyObject) {
    guard openChildBrackets.close(child) else {
      preconditionFailure(
        "\(typeName): \(type(of: child)) sent didEndUpdating without a matching willBeginUpdating")
    }
    closeBracket()
  }

  // MARK: Re-indexing the children's events

  func forwardElementChange(
    from section: any Section, in child: AnyObject, at localIndex: Int, _ change: ElementChange
  ) {
    let index = indexOfEventSource(child)
    guard let offset = presentedOffset(ofChildAt: index) else { return }
    send { $0.provider(self, section: section, at: offset + localIndex, didChange: change) }
  }

  func forwardInvalidateAll(from child: AnyObject) {
    let index = indexOfEventSource(child)
    childList.childCountChanged(at: index)
    guard presentedOffset(ofChildAt: index) != nil else { return }
    send { $0.invalidateAll(self) }
  }

  func forwardSections(
    _ sections: [any Section], at indexes: IndexSet, from child: AnyObject, inserted: Bool
  ) {
    let index = indexOfEventSource(child)
    childList.childCountChanged(at: index)
    guard let offset = presentedOffset(ofChildAt: index) else { return }
    var shifted = indexes
    shifted.shift(startingAt: 0, by: offset)
    send {
      if inserted {
        $0.provider(self, didInsertSections: sections, at: shifted)
      } else {
        $0.provider(self, didRemoveSections: sections, at: shifted)
      }
    }
  }

  /// The offset of `node` (a section or provider anywhere below this provider) in this provider's
  /// coordinates, found by walking up the parents. - Complexity: O(depth).
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
