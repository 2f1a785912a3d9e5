import Foundation

/// Everything that changed in one batch, in the form UIKit's `performBatchUpdates` accepts.
///
/// The coordinates follow UIKit's contract (see `Docs/Batching.md`):
/// - ``deletedSections``, ``reloadedSections``, ``deletedElements``, ``reloadedElements`` and the
///   `from` of a move are in **old** coordinates (before the batch);
/// - ``insertedSections``, ``insertedElements`` and the `to` of a move are in **new** coordinates
///   (after the batch).
///
/// The order of the parts does not matter to UIKit: it removes every delete, reload and move
/// source (old coordinates), places every insert, reload destination and move destination (new
/// coordinates), and lets every other element keep its relative order in the positions left; a
/// reload lands where the explicit deletes and inserts put it (`Docs/Batching.md`, rules B1–B10).
/// An adapter can therefore apply a changeset verbatim inside one `performBatchUpdates` closure:
///
/// ```swift
/// collectionView.performBatchUpdates {
///     updateData()                                   // data source switches to the new state
///     collectionView.deleteSections(changeset.deletedSections)
///     collectionView.insertSections(changeset.insertedSections)
///     collectionView.reloadSections(changeset.reloadedSections)
///     collectionView.deleteItems(at: changeset.deletedElements)
///     collectionView.insertItems(at: changeset.insertedElements)
///     collectionView.reloadItems(at: changeset.reloadedElements)
///     for move in changeset.movedElements { collectionView.moveItem(at: move.from, to: move.to) }
/// }
/// ```
///
/// To follow changesets with a copy of your own (a client of a server, a test), use
/// ``apply(to:insertedSection:newElement:newSectionCount:)``: replaying the parts one after
/// another, in any order, goes wrong as soon as a batch mixes moves with inserts or deletes.
///
/// A changeset the ``Coordinator`` emits is in canonical form: no duplicates, no element change
/// inside a deleted or inserted section or touching a moved section, and a reload only where UIKit's own
/// arithmetic lands the reloaded element at its true new position (otherwise the element is a
/// delete plus an insert). It is minimal for what happened in the batch.
///
/// The initialiser accepts anything, so an adapter checks a changeset against what it shows
/// before it indexes anything. Decoding is stricter: it throws a `DecodingError` for a changeset
/// that breaks its own invariants (malformed or negative index paths, unsorted or overlapping
/// lists, conflicting operations; see `Docs/Batching.md`, "Decoding a changeset").
public struct Changeset: Sendable {
  /// A move from an old index path to a new one.
  public struct Move: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The old index path.
    public var from: IndexPath
    /// The new index path.
    public var to: IndexPath
    /// Creates a move.
    public init(from: IndexPath, to: IndexPath) {
      self.from = from
      self.to = to
    }
    /// `[s, i] → [t, j]`.
    public var description: String { "\(format(from)) → \(format(to))" }
  }

  /// A section move from an old section index to a new one. The coordinator emits one for a
  /// section that only changed place (no element of it changed in the batch).
  public struct SectionMove: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The old section index.
    public var from: Int
    /// The new section index.
    public var to: Int
    /// Creates a section move.
    public init(from: Int, to: Int) {
      self.from = from
      self.to = to
    }
    /// `s → t`.
    public var description: String { "\(from) → \(to)" }
  }

  /// Sections deleted, in old coordinates.
  ///
  /// - Complexity: O(1) for a changeset a coordinator hands out, decodes or builds with
  ///   ``init(deletedSections:insertedSections:reloadedSections:movedSections:deletedElements:insertedElements:reloadedElements:movedElements:)``:
  ///   the set is stored beside ``deletedSectionRanges``.
  public var deletedSections: IndexSet {
    get { sectionSets?.deleted ?? IndexSet(ranges: storedDeletedSectionRanges) }
    set {
      storedDeletedSectionRanges = Array(newValue.rangeView)
      sectionSets = StoredSectionSets(
        deleted: newValue, inserted: sectionSets?.inserted, reloaded: sectionSets?.reloaded)
    }
  }
  /// Sections inserted, in new coordinates.
  ///
  /// - Complexity: O(1), as ``deletedSections``.
  public var insertedSections: IndexSet {
    get { sectionSets?.inserted ?? IndexSet(ranges: storedInsertedSectionRanges) }
    set {
      storedInsertedSectionRanges = Array(newValue.rangeView)
      sectionSets = StoredSectionSets(
        deleted: sectionSets?.deleted, inserted: newValue, reloaded: sectionSets?.reloaded)
    }
  }
  /// Sections reloaded, in old coordinates.
  ///
  /// - Complexity: O(1), as ``deletedSections``.
  public var reloadedSections: IndexSet {
    get { sectionSets?.reloaded ?? IndexSet(ranges: storedReloadedSectionRanges) }
    set {
      storedReloadedSectionRanges = Array(newValue.rangeView)
      sectionSets = StoredSectionSets(
        deleted: sectionSets?.deleted, inserted: sectionSets?.inserted, reloaded: newValue)
    }
  }

  /// ``deletedSections`` as sorted, disjoint, non-adjacent ranges (what a changeset encodes).
  public package(set) var deletedSectionRanges: [Range<Int>] {
    get { storedDeletedSectionRanges }
    _modify {
      sectionSets = nil
      yield &storedDeletedSectionRanges
    }
  }
  /// ``insertedSections`` as sorted ranges.
  public package(set) var insertedSectionRanges: [Range<Int>] {
    get { storedInsertedSectionRanges }
    _modify {
      sectionSets = nil
      yield &storedInsertedSectionRanges
    }
  }
  /// ``reloadedSections`` as sorted ranges.
  public package(set) var reloadedSectionRanges: [Range<Int>] {
    get { storedReloadedSectionRanges }
    _modify {
      sectionSets = nil
      yield &storedReloadedSectionRanges
    }
  }

  // The section sets are kept as sorted ranges, which the reducer appends to and the mirror,
  // the encoding and `count` read without allocating; the `IndexSet`s adapters read (often inside
  // a loop) are stored beside them by ``storeSectionSets()`` once the ranges are final, in one
  // box (one reference to copy, none when no section changed), and dropped by any later write to
  // the ranges.
  private var storedDeletedSectionRanges: [Range<Int>] = []
  private var storedInsertedSectionRanges: [Range<Int>] = []
  private var storedReloadedSectionRanges: [Range<Int>] = []
  private var sectionSets: StoredSectionSets?

  /// Stores the `IndexSet` of each section part beside its ranges, so that reading it builds
  /// nothing; called once the ranges are final (when a batch's changeset is handed out, or
  /// decoded). A changeset without section changes stores nothing: an empty set costs what
  /// reading it would.
  ///
  /// - Complexity: O(r) for r section ranges.
  mutating func storeSectionSets() {
    guard
      !(storedDeletedSectionRanges.isEmpty && storedInsertedSectionRanges.isEmpty
        && storedReloadedSectionRanges.isEmpty)
    else { return }
    sectionSets = StoredSectionSets(
      deleted: sectionSets?.deleted ?? IndexSet(ranges: storedDeletedSectionRanges),
      inserted: sectionSets?.inserted ?? IndexSet(ranges: storedInsertedSectionRanges),
      reloaded: sectionSets?.reloaded ?? IndexSet(ranges: storedReloadedSectionRanges))
  }
  /// Sections moved, old → new.
  public var movedSections: [SectionMove]
  /// Elements deleted, in old coordinates, sorted.
  public var deletedElements: [IndexPath]
  /// Elements inserted, in new coordinates, sorted.
  public var insertedElements: [IndexPath]
  /// Elements reloaded (content changed, position as UIKit computes it), in old coordinates, sorted.
  public var reloadedElements: [IndexPath]
  /// Elements moved, old → new, sorted by destination.
  public var movedElements: [Move]

  /// Creates an empty changeset.
  ///
  /// - Complexity: O(1), with no allocation (the initializer with `IndexSet` parameters builds
  ///   three empty index sets, which costs more than the rest of a one-change batch).
  public init() {
    movedSections = []
    deletedElements = []
    insertedElements = []
    reloadedElements = []
    movedElements = []
  }

  /// Creates a changeset; every part defaults to empty.
  public init(
    deletedSections: IndexSet = [], insertedSections: IndexSet = [],
    reloadedSections: IndexSet = [], movedSections: [SectionMove] = [],
    deletedElements: [IndexPath] = [], insertedElements: [IndexPath] = [],
    reloadedElements: [IndexPath] = [], movedElements: [Move] = []
  ) {
    self.movedSections = movedSections
    self.deletedElements = deletedElements
    self.insertedElements = insertedElements
    self.reloadedElements = reloadedElements
    self.movedElements = movedElements
    self.storedDeletedSectionRanges = Array(deletedSections.rangeView)
    self.storedInsertedSectionRanges = Array(insertedSections.rangeView)
    self.storedReloadedSectionRanges = Array(reloadedSections.rangeView)
    if !(deletedSections.isEmpty && insertedSections.isEmpty && reloadedSections.isEmpty) {
      self.sectionSets = StoredSectionSets(
        deleted: deletedSections, inserted: insertedSections, reloaded: reloadedSections)
    }
  }

  /// Whether nothing changed.
  public var isEmpty: Bool {
    deletedSectionRanges.isEmpty && insertedSectionRanges.isEmpty && reloadedSectionRanges.isEmpty
      && movedSections.isEmpty && deletedElements.isEmpty && insertedElements.isEmpty
      && reloadedElements.isEmpty && movedElements.isEmpty
  }

  /// The number of operations in the changeset (each section and element counted once),
  /// or `Int.max` when there are more (section sets can hold nearly `Int.max` sections each).
  ///
  /// - Complexity: O(r) for r section ranges.
  public var count: Int {
    var total = movedSections.count + deletedElements.count + insertedElements.count
    total += reloadedElements.count + movedElements.count
    // Three loops, not one over a joined array: this is read once per changeset by adapters.
    func add(_ ranges: [Range<Int>]) -> Bool {
      for range in ranges {
        let (width, wide) = range.upperBound.subtractingReportingOverflow(range.lowerBound)
        let (sum, overflow) = total.addingReportingOverflow(width)
        if wide || overflow { return false }
        total = sum
      }
      return true
    }
    guard add(deletedSectionRanges), add(insertedSectionRanges), add(reloadedSectionRanges) else {
      return .max
    }
    return total
  }
}

