import Foundation

/// Sections driven by snapshots: each ``apply(_:)`` gives the whole ordered list of sections, each
/// with an identity and its elements, and the provider works out what changed — sections and
/// elements matched by identity across the whole snapshot — in one batch, hence one changeset.
///
/// ```swift
/// struct Message: Identifiable, Equatable { var id: Int; var text: String }
///
/// let inbox = SnapshotSectionProvider<String, Message>()   // elements by `id`, updated when `!=`
/// let coordinator = Coordinator(sectionProvider: inbox.provider)
///
/// try inbox.apply([
///   SectionContents(id: "pinned", elements: pinned),
///   SectionContents(id: "today", elements: today),
///   SectionContents(id: "earlier", elements: earlier),
/// ])
/// // … a new payload arrives whole:
/// try inbox.apply(snapshot)   // one changeset: sections and elements inserted, deleted, moved
/// ```
///
/// What an apply emits, with the previous apply's sections as the old state:
/// - a section identity that is new is an inserted section; one that is gone, a deleted section;
///   sections that stay keep their ``IdentifiedSection`` object, and those that changed relative
///   order are moved (only those outside a longest increasing run of old positions);
/// - in a section that stays, elements are diffed as
///   ``ArraySection/replaceElements(with:identifiedBy:isUpdated:)`` does: inserted, deleted,
///   moved, and updated when the same identity has different content;
/// - an element whose identity moved to another section, both of which stay, is reported as an
///   element move across sections when the apply is a batch of its own (no batch open around it)
///   and UIKit reads the move as the coordinator means it: neither section is inserted, deleted,
///   reloaded or moved, and no reload in either section lies after the element's old or new
///   position (UIKit places reloads without counting moves); otherwise, and when its content
///   changed, it is deleted from its old section and inserted into its new one;
/// - UIKit's rules still decide the form (a moved section whose elements changed is a delete and
///   an insert of the section, rule B11).
///
/// Identities must be unique across the whole snapshot: two sections with one identity, or two
/// elements with one identity (in one section or in two), throw ``SnapshotError`` and nothing
/// is applied.
///
/// Each section is an ``IdentifiedSection`` — an ``ArraySection`` that carries its identity — so
/// handlers, the coordinator's lookups and adapters see ordinary sections; put what a header shows
/// in the section identity or look it up by ``IdentifiedSection/id``. Sections may also be mutated
/// directly between applies (a swipe to delete): the next apply diffs against what they hold.
/// The provider owns ``provider``: change its children only through ``apply(_:)`` (an apply traps
/// when they were changed by other means).
///
/// - Complexity: an apply is O(n + m) expected for n current and m new elements (each identity
///   hashed once), plus O(s log s) per section for the elements that moved, plus O(c log c) for
///   c sections; then the coordinator's O(k log k) for the k events.
public final class SnapshotSectionProvider<SectionID: Hashable, Element> {
  /// The provider presenting the sections: give it to a ``Coordinator`` or nest it in another
  /// provider.
  public let provider = ComposedSectionProvider()

  /// The sections, in order: the last snapshot applied (with any direct mutation since).
  public private(set) var sections: [IdentifiedSection<SectionID, Element>] = []
  /// The position of each section, by identity.
  private var positions: [SectionID: Int] = [:]
  /// Matches the current elements with a snapshot's, by the provider's element identity.
  private let match: ([[Element]], [[Element]], [Int?]) throws(SnapshotError) -> SnapshotMatching
  /// Applies a duplicate policy to a snapshot's elements, by the provider's element identity.
  private let dropDuplicates:
    ([[Element]], DuplicatePolicy) -> (sections: [[Element]], dropped: [DroppedDuplicate])?
  /// Whether an apply is being checked or applied (an apply from inside one traps).
  private var applying = false

  /// Creates an empty provider whose elements are identified by `id` (unique across the whole
  /// snapshot); an element with the same identity in two snapshots, in one section, is updated
  /// when `isUpdated(old, new)`.
  public init<ID: Hashable>(
    identifiedBy id: @escaping (Element) -> ID,
    isUpdated: @escaping (_ old: Element, _ new: Element) -> Bool
  ) {
    match = { old, new, previous throws(SnapshotError) in
      try SnapshotMatching(old: old, new: new, previous: previous, id: id, isUpdated: isUpdated)
    }
    dropDuplicates = { sections, policy in
      _droppingDuplicates(sections, policy: policy, flat: false, id: id)
    }
  }

