import Foundation
import SectionKit

extension UpdateStream {
  /// The index path, now, of the element a client addressed as `indexPath` when its mirror was
  /// at `position`: the path followed through every changeset since, as UIKit moves an element
  /// (deletes and inserts before it shift it, a move takes it along, a reload keeps it, a section
  /// move takes its elements along), and by identity where the changeset deletes an element the
  /// model kept (moved and updated in one batch: the survivors given to
  /// ``publish(_:sections:elements:survivors:state:digest:)``, which ``UpdatePublisher`` finds).
  ///
  /// This is how a server takes input from a client that may be behind: resolve the path, then
  /// act on the result (`coordinator.selectElement(at:)`, an action, …). Call it where the model lives,
  /// between batches, so that the stream's position is the model's.
  ///
  /// ```swift
  /// // The client saw "Gran" at [0, 2] at sequence 40; "Mum" was removed in 41.
  /// try stream.resolve([0, 2], at: StreamPosition(stream: stream.id, sequence: 40))  // [0, 1]
  /// ```
  ///
  /// - Throws: ``PathResolutionError``: the element is gone, the position is older than the
  ///   replay buffer (or a reload came since), the path was not valid at that position, or the
  ///   position is from another stream or the future.
  /// - Complexity: O(m · (s + c log c)) for the m changesets in the replay buffer, s sections
  ///   and c changes per changeset.
  public func resolve(_ indexPath: IndexPath, at position: StreamPosition)
    throws(PathResolutionError) -> IndexPath
  {
    let (sequence, replay, baseCounts) = state.withLock { state in
      (
        state.sequence, state.replay.elements,
        state.replay.isEmpty ? state.sections.map(\.count) : state.replayBaseCounts
      )
    }
    guard position.stream == id else {
      throw .otherStream(position.stream, current: id)
    }
    guard position.sequence <= sequence else {
      throw .future(position.sequence, current: sequence)
    }
    let first = sequence - replay.count
    guard position.sequence >= first else {
      throw .tooOld(position.sequence, oldest: first)
    }
    var counts = baseCounts
    let skipped = position.sequence - first
    for shared in replay.prefix(skipped) {
      counts = Self.counts(after: shared.update, from: counts)
    }
    guard indexPath.count == 2, counts.indices.contains(indexPath[0]),
      (0..<counts[indexPath[0]]).contains(indexPath[1])
    else {
      throw .outOfRange(indexPath, at: position.sequence, counts: counts)
    }
    var path = indexPath
    for shared in replay.dropFirst(skipped) {
      let update = shared.update
      let destination: IndexPath?
      do {
        destination = try update.changeset.destination(ofElementAt: path, oldCounts: counts)
      } catch {
        preconditionFailure(
          "UpdateStream.resolve(_:at:): published changeset \(update.sequence) does not fit the "
            + "state before it: \(error)")
      }
      // A delete of an element the model kept (moved and updated in one batch): followed by
      // identity, as the publisher recorded it.
      guard let destination = destination ?? shared.survivors[path] else {
        throw .elementGone(indexPath, at: position.sequence, removedBy: update.sequence)
      }
      path = destination
      counts = Self.counts(after: update, from: counts)
    }
    return path
  }
}

/// Why ``UpdateStream/resolve(_:at:)`` cannot say where an element is now.
public enum PathResolutionError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The element was deleted (or its section deleted or reloaded) by changeset `removedBy`; an
  /// element the changeset deletes but the model kept (moved and updated) is followed instead.
  case elementGone(IndexPath, at: Int, removedBy: Int)
  /// The position is older than the oldest the stream can follow (`oldest`): the changesets
  /// since left the replay buffer, or a reload came since.
  case tooOld(Int, oldest: Int)
  /// The path was not an element at that position; `counts` are the section counts then.
  case outOfRange(IndexPath, at: Int, counts: [Int])
  /// The position is ahead of the stream.
  case future(Int, current: Int)
  /// The position is from another stream (another run of the server).
  case otherStream(String, current: String)

  /// What went wrong, for a reply to the client.
  public var description: String {
    switch self {
    case .elementGone(let path, let sequence, let removedBy):
      "the element at \(describe(path)) in update \(sequence) was removed by update \(removedBy)"
    case .tooOld(let sequence, let oldest):
      "update \(sequence) is too old: the server follows paths from update \(oldest) on"
    case .outOfRange(let path, let sequence, let counts):
      "\(describe(path)) is not an element in update \(sequence) "
        + (counts.count <= 20
          ? "(section counts \(counts))" : "(\(counts.count) sections)")
    case .future(let sequence, let current):
      "update \(sequence) is ahead of the stream, at \(current)"
    case .otherStream(let stream, let current):
      "stream \(stream) is not this one (\(current)): take a new snapshot"
    }
  }
}

/// `[s, i]`.
func describe(_ path: IndexPath) -> String {
  "[" + path.map(String.init).joined(separator: ", ") + "]"
}
