import Foundation

/// Everything that changed in one batch, in the form UIKit's `performBatchUpdates` accepts.
///
/// The coordinates follow UIKit's contract (see `Docs/Batching.md`):
/// - ``deletedSections``, ``reloadedSections``, ``deletedElements``, ``reloadedElements``,
///   ``reconfiguredElements`` and the `from` of a move are in **old** coordinates (before the
///   batch);
/// - ``insertedSections``, ``insertedElements`` and the `to` of a move are in **new** coordinates
///   (after the batch); ``reloadedElementDestinations`` and ``reconfiguredElementDestinations``
///   give where UIKit lands each reload and reconfigure (rule B3).
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
/// // The cells kept and refreshed, on new paths, once the batch is applied:
/// collectionView.reconfigureItems(at: changeset.reconfiguredElementDestinations)
/// ```
///
/// A reconfigure is placed exactly as a reload (rule B3): an adapter that does not tell them apart
/// reloads `reloadedElements + reconfiguredElements` inside the batch instead.
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

  /// The parts (see ``Storage``); read by tests.
  // Written only by the accessors of `Changeset+Storage.swift`.
  var storage: Storage

  /// Sections deleted, in old coordinates.
  ///
  /// - Complexity: O(1) for a changeset a coordinator hands out, decodes or builds with
  ///   ``init(deletedSections:insertedSections:reloadedSections:movedSections:deletedElements:insertedElements:reloadedElements:movedElements:reconfiguredElements:)``:
  ///   the set is stored beside ``deletedSectionRanges``.
  public var deletedSections: IndexSet {
    get {
      storedParts.map { $0.deletedSections ?? IndexSet(ranges: $0.deletedSectionRanges) } ?? []
    }
    set {
      let ranges = Array(newValue.rangeView)
      guard !ranges.isEmpty || storedParts != nil else { return }
      let parts = uniqueParts()
      parts.deletedSectionRanges = ranges
      parts.deletedSections = newValue
    }
  }
  /// Sections inserted, in new coordinates.
  ///
  /// - Complexity: O(1), as ``deletedSections``.
  public var insertedSections: IndexSet {
    get {
      storedParts.map { $0.insertedSections ?? IndexSet(ranges: $0.insertedSectionRanges) } ?? []
    }
    set {
      let ranges = Array(newValue.rangeView)
      guard !ranges.isEmpty || storedParts != nil else { return }
      let parts = uniqueParts()
      parts.insertedSectionRanges = ranges
      parts.insertedSections = newValue
    }
  }
  /// Sections reloaded, in old coordinates.
  ///
  /// - Complexity: O(1), as ``deletedSections``.
  public var reloadedSections: IndexSet {
    get {
      storedParts.map { $0.reloadedSections ?? IndexSet(ranges: $0.reloadedSectionRanges) } ?? []
    }
    set {
      let ranges = Array(newValue.rangeView)
      guard !ranges.isEmpty || storedParts != nil else { return }
      let parts = uniqueParts()
      parts.reloadedSectionRanges = ranges
      parts.reloadedSections = newValue
    }
  }

  // The section sets are kept as sorted ranges, which the reducer appends to and the mirror,
  // the encoding and `count` read without allocating; the `IndexSet`s adapters read (often inside
  // a loop) are stored beside them by ``storeSectionSets()`` once the ranges are final, and
  // dropped by any later write to their ranges.

  /// ``deletedSections`` as sorted, disjoint, non-adjacent ranges (what a changeset encodes).
  public package(set) var deletedSectionRanges: [Range<Int>] {
    get { storedParts?.deletedSectionRanges ?? [] }
    _modify {
      let parts = uniqueParts()
      parts.deletedSections = nil
      yield &parts.deletedSectionRanges
    }
  }
  /// ``insertedSections`` as sorted ranges.
  public package(set) var insertedSectionRanges: [Range<Int>] {
    get { storedParts?.insertedSectionRanges ?? [] }
    _modify {
      let parts = uniqueParts()
      parts.insertedSections = nil
      yield &parts.insertedSectionRanges
    }
  }
  /// ``reloadedSections`` as sorted ranges.
  public package(set) var reloadedSectionRanges: [Range<Int>] {
    get { storedParts?.reloadedSectionRanges ?? [] }
    _modify {
      let parts = uniqueParts()
      parts.reloadedSections = nil
      yield &parts.reloadedSectionRanges
    }
  }

  /// Stores the `IndexSet` of each section part beside its ranges, so that reading it builds
  /// nothing; called once the ranges are final (when a batch's changeset is handed out, or
  /// decoded). A changeset without section changes stores nothing: an empty set costs what
  /// reading it would.
  ///
  /// - Complexity: O(r) for r section ranges.
  mutating func storeSectionSets() {
    guard let stored = storedParts,
      !(stored.deletedSectionRanges.isEmpty && stored.insertedSectionRanges.isEmpty
        && stored.reloadedSectionRanges.isEmpty)
    else { return }
    let parts = uniqueParts()
    if parts.deletedSections == nil {
      parts.deletedSections = IndexSet(ranges: parts.deletedSectionRanges)
    }
    if parts.insertedSections == nil {
      parts.insertedSections = IndexSet(ranges: parts.insertedSectionRanges)
    }
    if parts.reloadedSections == nil {
      parts.reloadedSections = IndexSet(ranges: parts.reloadedSectionRanges)
    }
  }

  /// Sections moved, old → new.
  public var movedSections: [SectionMove] {
    get { storedParts?.movedSections ?? [] }
    _modify { yield &uniqueParts().movedSections }
  }
  /// Elements deleted, in old coordinates, sorted.
  public var deletedElements: [IndexPath] {
    get { elements(.deleted) }
    _modify {
      if let parts = partsForElements(.deleted) {
        yield &parts.deletedElements
      } else {
        var elements = takeElements(.deleted)
        defer { putElements(elements, .deleted) }
        yield &elements
      }
    }
  }
  /// Elements inserted, in new coordinates, sorted.
  public var insertedElements: [IndexPath] {
    get { elements(.inserted) }
    _modify {
      if let parts = partsForElements(.inserted) {
        yield &parts.insertedElements
      } else {
        var elements = takeElements(.inserted)
        defer { putElements(elements, .inserted) }
        yield &elements
      }
    }
  }
  /// Elements reloaded (content changed, position as UIKit computes it), in old coordinates, sorted.
  public var reloadedElements: [IndexPath] {
    get { elements(.reloaded) }
    _modify {
      if let parts = partsForElements(.reloaded) {
        yield &parts.reloadedElements
      } else {
        var elements = takeElements(.reloaded)
        defer { putElements(elements, .reloaded) }
        yield &elements
      }
    }
  }
  /// Elements reconfigured (content changed, identity and cell kind kept), in old coordinates,
  /// sorted: placed as reloads are (rule B3), so an adapter that does not tell them apart
  /// passes `reloadedElements + reconfiguredElements` to its reload. An adapter that keeps the
  /// cell (UIKit's `reconfigureItems(at:)`) uses ``reconfiguredElementDestinations`` instead, after
  /// the batch (see `Docs/Adapters.md`).
  public var reconfiguredElements: [IndexPath] {
    get { elements(.reconfigured) }
    _modify {
      if let parts = partsForElements(.reconfigured) {
        yield &parts.reconfiguredElements
      } else {
        var elements = takeElements(.reconfigured)
        defer { putElements(elements, .reconfigured) }
        yield &elements
      }
    }
  }
  /// Elements moved, old → new, sorted by destination.
  public var movedElements: [Move] {
    get {
      switch storage {
      case .moves(let moves): moves
      case .parts(let parts): parts.movedElements
      case .empty, .elements: []
      }
    }
    _modify {
      if let parts = partsForMoves() {
        yield &parts.movedElements
      } else {
        var moves = takeMoves()
        defer { storage = moves.capacity == 0 ? .empty : .moves(moves) }
        yield &moves
      }
    }
  }

  /// Creates an empty changeset.
  ///
  /// - Complexity: O(1), with no allocation (the initializer with `IndexSet` parameters builds
  ///   three empty index sets, which costs more than the rest of a one-change batch).
  public init() {
    storage = .empty
  }

  /// A changeset whose one part is element part `part`, `elements` (not empty).
  init(elements: [IndexPath], _ part: ElementPart) {
    storage = .elements(elements, part)
  }

  /// A changeset whose one part is the element moves `moves` (not empty).
  init(moves: [Move]) {
    storage = .moves(moves)
  }

  /// A changeset of several parts, held in `parts`, a box nobody else holds.
  init(parts: Parts) {
    storage = .parts(parts)
  }

  /// Creates a changeset; every part defaults to empty.
  public init(
    deletedSections: IndexSet = [], insertedSections: IndexSet = [],
    reloadedSections: IndexSet = [], movedSections: [SectionMove] = [],
    deletedElements: [IndexPath] = [], insertedElements: [IndexPath] = [],
    reloadedElements: [IndexPath] = [], movedElements: [Move] = [],
    reconfiguredElements: [IndexPath] = []
  ) {
    self.init(
      deletedSectionRanges: Array(deletedSections.rangeView),
      insertedSectionRanges: Array(insertedSections.rangeView),
      reloadedSectionRanges: Array(reloadedSections.rangeView), movedSections: movedSections,
      deletedElements: deletedElements, insertedElements: insertedElements,
      reloadedElements: reloadedElements, movedElements: movedElements,
      reconfiguredElements: reconfiguredElements)
    if let parts = storedParts,
      !(deletedSections.isEmpty && insertedSections.isEmpty && reloadedSections.isEmpty)
    {
      parts.deletedSections = deletedSections
      parts.insertedSections = insertedSections
      parts.reloadedSections = reloadedSections
    }
  }

  /// Creates a changeset from its parts as they are encoded, holding a single element part
  /// without a box.
  package init(
    deletedSectionRanges: [Range<Int>], insertedSectionRanges: [Range<Int>],
    reloadedSectionRanges: [Range<Int>], movedSections: [SectionMove],
    deletedElements: [IndexPath], insertedElements: [IndexPath],
    reloadedElements: [IndexPath], movedElements: [Move], reconfiguredElements: [IndexPath] = []
  ) {
    var draft = ChangesetDraft(
      deletedSectionRanges: deletedSectionRanges, insertedSectionRanges: insertedSectionRanges,
      reloadedSectionRanges: reloadedSectionRanges, movedSections: movedSections,
      deletedElements: deletedElements, insertedElements: insertedElements,
      reloadedElements: reloadedElements, movedElements: movedElements,
      reconfiguredElements: reconfiguredElements)
    self.init(taking: &draft, box: nil)
  }

  /// Whether nothing changed.
  public var isEmpty: Bool {
    switch storage {
    case .empty: true
    case .elements(let elements, _): elements.isEmpty
    case .moves(let moves): moves.isEmpty
    case .parts(let parts):
      parts.deletedSectionRanges.isEmpty && parts.insertedSectionRanges.isEmpty
        && parts.reloadedSectionRanges.isEmpty && parts.movedSections.isEmpty
        && parts.deletedElements.isEmpty && parts.insertedElements.isEmpty
        && parts.reloadedElements.isEmpty && parts.movedElements.isEmpty
        && parts.reconfiguredElements.isEmpty
    }
  }

  /// The number of operations in the changeset (each section and element counted once),
  /// or `Int.max` when there are more (section sets can hold nearly `Int.max` sections each).
  ///
  /// - Complexity: O(r) for r section ranges.
  public var count: Int {
    switch storage {
    case .empty: return 0
    case .elements(let elements, _): return elements.count
    case .moves(let moves): return moves.count
    case .parts(let parts):
      var total = parts.movedSections.count + parts.deletedElements.count
      total += parts.insertedElements.count + parts.reloadedElements.count
      total += parts.movedElements.count + parts.reconfiguredElements.count
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
      guard
        add(parts.deletedSectionRanges), add(parts.insertedSectionRanges),
        add(parts.reloadedSectionRanges)
      else { return .max }
      return total
    }
  }
}