  /// The current contents, as a snapshot.
  ///
  /// - Complexity: O(c) for c sections (the element arrays are shared, not copied).
  public var snapshot: [SectionContents<SectionID, Element>] {
    sections.map { SectionContents(id: $0.id, elements: $0.elements) }
  }

  /// The section with identity `id`, or `nil`.
  ///
  /// - Complexity: O(1) expected.
  public func section(withID id: SectionID) -> IdentifiedSection<SectionID, Element>? {
    positions[id].map { sections[$0] }
  }

  /// Makes the sections those of `snapshot`, in its order: inserts the sections that are new,
  /// deletes those that are gone, moves those that changed place and diffs the elements of those
  /// that stay — in one batch.
  ///
  /// - Throws: ``SnapshotError`` when two sections of `snapshot` share an identity, or two
  ///   elements anywhere in it do (or in the current sections, after direct mutations); the
  ///   provider is then left exactly as it was and nothing is emitted. To keep one of the
  ///   elements that share an identity instead, use ``apply(_:duplicates:)``.
  /// - Complexity: O(n + m) expected for n current and m new elements, plus O(s log s) per section
  ///   for the s elements that stay in it, plus O(c log c) for c sections.
  public func apply(_ snapshot: [SectionContents<SectionID, Element>]) throws(SnapshotError) {
    try apply(snapshot, duplicates: .throwError)
  }

  /// Makes the sections those of `snapshot`, in its order: inserts the sections that are new,
  /// deletes those that are gone, moves those that changed place and diffs the elements of those
  /// that stay — in one batch.
  ///
  /// ```swift
  /// let dropped = try inbox.apply(snapshot, duplicates: .keepFirst)
  /// // [dropped duplicate 7 at [2, 1] (kept [0, 3])]
  /// ```
  ///
  /// - Parameters:
  ///   - snapshot: The sections, in order.
  ///   - duplicates: What to do with elements whose identity another element of `snapshot` has
  ///     (in any section): throw (what ``apply(_:)`` does), or keep the first or the last of
  ///     them in snapshot order. Applied before the diff. Duplicate section identities always
  ///     throw.
  /// - Returns: The elements `duplicates` left out, at their `[section, element]` positions in
  ///   `snapshot`; empty with ``DuplicatePolicy/throwError``.
  /// - Throws: ``SnapshotError`` when two sections of `snapshot` share an identity, or two
  ///   elements anywhere in it do and `duplicates` is ``DuplicatePolicy/throwError`` (or two in
  ///   the current sections do, after direct mutations, whatever the policy); the provider is
  ///   then left exactly as it was and nothing is emitted.
  /// - Complexity: O(n + m) expected for n current and m new elements, plus O(s log s) per section
  ///   for the s elements that stay in it, plus O(c log c) for c sections.
  @discardableResult
  public func apply(
    _ snapshot: [SectionContents<SectionID, Element>], duplicates: DuplicatePolicy
  ) throws(SnapshotError) -> [DroppedDuplicate] {
    precondition(
      !applying,
      "SnapshotSectionProvider.apply(_:): called while an apply of the same provider was being "
        + "checked or applied (from an identity or comparison closure, or a section's delegate); "
        + "apply again once it returns")
    let children = provider.children
    precondition(
      children.count == sections.count
        && zip(children, sections).allSatisfy { $0.object === $1 },
      "SnapshotSectionProvider.apply(_:): the provider has \(children.count) children where the "
        + "last apply left \(sections.count) (or others): its children change only through apply")
    var newPositions: [SectionID: Int] = [:]
    newPositions.reserveCapacity(snapshot.count)
    for (position, contents) in snapshot.enumerated() {
      if let first = newPositions.updateValue(position, forKey: contents.id) {
        throw .duplicateSection(
          id: String(describing: contents.id), positions: [first, position])
      }
    }
    let previous = snapshot.map { positions[$0.id] }
    var snapshot = snapshot
    var dropped: [DroppedDuplicate] = []
    let matching: SnapshotMatching
    do {
      // The caller's closures run now: any mutation of a section from inside them traps.
      applying = true
      for section in sections {
        section.checkNoMutationInProgress()
        section.mutationInProgress = MutationInProgress(
          method: .snapshotApply, during: .readingSnapshot)
      }
      defer {
        for section in sections { section.mutationInProgress = nil }
        applying = false
      }
      if let kept = dropDuplicates(snapshot.map(\.elements), duplicates) {
        for position in snapshot.indices { snapshot[position].elements = kept.sections[position] }
        dropped = kept.dropped
      }
      matching = try match(sections.map(\.elements), snapshot.map(\.elements), previous)
    }
    // Elements that change section between two sections that stay can be reported as moves
    // when this apply is a batch of its own (the coordinator decides, once it has read it off).
    let coordinator = matching.movesAcross.first.flatMap {
      owningCoordinator(of: sections[$0.from])
    }
    if let coordinator {
      coordinator.expectMovesAcross(
        matching.movesAcross.map {
          ElementMoveAcross(
            from: sections[$0.from], fromIndex: $0.fromIndex,
            to: sections[previous[$0.to]!], toIndex: $0.toIndex)
        })
    }
    defer { coordinator?.expectedMovesAcross = nil }
    provider.performBatchUpdates {
      // Done before the bracket closes: the adapter may apply again while it applies the
      // changeset (that apply is the next batch).
      applying = true
      defer { applying = false }
      provider.keepSurvivors(inOrder: previous)
      var result: [IdentifiedSection<SectionID, Element>] = []
      result.reserveCapacity(snapshot.count)
      for (position, contents) in snapshot.enumerated() {
        if let was = previous[position], let elements = matching.sections[position] {
          let section = sections[was]
          section._replaceElements(with: contents.elements, elements)
          result.append(section)
        } else {
          let section = IdentifiedSection(id: contents.id, contents.elements)
          provider.insert(.section(section), at: position)
          result.append(section)
        }
      }
      sections = result
      positions = newPositions
    }
    return dropped
  }
}

