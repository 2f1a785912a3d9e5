import SectionKit
import SectionKitLayout

/// How to compose a `CompositionalLayout` from the sections a coordinator presents: each
/// ``LayoutProvidingSection`` supplies its own `LayoutSection`, the others take ``fallback``.
///
/// Stateless: ``layout(for:environment:)`` asks every presented section, so it is right after any
/// changeset. An adapter that lays out after every change and wants to ask only the sections a
/// changeset brings uses ``SectionLayoutComposer``.
///
/// ```swift
/// let chosen = SectionChosenLayout(configuration: .init(interSectionSpacing: 8))
/// let layout = chosen.layout(for: coordinator, environment: LayoutEnvironment(containerSize: size))
/// let frames = layout.frames(itemCounts: counts, container: size)
/// ```
public struct SectionChosenLayout: Sendable {
  /// The layout-wide settings of the composed layout.
  public var configuration: CompositionalLayout.Configuration
  /// The layout of sections that do not adopt ``LayoutProvidingSection``.
  public var fallback: LayoutSection

  /// Creates a composition; by default sections that choose nothing are lists of estimated rows.
  public init(
    configuration: CompositionalLayout.Configuration = .init(),
    fallback: LayoutSection = ListSection().layoutSection
  ) {
    self.configuration = configuration
    self.fallback = fallback
  }

  /// The layout section of each presented section, in order.
  ///
  /// - Complexity: O(*s*) in the coordinator's sections (one call per section).
  public func sectionLayouts(for coordinator: Coordinator, environment: LayoutEnvironment)
    -> [LayoutSection]
  {
    (0..<coordinator.numberOfSections).map {
      coordinator.section(at: $0).chosenLayoutSection(for: environment, fallback: fallback)
    }
  }

  /// The layout of what `coordinator` presents now.
  ///
  /// - Complexity: O(*s*) in the coordinator's sections.
  public func layout(for coordinator: Coordinator, environment: LayoutEnvironment)
    -> CompositionalLayout
  {
    layout(of: sectionLayouts(for: coordinator, environment: environment))
  }

  /// A layout whose section *i* is `sections[i]` (and ``fallback`` past the end, for a layout
  /// asked about a section the composition has not seen).
  ///
  /// - Complexity: O(1); the layout shares `sections`.
  public func layout(of sections: [LayoutSection]) -> CompositionalLayout {
    let fallback = fallback
    return CompositionalLayout(configuration: configuration) { index, _ in
      sections.indices.contains(index) ? sections[index] : fallback
    }
  }
}