extension Changeset: Hashable {
  /// Two changesets are equal when every part is (the stored section sets follow the ranges).
  public static func == (lhs: Changeset, rhs: Changeset) -> Bool {
    lhs.deletedSectionRanges == rhs.deletedSectionRanges
      && lhs.insertedSectionRanges == rhs.insertedSectionRanges
      && lhs.reloadedSectionRanges == rhs.reloadedSectionRanges
      && lhs.movedSections == rhs.movedSections && lhs.deletedElements == rhs.deletedElements
      && lhs.insertedElements == rhs.insertedElements
      && lhs.reloadedElements == rhs.reloadedElements && lhs.movedElements == rhs.movedElements
      && lhs.reconfiguredElements == rhs.reconfiguredElements
  }

  /// Hashes every part.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(deletedSectionRanges)
    hasher.combine(insertedSectionRanges)
    hasher.combine(reloadedSectionRanges)
    hasher.combine(movedSections)
    hasher.combine(deletedElements)
    hasher.combine(insertedElements)
    hasher.combine(reloadedElements)
    hasher.combine(movedElements)
    hasher.combine(reconfiguredElements)
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
      "reconfigured elements", reconfiguredElements.map(format).joined(separator: ", "),
      reconfiguredElements.isEmpty)
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
}

/// `[section, item]` text for an index path.
func format(_ indexPath: IndexPath) -> String {
  "[" + indexPath.map(String.init).joined(separator: ", ") + "]"
}
