import Foundation

/// A provider with many children of which only one — the child at ``currentIndex`` — is presented.
///
/// Use it for a segmented control or tabs: every child stays in the tree (and keeps its state),
/// but only the current child's sections are presented and only its events are passed up.
///
/// ```swift
/// let inbox = SegmentedSectionProvider()
/// inbox.append(unread)      // the first child becomes current
/// inbox.append(archive)
/// inbox.currentIndex = 1    // removes unread's sections, inserts archive's, in one bracket
/// ```
///
/// Inserting or removing children before the current one keeps the same child current. Removing
/// the current child makes the child that takes its position current (or the new last child).
public final class SegmentedSectionProvider: ProviderNode, ParentSectionProvider {
  /// A child of the provider: a section or a provider.
  public typealias Child = SectionProviderChild

  /// The delegate told about every change of the current child, in this provider's coordinates.
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
  var childList = ChildList()
  var bracket = UpdateBracket()
  /// The presented child; `nil` when there are no children, or while switching.
  private var activeIndex: Int?

  static var linkOwnerKind: LinkOwnerKind { .segmented }

  /// Creates an empty provider.
  public init() {}

  deinit { releaseDescendants(&childList) }

  /// The position of the presented child (0 when there are no children).
  ///
  /// Setting it clamps the value to `0..<children.count` and, when the current child changes,
  /// emits the removal of the old child's sections and the insertion of the new child's, in one
  /// bracket.
  public var currentIndex: Int {
    get { storedIndex }
    set { select(Swift.max(0, Swift.min(newValue, childList.count - 1))) }
  }
  private var storedIndex = 0

  /// The presented child, or `nil` when there are no children.
  public var currentChild: Child? { activeIndex.map { childList[$0] } }

  /// The children, in order.
  ///
  /// - Complexity: O(1): a view of the links the provider keeps to its children.
  public var children: SectionProviderChildren { childList.children }

  /// The child providers, in order.
  public var providers: [any SectionProvider] {
    childList.children.compactMap { if case .provider(let provider) = $0 { provider } else { nil } }
  }

  /// The sections of the current child.
  ///
  /// - Complexity: O(n) for n sections and providers below, whatever the depth.
  public var sections: [any Section] { presentedSections(of: self) }

  var presentedChildren: ArraySlice<TreeLink> {
    activeIndex.map { childList.links[$0...$0] } ?? []
  }

  /// The number of sections of the current child.
  ///
  /// - Complexity: O(1) when the caches below are
  ///   up to date; a chain of segmented providers is walked with a loop.
  public var numberOfSections: Int { sectionCount(of: self, through: childList.count) }

  /// The section at `index` of the current child; traps when out of range.
  public func section(at index: Int) -> any Section {
    let count = numberOfSections
    precondition(
      index >= 0 && index < count,
      "SegmentedSectionProvider.section(at:): section index \(index) is out of range 0..<\(count)")
    return sectionOf(self, at: index)
  }

  /// The number of elements in the section at `sectionIndex`; traps when out of range.
  public func numberOfElements(inSection sectionIndex: Int) -> Int {
    section(at: sectionIndex).numberOfElements
  }

  /// The offset of `section` in this provider's coordinates, at any depth, or `nil` when it is
  /// not presented (not in the tree, or in an inactive segment).
  ///
  /// - Complexity: O(depth).
  public func sectionOffset(for section: any Section) -> Int? { offset(ofDescendant: section) }
  /// The offset of `provider`'s first section, or `nil` when it is not presented.
  public func sectionOffset(for provider: any SectionProvider) -> Int? {
    offset(ofDescendant: provider)
  }

  /// Groups every change made in `updates` into one bracket, hence one batch.
  public func performBatchUpdates<R>(_ updates: () throws -> R) rethrows -> R {
    try withBracket(updates)
  }

  // MARK: Adding children