/// The section sets of a ``Changeset``, stored beside their ranges (`nil`: build from the
/// ranges).
final class StoredSectionSets: Sendable {
  let deleted: IndexSet?
  let inserted: IndexSet?
  let reloaded: IndexSet?

  init(deleted: IndexSet?, inserted: IndexSet?, reloaded: IndexSet?) {
    self.deleted = deleted
    self.inserted = inserted
    self.reloaded = reloaded
  }
}

extension Changeset: Hashable {
  /// Two changesets are equal when every part is (the stored section sets follow the ranges).
  public static func == (lhs: Changeset, rhs: Changeset) -> Bool {
    lhs.storedDeletedSectionRanges == rhs.storedDeletedSectionRanges
      && lhs.storedInsertedSectionRanges == rhs.storedInsertedSectionRanges
      && lhs.storedReloadedSectionRanges == rhs.storedReloadedSectionRanges
      && lhs.movedSections == rhs.movedSections && lhs.deletedElements == rhs.deletedElements
      && lhs.insertedElements == rhs.insertedElements
      && lhs.reloadedElements == rhs.reloadedElements && lhs.movedElements == rhs.movedElements
  }

  /// Hashes every part.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(storedDeletedSectionRanges)
    hasher.combine(storedInsertedSectionRanges)
    hasher.combine(storedReloadedSectionRanges)
    hasher.combine(movedSections)
    hasher.combine(deletedElements)
    hasher.combine(insertedElements)
    hasher.combine(reloadedElements)
    hasher.combine(movedElements)
  }
}

