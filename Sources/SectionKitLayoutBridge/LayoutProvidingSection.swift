import SectionKit
import SectionKitLayout

/// A `SectionKit` section that chooses its own layout, as ComposedUI's sections did: it returns
/// the `LayoutSection` it is drawn with in an environment (container size, direction, insets).
///
/// Adopting it is opt-in; sections that do not adopt it are drawn with a fallback (see
/// ``SectionChosenLayout``). When a section is asked is the adapter's choice: a
/// ``SectionLayoutComposer`` asks when the section appears (a reload, or a changeset that inserts
/// or reloads it) and after the environment changed, not on element changes;
/// `SectionKitConsole`'s `ConsoleLayoutRenderer` asks at every drawing. Return the same layout
/// for the same environment.
///
/// ```swift
/// final class PhotosSection: ArraySection<Photo>, LayoutProvidingSection {
///   func layoutSection(for environment: LayoutEnvironment) -> LayoutSection {
///     let columns = environment.containerSize.width > 500 ? 5.0 : 3.0
///     return LayoutSection {
///       HGroup { Item().width(.fractionalWidth(1 / columns)) }.height(.fractionalWidth(1 / columns))
///     }
///   }
/// }
/// ```
public protocol LayoutProvidingSection: Section {
  /// The layout of this section in `environment`.
  func layoutSection(for environment: LayoutEnvironment) -> LayoutSection
}

extension Section {
  /// The section's own layout if it adopts ``LayoutProvidingSection``, else `fallback`.
  func chosenLayoutSection(for environment: LayoutEnvironment, fallback: LayoutSection)
    -> LayoutSection
  {
    (self as? any LayoutProvidingSection)?.layoutSection(for: environment) ?? fallback
  }
}
