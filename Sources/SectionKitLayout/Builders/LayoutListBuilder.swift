/// A result builder of a list of values: supplementary items, boundary items, decorations,
/// sections.
///
/// Accepts values, arrays, `if`, `if let`, `if`/`else`, `switch` and `for`.
///
/// ```swift
/// .boundarySupplementaryItems {
///   BoundarySupplementaryItem(elementKind: "header").height(.absolute(30))
///   if hasFooter { BoundarySupplementaryItem(elementKind: "footer", alignment: .bottom) }
/// }
/// ```
@resultBuilder
public enum LayoutListBuilder<Element> {
  /// A value.
  public static func buildExpression(_ expression: Element) -> [Element] {
    [expression]
  }

  /// Several values.
  public static func buildExpression(_ expression: [Element]) -> [Element] {
    expression
  }

  /// A sequence of statements.
  public static func buildBlock(_ components: [Element]...) -> [Element] {
    components.flatMap { $0 }
  }

  /// `if` without `else`, `if let`.
  public static func buildOptional(_ component: [Element]?) -> [Element] {
    component ?? []
  }

  /// The first branch of `if`/`else` or `switch`.
  public static func buildEither(first component: [Element]) -> [Element] {
    component
  }

  /// The second branch of `if`/`else` or `switch`.
  public static func buildEither(second component: [Element]) -> [Element] {
    component
  }

  /// `for … in`.
  public static func buildArray(_ components: [[Element]]) -> [Element] {
    components.flatMap { $0 }
  }

  /// `if #available`.
  public static func buildLimitedAvailability(_ component: [Element]) -> [Element] {
    component
  }
}

extension LayoutListBuilder where Element == LayoutSection {
  /// A ``ListSection`` or another preset in a list of sections.
  public static func buildExpression(_ expression: some LayoutSectionConvertible) -> [Element] {
    [expression.layoutSection]
  }
}