extension Changeset: CustomStringConvertible {
  /// One line per non-empty part, in UIKit's application order, e.g.
  /// `deleted sections: 2` / `inserted elements: [0, 1], [0, 2]`.
  public var description: String {
    var lines: [String] = []
    func add(_ label: String, _ text: String, _ isEmpty: Bool) {
      if !isEmpty { lines.append("\(label): \(text)") }
    }
    add("deleted sections", describe(deletedSections), deletedSections.isEmpty)
    add(
      "deleted elements", deletedElements.map(format).joined(separator: ", "),
      deletedElements.isEmpty)
    add("reloaded sections", describe(reloadedSections), reloadedSections.isEmpty)
    add(
      "reloaded elements", reloadedElements.map(format).joined(separator: ", "),
      reloadedElements.isEmpty)
    add(
      "moved sections", movedSections.map(\.description).joined(separator: ", "),
      movedSections.isEmpty)
    add(
      "moved elements", movedElements.map(\.description).joined(separator: ", "),
      movedElements.isEmpty)
    add("inserted sections", describe(insertedSections), insertedSections.isEmpty)
    add(
      "inserted elements", insertedElements.map(format).joined(separator: ", "),
      insertedElements.isEmpty)
    return lines.isEmpty ? "no changes" : lines.joined(separator: "\n")
  }
}

extension IndexSet {
  /// An index set holding `ranges`.
  init(ranges: [Range<Int>]) {
    self.init()
    for range in ranges { insert(integersIn: range) }
  }
}

extension Array where Element == Range<Int> {
  /// The index of the first range whose upper bound is above `index`, in sorted, disjoint ranges
  /// (`count` when there is none).
  ///
  /// - Complexity: O(log n).
  func firstRange(endingAfter index: Int) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if self[middle].upperBound <= index { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Appends `range`, which must lie after every range already held, merging adjacent ranges.
  mutating func appendRange(_ range: Range<Int>) {
    guard !range.isEmpty else { return }
    if let last = last, last.upperBound == range.lowerBound {
      self[count - 1] = last.lowerBound..<range.upperBound
    } else {
      append(range)
    }
  }
}

/// `[section, item]` text for an index path.
func format(_ indexPath: IndexPath) -> String {
  "[" + indexPath.map(String.init).joined(separator: ", ") + "]"
}