extension SnapshotSectionProvider where Element: Identifiable & Equatable {
  /// Creates an empty provider whose elements are identified by `id` and updated when `!=`.
  public convenience init() {
    self.init(identifiedBy: { $0.id }, isUpdated: !=)
  }
}

extension SnapshotSectionProvider where Element: Hashable {
  /// Creates an empty provider whose elements are identified by value (never updated: a changed
  /// value is another element).
  public convenience init() {
    self.init(identifiedBy: { $0 }, isUpdated: { _, _ in false })
  }
}

extension SnapshotSectionProvider where Element: Identifiable & Hashable {
  /// Creates an empty provider whose elements are identified by `id` (identifiable elements are
  /// identified by `id` even when they are also hashable) and updated when `!=`.
  public convenience init() {
    self.init(identifiedBy: { $0.id }, isUpdated: !=)
  }
}

/// One section of a snapshot: its identity and its elements, in order.
public struct SectionContents<SectionID: Hashable, Element> {
  /// The section's identity, unique in the snapshot.
  public var id: SectionID
  /// The section's elements; their identities are unique across the whole snapshot.
  public var elements: [Element]

  /// A section of a snapshot with identity `id` holding `elements`.
  public init(id: SectionID, elements: [Element]) {
    self.id = id
    self.elements = elements
  }
}

extension SectionContents: Sendable where SectionID: Sendable, Element: Sendable {}
extension SectionContents: Equatable where Element: Equatable {}
extension SectionContents: Hashable where Element: Hashable {}

/// A section of a ``SnapshotSectionProvider``: an ``ArraySection`` that carries its identity.
///
/// The provider creates one for each new section identity and keeps it while the identity stays
/// in the snapshots, so handlers can tell sections apart by ``id`` (a header title, a kind).
public final class IdentifiedSection<SectionID: Hashable, Element>: ArraySection<Element> {
  /// The section's identity in its provider's snapshots.
  public let id: SectionID

  /// A section with identity `id` holding `elements`.
  public init(id: SectionID, _ elements: [Element] = []) {
    self.id = id
    super.init(elements)
  }

  @available(*, unavailable, message: "an IdentifiedSection needs an id: use init(id:_:)")
  public required init() {
    preconditionFailure("IdentifiedSection.init(): an IdentifiedSection needs an id")
  }
}
