import Foundation

/// The element lists of a changeset, as the reducer's read-off writes them: a ``Changeset`` or a
/// ``ChangesetDraft``.
protocol ChangesetElementLists {
  /// Elements deleted, in old coordinates.
  var deletedElements: [IndexPath] { get set }
  /// Elements inserted, in new coordinates.
  var insertedElements: [IndexPath] { get set }
  /// Elements reloaded, in old coordinates.
  var reloadedElements: [IndexPath] { get set }
  /// Elements moved, old → new.
  var movedElements: [Changeset.Move] { get set }
}

extension Changeset: ChangesetElementLists {}

/// A changeset being read off by the reducer: its parts as plain arrays, each write an array
/// append (a ``Changeset`` checks which of its storages holds the part, and that its box is not
/// shared, on every write), made into one ``Changeset`` when the batch is read off.
struct ChangesetDraft: ChangesetElementLists, Equatable {
  var deletedSectionRanges: [Range<Int>] = []
  var insertedSectionRanges: [Range<Int>] = []
  var reloadedSectionRanges: [Range<Int>] = []
  var movedSections: [Changeset.SectionMove] = []
  var deletedElements: [IndexPath] = []
  var insertedElements: [IndexPath] = []
  var reloadedElements: [IndexPath] = []
  var movedElements: [Changeset.Move] = []
  var reconfiguredElements: [IndexPath] = []

  /// Whether no element changed (the draft of one section's element changes holds no other).
  var hasNoElementChanges: Bool {
    deletedElements.isEmpty && insertedElements.isEmpty && reloadedElements.isEmpty
      && movedElements.isEmpty && reconfiguredElements.isEmpty
  }

  /// At most this many elements of room are kept in a list taken back from an applied changeset.
  static let retainedCapacity = 4_096

  /// Takes the lists of `parts`, the box of an applied changeset that nobody else holds, into
  /// this draft's empty lists, emptied with their capacity kept: the next batch's changeset is
  /// written into them instead of allocating its lists again.
  ///
  /// Every list of `parts` is left empty, whether it was taken or not (a list too large to keep,
  /// or one this draft already has room for, is let go): the box is written into again by the
  /// next changeset of several parts, which swaps its lists into this draft, so a list left in it
  /// would reach a later changeset.
  mutating func reuseLists(of parts: Changeset.Parts) {
    func reuse<T>(_ list: inout [T], _ held: inout [T]) {
      if list.capacity == 0, held.capacity > 0, held.capacity <= Self.retainedCapacity {
        swap(&list, &held)
        list.removeAllKeepingBuffer()
      } else if held.capacity > 0 {
        held = []
      }
    }
    parts.deletedSections = nil
    parts.insertedSections = nil
    parts.reloadedSections = nil
    reuse(&deletedSectionRanges, &parts.deletedSectionRanges)
    reuse(&insertedSectionRanges, &parts.insertedSectionRanges)
    reuse(&reloadedSectionRanges, &parts.reloadedSectionRanges)
    reuse(&movedSections, &parts.movedSections)
    reuse(&deletedElements, &parts.deletedElements)
    reuse(&insertedElements, &parts.insertedElements)
    reuse(&reloadedElements, &parts.reloadedElements)
    reuse(&movedElements, &parts.movedElements)
    reuse(&reconfiguredElements, &parts.reconfiguredElements)
  }

}

