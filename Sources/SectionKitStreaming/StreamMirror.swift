import Foundation
import SectionKit

/// A client's copy of what a model presents, kept in step with a stream of updates: an array of
/// sections of elements equal to the server's after every update.
///
/// ```swift
/// var mirror = StreamMirror<String>()
/// for await update in stream.subscribe(after: mirror.position) {
///   do {
///     try mirror.apply(update)
///   } catch where error.needsResync {
///     // subscribe again from mirror.position
///   }
/// }
/// ```
///
/// A snapshot replaces everything (one of the same stream older than the mirror's position is
/// refused; one of the same sequence number is the state the mirror holds, and is taken); a
/// changeset must be the one after the mirror's position and fit what the mirror holds. It is
/// applied with
/// ``/SectionKit/Changeset/apply(to:insertedSection:newElement:newSectionCount:)`` — the one
/// applier the library uses wherever it mirrors — and its values must be exactly the ones that
/// applier asks for. Anything else throws a ``StreamMirrorError`` and leaves the mirror as it was.
public struct StreamMirror<Value: Sendable>: Sendable {
  /// The elements of each section.
  public private(set) var sections: [[Value]]
  /// The position of the last update applied; `nil` before the first snapshot.
  public private(set) var position: StreamPosition?
  /// What each section is called (``StreamSectionLabel``): one label per section, or empty when
  /// the stream labels none. Taken from snapshots and from the sections a changeset inserts or
  /// reloads; followed through section deletes, inserts and moves.
  public private(set) var labels: [StreamSectionLabel] = []
  /// The identity of an element, for checking digests (``StreamDigest``); `nil` when digests
  /// are not checked.
  private let identity: (@Sendable (Value) -> String)?
  /// Whether the elements are strings that are their own identities (no `identity` given).
  private let valueIsIdentity: Bool
  /// The hash of each section, once a digest was checked; followed through every changeset so
  /// that a digest re-hashes only the sections that changed.
  private var digestCache: DigestCache?
  /// The ``PairHash`` of each section, once a digest of kind ``StreamDigest/Kind/pairs`` was
  /// checked; followed through every changeset, where it changes the sections.
  private var pairHashes: [UInt64]?

  /// An empty mirror, waiting for a snapshot.
  ///
  /// - Parameter identity: the identity of an element, as the publisher's digests hash it
  ///   (``UpdatePublisher/init(policy:digests:identity:forwardingTo:label:value:)``). By default a
  ///   string is its own identity and an integer its decimal digits; for other values, without
  ///   `identity`, digests are not checked.
  public init(identity: (@Sendable (Value) -> String)? = nil) {
    self.sections = []
    self.position = nil
    self.identity = identity ?? defaultIdentity(Value.self)
    self.valueIsIdentity = identity == nil && Value.self == String.self
  }

  /// A mirror holding `sections` at `position` (one kept from an earlier connection).
  ///
  /// - Parameters:
  ///   - sections: the elements of each section.
  ///   - position: the position they are at.
  ///   - labels: the label of each section, or none.
  ///   - identity: the identity of an element, as for ``init(identity:)``.
  public init(
    sections: [[Value]], position: StreamPosition, labels: [StreamSectionLabel] = [],
    identity: (@Sendable (Value) -> String)? = nil
  ) {
    precondition(
      labels.isEmpty || labels.count == sections.count,
      "StreamMirror.init(sections:position:labels:identity:): \(labels.count) labels for "
        + "\(sections.count) sections (give one per section, or none)")
    self.sections = sections
    self.labels = labels
    self.position = position
    self.identity = identity ?? defaultIdentity(Value.self)
    self.valueIsIdentity = identity == nil && Value.self == String.self
  }

