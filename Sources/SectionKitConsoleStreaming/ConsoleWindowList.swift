import Foundation
import SectionKit
import SectionKitConsole
import SectionKitStreaming

/// A terminal client of a remote list: follows a windowed subscription
/// (``/SectionKitStreaming/WindowedStream/subscribe(window:)``) and presents the whole list — as
/// many sections and rows as the server's — through a ``/SectionKit/Coordinator`` that a
/// ``/SectionKitConsole/ConsoleListView`` draws. Rows inside the window show their values; rows
/// outside are placeholders (`…`), so the scroll position and the section headers are those of
/// the whole list. ``windowStart(showing:)`` says where to move the window when the list scrolls.
///
/// ```swift
/// let list = ConsoleWindowList<Card>(text: \.title)
/// let view = ConsoleListView(output: StandardOutput(), size: size)
/// list.coordinator.adapter = view
/// let subscription = windows.subscribe(window: StreamWindow(start: 0, length: 3 * size.rows))
/// for await update in subscription {
///   try list.apply(update)
///   if let start = list.windowStart(showing: view.displayedIndexPaths) {
///     subscription.move(to: start)                     // scrolled near an edge: follow it
///   }
///   view.draw()
/// }
/// ```
///
/// **Following a batch.** A clipped changeset becomes one batch of the local list: the rows the
/// window deletes, inserts and reloads, at their places in their sections, and, where a section's
/// count changed outside the window, placeholders removed or added just above the window (for the
/// rows before it) or at the section's end (after it). So an insert above the window shows as a
/// row added above the screen, and the view keeps what it shows in place. A window move deletes
/// the rows that leave and inserts those that enter, each replacing a placeholder. Section
/// deletes, inserts and reloads are the batch's; a section move (only of a section the window does
/// not cross) is a delete and an insert. A snapshot replaces everything (a reload).
///
/// Every batch is checked by a ``/SectionKitStreaming/WindowMirror`` first: an update out of order
/// or that does not fit throws and changes nothing.
public final class ConsoleWindowList<Value: Sendable> {
  /// The window's state as the subscription left it: rows, counts, window, position.
  public private(set) var mirror = WindowMirror<Value>()
  /// The coordinator of the local list; attach a view to it (`coordinator.adapter = view`).
  public let coordinator: Coordinator
  /// The local list's sections, as the coordinator presents them.
  private var root = ComposedSectionProvider()
  private var sections: [WindowRowsSection<Value>] = []
  private let text: (Value) -> String
  private let title: (Int) -> String

  /// Creates an empty list, waiting for a snapshot.
  ///
  /// - Parameters:
  ///   - text: how a value is shown on one line.
  ///   - title: the title of a section, from its index when it arrives (by default
  ///     `Section <index>`).
  public init(
    text: @escaping (Value) -> String, title: @escaping (Int) -> String = { "Section \($0)" }
  ) {
    self.text = text
    self.title = title
    coordinator = Coordinator(sectionProvider: root)
  }

  /// The local list's rows, per section: the window's values and placeholders.
  public var rows: [[WindowRow<Value>]] { sections.map { Array($0) } }

  /// Applies an update of the windowed subscription to the local list, as one batch (a reload
  /// for a snapshot), or throws and changes nothing.
  ///
  /// - Throws: what ``/SectionKitStreaming/WindowMirror/apply(_:)`` throws.
  /// - Complexity: O(s + c log c + w) for s sections, c changes and w rows in the window, plus
  ///   the placeholders added or removed; a snapshot O(n) for the n rows of the list.
  public func apply(_ update: WindowUpdate<Value>) throws(StreamMirrorError) {
    let old = mirror
    try mirror.apply(update)
    switch update {
    case .snapshot:
      sections = mirror.counts.indices.map { section(at: $0) }
      root = ComposedSectionProvider()
      for (index, section) in sections.enumerated() { root.insert(section, at: index) }
      coordinator.replace(sectionProvider: root)
    case .changeset(let clipped), .moved(let clipped):
      root.performBatchUpdates { follow(clipped.changeset, from: old) }
    }
  }

  /// The start to move the window to so that it holds `displayed` (a view's
  /// ``/SectionKitConsole/ConsoleListView/displayedIndexPaths``) with room on both sides, or
  /// `nil` when the window already holds them with a quarter of its length to spare on the sides
  /// the list goes on.
  ///
  /// - Complexity: O(s + d) for s sections and d paths.
  public func windowStart(showing displayed: [IndexPath]) -> Int? {
    let offsets = Self.offsets(mirror.counts)
    let rows = displayed.compactMap { path -> Int? in
      guard path.count == 2, path[0] < mirror.counts.count else { return nil }
      return offsets[path[0]] + path[1]
    }
    guard let low = rows.min(), let high = rows.max() else { return nil }
    let window = mirror.window
    let total = offsets.last!
    let margin = window.length / 4
    let end = window.start + window.length
    let lowHeld = low >= window.start + (window.start > 0 ? margin : 0)
    let highHeld = high < end - (end < total ? margin : 0)
    if lowHeld && highHeld { return nil }
    let centred = max(0, min(low - (window.length - (high - low + 1)) / 2, total - window.length))
    return centred == window.start ? nil : centred
  }

  // MARK: Following