  /// Inserts `child` at child position `index`. The current child stays current; the first child
  /// inserted becomes current and its sections are inserted.
  public func insert(_ child: Child, at index: Int) {
    precondition(
      index >= 0 && index <= childList.count,
      "SegmentedSectionProvider.insert(_:at:): index \(index) is out of range 0...\(childList.count)"
    )
    let link = attach(child, "insert(_:at:)")
    childList.insert(link, at: index)
    if let active = activeIndex {
      if index <= active { setActive(active + 1) }
    } else {
      withBracket {
        setActive(index)
        emitSections(of: child, inserted: true)
      }
    }
    checkInvariants()
  }

  // MARK: Removing children

  /// Removes the child at `index` and detaches it. Removing the current child presents the child
  /// that takes its place (or the new last child), in one bracket.
  @discardableResult
  public func remove(at index: Int) -> Child {
    precondition(
      index >= 0 && index < childList.count,
      "SegmentedSectionProvider.remove(at:): index \(index) is out of range 0..<\(childList.count)")
    let child = childList[index]
    return withBracket {
      if index == activeIndex {
        activeIndex = nil
        emitSections(of: child, inserted: false)
        let link = childList.remove(at: index)
        detach(link.child, link)
        if !childList.isEmpty {
          setActive(Swift.min(index, childList.count - 1))
          emitSections(of: childList[activeIndex!], inserted: true)
        } else {
          storedIndex = 0
        }
      } else {
        let link = childList.remove(at: index)
        detach(link.child, link)
        if let active = activeIndex, index < active { setActive(active - 1) }
      }
      checkInvariants()
      return child
    }
  }

  /// Removes every child, emitting the removal of the current child's sections.
  public func removeAll() {
    guard !childList.isEmpty else { return }
    withBracket {
      if let active = activeIndex {
        activeIndex = nil
        emitSections(of: childList[active], inserted: false)
      }
      for link in childList.removeAll() { detach(link.child, link) }
      storedIndex = 0
      checkInvariants()
    }
  }

  // MARK: Switching

  private func select(_ index: Int) {
    guard let active = activeIndex, index != active else { return }
    withBracket {
      activeIndex = nil
      emitSections(of: childList[active], inserted: false)
      setActive(index)
      emitSections(of: childList[index], inserted: true)
      checkInvariants()
    }
  }

  private func setActive(_ index: Int) {
    activeIndex = index
    storedIndex = index
  }

  private func emitSections(of child: Child, inserted: Bool) {
    let count = child.numberOfSections
    guard count > 0 else { return }
    let indexes = IndexSet(integersIn: 0..<count)
    if inserted {
      send(.insertSections(child.sections, at: indexes))
    } else {
      send(.removeSections(child.sections, at: indexes))
    }
  }

  /// The position of `child` (a section or provider) among the children, or `nil`.
  /// - Complexity: O(1) amortized.
  public func index(ofChild child: AnyObject) -> Int? { childList.index(of: child) }

  func presentedOffset(ofChildAt index: Int) -> Int? { index == activeIndex ? 0 : nil }

  func cachedOffset(ofChildAt index: Int) -> CachedOffset {
    index == activeIndex ? .offset(0) : .notPresented
  }

  func childrenToCount(through index: Int) -> Range<Int> {
    activeIndex.map { $0..<$0 + 1 } ?? 0..<0
  }

  func finishCount(through index: Int, _ counts: [Int]) -> Int { counts.first ?? 0 }

  var cachedSectionCount: Int? {
    guard let activeIndex else { return 0 }
    if case .section = childList[activeIndex] { return 1 }
    return nil
  }

  func checkInvariants() {
    #if SECTIONKIT_INTERNAL_CHECKS
      childList.checkInvariants(owner: typeName)
      for child in childList.children {
        precondition(child.parent === self, "\(typeName): a child's delegate is not its parent")
      }
      precondition(
        (activeIndex == nil) == childList.isEmpty || bracket.isOpen,
        "\(typeName): a non-empty provider must present a child")
    #endif
  }
}