  /// Applies `update`, or throws and changes nothing.
  ///
  /// A changeset is applied in place: the sections it does not change are not touched, and each
  /// one it changes is edited from its first change to its last (see
  /// ``/SectionKit/Changeset/apply(to:insertedSection:newElement:newSectionCount:)``). A changeset
  /// carrying a ``StreamChangeset/digest`` of kind ``StreamDigest/Kind/pairs`` is checked before
  /// anything changes: the mirror follows the hash of each section through the changeset, where
  /// it changes it. One of kind ``StreamDigest/Kind/sequential`` (version 2) is applied to a
  /// copy of the sections it changes, and the digest of the result compared with it before the
  /// mirror takes it.
  ///
  /// - Throws: ``StreamMirrorError``: ``StreamMirrorError/noSnapshot(received:)`` for a
  ///   changeset before any snapshot, ``StreamMirrorError/gap(expected:received:)`` when a
  ///   changeset is missing, ``StreamMirrorError/outOfOrder(expected:received:)`` for a
  ///   changeset already applied or a snapshot older than the mirror (one of the mirror's own
  ///   sequence number is taken), ``StreamMirrorError/mismatch(sequence:_:)`` for a changeset or
  ///   values that do not fit the mirror, or a digest that differs from the mirror's state
  ///   (field `digest`: the mirror diverged; subscribe again for a snapshot).
  /// - Complexity: a snapshot O(1); a changeset O(c log c + s + w + t) for c changes, s sections,
  ///   w elements between the first and last change of each section it changes and t elements
  ///   after them. With digests of kind ``StreamDigest/Kind/pairs`` (version 3), plus
  ///   O(c log c) and hashing the identities around the changes (and of the sections inserted),
  ///   once the first digest hashed every section, and O(s) to compare a digest; of kind ``StreamDigest/Kind/sequential``
  ///   (version 2), plus O(e + b) for the e elements and b bytes of identities of the sections it
  ///   changes, which are copied.
  @_specialize(where Value == String)
  public mutating func apply(_ update: StreamUpdate<Value>) throws(StreamMirrorError) {
    var order = SequenceCheck(position: position)
    try order.check(update)
    switch update {
    case .snapshot(let snapshot):
      try StreamSectionLabel.checkSnapshot(
        snapshot.labels, sections: snapshot.sections.count, sequence: snapshot.sequence)
      sections = snapshot.sections
      labels = snapshot.labels
      digestCache = nil
      pairHashes = nil
    case .changeset(let update):
      for index in update.labels.keys where update.sections[index] == nil {
        throw .mismatch(
          sequence: update.sequence,
          ChangesetMismatch(
            field: "labels", value: "\(index)",
            reason: "a label for a section the changeset does not insert or reload with its "
              + "elements"))
      }
      let hasher = identity.map { ElementHasher($0, valueIsIdentity: valueIsIdentity) }
      if let hasher, update.digest?.kind == .pairs, pairHashes == nil {
        // The first digest: every section hashed once. These are the hashes of the state held,
        // kept whatever comes of the update.
        pairHashes = sections.map { PairHash.section($0, hash: hasher) }
      }
      if let hasher, pairHashes != nil, update.digest == nil || update.digest?.kind == .pairs,
        let followed = FollowedPairHashes(
          mirroring: update, from: sections, hashes: pairHashes!, hash: hasher)
      {
        // Checked before anything changes: no copy of the sections.
        if let digest = update.digest,
          !followed.matches(digest, counts: { sections[$0].count }, hashes: pairHashes!)
        {
          try Self.check(
            followed.digest(counts: { sections[$0].count }, hashes: pairHashes!), against: digest,
            sequence: update.sequence)
        }
        try Self.apply(update, to: &sections)
        digestCache?.follow(update.changeset)
        followed.apply(to: &pairHashes!)
      } else if let digest = update.digest, let identity {
        var after = sections
        try Self.apply(update, to: &after)
        // Kept only once the digest checks out.
        var cache = digestCache
        let found: StreamDigest
        if digest.kind == .pairs {
          found = StreamDigest(after, kind: .pairs, identity: identity)
          cache?.follow(update.changeset)
        } else {
          var followed = cache ?? DigestCache()
          if cache != nil { followed.follow(update.changeset) }
          found = followed.digest(of: after, identity: identity)
          cache = followed
        }
        try Self.check(found, against: digest, sequence: update.sequence)
        sections = after
        digestCache = cache
        pairHashes = digest.kind == .pairs ? found.sections.map { $0.hash } : nil
      } else {
        try Self.apply(update, to: &sections)
        digestCache?.follow(update.changeset)
        pairHashes = nil
      }
      // The changeset fits (it was applied): following the labels cannot fail.
      labels = StreamSectionLabel.follow(
        labels, through: update.changeset, newSectionCount: sections.count, new: update.labels)
    }
    order.advance(past: update)
    position = order.position
  }

