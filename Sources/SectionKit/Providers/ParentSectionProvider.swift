/// A provider whose children — sections and providers — can be added and removed.
///
/// ``ComposedSectionProvider`` and ``SegmentedSectionProvider`` conform. The protocol's extension
/// gives both the same children API: `append`, `insert(_:at:)`, `insert(_:after:)` and
/// `insert(_:before:)` for every section/provider combination, `remove(_:)`, `contains(_:)` and
/// `firstIndex(of:)`.
///
/// Adding a child that already has a parent traps (remove it from its parent first), as does
/// naming an anchor that is not a child or an index out of range.
public protocol ParentSectionProvider: SectionProvider {
  /// The children, in order.
  var children: SectionProviderChildren { get }
  /// Inserts `child` at child position `index` (`0...children.count`).
  func insert(_ child: SectionProviderChild, at index: Int)
  /// Removes the child at `index` and detaches it.
  @discardableResult func remove(at index: Int) -> SectionProviderChild
  /// Removes every child.
  func removeAll()
  /// The position of `child` among the children, or `nil`.
  func index(ofChild child: AnyObject) -> Int?
}

extension ParentSectionProvider {
  /// Appends a section. Traps when the section already has a parent.
  public func append(_ section: any Section) { insert(.section(section), at: children.count) }
  /// Appends a provider. Traps when it already has a parent or would make a cycle.
  public func append(_ provider: any SectionProvider) {
    insert(.provider(provider), at: children.count)
  }
  /// Inserts a section at child position `index` (`0...children.count`).
  public func insert(_ section: any Section, at index: Int) { insert(.section(section), at: index) }
  /// Inserts a provider at child position `index` (`0...children.count`).
  public func insert(_ provider: any SectionProvider, at index: Int) {
    insert(.provider(provider), at: index)
  }
  /// Inserts a section right after the child section `after`.
  public func insert(_ section: any Section, after: any Section) {
    insert(.section(section), at: position(of: after, "insert(_:after:)") + 1)
  }
  /// Inserts a section right after the child provider `after`.
  public func insert(_ section: any Section, after: any SectionProvider) {
    insert(.section(section), at: position(of: after, "insert(_:after:)") + 1)
  }
  /// Inserts a provider right after the child section `after`.
  public func insert(_ provider: any SectionProvider, after: any Section) {
    insert(.provider(provider), at: position(of: after, "insert(_:after:)") + 1)
  }
  /// Inserts a provider right after the child provider `after`.
  public func insert(_ provider: any SectionProvider, after: any SectionProvider) {
    insert(.provider(provider), at: position(of: after, "insert(_:after:)") + 1)
  }
  /// Inserts a section right before the child section `before`.
  public func insert(_ section: any Section, before: any Section) {
    insert(.section(section), at: position(of: before, "insert(_:before:)"))
  }
  /// Inserts a section right before the child provider `before`.
  public func insert(_ section: any Section, before: any SectionProvider) {
    insert(.section(section), at: position(of: before, "insert(_:before:)"))
  }
  /// Inserts a provider right before the child section `before`.
  public func insert(_ provider: any SectionProvider, before: any Section) {
    insert(.provider(provider), at: position(of: before, "insert(_:before:)"))
  }
  /// Inserts a provider right before the child provider `before`.
  public func insert(_ provider: any SectionProvider, before: any SectionProvider) {
    insert(.provider(provider), at: position(of: before, "insert(_:before:)"))
  }

  /// Removes `section` if it is a direct child; returns whether it was.
  @discardableResult
  public func remove(_ section: any Section) -> Bool { removeChild(section) }
  /// Removes `provider` if it is a direct child; returns whether it was.
  @discardableResult
  public func remove(_ provider: any SectionProvider) -> Bool { removeChild(provider) }

  /// Whether `section` is a direct child.
  ///
  /// - Complexity: O(1) amortized.
  public func contains(_ section: any Section) -> Bool { index(ofChild: section) != nil }
  /// Whether `provider` is a direct child.
  ///
  /// - Complexity: O(1) amortized.
  public func contains(_ provider: any SectionProvider) -> Bool { index(ofChild: provider) != nil }
  /// The position of `section` among the children, or `nil`.
  ///
  /// - Complexity: O(1) amortized.
  public func firstIndex(of section: any Section) -> Int? { index(ofChild: section) }
  /// The position of `provider` among the children, or `nil`.
  ///
  /// - Complexity: O(1) amortized.
  public func firstIndex(of provider: any SectionProvider) -> Int? { index(ofChild: provider) }

  private func removeChild(_ child: AnyObject) -> Bool {
    guard let index = index(ofChild: child) else { return false }
    remove(at: index)
    return true
  }

  private func position(of anchor: AnyObject, _ operation: String) -> Int {
    guard let index = index(ofChild: anchor) else {
      preconditionFailure(
        "\(Self.self).\(operation): \(type(of: anchor)) is not a child of this provider")
    }
    return index
  }
}
