/// The result builder of a group's subitems (and of a section's group).
///
/// Accepts any ``GroupSubitem``, arrays of nodes, `if`, `if let`, `if`/`else`, `switch` and
/// `for`.
///
/// ```swift
/// HGroup {
///   Item().width(.fractionalWidth(0.5))
///   if showsSide {
///     VGroup(count: 2) { Item() }.width(.fractionalWidth(0.5))
///   }
///   for fraction in [0.25, 0.25] { Item().width(.fractionalWidth(fraction)) }
/// }
/// ```
@resultBuilder
public enum SubitemBuilder {
  /// A subitem.
  public static func buildExpression(_ expression: some GroupSubitem) -> [LayoutNode] {
    [expression.layoutNode]
  }

  /// Several subitems.
  public static func buildExpression(_ expression: [LayoutNode]) -> [LayoutNode] {
    expression
  }

  /// A sequence of statements.
  public static func buildBlock(_ components: [LayoutNode]...) -> [LayoutNode] {
    components.flatMap { $0 }
  }

  /// `if` without `else`, `if let`.
  public static func buildOptional(_ component: [LayoutNode]?) -> [LayoutNode] {
    component ?? []
  }

  /// The first branch of `if`/`else` or `switch`.
  public static func buildEither(first component: [LayoutNode]) -> [LayoutNode] {
    component
  }

  /// The second branch of `if`/`else` or `switch`.
  public static func buildEither(second component: [LayoutNode]) -> [LayoutNode] {
    component
  }

  /// `for … in`.
  public static func buildArray(_ components: [[LayoutNode]]) -> [LayoutNode] {
    components.flatMap { $0 }
  }

  /// `if #available`.
  public static func buildLimitedAvailability(_ component: [LayoutNode]) -> [LayoutNode] {
    component
  }
}
