import Foundation
import SectionKit

/// A point in a stream: which stream, and the sequence number of the last update seen.
///
/// A client keeps the position of its mirror (``StreamMirror/position``) and passes it to
/// ``UpdateStream/subscribe(after:)`` when it reconnects, and with the index paths it sends
/// back (``UpdateStream/resolve(_:at:)``).
public struct StreamPosition: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The stream's identifier (``UpdateStream/id``): a new one each time a publisher is created,
  /// so that a position from another run of the server is never taken for one of this run.
  public var stream: String
  /// The sequence number of the last update applied.
  public var sequence: Int

  /// Creates a position.
  public init(stream: String, sequence: Int) {
    self.stream = stream
    self.sequence = sequence
  }

  /// `stream#sequence`.
  public var description: String { "\(stream)#\(sequence)" }
}

/// Everything the model presents, as values: one array per section.
public struct StreamSnapshot<Value: Sendable>: Sendable {
  /// The stream's identifier.
  public var stream: String
  /// The sequence number of the state shown: the next changeset is `sequence + 1`.
  public var sequence: Int
  /// The elements of each section.
  public var sections: [[Value]]
  /// What each section is called (``StreamSectionLabel``): one per section, or empty when the
  /// publisher labels none.
  public var labels: [StreamSectionLabel]

  /// Creates a snapshot.
  ///
  /// - Parameters:
  ///   - stream: the stream's identifier.
  ///   - sequence: the sequence number of the state shown.
  ///   - sections: the elements of each section.
  ///   - labels: one label per section, or none.
  public init(
    stream: String, sequence: Int, sections: [[Value]], labels: [StreamSectionLabel] = []
  ) {
    self.stream = stream
    self.sequence = sequence
    self.sections = sections
    self.labels = labels
  }
}

/// One batch: a ``/SectionKit/Changeset`` in UIKit's coordinates and the new values it needs.
public struct StreamChangeset<Value: Sendable>: Sendable {
  /// The sequence number of the state after the batch: one more than the state before.
  public var sequence: Int
  /// The changes, exactly as the coordinator emitted them.
  public var changeset: Changeset
  /// The elements of each inserted or reloaded section, by its new index.
  public var sections: [Int: [Value]]
  /// The value of each inserted element and each reload destination, by new index path.
  ///
  /// The changeset holds these values in the order of their paths (as a line carries them, and
  /// as a mirror takes them: no hashing of index paths); this dictionary is built from them when
  /// read, and sorted into them when set. Read it once, not once per path.
  ///
  /// - Complexity: O(n) to read, O(n log n) to set, for n values.
  public var elements: [IndexPath: Value] {
    get { Dictionary(uniqueKeysWithValues: zip(elementPaths, elementValues)) }
    set { (elementPaths, elementValues) = Self.sortedByPath(newValue) }
  }
  /// The paths of ``elements``, ascending, each once.
  private(set) var elementPaths: [IndexPath]
  /// The values of ``elements``, in the order of ``elementPaths``.
  private(set) var elementValues: [Value]
  /// The digest of the state after the batch, when the publisher sends one
  /// (``StreamDigestPolicy``): a ``StreamMirror`` that finds another state throws
  /// ``StreamMirrorError/mismatch(sequence:_:)`` naming the field `digest`.
  public var digest: StreamDigest?
  /// The label of each inserted or reloaded section that has one, by its new index
  /// (``StreamSectionLabel``); the other sections keep theirs.
  public var labels: [Int: StreamSectionLabel]

  /// Creates a changeset update.
  ///
  /// - Parameters:
  ///   - sequence: the sequence number of the state after the batch.
  ///   - changeset: the changes.
  ///   - sections: the elements of each inserted or reloaded section, by new index.
  ///   - elements: the value of each inserted element and reload destination.
  ///   - digest: the digest of the state after the batch, if any.
  ///   - labels: the label of each inserted or reloaded section that has one, by new index.
  public init(
    sequence: Int, changeset: Changeset, sections: [Int: [Value]] = [:],
    elements: [IndexPath: Value] = [:], digest: StreamDigest? = nil,
    labels: [Int: StreamSectionLabel] = [:]
  ) {
    self.sequence = sequence
    self.changeset = changeset
    self.sections = sections
    (elementPaths, elementValues) = Self.sortedByPath(elements)
    self.digest = digest
    self.labels = labels
  }

  /// A changeset update whose new values are given in the order of their paths: `paths`
  /// ascending, each once (as a line is read), `values` one per path.
  init(
    sequence: Int, changeset: Changeset, sections: [Int: [Value]], paths: [IndexPath],
    values: [Value], digest: StreamDigest?, labels: [Int: StreamSectionLabel]
  ) {
    assert(
      paths.count == values.count && zip(paths, paths.dropFirst()).allSatisfy { $0 < $1 },
      "StreamChangeset: \(values.count) values at \(paths.count) paths, or not ascending")
    self.sequence = sequence
    self.changeset = changeset
    self.sections = sections
    self.elementPaths = paths
    self.elementValues = values
    self.digest = digest
    self.labels = labels
  }

  /// The paths and values of `elements`, in the order of the paths: compared as two integers
  /// when every path is `[section, element]` (comparing `IndexPath`s costs a call into
  /// Foundation for each index), as `IndexPath`s otherwise.
  static func sortedByPath(_ elements: [IndexPath: Value]) -> ([IndexPath], [Value]) {
    var pairs: [(section: Int, item: Int)] = []
    pairs.reserveCapacity(elements.count)
    var paths: [IndexPath] = []
    paths.reserveCapacity(elements.count)
    var values: [Value] = []
    values.reserveCapacity(elements.count)
    var allPairs = true
    for (path, value) in elements {
      if allPairs, path.count == 2 { pairs.append((path[0], path[1])) } else { allPairs = false }
      paths.append(path)
      values.append(value)
    }
    let order =
      allPairs
      ? paths.indices.sorted {
        (pairs[$0].section, pairs[$0].item) < (pairs[$1].section, pairs[$1].item)
      }
      : paths.indices.sorted { paths[$0] < paths[$1] }
    return (order.map { paths[$0] }, order.map { values[$0] })
  }
}

/// What a subscriber receives: a snapshot (first, and whenever it must catch up), then every
/// changeset in order.
public enum StreamUpdate<Value: Sendable>: Sendable {
  /// Everything, replacing what the subscriber had.
  case snapshot(StreamSnapshot<Value>)
  /// One batch, to apply to the state of sequence number `sequence - 1`.
  case changeset(StreamChangeset<Value>)

  /// The sequence number of the state after this update.
  public var sequence: Int {
    switch self {
    case .snapshot(let snapshot): snapshot.sequence
    case .changeset(let changeset): changeset.sequence
    }
  }
}

extension StreamSnapshot: Equatable where Value: Equatable {}
extension StreamChangeset: Equatable where Value: Equatable {}
extension StreamUpdate: Equatable where Value: Equatable {}
