import Foundation
import SectionKit

/// A ``/SectionKit/ViewAdapter`` that publishes what its coordinator presents, as values, to an
/// ``UpdateStream`` that any number of subscribers follow.
///
/// Create it where the model lives (an actor of your own, or the main actor), attach it, and
/// hand its ``stream`` — which is `Sendable` — to whoever serves clients:
///
/// ```swift
/// actor Board {
///   let coordinator: Coordinator
///   nonisolated let stream: UpdateStream<String>
///
///   init(root: any SectionProvider) {
///     let publisher = UpdatePublisher(value: { section, index in
///       (section as! ArraySection<String>)[index]
///     })
///     coordinator = Coordinator(sectionProvider: root)
///     coordinator.adapter = publisher     // the stream's first snapshot
///     stream = publisher.stream
///   }
/// }
/// ```
///
/// Each reload becomes a snapshot and each changeset a ``StreamChangeset`` carrying the values
/// of the inserted and reloaded elements and sections — the values a mirror asks for, read from
/// the coordinator. The publisher keeps no copy of the state: the stream holds it, serves it to
/// new subscribers (their snapshots share its storage) and applies each changeset to it in
/// place (``UpdateStream/publish(_:sections:elements:survivors:digest:labels:)``), so a batch
/// costs what it changes, not what the sections hold. A section is copied only when a snapshot
/// that holds it is still alive (copy on write).
///
/// To show the model on another adapter as well (a console, a test adapter), pass it as
/// `forwardingTo`: it gets every call first, as if it were attached itself.
///
/// For ``UpdateStream/resolve(_:at:)``, it also records where each element the changeset deletes
/// went when the model kept it — an element moved and updated in one batch, which the changeset
/// gives as a delete and an insert — following it by identity through the coordinator. The
/// elements of a section the changeset deletes and inserts are not followed: a section moved and
/// changed in one batch looks the same in a changeset as one reloaded beside section moves, whose
/// elements are new, and the coordinator follows the latter by position only.
///
/// When the publisher goes away (with its coordinator), the stream finishes.
///
/// - Complexity: a changeset costs what the stream's in-place applier costs — O(c log c + s + m)
///   for c changes, s sections and m elements an array must move (those after the first change
///   of each section it changes), whatever the length of the sections — plus reading the new
///   values, plus following each deleted element (O(r) each for r runs of changes), plus
///   handing it to the stream (O(1) whatever the number of subscribers, see ``UpdateStream``);
///   plus a copy of each section it changes that a snapshot still alive holds. A reload reads
///   every element.
public final class UpdatePublisher<Value: Sendable>: ViewAdapter {
  /// The stream subscribers follow.
  public let stream: UpdateStream<Value>
  /// The adapter that also shows the model, if any.
  public let forwardingTo: (any ViewAdapter)?
  /// The value of the element at a local index of a section.
  private let value: (any Section, Int) -> Value
  /// How often a changeset carries a digest of the state after it.
  public let digests: StreamDigestPolicy
  /// The identity of an element, hashed by the digests.
  private let identity: (Value) -> String
  /// Whether the elements are strings that are their own identities (no `identity` given).
  private let valueIsIdentity: Bool
  /// The ``PairHash`` of each section of the stream's state, while digests are on.
  private var pairHashes: [UInt64] = []
  /// What a section is called, given it and its index; `nil` when sections are not labelled.
  private let label: ((any Section, Int) -> StreamSectionLabel?)?

  /// Creates a publisher and its stream.
  ///
  /// - Parameters:
  ///   - policy: the stream's bounds.
  ///   - digests: how often a changeset carries a ``StreamDigest`` of the state after it, which
  ///     mirrors check (``StreamDigestPolicy`` says what each choice costs). Never, by default.
  ///   - identity: the identity of an element's value, hashed by the digests; a client's
  ///     ``StreamMirror`` must be given the same. By default a string is its own identity, an
  ///     integer its decimal digits, anything else its `String(describing:)`.
  ///   - forwardingTo: an adapter that also shows the model; it gets every call first.
  ///   - label: what a section is called (``StreamSectionLabel``), given the section and its
  ///     index, read for every section of a snapshot and for each section a changeset inserts
  ///     or reloads; `nil` (the default) sends no labels. A `SectionTree`'s sections are named
  ///     by ``/SectionKit/SectionTree/id(of:)``.
  ///   - value: the value of the element at a local index of a section, read when the element
  ///     is inserted, reloaded, or part of a reload. It must not call into the stream.
  public init(
    policy: StreamPolicy = StreamPolicy(), digests: StreamDigestPolicy = .never,
    identity: ((Value) -> String)? = nil, forwardingTo: (any ViewAdapter)? = nil,
    label: ((any Section, Int) -> StreamSectionLabel?)? = nil,
    value: @escaping (any Section, Int) -> Value
  ) {
    self.label = label
    self.stream = UpdateStream(policy: policy)
    self.forwardingTo = forwardingTo
    self.value = value
    self.digests = digests
    self.identity = identity ?? defaultIdentity(Value.self) ?? { String(describing: $0) }
    self.valueIsIdentity = identity == nil && Value.self == String.self
  }

  deinit { stream.finish() }

  /// Hashes an element for the digests.
  private var hasher: ElementHasher<Value> {
    ElementHasher(identity, valueIsIdentity: valueIsIdentity)
  }

