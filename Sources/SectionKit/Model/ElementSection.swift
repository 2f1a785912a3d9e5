/// A section whose elements can be read by index.
///
/// ``ArraySection`` and ``SingleElementSection`` conform. Adapters use it to show an element when
/// the section gives no presentation of its own (the console adapter prints
/// `String(describing: element(at:))`), and tests use it to read what a section holds.
public protocol ElementSection: Section {
  /// The type of the elements.
  associatedtype Element
  /// The element at `index`; traps when out of range.
  func element(at index: Int) -> Element
}

extension ArraySection: ElementSection {}
extension SingleElementSection: ElementSection {}

/// `String(describing:)` of the element at `index` of `section` (an `Optional` element is
/// unwrapped first), or `nil` when the section is not an ``ElementSection``.
public func describeElement(of section: any Section, at index: Int) -> String? {
  guard let section = section as? any ElementSection else { return nil }
  return describe(section, at: index)
}

private func describe<S: ElementSection>(_ section: S, at index: Int) -> String {
  unwrappedDescription(of: section.element(at: index))
}

/// `String(describing:)` of `value`, unwrapping `Optional`s that hold a value.
private func unwrappedDescription(of value: Any) -> String {
  let mirror = Mirror(reflecting: value)
  if mirror.displayStyle == .optional {
    guard let wrapped = mirror.children.first?.value else { return "nil" }
    return unwrappedDescription(of: wrapped)
  }
  return String(describing: value)
}
