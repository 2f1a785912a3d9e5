import Foundation

/// The read-off: the trees of a batch turned into one changeset, and what the adapter shows
/// after it.
extension BatchReducer {
  /// Reads the trees off into a changeset, and what the adapter shows after it. `mapping` must
  /// present the model as it is at the end of the batch.
  mutating func finish(mapping: SectionProviderMapping) -> PresentedState.Commit {
    if !hasTrees { return finishSingle(mapping: mapping) }
    var changeset = spareLists.take() ?? ChangesetDraft()
    #if SECTIONKIT_INTERNAL_CHECKS
      precondition(
        changeset.isEmpty, "BatchReducer: the lists kept for a read-off hold an earlier changeset's"
      )
    #endif
    sortTouched()
    let touched = self.touched

    // Edited old sections that stay, neither deleted nor reloaded as a whole, by old index.
    var edited = ReadOffBuffers.take(&buffers.edited)
    defer { buffers.edited = edited }
    // Section moves and reloads (old, new).
    var moves: [Changeset.SectionMove] = []
    var reloads: [(old: Int, new: Int)] = []
    if sectionsTouched {
      readSections(
        touched: touched, edited: &edited, moves: &moves, reloads: &reloads,
        into: &changeset)
    } else {
      // No section event: every section is where it was.
      edited.reserveCapacity(touched.count)
      for entry in touched {
        edited.append(Edited(old: entry.old, new: entry.old, edits: entry.edits))
      }
    }

    // Element reloads land in the section B3 computes from the explicit section deletes and
    // inserts, moves ignored: where that is not the section's new index, they are deleted and
    // inserted.
    let reloadSections =
      moves.isEmpty
      ? nil
      : SlotMap(
        removedRanges: changeset.deletedSectionRanges,
        fixedRanges: changeset.insertedSectionRanges)
    var recounted: [PresentedState.Recount] = []
    swap(&recounted, &spareRecounted)
    recounted.reserveCapacity(edited.count)
    reserveElementCapacity(in: &changeset, for: edited)
    for entry in edited {
      let impliedCount: Int
      if let reloadSections {
        var changes = ChangesetDraft()
        let reloadsLand = UIKitConversions.elementReloadsLand(
          inSection: entry.old, now: entry.new, sections: reloadSections)
        impliedCount = readElements(
          entry.edits, of: entry.old, at: entry.new, reloadsLand: reloadsLand, into: &changes)
        if !reloadsLand {
          UIKitConversions.elementReloadsInDisplacedSection(in: &changes, newSection: entry.new)
        }
        changeset.deletedElements += changes.deletedElements
        changeset.insertedElements += changes.insertedElements
        changeset.reloadedElements += changes.reloadedElements
        changeset.movedElements += changes.movedElements
      } else {
        impliedCount = readElements(entry.edits, of: entry.old, at: entry.new, into: &changeset)
      }
      // The count the events imply, as the single-change path derives it: asking each section
      // for its count is a call through an existential, as costly as reading a change off.
      let newCount = impliedCount
      #if SECTIONKIT_INTERNAL_CHECKS
        let modelCount = mapping.section(at: entry.new).numberOfElements
        precondition(
          modelCount == impliedCount,
          "Coordinator: section \(entry.new) holds \(modelCount) elements but its events add up "
            + "to \(impliedCount)")
      #endif
      if newCount != oldCounts[entry.old] {
        recounted.append(.init(index: entry.new, count: newCount))
      }
    }
    if sectionsTouched {
      Self.sortByPath(&changeset.deletedElements)
      Self.sortByPath(&changeset.insertedElements)
      Self.sortByPath(&changeset.reloadedElements)
    } else {
      // Every section is where it was, read off in order, and each one's lists are ascending
      // (``reduceElements(_:oldSection:oldCount:newSection:buffers:into:)``): already sorted.
      #if SECTIONKIT_INTERNAL_CHECKS
        for list in [
          changeset.deletedElements, changeset.insertedElements,
          changeset.reloadedElements,
        ] {
          precondition(
            list.indices.dropFirst().allSatisfy { Self.precedes(list[$0 - 1], list[$0]) },
            "BatchReducer: element paths read off out of order: \(list)")
        }
      #endif
    }
    if !changeset.movedElements.isEmpty
      && !changeset.movedElements.indices.dropFirst().allSatisfy({ index in
        Self.precedes(changeset.movedElements[index - 1].to, changeset.movedElements[index].to)
      })
    {
      changeset.movedElements.sort { Self.precedes($0.to, $1.to) }
    }
    var commit = PresentedState.Commit(
      changeset: Changeset(taking: &changeset, box: spareBox.take()), deleted: [],
      recounted: recounted)
    // The lists taken leave empty ones (the box's, emptied when it was kept) for the next batch.
    spareLists = consume changeset
    guard sectionsTouched else { return commit }

    // What the adapter shows: moved and reloaded sections leave and arrive like the others.
    commit.deleted = SlotMap.merged(
      commit.changeset.deletedSectionRanges + commit.changeset.reloadedSectionRanges
        + moves.map { $0.from..<$0.from + 1 })
    let arriving = SlotMap.merged(
      commit.changeset.insertedSectionRanges + reloads.map { $0.new..<$0.new + 1 }
        + moves.map { $0.to..<$0.to + 1 })
    for range in arriving {
      for index in range {
        let section = mapping.section(at: index)
        commit.inserted.append(
          .init(index: index, section: section, count: section.numberOfElements))
      }
    }
    return commit
  }

