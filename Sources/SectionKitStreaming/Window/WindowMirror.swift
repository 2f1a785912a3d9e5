import Foundation
import SectionKit

/// A client's copy of a window of a list (``StreamWindow``): the rows inside, the counts of every
/// section, and the rows before and after, kept in step with a windowed subscription
/// (``WindowedStream/subscribe(window:)``).
///
/// ```swift
/// var mirror = WindowMirror<Card>()
/// for await update in windows.subscribe(window: StreamWindow(start: 0, length: 40)) {
///   try mirror.apply(update)
///   draw(mirror.rows, scrollBar: (mirror.before, mirror.after))
/// }
/// ```
///
/// Like ``StreamMirror``, it takes a snapshot first, then each changeset in order (a window move
/// at the sequence number it holds), and throws a ``StreamMirrorError`` and changes nothing for
/// an update that is out of order or does not fit.
public struct WindowMirror<Value: Sendable>: Sendable {
  /// The rows inside the window, per section of the whole list (empty for a section outside it).
  public private(set) var rows: [[Value]] = []
  /// The number of elements of every section of the whole list.
  public private(set) var counts: [Int] = []
  /// What each section of the whole list is called (``StreamSectionLabel``): one label per
  /// section, as ``counts``, or empty when the stream labels none. Taken from snapshots and from
  /// the sections a changeset inserts or reloads, followed through section deletes, inserts and
  /// moves, as ``StreamMirror/labels`` are.
  public private(set) var labels: [StreamSectionLabel] = []
  /// Where the window is.
  public private(set) var window = StreamWindow(start: 0, length: 0)
  /// The position of the last update applied; `nil` before the first snapshot.
  public private(set) var position: StreamPosition?

  /// An empty mirror, waiting for a snapshot.
  public init() {}

  /// The number of rows of the list before the window.
  public var before: Int { window.start }
  /// The number of rows of the list after the window.
  public var after: Int { counts.reduce(0, +) - window.start - rows.reduce(0) { $0 + $1.count } }

  /// The rows inside the window, in order, across sections.
  public var flattened: [Value] { rows.flatMap { $0 } }

  /// The element index, in its section of the whole list, of the window's row `[section, i]`:
  /// `i` plus the section's rows before the window.
  ///
  /// - Complexity: O(s) for s sections.
  public func item(atWindowRow path: IndexPath) -> Int {
    let offsets = RowFollower.offsets(counts)
    return path.item + max(0, window.start - offsets[path.section])
  }

  /// Applies `update`, or throws and changes nothing.
  ///
  /// - Throws: ``StreamMirrorError``: ``StreamMirrorError/noSnapshot(received:)`` before any
  ///   snapshot, ``StreamMirrorError/gap(expected:received:)`` or
  ///   ``StreamMirrorError/outOfOrder(expected:received:)`` for an update out of order,
  ///   ``StreamMirrorError/mismatch(sequence:_:)`` for one that does not fit what the mirror
  ///   holds, or leaves rows that are not the window's.
  /// - Complexity: O(s + c log c + w) for s sections, c changes and w rows in the window.
  public mutating func apply(_ update: WindowUpdate<Value>) throws(StreamMirrorError) {
    switch update {
    case .snapshot(let snapshot):
      if let position, position.stream == snapshot.stream, snapshot.sequence < position.sequence {
        throw .outOfOrder(expected: position.sequence + 1, received: snapshot.sequence)
      }
      try Self.check(
        rows: snapshot.rows, counts: snapshot.counts, window: snapshot.window,
        sequence: snapshot.sequence)
      try StreamSectionLabel.checkSnapshot(
        snapshot.labels, sections: snapshot.counts.count, sequence: snapshot.sequence)
      rows = snapshot.rows
      counts = snapshot.counts
      labels = snapshot.labels
      window = snapshot.window
      position = StreamPosition(stream: snapshot.stream, sequence: snapshot.sequence)
    case .changeset(let changeset), .moved(let changeset):
      guard let position else { throw .noSnapshot(received: changeset.sequence) }
      let expected = position.sequence + (update.isMove ? 0 : 1)
      if changeset.sequence < expected {
        throw .outOfOrder(expected: expected, received: changeset.sequence)
      }
      if changeset.sequence > expected {
        throw .gap(expected: expected, received: changeset.sequence)
      }
      try apply(changeset)
      self.position = StreamPosition(stream: position.stream, sequence: changeset.sequence)
    }
  }

