import Foundation
import SectionKit

/// A range of rows of the presented list that a client follows: the rows it holds, out of a list
/// it sees only the counts of.
///
/// Rows are counted globally, across sections, in the order the list presents them: row 0 is
/// the first element of the first non-empty section. A window holds the rows
/// `start ..< start + length` that exist.
///
/// How the window moves with the list when nobody scrolls it (`Docs/Streaming.md`, "Windows"):
/// - **Unanchored** (the default): the window keeps the rows it starts with. After a batch it
///   starts at the first row that stayed (neither deleted nor moved) among those that were at
///   `start` or after. An insert above the window, or right at its top edge, changes the count
///   of rows before it and nothing else; a row deleted inside pulls the next one in from below;
///   a row moved across an edge leaves or enters. A window at row 0 stays at row 0, so that new
///   rows at the top of a feed show.
/// - **Anchored** (``anchor`` is an offset in the window): the row at that offset keeps its place
///   on screen: after a batch the window starts `anchor` rows above where that row went, so
///   that inserts and deletes above it, inside the window or before it, do not move it. When the
///   anchored row is deleted or moved, the window falls back to the unanchored rule for that
///   batch, and the row then at the same offset is the anchor.
///
/// A window ends at the end of the list: it holds fewer than `length` rows near the end, and
/// moving it (``WindowSubscription/move(to:)``) is how a client shows other rows.
///
/// ```swift
/// let subscription = windows.subscribe(window: StreamWindow(start: 1_000, length: 50))
/// var mirror = WindowMirror<Card>()
/// for await update in subscription { try mirror.apply(update) }
/// ```
public struct StreamWindow: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The global row of the window's first row.
  public var start: Int
  /// The number of rows the window holds at most.
  public var length: Int
  /// The offset in the window of the row the window keeps in place, or `nil` for an unanchored
  /// window.
  public var anchor: Int?

  /// Creates a window.
  ///
  /// - Precondition: `start` and `length` are 0 or more, and `anchor`, when given, is in
  ///   `0 ..< length`.
  public init(start: Int, length: Int, anchor: Int? = nil) {
    precondition(
      start >= 0 && length >= 0,
      "StreamWindow(start: \(start), length: \(length)): both must be 0 or more")
    if let anchor {
      precondition(
        (0..<length).contains(anchor),
        "StreamWindow(anchor: \(anchor)): the anchor must be an offset in 0..<\(length)")
    }
    self.start = start
    self.length = length
    self.anchor = anchor
  }

  /// `start..<start+length`, with ` anchored at n` when it is.
  public var description: String {
    "\(start)..<\(start + length)" + (anchor.map { " anchored at \($0)" } ?? "")
  }
}

/// A window's rows and what lies outside it: what a windowed subscriber gets first, and again
/// whenever it must catch up.
///
/// The rows are held per section, for every section of the list (empty for a section outside
/// the window), so that section indexes are those of the whole list.
public struct WindowSnapshot<Value: Sendable>: Sendable {
  /// The stream's identifier.
  public var stream: String
  /// The sequence number of the full stream's state shown.
  public var sequence: Int
  /// The window, where it is now.
  public var window: StreamWindow
  /// The number of elements of every section of the whole list.
  public var counts: [Int]
  /// The rows inside the window, per section: for each section, its elements in the window.
  public var rows: [[Value]]
  /// What each section of the whole list is called (``StreamSectionLabel``), as its count is
  /// given: one per section, inside the window or not, or empty when the stream labels none.
  public var labels: [StreamSectionLabel]

  /// Creates a window snapshot.
  ///
  /// - Parameters:
  ///   - stream: the stream's identifier.
  ///   - sequence: the sequence number of the full stream's state shown.
  ///   - window: the window, where it is now.
  ///   - counts: the number of elements of every section of the whole list.
  ///   - rows: the rows inside the window, per section.
  ///   - labels: the label of every section of the whole list, or none.
  public init(
    stream: String, sequence: Int, window: StreamWindow, counts: [Int], rows: [[Value]],
    labels: [StreamSectionLabel] = []
  ) {
    self.stream = stream
    self.sequence = sequence
    self.window = window
    self.counts = counts
    self.rows = rows
    self.labels = labels
  }
}

