import Foundation

/// The selection a ``Coordinator`` keeps: for each section object, its selected local indexes in
/// the coordinates the adapter shows, ascending; and the indexes being handed out to handlers or
/// the adapter (``TrackedIndexes``), kept current through every changeset.
///
/// A value with no handler calls in it: the coordinator owns one, asks it what changed, and makes
/// the calls. It follows a changeset exactly as a collection view's selection does.
struct SelectionState {
  /// The selected elements of one section, ascending.
  struct Entry {
    var section: any SelectionHandler
    var indexes: [Int]
  }

  /// The selection, by section identity.
  private(set) var entries: [ObjectIdentifier: Entry] = [:]
  /// Local indexes kept current through every changeset while they wait to be handed out.
  private(set) var tracked: [TrackedIndexes] = []
  /// What ``remap(through:survivors:sectionAt:)`` did with selected elements that moved to
  /// another section, since ``takeMovedAcross()``: those whose selection followed them (their new
  /// section and index), and the new paths of those whose selection could not.
  private(set) var movedAcross:
    (followed: [(section: any SelectionHandler, index: Int)], lost: [IndexPath]) = ([], [])

  /// Whether nothing is selected.
  var isEmpty: Bool { entries.isEmpty }

  /// The selected indexes of `section`, ascending.
  func indexes(of section: any Section) -> [Int] {
    entries[ObjectIdentifier(section)]?.indexes ?? []
  }

  /// Whether element `index` of `section` is selected.
  ///
  /// - Complexity: O(log s).
  func contains(_ section: any Section, _ index: Int) -> Bool {
    guard let indexes = entries[ObjectIdentifier(section)]?.indexes else { return false }
    let position = indexes.partitioningIndex { $0 >= index }
    return position < indexes.count && indexes[position] == index
  }

  // MARK: Changing it

  /// Selects `index` of `handler`; in a single-selection section the previous elements leave.
  /// Returns them.
  ///
  /// - Complexity: O(s) for s selected elements of the section.
  mutating func insert(_ index: Int, of handler: any SelectionHandler) -> [Int] {
    let key = ObjectIdentifier(handler)
    var entry = entries[key] ?? Entry(section: handler, indexes: [])
    var previous: [Int] = []
    if handler.allowsMultipleSelection {
      let position = entry.indexes.partitioningIndex { $0 >= index }
      if position == entry.indexes.count || entry.indexes[position] != index {
        entry.indexes.insert(index, at: position)
      }
    } else {
      previous = entry.indexes.filter { $0 != index }
      entry.indexes = [index]
    }
    entries[key] = entry
    return previous
  }

  /// Selects every index in `0..<count` of `handler`; returns those that were not selected.
  mutating func selectAll(of handler: any SelectionHandler, count: Int) -> [Int] {
    let already = Set(indexes(of: handler))
    let added = (0..<count).filter { !already.contains($0) }
    guard !added.isEmpty else { return [] }
    entries[ObjectIdentifier(handler)] = Entry(section: handler, indexes: Array(0..<count))
    return added
  }

  /// Deselects those of `indexes` that are selected in `handler`; returns them, ascending.
  mutating func remove(_ indexes: [Int], of handler: any SelectionHandler) -> [Int] {
    let key = ObjectIdentifier(handler)
    guard var entry = entries[key] else { return [] }
    let removing = Set(indexes)
    let removed = entry.indexes.filter { removing.contains($0) }
    guard !removed.isEmpty else { return [] }
    entry.indexes.removeAll { removing.contains($0) }
    entries[key] = entry.indexes.isEmpty ? nil : entry
    return removed
  }

  /// Forgets the selection of every section not in `shown` (a reload after sections left while
  /// it was owed: they are told nothing, their changes having reached no coordinator), and where
  /// their tracked indexes are (they become `nil`).
  ///
  /// - Complexity: O(n + s) for n sections shown and s sections with a selection or tracked
  ///   indexes.
  mutating func forgetSections(notIn shown: some Sequence<any Section>) {
    guard !entries.isEmpty || !tracked.isEmpty else { return }
    let kept = Set(shown.lazy.map { ObjectIdentifier($0) })
    entries = entries.filter { kept.contains($0.key) }
    for item in tracked where !kept.contains(ObjectIdentifier(item.section)) {
      item.indexes = item.indexes.map { _ in nil }
    }
  }

  /// Clears the selection (a reload): returns what was selected, and forgets where the tracked
  /// indexes are (they become `nil`).
  mutating func removeAll() -> [(section: any SelectionHandler, index: Int)] {
    for item in tracked { item.indexes = item.indexes.map { _ in nil } }
    let removed = entries.values.flatMap { entry in entry.indexes.map { (entry.section, $0) } }
    entries = [:]
    return removed
  }

