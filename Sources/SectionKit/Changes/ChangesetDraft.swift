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

  /// Whether no element changed (the draft of one section's element changes holds no other).
  var hasNoElementChanges: Bool {
    deletedElements.isEmpty && insertedElements.isEmpty && reloadedElements.isEmpty
      && movedElements.isEmpty
  }

  /// At most this many elements of room are kept in a list taken back from an applied changeset.
  static let retainedCapacity = 4_096

  /// Takes the lists of `parts`, the box of an applied changeset that nobody else holds, into
  /// this draft's empty lists, emptied with their capacity kept: the next batch's changeset is
  /// written into them instead of allocating its lists again.
  mutating func reuseLists(of parts: Changeset.Parts) {
    func reuse<T>(_ list: inout [T], _ held: inout [T]) {
      guard list.capacity == 0, held.capacity > 0, held.capacity <= Self.retainedCapacity else {
        return
      }
      swap(&list, &held)
      list.removeAllKeepingBuffer()
    }
    reuse(&deletedSectionRanges, &parts.deletedSectionRanges)
    reuse(&insertedSectionRanges, &parts.insertedSectionRanges)
    reuse(&reloadedSectionRanges, &parts.reloadedSectionRanges)
    reuse(&movedSections, &parts.movedSections)
    reuse(&deletedElements, &parts.deletedElements)
    reuse(&insertedElements, &parts.insertedElements)
    reuse(&reloadedElements, &parts.reloadedElements)
    reuse(&movedElements, &parts.movedElements)
  }

  /// The changeset of these parts, in `box` (a box nobody else holds, whose parts it replaces)
  /// when given and the parts need one.
  ///
  /// - Complexity: O(1): the arrays are moved, not copied.
  consuming func changeset(in box: Changeset.Parts? = nil) -> Changeset {
    Changeset(
      deletedSectionRanges: deletedSectionRanges, insertedSectionRanges: insertedSectionRanges,
      reloadedSectionRanges: reloadedSectionRanges, movedSections: movedSections,
      deletedElements: deletedElements, insertedElements: insertedElements,
      reloadedElements: reloadedElements, movedElements: movedElements, box: box)
  }
}

extension Array {
  /// Removes every element, keeping the buffer, element by element: for the few elements of a
  /// batch's lists, cheaper than `removeAll(keepingCapacity:)`, which replaces a subrange
  /// (about 230 instructions for a list of three index paths, against about 60).
  ///
  /// - Complexity: O(n).
  @inline(__always)
  mutating func removeAllKeepingBuffer() {
    while !isEmpty { removeLast() }
  }
}