/// One batch of the full stream, clipped to a window: a ``/SectionKit/Changeset`` valid under the
/// batch rules for a data source that shows only the window's rows (every section, each holding
/// its rows inside the window), and what changed outside it.
///
/// Element index paths are the window's own: `[section, i]` is the `i`-th row of `section`
/// inside the window. Section index paths are the whole list's. A move of the full stream
/// becomes a delete and an insert here, and so does a section move whose section shows rows in
/// the window.
public struct WindowChangeset<Value: Sendable>: Sendable {
  /// The full stream's sequence number after the batch; for a window move
  /// (``WindowUpdate/moved(_:)``), the sequence number the window moved at.
  public var sequence: Int
  /// The window after the batch.
  public var window: StreamWindow
  /// The changes to the rows the window holds.
  public var changeset: Changeset
  /// The rows inside the window of each inserted or reloaded section, by its new index.
  public var sections: [Int: [Value]]
  /// The value of each inserted row and each reloaded one, by its new index path in the window.
  public var elements: [IndexPath: Value]
  /// The new number of elements of each section of the whole list whose count changed, and of
  /// each inserted or reloaded section, by new index.
  public var counts: [Int: Int]
  /// The label of each section the clipped changeset inserts or reloads that has one, by its
  /// new index (``StreamSectionLabel``), whether or not it shows rows in the window: a section
  /// the full stream moved, which the window sees as a delete and an insert, comes with its
  /// label too. The other sections keep theirs.
  public var labels: [Int: StreamSectionLabel]

  /// Creates a clipped changeset.
  ///
  /// - Parameters:
  ///   - sequence: the full stream's sequence number after the batch.
  ///   - window: the window after the batch.
  ///   - changeset: the changes to the rows the window holds.
  ///   - sections: the rows inside the window of each inserted or reloaded section.
  ///   - elements: the value of each inserted or reloaded row, by its new window path.
  ///   - counts: the new number of elements of each section whose count changed, and of each
  ///     inserted or reloaded section.
  ///   - labels: the label of each inserted or reloaded section that has one, by new index.
  public init(
    sequence: Int, window: StreamWindow, changeset: Changeset, sections: [Int: [Value]] = [:],
    elements: [IndexPath: Value] = [:], counts: [Int: Int] = [:],
    labels: [Int: StreamSectionLabel] = [:]
  ) {
    self.sequence = sequence
    self.window = window
    self.changeset = changeset
    self.sections = sections
    self.elements = elements
    self.counts = counts
    self.labels = labels
  }
}

/// What a windowed subscriber receives: a snapshot of its window first, then every batch of the
/// full stream clipped to it, and a move whenever it scrolls.
public enum WindowUpdate<Value: Sendable>: Sendable {
  /// The window's rows and the counts outside, replacing what the subscriber had.
  case snapshot(WindowSnapshot<Value>)
  /// One batch of the full stream, clipped to the window: sequence number one more than the
  /// state before.
  case changeset(WindowChangeset<Value>)
  /// The window moved (``WindowSubscription/move(to:)``): the rows that leave are deleted, the
  /// ones that enter inserted; the sequence number is the one the subscriber holds.
  case moved(WindowChangeset<Value>)

  /// The sequence number of the full stream's state after this update.
  public var sequence: Int {
    switch self {
    case .snapshot(let snapshot): snapshot.sequence
    case .changeset(let changeset), .moved(let changeset): changeset.sequence
    }
  }
}

extension WindowSnapshot: Equatable where Value: Equatable {}
extension WindowChangeset: Equatable where Value: Equatable {}
extension WindowUpdate: Equatable where Value: Equatable {}
