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
/// of the inserted and reloaded elements and sections — the values a mirror asks for, found by
/// applying the changeset to the publisher's own copy with
/// ``/SectionKit/Changeset/apply(to:insertedSection:newElement:newSectionCount:)``. That copy
/// is the state the stream serves to new subscribers; it shares storage with their snapshots.
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
/// - Complexity: a changeset costs what the applier costs — O(c log c + s + e) for c changes,
///   s sections and e elements in the sections it touches — plus reading the new values, plus
///   following each deleted element (O(r) each for r runs of changes), plus handing it to the
///   stream (O(1) whatever the number of subscribers, see ``UpdateStream``); a reload reads
///   every element.
public final class UpdatePublisher<Value: Sendable>: ViewAdapter {
  /// The stream subscribers follow.
  public let stream: UpdateStream<Value>
  /// The adapter that also shows the model, if any.
  public let forwardingTo: (any ViewAdapter)?
  /// The value of the element at a local index of a section.
  private let value: (any Section, Int) -> Value
  /// What the stream shows.
  private var sections: [[Value]] = []
  /// How often a changeset carries a digest of the state after it.
  public let digests: StreamDigestPolicy
  /// The identity of an element, hashed by the digests.
  private let identity: (Value) -> String
  /// Whether the elements are strings that are their own identities (no `identity` given).
  private let valueIsIdentity: Bool
  /// The ``PairHash`` of each section of ``sections``, while digests are on.
  private var pairHashes: [UInt64] = []
  /// What a section is called, given it and its index; `nil` when sections are not labelled.
  private let label: ((any Section, Int) -> StreamSectionLabel?)?
  /// The sequence number the stream gave the state ``sections`` holds: a changeset the applier
  /// takes on it fits the stream's state when the stream is still there.
  private var publishedSequence: Int?

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
    sections = (0..<coordinator.numberOfSections).map { elements(ofSection: $0, coordinator) }
    if digests != .never {
      pairHashes = sections.map { PairHash.section($0, hash: hasher) }
    }
    let labels =
      label.map { label in
        (0..<sections.count).map { label(coordinator.section(at: $0), $0) ?? StreamSectionLabel() }
      } ?? []
    publishedSequence = stream.publishSnapshot(sections, labels: labels, at: nil)
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
    // The digest's old side, hashed before the applier edits the sections in place.
    var leaving =
      digests == .never ? nil : PairHashesLeaving(changeset, before: sections, hash: hasher)
    var newSections: [Int: [Value]] = [:]
    var newElements: [IndexPath: Value] = [:]
    var newLabels: [Int: StreamSectionLabel] = [:]
    do {
      try changeset.apply(
        to: &sections,
        insertedSection: { section in
          let elements = elements(ofSection: section, coordinator)
          newSections[section] = elements
          if let label, let named = label(coordinator.section(at: section), section),
            !named.isEmpty
          {
            newLabels[section] = named
          }
          return elements
        },
        newElement: { path in
          let (section, index) = coordinator.sectionAndIndex(for: path)
          let element = value(section, index)
          newElements[path] = element
          return element
        })
    } catch {
      preconditionFailure(
        "UpdatePublisher.apply(_:from:updateData:): the coordinator's changeset does not fit "
          + "what the publisher showed: \(error)")
    }
    var digest: StreamDigest?
    if digests != .never {
      guard
        let followed = leaving?.followed(
          sections, arrived: newElements.keys, hashes: pairHashes, hash: hasher)
      else {
        preconditionFailure(
          "UpdatePublisher.apply(_:from:updateData:): the digest cannot follow a changeset the "
            + "applier took")
      }
      followed.apply(to: &pairHashes)
      if digests.includes(stream.position.sequence + 1) {
        digest = StreamDigest(
          sections: zip(sections, pairHashes).map {
            StreamDigest.Section(count: $0.count, hash: $1)
          },
          kind: .pairs)
      }
    }
    publishedSequence = stream.publish(
      changeset, sections: newSections, elements: newElements, survivors: survivors,
      state: sections, digest: digest, labels: newLabels, checkedAfter: publishedSequence)
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