  // MARK: Tracking indexes being handed out

  /// Starts keeping `indexes` of `section` current through changesets.
  mutating func track(_ section: any Section, _ indexes: [Int]) -> TrackedIndexes {
    let item = TrackedIndexes(section: section, indexes: indexes)
    tracked.append(item)
    return item
  }

  /// Stops keeping `item` current.
  mutating func untrack(_ item: TrackedIndexes) {
    tracked.removeAll { $0 === item }
  }

  // MARK: Following changes

  /// Follows `changeset`, whose old section `s` is `sectionAt(s)`: deleted sections and elements
  /// leave the selection (they are returned, with the index they had before the batch), moved
  /// elements go to their destination, reloaded and reconfigured elements to where UIKit lands a
  /// reload (rule B3, ``Changeset/reloadedElementDestinations``), every other selected or tracked
  /// element to the slot UIKit gives it: ``ChangesetPositions`` answers where each goes. A selected element moved
  /// to another section leaves its section's selection (it is returned) and joins the other's
  /// where that section can hold it (``movedAcross``).
  ///
  /// - Complexity: O(k log k + s log k) for k operations in the changeset and s selected or
  ///   tracked elements in the sections it touches.
  ///
  /// `survivors` (old path → new path, in the same section object) are deleted elements that
  /// survived the batch — updated and moved, hence a delete plus an insert, or in a section that
  /// is deleted and inserted (moved and changed): they follow like moves.
  mutating func remap(
    through changeset: Changeset, survivors: [IndexPath: IndexPath] = [:],
    sectionAt: (Int) -> any Section
  )
    -> [(section: any SelectionHandler, index: Int)]
  {
    guard !entries.isEmpty || !tracked.isEmpty else { return [] }
    var deselected: [(section: any SelectionHandler, index: Int)] = []
    var trackedBySection: [ObjectIdentifier: [TrackedIndexes]] = [:]
    for item in tracked {
      trackedBySection[ObjectIdentifier(item.section), default: []].append(item)
    }
    // Deleted and reloaded sections leave the selection whole (a reload replaces every cell),
    // but for the elements `survivors` names (a section moved and changed is a delete and an
    // insert): they follow to their new index.
    var rejoining: [(section: any SelectionHandler, index: Int)] = []
    defer {
      for (section, index) in rejoining {
        let key = ObjectIdentifier(section)
        var entry = entries[key] ?? Entry(section: section, indexes: [])
        entry.indexes.insert(index, at: entry.indexes.partitioningIndex { $0 >= index })
        entries[key] = entry
      }
    }
    for range in changeset.deletedSectionRanges + changeset.reloadedSectionRanges {
      for old in range {
        let key = ObjectIdentifier(sectionAt(old))
        let untold = settleTells(
          trackedBySection[key] ?? [],
          leaving: { survivors[IndexPath(item: $0, section: old)] == nil },
          deselected: &deselected)
        if let entry = entries.removeValue(forKey: key) {
          for index in entry.indexes {
            if let new = survivors[IndexPath(item: index, section: old)] {
              rejoining.append((entry.section, new[1]))
            } else if !untold.contains(index) {
              deselected.append((entry.section, index))
            }
          }
        }
        for item in trackedBySection[key] ?? [] {
          item.indexes = item.indexes.map { index in
            index.flatMap { survivors[IndexPath(item: $0, section: old)]?[1] }
          }
        }
      }
    }
    guard
      !(changeset.deletedElements.isEmpty && changeset.insertedElements.isEmpty
        && changeset.movedElements.isEmpty)
    else { return deselected }

    // The old sections whose elements change place: an element leaves them or arrives in them.
    let positions = ChangesetPositions(changeset)
    var touched: Set<Int> = []
    func touch(old section: Int?) {
      guard let section else { return }
      let key = ObjectIdentifier(sectionAt(section))
      if entries[key] != nil || trackedBySection[key] != nil { touched.insert(section) }
    }
    for path in changeset.deletedElements { touch(old: path[0]) }
    for path in changeset.reloadedElements { touch(old: path[0]) }
    for path in changeset.reconfiguredElements { touch(old: path[0]) }
    for move in changeset.movedElements {
      touch(old: move.from[0])
      touch(old: positions.oldSection(ofNew: move.to[0]))
    }
    for path in changeset.insertedElements { touch(old: positions.oldSection(ofNew: path[0])) }
    // Selected elements moved to another section, with the old section they arrive in.
    var crossing: [(to: IndexPath, destination: Int)] = []
    for old in touched {
      guard !positions.isReloaded(section: old), let newSection = positions.newSection(ofOld: old)
      else { continue }
      let key = ObjectIdentifier(sectionAt(old))
      // Where an element goes in its section: a survivor the changeset lists as a delete (and
      // an insert) follows like a move; one that goes to another section leaves it.
      func follow(_ index: Int) -> Int? {
        let path = IndexPath(item: index, section: old)
        if let survivor = survivors[path] { return survivor[1] }
        guard let new = positions.newPath(ofOld: path), new[0] == newSection else { return nil }
        return new[1]
      }
      let untold = settleTells(
        trackedBySection[key] ?? [], leaving: { follow($0) == nil }, deselected: &deselected)
      if var entry = entries[key] {
        var remapped: [Int] = []
        remapped.reserveCapacity(entry.indexes.count)
        for index in entry.indexes {
          if let destination = follow(index) {
            remapped.append(destination)
            continue
          }
          if !untold.contains(index) { deselected.append((entry.section, index)) }
          // To another section: it leaves its section's selection (the section hears
          // `didDeselect`), and arrives in the other one as an insert would.
          if let new = positions.newPath(ofOld: IndexPath(item: index, section: old)),
            let destination = positions.oldSection(ofNew: new[0])
          {
            crossing.append((new, destination))
          }
        }
        remapped.sort()
        entry.indexes = remapped
        entries[key] = remapped.isEmpty ? nil : entry
      }
      for item in trackedBySection[key] ?? [] {
        item.indexes = item.indexes.map { $0.flatMap(follow) }
      }
    }
    // The selection follows an element into another section that can hold it: a selection
    // handler that allows several, or has none yet.
    for (to, destination) in crossing {
      let key = ObjectIdentifier(sectionAt(destination))
      guard let handler = sectionAt(destination) as? any SelectionHandler,
        handler.allowsMultipleSelection || entries[key] == nil
      else {
        movedAcross.lost.append(to)
        continue
      }
      var entry = entries[key] ?? Entry(section: handler, indexes: [])
      entry.indexes.insert(to[1], at: entry.indexes.partitioningIndex { $0 >= to[1] })
      entries[key] = entry
      movedAcross.followed.append((handler, to[1]))
    }
    return deselected
  }

