/// The result builder of a section provider: produces one ``LayoutSection``.
///
/// Accepts a ``LayoutSectionConvertible`` (``LayoutSection``, ``ListSection``, your presets),
/// `if`/`else`, `if let` and `switch`. An `if` without `else` that is not taken yields an empty
/// list section. `for` is not available: a provider returns one section; use
/// `CompositionalLayout { sections }` for lists.
///
/// ```swift
/// CompositionalLayout { index, _ in
///   switch index {
///   case 0: LayoutSection { HGroup { Item() }.height(.absolute(100)) }
///   default: ListSection(rowHeight: .absolute(44))
///   }
/// }
/// ```
@resultBuilder
public enum LayoutSectionBuilder {
  /// A section or a preset.
  public static func buildExpression(_ expression: some LayoutSectionConvertible) -> LayoutSection {
    expression.layoutSection
  }

  /// The single statement.
  public static func buildBlock(_ component: LayoutSection) -> LayoutSection {
    component
  }

  /// `if` without `else`, `if let`: an empty list section when not taken.
  public static func buildOptional(_ component: LayoutSection?) -> LayoutSection {
    component ?? ListSection(rowHeight: .absolute(44)).layoutSection
  }

  /// The first branch of `if`/`else` or `switch`.
  public static func buildEither(first component: LayoutSection) -> LayoutSection {
    component
  }

  /// The second branch of `if`/`else` or `switch`.
  public static func buildEither(second component: LayoutSection) -> LayoutSection {
    component
  }

  /// `if #available`.
  public static func buildLimitedAvailability(_ component: LayoutSection) -> LayoutSection {
    component
  }
}