  private mutating func apply(_ update: WindowChangeset<Value>) throws(StreamMirrorError) {
    func mismatch(_ field: String, _ value: String, _ reason: String) -> StreamMirrorError {
      .mismatch(
        sequence: update.sequence, ChangesetMismatch(field: field, value: value, reason: reason))
    }
    let sectionsOnly = Changeset(
      deletedSections: update.changeset.deletedSections,
      insertedSections: update.changeset.insertedSections,
      reloadedSections: update.changeset.reloadedSections,
      movedSections: update.changeset.movedSections)
    guard
      let routes = SectionRoutes(
        sectionsOnly, oldCount: counts.count,
        newCount: counts.count - sectionsOnly.deletedSections.count
          + sectionsOnly.insertedSections.count)
    else { throw mismatch("sections", "\(update.changeset)", "does not fit the sections held") }
    for index in update.labels.keys.sorted() {
      guard routes.newToOld.indices.contains(index),
        routes.newToOld[index].map({ routes.reloaded.contains($0) }) ?? true
      else {
        throw mismatch(
          "labels", "\(index)", "a label for a section the changeset does not insert or reload")
      }
    }
    var newCounts: [Int] = []
    newCounts.reserveCapacity(routes.newToOld.count)
    for (new, old) in routes.newToOld.enumerated() {
      if let count = update.counts[new] {
        guard count >= 0 else { throw mismatch("counts", "\(new): \(count)", "is negative") }
        newCounts.append(count)
      } else if let old, !routes.reloaded.contains(old),
        !sectionsOnly.insertedSections.contains(new)
      {
        newCounts.append(counts[old])
      } else {
        throw mismatch("counts", "\(new)", "is missing for an inserted or reloaded section")
      }
    }
    var newRows = rows
    do {
      try update.changeset.apply(
        to: &newRows, insertedSection: { update.sections[$0] ?? [] },
        newElement: { path in
          guard let value = update.elements[path] else {
            throw ChangesetMismatch(
              field: "elements", value: "\(path)", reason: "no value for an inserted row")
          }
          return value
        }, newSectionCount: newCounts.count)
    } catch let error as ChangesetMismatch {
      throw .mismatch(sequence: update.sequence, error)
    } catch {
      throw mismatch("changeset", "\(update.changeset)", "\(error)")
    }
    try Self.check(
      rows: newRows, counts: newCounts, window: update.window, sequence: update.sequence)
    // The changeset fits (it was applied): following the labels cannot fail.
    labels = StreamSectionLabel.follow(
      labels, through: update.changeset, newSectionCount: newCounts.count, new: update.labels)
    rows = newRows
    counts = newCounts
    window = update.window
  }

  /// Checks that `rows` are as many, per section, as the window holds of `counts`.
  private static func check(rows: [[Value]], counts: [Int], window: StreamWindow, sequence: Int)
    throws(StreamMirrorError)
  {
    let offsets = RowFollower.offsets(counts)
    let end = min(window.start + window.length, offsets.last!)
    guard rows.count == counts.count, window.start <= offsets.last! else {
      throw .mismatch(
        sequence: sequence,
        ChangesetMismatch(
          field: "window", value: "\(window)",
          reason: "does not fit \(counts.count) sections of \(offsets.last!) rows"))
    }
    for section in counts.indices {
      let inside = WindowClipper.rows(
        ofSection: section, offsets: offsets, start: window.start, end: end)
      guard rows[section].count == inside.count else {
        throw .mismatch(
          sequence: sequence,
          ChangesetMismatch(
            field: "rows", value: "section \(section): \(rows[section].count)",
            reason: "the window holds \(inside.count) rows of it"))
      }
    }
  }
}

extension WindowUpdate {
  var isMove: Bool {
    if case .moved = self { return true }
    return false
  }
}

extension WindowMirror: Equatable where Value: Equatable {}