  /// Before the tracked indexes `items` of one section follow a changeset in which the elements
  /// `leaving` says leave: the selections still to be told of such elements are returned (their
  /// section never heard them selected, so it hears no deselect either), and the deselections
  /// still to be told of them join `deselected` at their old index (the section heard them
  /// selected; the pending call, whose index becomes `nil`, will not tell it).
  ///
  /// - Complexity: O(t) for t tracked indexes of the section.
  private func settleTells(
    _ items: [TrackedIndexes], leaving: (Int) -> Bool,
    deselected: inout [(section: any SelectionHandler, index: Int)]
  ) -> Set<Int> {
    var untold: Set<Int> = []
    for item in items {
      guard let selected = item.tells else { continue }
      for case let index? in item.indexes where leaving(index) {
        if selected {
          untold.insert(index)
        } else if let handler = item.section as? any SelectionHandler {
          deselected.append((handler, index))
        }
      }
    }
    return untold
  }

  /// Returns and forgets ``movedAcross``.
  mutating func takeMovedAcross() -> (
    followed: [(section: any SelectionHandler, index: Int)], lost: [IndexPath]
  ) {
    defer { movedAcross = ([], []) }
    return movedAcross
  }

  /// Follows a move the adapter made in `section`: one element from `from` to `to`.
  mutating func remapMove(in section: any Section, from: Int, to: Int) {
    func moved(_ index: Int) -> Int {
      if index == from { return to }
      if from < index && index <= to { return index - 1 }
      if to <= index && index < from { return index + 1 }
      return index
    }
    let key = ObjectIdentifier(section)
    for item in tracked where ObjectIdentifier(item.section) == key {
      item.indexes = item.indexes.map { $0.map(moved) }
    }
    guard var entry = entries[key] else { return }
    entry.indexes = entry.indexes.map(moved).sorted()
    entries[key] = entry
  }
}

/// Local indexes of one section that the coordinator is about to hand to a handler or an
/// adapter, kept in presented coordinates: each changeset applied meanwhile (a handler or the
/// adapter may change the model before its turn comes) remaps them, and an element that is
/// deleted — or a reload — makes its index `nil`.
final class TrackedIndexes {
  let section: any Section
  var indexes: [Int?]
  /// For the selections (`true`) or deselections (`false`) still to be told to `section`: each
  /// index becomes `nil` once told. `nil` for other tracked indexes.
  var tells: Bool?

  init(section: any Section, indexes: [Int]) {
    self.section = section
    self.indexes = indexes
  }
}