  /// Throws a mismatch naming `digest` when `found` differs from `received`.
  static func check(_ found: StreamDigest, against received: StreamDigest, sequence: Int)
    throws(StreamMirrorError)
  {
    if let problem = difference(found, received) {
      throw .mismatch(
        sequence: sequence,
        ChangesetMismatch(
          field: "digest", value: problem.value,
          reason: problem.reason + ": the mirror diverged from the stream"))
    }
  }

  /// The first difference between the mirror's digest and the one received.
  static func difference(_ found: StreamDigest, _ received: StreamDigest) -> (
    value: String, reason: String
  )? {
    guard found.sections.count == received.sections.count else {
      return (
        "\(received.sections.count) sections",
        "the mirror has \(found.sections.count) sections"
      )
    }
    for (index, (mine, theirs)) in zip(found.sections, received.sections).enumerated()
    where mine != theirs {
      return (
        "section \(index): [\(theirs.count), \(StreamDigest.hex(theirs.hash))]",
        "the mirror's section \(index) is [\(mine.count), \(StreamDigest.hex(mine.hash))]"
      )
    }
    return nil
  }

  /// Applies `update` to `sections` in place, or throws and leaves them as they were.
  static func apply(_ update: StreamChangeset<Value>, to sections: inout [[Value]])
    throws(StreamMirrorError)
  {
    func mismatch(_ field: String, _ value: String, _ reason: String) -> StreamMirrorError {
      .mismatch(
        sequence: update.sequence, ChangesetMismatch(field: field, value: value, reason: reason))
    }
    let changeset = update.changeset
    // Every inserted section comes with its elements: this bounds what the applier allocates by
    // the size of the update, whatever the numbers in the changeset.
    var inserted = 0
    for range in changeset.insertedSectionRanges {
      let (sum, overflow) = inserted.addingReportingOverflow(range.count)
      inserted = sum
      guard !overflow, inserted <= update.sections.count else {
        throw mismatch(
          "insertedSections", "\(range)",
          "more sections inserted than the \(update.sections.count) sent with their elements")
      }
    }
    // The applier asks for each inserted or reloaded section once, and for each inserted element
    // and reload destination once: with no more values than that, and none missing (the
    // closures below), every value sent is one it asks for.
    let sectionsAsked = inserted + changeset.reloadedSections.count
    guard update.sections.count <= sectionsAsked else {
      throw mismatch(
        "sections", update.sections.keys.sorted().description,
        "\(update.sections.count - sectionsAsked) section(s) sent that the changeset does not "
          + "insert or reload")
    }
    let elementsAsked = changeset.insertedElements.count + changeset.reloadedElements.count
    let elementsSent = update.elementValues.count
    guard elementsSent <= elementsAsked else {
      throw mismatch(
        "elements", "\(elementsSent) values",
        "\(elementsSent - elementsAsked) value(s) sent for no inserted or reloaded element")
    }
    // The common changeset, of element changes with exactly their values, taken in the order of
    // their paths (no lookup per value); any other (or one that does not fit) as the applier
    // asks for them.
    if update.sections.isEmpty,
      changeset.applyElementChanges(
        to: &sections, newValues: update.elementValues, at: update.elementPaths)
    {
      return
    }
    let elements = update.elements
    do {
      try changeset.apply(
        to: &sections,
        insertedSection: { index in
          guard let elements = update.sections[index] else {
            throw mismatch(
              "sections", "\(index)", "the elements of new section \(index) are missing")
          }
          return elements
        },
        newElement: { path in
          guard let value = elements[path] else {
            throw mismatch(
              "elements", "[\(path[0]), \(path[1])]", "the value of the new element is missing")
          }
          return value
        })
    } catch let error as StreamMirrorError {
      throw error
    } catch let error as ChangesetMismatch {
      throw .mismatch(sequence: update.sequence, error)
    } catch {
      preconditionFailure("StreamMirror.apply(_:): unexpected error \(error)")
    }
  }
}

