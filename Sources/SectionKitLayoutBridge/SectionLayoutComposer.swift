import SectionKit
import SectionKitLayout

/// Keeps a `CompositionalLayout` in step with the sections a coordinator presents, changeset by
/// changeset: a section a changeset inserts brings its layout (it is asked), a deleted one takes
/// its layout away, a moved one keeps its layout, a reloaded one is asked again.
///
/// An adapter owns one and tells it what it was told:
///
/// ```swift
/// final class GridAdapter: ViewAdapter {
///   let composer = SectionLayoutComposer(environment: LayoutEnvironment(containerSize: size))
///   func reloadData(from coordinator: Coordinator) {
///     composer.reloadData(from: coordinator)
///     draw(composer.layout)
///   }
///   func apply(_ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void) {
///     updateData()
///     composer.apply(changeset, from: coordinator)
///     draw(composer.layout)
///   }
/// }
/// ```
public final class SectionLayoutComposer {
  /// How sections are composed (configuration and fallback).
  public var composition: SectionChosenLayout {
    didSet { layout = composition.layout(of: sectionLayouts) }
  }
  /// The environment sections are asked for. Setting it asks every known section again at the
  /// next ``reloadData(from:)`` or ``apply(_:from:)``; until then the layout keeps the old
  /// answers.
  public var environment: LayoutEnvironment {
    didSet { if environment != oldValue { needsEveryLayout = true } }
  }
  /// The layout of each presented section, in order.
  public private(set) var sectionLayouts: [LayoutSection] = []
  /// The composed layout.
  public private(set) var layout: CompositionalLayout

  /// The presented sections, in order, to recognise them after a changeset.
  private var identities: [ObjectIdentifier] = []
  private var needsEveryLayout = false

  /// Creates a composer with no sections.
  public init(environment: LayoutEnvironment, composition: SectionChosenLayout = .init()) {
    self.environment = environment
    self.composition = composition
    self.layout = composition.layout(of: [])
  }

  /// Asks every presented section for its layout (an adapter's `reloadData(from:)`).
  ///
  /// - Complexity: O(*s*) in the coordinator's sections.
  public func reloadData(from coordinator: Coordinator) {
    sectionLayouts = composition.sectionLayouts(for: coordinator, environment: environment)
    identities = (0..<coordinator.numberOfSections).map {
      ObjectIdentifier(coordinator.section(at: $0))
    }
    needsEveryLayout = false
    layout = composition.layout(of: sectionLayouts)
  }

  /// Follows `changeset`, which `coordinator` has switched to (call it after `updateData`):
  /// sections the changeset inserts or reloads are asked for their layout, deleted ones are
  /// dropped, the others (moved or not) keep theirs.
  ///
  /// - Complexity: O(*s*) in the coordinator's sections, plus one call per inserted or reloaded
  ///   section.
  public func apply(_ changeset: Changeset, from coordinator: Coordinator) {
    guard !needsEveryLayout else { return reloadData(from: coordinator) }
    var known: [ObjectIdentifier: LayoutSection] = [:]
    let reloaded = changeset.reloadedSections
    for (index, identity) in identities.enumerated() where !reloaded.contains(index) {
      known[identity] = sectionLayouts[index]
    }
    let inserted = changeset.insertedSections
    var layouts: [LayoutSection] = []
    var newIdentities: [ObjectIdentifier] = []
    layouts.reserveCapacity(coordinator.numberOfSections)
    for index in 0..<coordinator.numberOfSections {
      let section = coordinator.section(at: index)
      let identity = ObjectIdentifier(section)
      if !inserted.contains(index), let layout = known[identity] {
        layouts.append(layout)
      } else {
        layouts.append(
          section.chosenLayoutSection(for: environment, fallback: composition.fallback))
      }
      newIdentities.append(identity)
    }
    sectionLayouts = layouts
    identities = newIdentities
    layout = composition.layout(of: sectionLayouts)
  }
}
