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

  /// An empty mirror, waiting for a snapshot.
  public init() {
    self.sections = []
    self.position = nil
  }

  /// A mirror holding `sections` at `position` (one kept from an earlier connection).
  public init(sections: [[Value]], position: StreamPosition) {
    self.sections = sections
    self.position = position
  }

  /// Applies `update`, or throws and changes nothing.
  ///
  /// - Throws: ``StreamMirrorError``: ``StreamMirrorError/noSnapshot(received:)`` for a
  ///   changeset before any snapshot, ``StreamMirrorError/gap(expected:received:)`` when a
  ///   changeset is missing, ``StreamMirrorError/outOfOrder(expected:received:)`` for a
  ///   changeset already applied or a snapshot older than the mirror (one of the mirror's own
  ///   sequence number is taken), ``StreamMirrorError/mismatch(sequence:_:)`` for a changeset or
  ///   values that do not fit the mirror.
  /// - Complexity: a snapshot O(1); a changeset O(c log c + s + e) for c changes, s sections and
  ///   e elements in the sections it touches.
  public mutating func apply(_ update: StreamUpdate<Value>) throws(StreamMirrorError) {
    var order = SequenceCheck(position: position)
    try order.check(update)
    switch update {
    case .snapshot(let snapshot): sections = snapshot.sections
    case .changeset(let update): sections = try Self.applying(update, to: sections)
    }
    order.advance(past: update)
    position = order.position
  }

  /// `sections` after `update`, or the reason it does not fit.
  static func applying(_ update: StreamChangeset<Value>, to sections: [[Value]])
    throws(StreamMirrorError) -> [[Value]]
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
    var mirror = sections
    var usedSections = 0
    var usedElements = 0
    do {
      try changeset.apply(
        to: &mirror,
        insertedSection: { index in
          guard let elements = update.sections[index] else {
            throw mismatch(
              "sections", "\(index)", "the elements of new section \(index) are missing")
          }
          usedSections += 1
          return elements
        },
        newElement: { path in
          guard let value = update.elements[path] else {
            throw mismatch(
              "elements", "[\(path[0]), \(path[1])]", "the value of the new element is missing")
          }
          usedElements += 1
          return value
        })
    } catch let error as StreamMirrorError {
      throw error
    } catch let error as ChangesetMismatch {
      throw .mismatch(sequence: update.sequence, error)
    } catch {
      preconditionFailure("StreamMirror.apply(_:): unexpected error \(error)")
    }
    guard usedSections == update.sections.count else {
      throw mismatch(
        "sections", update.sections.keys.sorted().description,
        "\(update.sections.count - usedSections) section(s) sent that the changeset does not insert "
          + "or reload")
    }
    guard usedElements == update.elements.count else {
      throw mismatch(
        "elements", "\(update.elements.count) values",
        "\(update.elements.count - usedElements) value(s) sent for no inserted or reloaded element")
    }
    return mirror
  }
}

extension StreamMirror: Equatable where Value: Equatable {}

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