/// A string is its own identity, an integer its decimal digits; other values have none.
func defaultIdentity<Value>(_ type: Value.Type) -> (@Sendable (Value) -> String)? {
  if type == String.self { return { $0 as! String } }
  if type == Int.self { return { String($0 as! Int) } }
  return nil
}

extension StreamMirror: Equatable where Value: Equatable {
  /// Equal sections with equal labels at the same position.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.sections == rhs.sections && lhs.labels == rhs.labels && lhs.position == rhs.position
  }
}

/// Why a ``StreamMirror`` refused an update; the mirror is unchanged.
public enum StreamMirrorError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A changeset arrived before any snapshot.
  case noSnapshot(received: Int)
  /// A changeset is missing: the mirror is at `expected - 1`, the update is `received`.
  case gap(expected: Int, received: Int)
  /// A changeset already applied (a duplicate), or a snapshot older than the mirror: `expected`
  /// is the first sequence number that would be taken (the next changeset's; for a snapshot, the
  /// mirror's own).
  case outOfOrder(expected: Int, received: Int)
  /// The changeset, or the values sent with it, do not fit the mirror.
  case mismatch(sequence: Int, ChangesetMismatch)

  /// Whether the caller must subscribe again (from ``StreamMirror/position``) to go on: true for
  /// every case; a mismatch is a resync from scratch (no position).
  public var needsResync: Bool { true }

  /// What went wrong, with the sequence numbers.
  public var description: String {
    switch self {
    case .noSnapshot(let received):
      "changeset \(received) before any snapshot: subscribe for a snapshot"
    case .gap(let expected, let received):
      "gap: expected update \(expected), received \(received): resubscribe from \(expected &- 1)"
    case .outOfOrder(let expected, let received):
      "out of order: expected update \(expected) or later, received \(received)"
    case .mismatch(let sequence, let mismatch):
      "changeset \(sequence) does not fit the mirror: \(mismatch)"
    }
  }
}

/// The continuity rule, shared by ``StreamMirror`` and ``StreamLineDecoder``: a changeset is
/// the one after the last update; a snapshot of the same stream is not older than the last update.
///
/// A snapshot of the last update's own sequence number is the state already held (a stream's
/// state *n* is one state): applying it again is harmless, and a subscriber that resumes at the
/// position it holds may get one, so it is taken. Nothing older is: that would go back.
struct SequenceCheck {
  var position: StreamPosition?

  func check<Value>(_ update: StreamUpdate<Value>) throws(StreamMirrorError) {
    switch update {
    case .snapshot(let snapshot):
      guard let position, position.stream == snapshot.stream else { return }
      guard snapshot.sequence >= position.sequence else {
        throw .outOfOrder(expected: position.sequence, received: snapshot.sequence)
      }
    case .changeset(let changeset):
      guard let position else { throw .noSnapshot(received: changeset.sequence) }
      let (expected, overflow) = position.sequence.addingReportingOverflow(1)
      if overflow { throw .outOfOrder(expected: position.sequence, received: changeset.sequence) }
      if changeset.sequence > expected {
        throw .gap(expected: expected, received: changeset.sequence)
      }
      if changeset.sequence < expected {
        throw .outOfOrder(expected: expected, received: changeset.sequence)
      }
    }
  }

  /// The position after `update`, which passed ``check(_:)``.
  mutating func advance<Value>(past update: StreamUpdate<Value>) {
    switch update {
    case .snapshot(let snapshot):
      position = StreamPosition(stream: snapshot.stream, sequence: snapshot.sequence)
    case .changeset(let changeset): position?.sequence = changeset.sequence
    }
  }
}
