/// A child of a provider: a section or another provider.
public enum SectionProviderChild {
  /// A section, presented as one section.
  case section(any Section)
  /// A provider, presenting its own sections in place.
  case provider(any SectionProvider)

  /// The child object, for identity comparisons.
  public var object: AnyObject {
    switch self {
    case .section(let section): section
    case .provider(let provider): provider
    }
  }

  /// The number of sections this child presents.
  ///
  /// - Complexity: O(1) for built-in types.
  public var numberOfSections: Int {
    switch self {
    case .section: 1
    case .provider(let provider): provider.numberOfSections
    }
  }

  /// The sections this child presents, in order.
  public var sections: [any Section] {
    switch self {
    case .section(let section): [section]
    case .provider(let provider): provider.sections
    }
  }

  /// The child's parent: the owner of its link, or its custom delegate.
  var parent: AnyObject? { parentObject(of: object) }
}

/// The children of a built-in provider, in order (``ComposedSectionProvider/children``,
/// ``SegmentedSectionProvider/children``): a view of the links the provider keeps to them, as it
/// keeps no array of its children beside them.
///
/// Like the array it replaces, it is a snapshot: it keeps the children it was read with, whatever
/// the provider does later. `Array(provider.children)` makes an array of them.
///
/// - Complexity: `count` and the subscript are O(1); reading the view is O(1).
public struct SectionProviderChildren: RandomAccessCollection {
  /// The links, in order; each holds its child.
  let links: [TreeLink]

  /// A position among the children: `0..<count`.
  public typealias Index = Int
  /// The positions of the children, `0..<count`.
  public typealias Indices = Range<Int>

  /// Always 0.
  public var startIndex: Int { 0 }
  /// The number of children.
  public var endIndex: Int { links.count }
  /// The number of children.
  ///
  /// - Complexity: O(1).
  public var count: Int { links.count }

  /// The child at `position`; traps when `position` is out of `0..<count`.
  ///
  /// - Complexity: O(1).
  public subscript(position: Int) -> SectionProviderChild {
    precondition(
      position >= 0 && position < links.count,
      "SectionProviderChildren.subscript: index \(position) is out of range 0..<\(links.count)")
    return links[position].child
  }
}
