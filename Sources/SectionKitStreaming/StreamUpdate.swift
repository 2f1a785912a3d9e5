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
  public var elements: [IndexPath: Value]
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
    self.elements = elements
    self.digest = digest
    self.labels = labels
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
