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