extension Changeset {
  /// The changeset of the parts of `draft`, which it takes by swapping them out: `draft` is left
  /// with empty lists (those of `box` when given), so that nothing is retained or released. A
  /// single element part is held without a box; several go into `box` (a box nobody else holds,
  /// whose parts it replaces) or a new one.
  ///
  /// - Complexity: O(1).
  init(taking draft: inout ChangesetDraft, box: Parts?) {
    #if SECTIONKIT_INTERNAL_CHECKS
      if let box {
        precondition(
          box.isEmpty, "Changeset: a reused box holds the parts of an earlier changeset")
      }
    #endif
    let nonEmpty =
      (draft.deletedElements.isEmpty ? 0 : 1) + (draft.insertedElements.isEmpty ? 0 : 1)
      + (draft.reloadedElements.isEmpty ? 0 : 1) + (draft.movedElements.isEmpty ? 0 : 1)
      + (draft.reconfiguredElements.isEmpty ? 0 : 1)
    guard
      draft.deletedSectionRanges.isEmpty && draft.insertedSectionRanges.isEmpty
        && draft.reloadedSectionRanges.isEmpty && draft.movedSections.isEmpty && nonEmpty <= 1
    else {
      let parts = box ?? Parts()
      if parts.deletedSections != nil { parts.deletedSections = nil }
      if parts.insertedSections != nil { parts.insertedSections = nil }
      if parts.reloadedSections != nil { parts.reloadedSections = nil }
      swap(&parts.deletedSectionRanges, &draft.deletedSectionRanges)
      swap(&parts.insertedSectionRanges, &draft.insertedSectionRanges)
      swap(&parts.reloadedSectionRanges, &draft.reloadedSectionRanges)
      swap(&parts.movedSections, &draft.movedSections)
      swap(&parts.deletedElements, &draft.deletedElements)
      swap(&parts.insertedElements, &draft.insertedElements)
      swap(&parts.reloadedElements, &draft.reloadedElements)
      swap(&parts.movedElements, &draft.movedElements)
      swap(&parts.reconfiguredElements, &draft.reconfiguredElements)
      self.init(parts: parts)
      return
    }
    /// The list taken out of `list`, an empty one left in its place.
    func take<T>(_ list: inout [T]) -> [T] {
      var taken: [T] = []
      swap(&taken, &list)
      return taken
    }
    if !draft.deletedElements.isEmpty {
      self.init(elements: take(&draft.deletedElements), .deleted)
    } else if !draft.insertedElements.isEmpty {
      self.init(elements: take(&draft.insertedElements), .inserted)
    } else if !draft.reloadedElements.isEmpty {
      self.init(elements: take(&draft.reloadedElements), .reloaded)
    } else if !draft.movedElements.isEmpty {
      self.init(moves: take(&draft.movedElements))
    } else if !draft.reconfiguredElements.isEmpty {
      self.init(elements: take(&draft.reconfiguredElements), .reconfigured)
    } else {
      self.init()
    }
  }
}

extension Changeset {
  /// Moves the reloads of the old paths in `reconfigured` to ``reconfiguredElements``: the
  /// reducer reads a reconfigure off as a reload (it is placed and converted as one), and
  /// remembers which surviving reloads were only reconfigured in the batch.
  ///
  /// - Complexity: O(r) for r reloads; nothing when `reconfigured` is empty.
  mutating func separateReconfigures(_ reconfigured: Set<IndexPath>) {
    guard !reconfigured.isEmpty, !reloadedElements.isEmpty else { return }
    var reloads: [IndexPath] = []
    var reconfigures: [IndexPath] = []
    for path in reloadedElements {
      if reconfigured.contains(path) { reconfigures.append(path) } else { reloads.append(path) }
    }
    guard !reconfigures.isEmpty else { return }
    reloadedElements = reloads
    reconfiguredElements = reconfigures
  }

  /// This changeset with its reconfigures listed as reloads (the two lists merged, sorted): what
  /// an adapter that does not tell them apart applies, and what `SectionKitStreaming` sends (the
  /// wire has no reconfigures).
  ///
  /// - Complexity: O(r) for r reloads and reconfigures; O(1) when there is no reconfigure.
  package func reconfiguresAsReloads() -> Changeset {
    guard !reconfiguredElements.isEmpty else { return self }
    var result = self
    result.reloadedElements = (reloadedElements + reconfiguredElements).sorted {
      $0.lexicographicallyPrecedes($1)
    }
    result.reconfiguredElements = []
    return result
  }
}

extension Changeset.Parts {
  /// Whether every part is empty, as a box taken back from an applied changeset must be before
  /// the next changeset is written into it.
  var isEmpty: Bool {
    deletedSectionRanges.isEmpty && insertedSectionRanges.isEmpty
      && reloadedSectionRanges.isEmpty && deletedSections == nil && insertedSections == nil
      && reloadedSections == nil && movedSections.isEmpty && deletedElements.isEmpty
      && insertedElements.isEmpty && reloadedElements.isEmpty && movedElements.isEmpty
      && reconfiguredElements.isEmpty
  }
}

extension ChangesetDraft {
  /// Whether every list is empty, as a draft must be when a read-off starts writing into it.
  var isEmpty: Bool {
    deletedSectionRanges.isEmpty && insertedSectionRanges.isEmpty
      && reloadedSectionRanges.isEmpty && movedSections.isEmpty && hasNoElementChanges
  }
}

extension Array {
  /// Removes every element, keeping the buffer: element by element when there are few (for the
  /// few elements of a batch's lists, cheaper than `removeAll(keepingCapacity:)`, which replaces
  /// a subrange: about 230 instructions for a list of three index paths, against about 60), with
  /// `removeAll(keepingCapacity:)` beyond 32.
  ///
  /// - Complexity: O(n).
  @inline(__always)
  mutating func removeAllKeepingBuffer() {
    guard count <= 32 else {
      removeAll(keepingCapacity: true)
      return
    }
    while !isEmpty { removeLast() }
  }
}
