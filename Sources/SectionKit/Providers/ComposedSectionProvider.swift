import Foundation

/// A provider that presents the sections of all its children, in order: sections and other
/// providers, nested to any depth.
///
/// ```swift
/// let family: ArraySection<String> = ["Mum", "Dad"]
/// let friends: ArraySection<String> = ["Ada", "Grace"]
/// let contacts = ComposedSectionProvider()
/// contacts.append(family)
/// contacts.append(friends)
/// contacts.numberOfSections              // 2
/// contacts.sectionOffset(for: friends)   // 1
/// ```
///
/// Every change below — a section inserted or removed anywhere in the subtree, an element changed
/// in any section — reaches the ``updateDelegate`` re-indexed into this provider's coordinates.
/// A child can have one parent at a time: adding a section or provider that is already in a tree
/// traps; ``ParentSectionProvider/remove(_:)-(Section)`` first. A removed child is detached: its
/// delegate is cleared and its later changes reach no one.
///
/// - Complexity: section offsets and child positions are cached, so looking up where a child sits
///   is O(1) amortized; an event from a child `d` levels deep costs O(d).
public final class ComposedSectionProvider: ProviderNode, ParentSectionProvider {
  /// A child of the provider: a section or a provider.
  public typealias Child = SectionProviderChild

  /// The delegate told about every change, in this provider's coordinates.
  ///
  /// Held weakly. A built-in parent's link is kept in an internal reference instead, not a weak one,
  /// so that the link's reference counting stays on the fast path and each change saves a weak
  /// load. The parent keeps the link alive while it is the delegate, and clears the delegate
  /// when it detaches this child or is released, so that reference never dangles.
  public var updateDelegate: (any SectionProviderUpdateDelegate)? {
    get { uplink ?? customDelegate }
    set {
      if let old = uplink { uncoverElementEvents(above: old) }
      uplink = newValue as? ChildLink
      customDelegate = uplink == nil ? newValue : nil
      bracket.delegateChanged()
    }
  }
  /// ``updateDelegate`` when it is not a link (an object of the user's).
  private weak var customDelegate: (any SectionProviderUpdateDelegate)?
  /// ``updateDelegate`` when it is the link to a built-in parent or a mapping.
  private(set) var uplink: ChildLink? {
    get { unmanagedUplink?.takeUnretainedValue() }
    set { unmanagedUplink = newValue.map { Unmanaged.passUnretained($0) } }
  }
  /// ``uplink``, stored unmanaged: a climb reads it without retaining it.
  @exclusivity(unchecked) private(set) var unmanagedUplink: Unmanaged<ChildLink>?
  // These skip Swift's dynamic exclusivity checks: every level of every climb reads and writes
  // them, and the checks cost 7.0% of the instructions of `sectionkit-bench churn` (callgrind,
  // release: 10.66 G with `@exclusivity(unchecked)`, 11.41 G without, 600,000 single-change
  // batches). They are only mutated by code that calls out to no other object.
  @exclusivity(unchecked) var childList = ChildList()
  @exclusivity(unchecked) var bracket = UpdateBracket()

  static var linkOwnerKind: LinkOwnerKind { .composed }

  /// Creates an empty provider.
  public init() {}

  deinit { releaseDescendants(&childList) }

  /// The children, in order.
  ///
  /// - Complexity: O(1): a view of the links the provider keeps to its children.
  public var children: SectionProviderChildren { childList.children }

  /// The child providers, in order.
  public var providers: [any SectionProvider] {
    childList.children.compactMap { if case .provider(let provider) = $0 { provider } else { nil } }
  }

  /// All sections presented by this provider, flattened, in order.
  ///
  /// - Complexity: O(n) for n sections and providers below, whatever the depth (nested
  ///   providers are walked with a loop, not recursion).
  public var sections: [any Section] { presentedSections(of: self) }

  var presentedChildren: ArraySlice<TreeLink> { childList.links[...] }

  /// The number of sections this provider presents.
  ///
  /// - Complexity: O(1) amortized.
  public var numberOfSections: Int { offset(ofChildAt: childList.count) }

  /// The section at `index` in this provider's coordinates; traps when out of range.
  /// - Complexity: O(log c · d) for c children per level and depth d.
  public func section(at index: Int) -> any Section {
    let count = numberOfSections
    precondition(
      index >= 0 && index < count,
      "ComposedSectionProvider.section(at:): section index \(index) is out of range 0..<\(count)")
    return sectionOf(self, at: index)
  }

  /// The number of elements in the section at `sectionIndex`; traps when out of range.
  public func numberOfElements(inSection sectionIndex: Int) -> Int {
    section(at: sectionIndex).numberOfElements
  }

  /// The offset of `section` in this provider's coordinates, at any depth, or `nil` when it is
  /// not in this provider's tree (or sits in an inactive segment).
  ///
  /// - Complexity: O(depth).
  public func sectionOffset(for section: any Section) -> Int? {
    offset(ofDescendant: section)
  }

  /// The offset of the first section of `provider` in this provider's coordinates, at any depth,
  /// or `nil` when it is not in this provider's tree.
  ///
  /// - Complexity: O(depth).
  public func sectionOffset(for provider: any SectionProvider) -> Int? {
    offset(ofDescendant: provider)
  }

  /// Groups every change made in `updates` — to this provider and anything below it — into one
  /// bracket, hence one batch. Calls nest; only the outermost call closes the bracket.
  public func performBatchUpdates<R>(_ updates: () throws -> R) rethrows -> R {
    try withBracket(updates)
  }

  // MARK: Adding children