  /// Reads every element and publishes a snapshot.
  public func reloadData(from coordinator: Coordinator) {
    forwardingTo?.reloadData(from: coordinator)
    // Handed to the stream, which is then its only holder.
    let sections = (0..<coordinator.numberOfSections).map { elements(ofSection: $0, coordinator) }
    if digests != .never {
      pairHashes = sections.map { PairHash.section($0, hash: hasher) }
    }
    let labels =
      label.map { label in
        (0..<sections.count).map { label(coordinator.section(at: $0), $0) ?? StreamSectionLabel() }
      } ?? []
    stream.publishSnapshot(sections, labels: labels, at: nil)
  }

  /// Switches the coordinator to the new state, reads the values the changeset needs and
  /// publishes it.
  public func apply(
    _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
  ) {
    // Before the coordinator switches to the new state (the forwarded adapter switches it): the
    // elements the changeset deletes that the model kept, followed by identity.
    // Not the elements of a deleted section: see the type's documentation.
    var kept: [(old: IndexPath, section: any Section, index: Int)] = []
    for old in changeset.deletedElements {
      guard let (section, index) = try? coordinator.element(.indexPath(old)) else { continue }
      kept.append((old, section, index))
    }
    forwardingTo?.apply(changeset, from: coordinator, updateData: updateData)
    updateData()
    // The wire has no reconfigures: each is sent as the reload it is placed as (rule B3).
    let changeset = changeset.reconfiguresAsReloads()
    var survivors: [IndexPath: IndexPath] = [:]
    for (old, section, index) in kept {
      if let new = coordinator.indexPath(for: index, in: section) { survivors[old] = new }
    }
    // Everything the user's closures give is read here, before the stream takes the changeset
    // and applies it to its state in place, under its lock.
    var newSections: [Int: [Value]] = [:]
    var newLabels: [Int: StreamSectionLabel] = [:]
    for section in Self.sectionsSent(by: changeset, newCount: coordinator.numberOfSections) {
      newSections[section] = elements(ofSection: section, coordinator)
      if let label, let named = label(coordinator.section(at: section), section), !named.isEmpty {
        newLabels[section] = named
      }
    }
    var newElements: [IndexPath: Value] = [:]
    for path in changeset.insertedElements + changeset.reloadedElementDestinations {
      let (section, index) = coordinator.sectionAndIndex(for: path)
      newElements[path] = value(section, index)
    }
    let update = StreamChangeset(
      sequence: 0, changeset: changeset, sections: newSections, elements: newElements,
      labels: newLabels)
    let digest = digests == .never ? nil : followDigest(through: update)
    stream.publish(
      changeset, sections: newSections, elements: newElements, survivors: survivors,
      digest: digest, labels: newLabels)
  }

  /// Follows ``pairHashes`` through `update`, from the stream's state before it, and returns the
  /// digest to send with it when ``digests`` includes it.
  ///
  /// The state is read here and let go on return, before the stream edits it: held while the
  /// stream applies the changeset, it would make the stream copy the sections it changes.
  private func followDigest(through update: StreamChangeset<Value>) -> StreamDigest? {
    let (sections, sequence, isFinished) = stream.state.withLock {
      ($0.sections, $0.sequence, $0.isFinished)
    }
    guard !isFinished else { return nil }  // publishing ignored: nothing to follow
    guard
      let followed = FollowedPairHashes(
        mirroring: update, from: sections, hashes: pairHashes, hash: hasher)
    else {
      preconditionFailure(
        "UpdatePublisher.apply(_:from:updateData:): the coordinator's changeset does not fit "
          + "what the publisher showed (section counts \(describe(counts: sections.map { $0.count })))"
      )
    }
    let digest =
      digests.includes(sequence + 1)
      ? followed.digest(counts: { sections[$0].count }, hashes: pairHashes) : nil
    followed.apply(to: &pairHashes)
    return digest
  }

  /// The new index of each section `changeset` inserts or reloads: those whose elements it
  /// sends, given the number of sections after it.
  ///
  /// - Complexity: O(1) for a changeset that changes no section; otherwise O(s + r log r) for s
  ///   sections and r section changes.
  private static func sectionsSent(by changeset: Changeset, newCount: Int) -> [Int] {
    if changeset.insertedSectionRanges.isEmpty && changeset.reloadedSectionRanges.isEmpty {
      return []
    }
    let oldCount = newCount - changeset.insertedSections.count + changeset.deletedSections.count
    let sources = DigestCache.sources(of: changeset, oldCount: oldCount)
    return sources.indices.filter { sources[$0] == nil }
  }

  /// Forwards the selection to ``forwardingTo``.
  public func coordinator(_ coordinator: Coordinator, didSelect indexPaths: [IndexPath]) {
    forwardingTo?.coordinator(coordinator, didSelect: indexPaths)
  }

  /// Forwards the deselection to ``forwardingTo``.
  public func coordinator(_ coordinator: Coordinator, didDeselect indexPaths: [IndexPath]) {
    forwardingTo?.coordinator(coordinator, didDeselect: indexPaths)
  }

  private func elements(ofSection index: Int, _ coordinator: Coordinator) -> [Value] {
    let section = coordinator.section(at: index)
    return (0..<coordinator.numberOfElements(inSection: index)).map { value(section, $0) }
  }
}