  private func section(at index: Int) -> WindowRowsSection<Value> {
    WindowRowsSection(layout(of: index, in: mirror), title: title(index), text: text)
  }

  /// The rows of section `index` of `mirror`: placeholders around the window's values.
  private func layout(of index: Int, in mirror: WindowMirror<Value>) -> [WindowRow<Value>] {
    let (before, inside, after) = Self.parts(of: index, in: mirror)
    return Array(repeating: .placeholder, count: before) + inside.map { .row($0) }
      + Array(repeating: .placeholder, count: after)
  }

  /// A section's rows before the window, inside it, and the number after.
  private static func parts(of index: Int, in mirror: WindowMirror<Value>) -> (Int, [Value], Int) {
    let offsets = offsets(mirror.counts)
    let count = mirror.counts[index]
    let before = min(count, max(0, mirror.window.start - offsets[index]))
    let inside = mirror.rows[index]
    return (before, inside, count - before - inside.count)
  }

  private static func offsets(_ counts: [Int]) -> [Int] {
    var offsets = [0]
    offsets.reserveCapacity(counts.count + 1)
    for count in counts { offsets.append(offsets.last! + count) }
    return offsets
  }

  /// One clipped changeset applied to the local list, inside a batch: element edits on the
  /// sections that stay, then the sections' deletes and inserts.
  private func follow(_ changeset: Changeset, from old: WindowMirror<Value>) {
    let moved = changeset.movedSections
    let deleted = changeset.deletedSections.union(IndexSet(moved.map(\.from)))
    let inserted = changeset.insertedSections.union(IndexSet(moved.map(\.to)))
    let reloaded = changeset.reloadedSections
    // The sections that stay (reloaded ones included: they keep their place among them) take the
    // new indexes not inserted, in order.
    let staying = (0..<old.counts.count).filter { !deleted.contains($0) }
    let arriving = (0..<mirror.counts.count).filter { !inserted.contains($0) }
    precondition(staying.count == arriving.count, "a clipped changeset WindowMirror accepted")
    let offsetsOld = Self.offsets(old.counts)
    let offsetsNew = Self.offsets(mirror.counts)
    var deletes: [Int: [Int]] = [:]
    var inserts: [Int: [Int]] = [:]
    var reloads: [Int: [Int]] = [:]
    for path in changeset.deletedElements { deletes[path[0], default: []].append(path[1]) }
    for path in changeset.insertedElements { inserts[path[0], default: []].append(path[1]) }
    for path in changeset.reloadedElements { reloads[path[0], default: []].append(path[1]) }
    for (oldIndex, newIndex) in zip(staying, arriving) where !reloaded.contains(oldIndex) {
      let section = sections[oldIndex]
      let oldBefore = min(old.counts[oldIndex], max(0, old.window.start - offsetsOld[oldIndex]))
      let oldAfter = old.counts[oldIndex] - oldBefore - old.rows[oldIndex].count
      let newBefore = min(
        mirror.counts[newIndex], max(0, mirror.window.start - offsetsNew[newIndex]))
      let newAfter = mirror.counts[newIndex] - newBefore - mirror.rows[newIndex].count
      let gone = Set(deletes[oldIndex] ?? [])
      let come = Set(inserts[newIndex] ?? [])
      // Reloads first, in old coordinates: the k-th row that stays takes the k-th new row that
      // was not inserted.
      if let reloadedRows = reloads[oldIndex] {
        let stayingOld = old.rows[oldIndex].indices.filter { !gone.contains($0) }
        let stayingNew = mirror.rows[newIndex].indices.filter { !come.contains($0) }
        for row in reloadedRows {
          let rank = stayingOld.firstIndex(of: row)!
          section[oldBefore + row] = .row(mirror.rows[newIndex][stayingNew[rank]])
        }
      }
      // Deletes, from the end: placeholders after the window, the window's rows, placeholders
      // just above it.
      var removed = Array(gone.map { oldBefore + $0 })
      if newAfter < oldAfter {
        removed += (old.counts[oldIndex] - (oldAfter - newAfter))..<old.counts[oldIndex]
      }
      if newBefore < oldBefore { removed += (newBefore..<oldBefore) }
      for row in removed.sorted(by: >) { section.remove(at: row) }
      // Inserts, from the start, in new coordinates.
      if newBefore > oldBefore {
        for row in oldBefore..<newBefore { section.insert(.placeholder, at: row) }
      }
      for row in come.sorted() {
        section.insert(.row(mirror.rows[newIndex][row]), at: newBefore + row)
      }
      if newAfter > oldAfter {
        for _ in 0..<(newAfter - oldAfter) { section.insert(.placeholder, at: section.count) }
      }
    }
    // Sections: reloaded ones replaced where they are, then deletes from the end, inserts from
    // the start.
    var result = sections
    for (oldIndex, newIndex) in zip(staying, arriving) where reloaded.contains(oldIndex) {
      _ = root.remove(at: oldIndex)
      let fresh = section(at: newIndex)
      root.insert(fresh, at: oldIndex)
      result[oldIndex] = fresh
    }
    for index in deleted.reversed() {
      _ = root.remove(at: index)
      result.remove(at: index)
    }
    for index in inserted {
      let fresh = section(at: index)
      root.insert(fresh, at: index)
      result.insert(fresh, at: index)
    }
    sections = result
  }
}
