/// The four rules where UIKit's measured frames differ from what SectionKitLayout 1 computed,
/// each of which can be switched back to the old behaviour.
///
/// The default, ``uikit``, gives `UICollectionViewCompositionalLayout`'s frames (measured off
/// screenshots of a 375 × 812-point container). ``legacy`` restores SectionKitLayout 1's rules for
/// layouts whose stored frames, golden files or drawings depend on them; each flag can also be
/// set alone.
///
/// ```swift
/// let layout = CompositionalLayout { _, _ in ListSection(rowHeight: .absolute(44)) }
///   .rules(.legacy)  // SectionKitLayout 1's frames
/// ```
public struct LayoutRules: Sendable, Hashable, Codable {
  /// An orthogonally scrolling section resolves its group's fractional width against the
  /// container's full width, not the width left inside the section's content insets; the group
  /// still starts after the leading inset (`fractionalWidth(1)` with 16-point insets on a
  /// 375-point container: a 375-point group at x = 16). `false`: against the inset width.
  public var orthogonalFractionsUseContainerWidth: Bool
  /// In a group with `count`, the subitems' fractions of the group's axis (`fractionalWidth` in
  /// an `HGroup`, `fractionalHeight` in a `VGroup`, on either of the subitem's dimensions)
  /// resolve against the group's length minus the total inter-item spacing:
  /// `fractionalWidth(0.25)` in a 355-point `HGroup(count: 4)` with 16 points of spacing is
  /// (355 − 3 × 16) × 0.25 = 76.75. `false`: against the group's full length.
  public var countedGroupFractionsExcludeSpacing: Bool
  /// A group's supplementary items are anchored on the group's frame inside its content insets
  /// (as an item's are on its frame inside its insets), on the part of it inside the section's
  /// visible area (the container's width, for a section that does not scroll orthogonally), and
  /// take the index path `[section, group]`: the index of the group in the
  /// section (for nested groups, of that group among the section's groups that carry
  /// supplementaries, in order). `false`: anchored on the whole frame, index path of the group's
  /// first item.
  public var groupSupplementariesIndexedByGroup: Bool
  /// A section with no elements and no boundary supplementary items takes no space: no content
  /// insets, no background. `interSectionSpacing` still applies around it. `false`: it keeps its
  /// insets and backgrounds.
  public var emptySectionsCollapse: Bool

  /// Creates a set of rules; every flag defaults to UIKit's behaviour.
  public init(
    orthogonalFractionsUseContainerWidth: Bool = true,
    countedGroupFractionsExcludeSpacing: Bool = true,
    groupSupplementariesIndexedByGroup: Bool = true,
    emptySectionsCollapse: Bool = true
  ) {
    self.orthogonalFractionsUseContainerWidth = orthogonalFractionsUseContainerWidth
    self.countedGroupFractionsExcludeSpacing = countedGroupFractionsExcludeSpacing
    self.groupSupplementariesIndexedByGroup = groupSupplementariesIndexedByGroup
    self.emptySectionsCollapse = emptySectionsCollapse
  }

  /// UIKit's rules: the default.
  public static let uikit = LayoutRules()

  /// SectionKitLayout 1's rules: fractions of orthogonal groups against the inset width, counted
  /// groups' fractions against the full group, group supplementaries with their first item's
  /// index path, empty sections that keep their insets and backgrounds.
  public static let legacy = LayoutRules(
    orthogonalFractionsUseContainerWidth: false, countedGroupFractionsExcludeSpacing: false,
    groupSupplementariesIndexedByGroup: false, emptySectionsCollapse: false)
}