  /// Inserts `child` at child position `index`, emitting the insertion of its sections.
  ///
  /// - Complexity: O(s) for the child's s sections, plus O(c) for c later children when the
  ///   insertion is not at the end.
  public func insert(_ child: Child, at index: Int) {
    precondition(
      index >= 0 && index <= childList.count,
      "ComposedSectionProvider.insert(_:at:): index \(index) is out of range 0...\(childList.count)"
    )
    let link = attach(child, "insert(_:at:)")
    let offset = offset(ofChildAt: index)
    childList.insert(link, at: index)
    let count = child.numberOfSections
    guard count > 0 else { return }
    withBracket {
      send(.insertSections(child.sections, at: IndexSet(integersIn: offset..<offset + count)))
    }
    checkInvariants()
  }

  // MARK: Removing children

  /// Removes the child at position `index`, emitting the removal of its sections, and detaches it.
  @discardableResult
  public func remove(at index: Int) -> Child {
    precondition(
      index >= 0 && index < childList.count,
      "ComposedSectionProvider.remove(at:): index \(index) is out of range 0..<\(childList.count)")
    let offset = offset(ofChildAt: index)
    let child = childList[index]
    let count = child.numberOfSections
    return withBracket {
      let link = childList.remove(at: index)
      detach(link.child, link)
      if count > 0 {
        send(.removeSections(child.sections, at: IndexSet(integersIn: offset..<offset + count)))
      }
      checkInvariants()
      return child
    }
  }

  /// Removes every child, emitting one removal of all sections.
  public func removeAll() {
    guard !childList.isEmpty else { return }
    let removed = updateDelegate == nil ? [] : sections
    withBracket {
      for link in childList.removeAll() { detach(link.child, link) }
      if !removed.isEmpty {
        send(.removeSections(removed, at: IndexSet(integersIn: 0..<removed.count)))
      }
      checkInvariants()
    }
  }

  // MARK: Moving and reloading children

  /// Moves the child at position `index` to position `newIndex` (its position after the move),
  /// emitting one move of its sections: a coordinator shows a section that only moved as a
  /// section move, not a deletion and an insertion.
  ///
  /// Traps when `index` or `newIndex` is out of `0..<children.count`.
  ///
  /// - Complexity: O(c) for the c children between the two positions, plus O(1) for the event.
  public func moveChild(at index: Int, to newIndex: Int) {
    let count = childList.count
    precondition(
      index >= 0 && index < count,
      "ComposedSectionProvider.moveChild(at:to:): index \(index) is out of range 0..<\(count)")
    precondition(
      newIndex >= 0 && newIndex < count,
      "ComposedSectionProvider.moveChild(at:to:): new index \(newIndex) is out of range "
        + "0..<\(count)")
    guard index != newIndex else { return }
    let offset = offset(ofChildAt: index)
    let sectionCount = childList[index].numberOfSections
    withBracket {
      childList.move(from: index, to: newIndex)
      if sectionCount > 0 {
        send(.moveSections(offset..<offset + sectionCount, to: self.offset(ofChildAt: newIndex)))
      }
      checkInvariants()
    }
  }

  /// Reloads every section of the child at position `index`: the sections changed as a whole (a
  /// custom section whose content was replaced), and a coordinator shows them as reloaded
  /// sections.
  ///
  /// Traps when `index` is out of `0..<children.count`.
  public func reloadChild(at index: Int) {
    let count = childList.count
    precondition(
      index >= 0 && index < count,
      "ComposedSectionProvider.reloadChild(at:): index \(index) is out of range 0..<\(count)")
    let offset = offset(ofChildAt: index)
    let sectionCount = childList[index].numberOfSections
    guard sectionCount > 0 else { return }
    withBracket {
      send(.reloadSections(IndexSet(integersIn: offset..<offset + sectionCount)))
    }
  }

  /// The position of `child` (a section or provider) among the children, or `nil`.
  /// - Complexity: O(1) amortized.
  public func index(ofChild child: AnyObject) -> Int? { childList.index(of: child) }

  func presentedOffset(ofChildAt index: Int) -> Int? { offset(ofChildAt: index) }

  func cachedOffset(ofChildAt index: Int) -> CachedOffset {
    childList.cachedOffset(at: index).map { .offset($0) } ?? .stale
  }

  /// The number of sections presented by the children before `index` (`0...children.count`).
  /// - Complexity: O(1) amortized.
  private func offset(ofChildAt index: Int) -> Int {
    childList.cachedOffset(at: index) ?? sectionCount(of: self, through: index)
  }

  func childrenToCount(through index: Int) -> Range<Int> {
    childList.staleChildren(through: index)
  }

  func finishCount(through index: Int, _ counts: [Int]) -> Int {
    childList.fillOffsets(through: index, counts)
    return childList.cachedOffset(at: index)!
  }

  var cachedSectionCount: Int? { childList.cachedOffset(at: childList.count) }

  func checkInvariants() {
    #if SECTIONKIT_INTERNAL_CHECKS
      childList.checkInvariants(owner: typeName)
      for child in childList.children {
        precondition(child.parent === self, "\(typeName): a child's delegate is not its parent")
      }
    #endif
  }
}

/// The section at `index` (in range) of any provider, found by descending built-in providers
/// with a loop, so that a chain of any depth costs no stack frames.
func sectionOf(_ provider: any SectionProvider, at index: Int) -> any Section {
  var provider = provider
  var index = index
  while true {
    let child: SectionProviderChild
    switch provider {
    case let composed as ComposedSectionProvider:
      _ = composed.numberOfSections
      let (position, local) = composed.childList.locate(section: index)
      child = composed.childList[position]
      index = local
    case let segmented as SegmentedSectionProvider:
      child = segmented.currentChild!
    default:
      return provider.sections[index]
    }
    switch child {
    case .section(let section): return section
    case .provider(let next): provider = next
    }
  }
}