  /// Sorts ``touched`` by old section (the positions in ``touchedIndex`` are not needed any
  /// more: the read-off follows). Sorted in place, as plain values.
  mutating func sortTouched() {
    touchedIsSorted = true
    guard
      !touched.indices.dropFirst().allSatisfy({ touched[$0 - 1].old < touched[$0].old })
    else { return }
    // Old indexes are unique, so an unstable sort gives the same order, with no merge buffer.
    touched.withUnsafeMutableBufferPointer { $0.sortUnstably { $0.old } }
  }

  /// Reserves room in `changeset`'s element lists for what the sections `edited` read off, so
  /// that they grow once: exactly for a section with one change; for one with a tree, at most one
  /// delete and one insert for each event of the batch that is not a section's only change.
  mutating func reserveElementCapacity(
    in changeset: inout ChangesetDraft, for edited: [Edited]
  ) {
    var (deletes, inserts, reloads, moves, singles) = (0, 0, 0, 0, 0)
    for entry in edited {
      guard case .single(let change) = entry.edits else { continue }
      singles += 1
      switch change {
      case .insert: inserts += 1
      case .remove: deletes += 1
      case .update, .reconfigure: reloads += 1
      case .move(let from, let to): if from != to { moves += 1 }
      }
    }
    // Events in trees: every event but the sections' only changes.
    let inTrees = singles == edited.count ? 0 : events.rest.count + 1 - singles
    func reserve<T>(_ list: inout [T], _ count: Int) {
      if count > 0 { list.reserveCapacity(list.count + count) }
    }
    reserve(&changeset.deletedElements, deletes + inTrees)
    reserve(&changeset.insertedElements, inserts + inTrees)
    // Reloads and moves are rarer in trees: room for them only in a list allocated anyway.
    reserve(&changeset.reloadedElements, reloads > 0 ? reloads + inTrees : 0)
    reserve(&changeset.movedElements, moves > 0 ? moves + inTrees : 0)
  }

  /// Whether `a` comes before `b` (section first, then item): what
  /// `lexicographicallyPrecedes` answers for two-index paths, without iterating them.
  static func precedes(_ a: IndexPath, _ b: IndexPath) -> Bool {
    let (sectionA, sectionB) = (a[0], b[0])
    return sectionA != sectionB ? sectionA < sectionB : a[1] < b[1]
  }

  /// Sorts `list` unless it already is.
  static func sortIfNeeded(_ list: inout [Int]) {
    if !list.indices.dropFirst().allSatisfy({ list[$0 - 1] < list[$0] }) { list.sort() }
  }

  /// Sorts `paths` by section, then item, unless they already are (the usual case: sections are
  /// read off in order).
  static func sortByPath(_ paths: inout [IndexPath]) {
    guard paths.count > 1,
      !paths.indices.dropFirst().allSatisfy({ precedes(paths[$0 - 1], paths[$0]) })
    else { return }
    paths.sort(by: precedes)
  }

  /// The changeset part of the only change to an old section's elements.
  static func readOff<Changes: ChangesetElementLists>(
    _ change: ElementChange, oldSection: Int, newSection: Int, into changeset: inout Changes
  ) {
    switch change {
    case .insert(let index):
      changeset.insertedElements.append(IndexPath(item: index, section: newSection))
    case .remove(let index):
      changeset.deletedElements.append(IndexPath(item: index, section: oldSection))
    case .update(let index), .reconfigure(let index):
      changeset.reloadedElements.append(IndexPath(item: index, section: oldSection))
    case .move(let from, let to):
      guard from != to else { return }
      changeset.movedElements.append(
        .init(
          from: IndexPath(item: from, section: oldSection),
          to: IndexPath(item: to, section: newSection)))
    }
  }

  /// How a change alters a section's count.
  static func countDelta(of change: ElementChange) -> Int {
    switch change {
    case .insert: 1
    case .remove: -1
    case .update, .reconfigure, .move: 0
    }
  }

  /// A batch of at most one event, read off directly.
  mutating func finishSingle(mapping: SectionProviderMapping) -> PresentedState.Commit {
    var commit = PresentedState.Commit(changeset: Changeset(), deleted: [])
    guard let event = first else { return commit }
    switch event {
    case .willBeginUpdating, .didEndUpdating, .invalidateAll, .moveSection, .reloadSections:
      break
    case .insertSections(let indexes):
      commit.changeset.insertedSectionRanges = Array(indexes.rangeView)
      for index in indexes {
        let section = mapping.section(at: index)
        commit.inserted.append(
          .init(index: index, section: section, count: section.numberOfElements))
      }
    case .removeSections(let indexes):
      commit.changeset.deletedSectionRanges = Array(indexes.rangeView)
      commit.deleted = commit.changeset.deletedSectionRanges
    case .element(.reconfigure(let index), let section):
      commit.changeset.reconfiguredElements = [IndexPath(item: index, section: section)]
    case .element(let change, let section):
      Self.readOff(change, oldSection: section, newSection: section, into: &commit.changeset)
      let count = mapping.section(at: section).numberOfElements
      if count != oldCounts[section] { commit.recounted = [.init(index: section, count: count)] }
    }
    return commit
  }
}
