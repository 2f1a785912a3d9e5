import Foundation

/// A compositional layout: a section provider plus layout-wide configuration, the counterpart of
/// UIKit's `UICollectionViewCompositionalLayout` and of CompositionalLayoutDSL's
/// `CompositionalLayout`.
///
/// ```swift
/// let layout = CompositionalLayout { sectionIndex, environment in
///   if sectionIndex == 0 {
///     LayoutSection { HGroup { Item().width(.fractionalWidth(0.5)) }.height(.absolute(100)) }
///   } else {
///     ListSection(rowHeight: .absolute(44))
///   }
/// }
/// .interSectionSpacing(16)
///
/// let result = layout.frames(itemCounts: [4, 3], container: Size(width: 320, height: 480))
/// result.frame(at: IndexPath(indexes: [0, 1]))  // [section, item]: Rect(x: 160, y: 0, width: 160, height: 100)
/// ```
public struct CompositionalLayout: Sendable {
  /// Layout-wide settings, as in UIKit's `UICollectionViewCompositionalLayoutConfiguration`.
  public struct Configuration: Sendable {
    /// The main scroll direction. Default: vertical.
    public var scrollDirection: ScrollDirection = .vertical
    /// Space between consecutive sections.
    public var interSectionSpacing: Double = 0
    /// Headers and footers of the whole layout (index path `[0]`).
    public var boundarySupplementaryItems: [BoundarySupplementaryItem] = []
    /// Which of UIKit's measured rules the engine follows. Default: ``LayoutRules/uikit``;
    /// ``LayoutRules/legacy`` restores SectionKitLayout 1's frames.
    public var rules: LayoutRules = .uikit
    /// What sections' content insets are measured from when they say
    /// ``ContentInsetsReference/automatic``. Default: `.automatic` (the safe area).
    public var contentInsetsReference: ContentInsetsReference = .automatic

    /// Creates a configuration.
    public init(
      scrollDirection: ScrollDirection = .vertical, interSectionSpacing: Double = 0,
      boundarySupplementaryItems: [BoundarySupplementaryItem] = [], rules: LayoutRules = .uikit
    ) {
      checkLength(interSectionSpacing, "CompositionalLayout.Configuration.interSectionSpacing")
      self.scrollDirection = scrollDirection
      self.interSectionSpacing = interSectionSpacing
      self.boundarySupplementaryItems = boundarySupplementaryItems
      self.rules = rules
    }
  }

  /// The layout-wide settings.
  public var configuration: Configuration
  /// Returns the section for an index; called once per section per layout pass.
  public let sectionProvider: @Sendable (Int, LayoutEnvironment) -> LayoutSection

  /// Creates a layout from a section provider (CompositionalLayoutDSL's form).
  ///
  /// The closure is a ``LayoutSectionBuilder``: it may use `if`, `if let` and `switch` to pick
  /// the section.
  public init(
    configuration: Configuration = Configuration(),
    @LayoutSectionBuilder sectionProvider:
      @escaping @Sendable (Int, LayoutEnvironment) -> LayoutSection
  ) {
    self.configuration = configuration
    self.sectionProvider = sectionProvider
  }

  /// Creates a layout from a list of sections; section `i` uses `sections[i]`, and sections past
  /// the end reuse the last one.
  public init(configuration: Configuration = Configuration(), sections: [LayoutSection]) {
    precondition(!sections.isEmpty, "CompositionalLayout: sections must not be empty")
    self.configuration = configuration
    self.sectionProvider = { index, _ in sections[min(index, sections.count - 1)] }
  }

  /// Creates a layout from a list of sections built with `if`, `for` and `switch`.
  public init(
    configuration: Configuration = Configuration(),
    @LayoutListBuilder<LayoutSection> sections: () -> [LayoutSection]
  ) {
    self.init(configuration: configuration, sections: sections())
  }

  /// Sets the space between consecutive sections.
  public func interSectionSpacing(_ value: Double) -> Self {
    checkLength(value, "CompositionalLayout.interSectionSpacing")
    return updated(self, \.configuration.interSectionSpacing, value)
  }

  /// Sets the main scroll direction.
  public func scrollDirection(_ value: ScrollDirection) -> Self {
    updated(self, \.configuration.scrollDirection, value)
  }

  /// Sets which of UIKit's measured rules the engine follows (see ``LayoutRules``).
  public func rules(_ value: LayoutRules) -> Self {
    updated(self, \.configuration.rules, value)
  }

  /// Appends layout-wide headers and footers.
  public func boundarySupplementaryItems(
    @LayoutListBuilder<BoundarySupplementaryItem> _ content: () -> [BoundarySupplementaryItem]
  ) -> Self {
    var copy = self
    copy.configuration.boundarySupplementaryItems += content()
    return copy
  }

  /// Replaces the configuration.
  public func configuration(_ value: Configuration) -> Self {
    updated(self, \.configuration, value)
  }
}
