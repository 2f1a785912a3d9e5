import Foundation

/// How a ``Changeset`` holds its parts.
///
/// A changeset with no section part and at most one non-empty element part (what a batch of one
/// element change reads off) holds that array alone, with no box: copying it retains one
/// reference, destroying it releases one, and it allocates nothing beyond the array. Any other
/// changeset holds its parts in one ``Parts`` box, shared between copies and copied on the first
/// write to a shared one (each array in it then copied on its own first write): a copy still
/// retains one reference, where nine separate parts took nine.
extension Changeset {
  /// The element part an inline array is.
  enum ElementPart: UInt8, Sendable {
    case deleted, inserted, reloaded, reconfigured
  }

  enum Storage: Sendable {
    /// Every part empty.
    case empty
    /// One element part (the others and every section part empty).
    case elements([IndexPath], ElementPart)
    /// The element moves (every other part empty).
    case moves([Move])
    /// Every part, in a box.
    case parts(Parts)
  }

  /// Every part of a changeset. Written only while uniquely referenced (``uniqueParts()``), so
  /// that a box shared between changesets, and so between threads, is never written.
  final class Parts: @unchecked Sendable {
    // Unchecked for exclusivity as the coordinator's own state: each write is inside a
    // changeset's mutating accessor, on a box no other changeset holds.
    @exclusivity(unchecked) var deletedSectionRanges: [Range<Int>] = []
    @exclusivity(unchecked) var insertedSectionRanges: [Range<Int>] = []
    @exclusivity(unchecked) var reloadedSectionRanges: [Range<Int>] = []
    /// The `IndexSet` of each section part, stored beside its ranges (`nil`: build it from them).
    @exclusivity(unchecked) var deletedSections: IndexSet?
    @exclusivity(unchecked) var insertedSections: IndexSet?
    @exclusivity(unchecked) var reloadedSections: IndexSet?
    @exclusivity(unchecked) var movedSections: [SectionMove] = []
    @exclusivity(unchecked) var deletedElements: [IndexPath] = []
    @exclusivity(unchecked) var insertedElements: [IndexPath] = []
    @exclusivity(unchecked) var reloadedElements: [IndexPath] = []
    @exclusivity(unchecked) var reconfiguredElements: [IndexPath] = []
    @exclusivity(unchecked) var movedElements: [Move] = []

    init() {}

    /// A box holding the same parts (each array shared until its first write).
    func copy() -> Parts {
      let copy = Parts()
      copy.deletedSectionRanges = deletedSectionRanges
      copy.insertedSectionRanges = insertedSectionRanges
      copy.reloadedSectionRanges = reloadedSectionRanges
      copy.deletedSections = deletedSections
      copy.insertedSections = insertedSections
      copy.reloadedSections = reloadedSections
      copy.movedSections = movedSections
      copy.deletedElements = deletedElements
      copy.insertedElements = insertedElements
      copy.reloadedElements = reloadedElements
      copy.reconfiguredElements = reconfiguredElements
      copy.movedElements = movedElements
      return copy
    }
  }

  /// The box, when the parts are in one.
  var storedParts: Parts? {
    if case .parts(let parts) = storage { return parts }
    return nil
  }

  /// The parts in a box this changeset alone holds: the box copied when shared, or made from
  /// the parts held without one.
  mutating func uniqueParts() -> Parts {
    var parts: Parts
    switch storage {
    case .parts(let held):
      parts = held
      // Released here, so that `parts` holds the only reference unless another changeset does.
      storage = .empty
      if !isKnownUniquelyReferenced(&parts) { parts = parts.copy() }
    case .empty:
      parts = Parts()
    case .elements(let elements, let part):
      parts = Parts()
      switch part {
      case .deleted: parts.deletedElements = elements
      case .inserted: parts.insertedElements = elements
      case .reloaded: parts.reloadedElements = elements
      case .reconfigured: parts.reconfiguredElements = elements
      }
    case .moves(let moves):
      parts = Parts()
      parts.movedElements = moves
    }
    storage = .parts(parts)
    return parts
  }

  /// An element part.
  @inline(__always)
  func elements(_ part: ElementPart) -> [IndexPath] {
    switch storage {
    case .elements(let elements, let held): held == part ? elements : []
    case .parts(let parts):
      switch part {
      case .deleted: parts.deletedElements
      case .inserted: parts.insertedElements
      case .reloaded: parts.reloadedElements
      case .reconfigured: parts.reconfiguredElements
      }
    case .empty, .moves: []
    }
  }

  /// The box to write element part `part` in, or `nil` when it is written without one: it is
  /// the part held without a box, or every other part is empty.
  @inline(__always)
  mutating func partsForElements(_ part: ElementPart) -> Parts? {
    switch storage {
    case .empty: nil
    case .elements(let elements, let held): held == part || elements.isEmpty ? nil : uniqueParts()
    case .moves(let moves): moves.isEmpty ? nil : uniqueParts()
    case .parts: uniqueParts()
    }
  }

  /// The box to write the element moves in, or `nil` as ``partsForElements(_:)``.
  @inline(__always)
  mutating func partsForMoves() -> Parts? {
    switch storage {
    case .empty, .moves: nil
    case .elements(let elements, _): elements.isEmpty ? nil : uniqueParts()
    case .parts: uniqueParts()
    }
  }

  /// Element part `part`, taken out (so that it is uniquely referenced) to be written without a
  /// box and put back by ``putElements(_:_:)``; every part is left empty. Called only when
  /// ``partsForElements(_:)`` answered `nil`.
  @inline(__always)
  mutating func takeElements(_ part: ElementPart) -> [IndexPath] {
    defer { storage = .empty }
    if case .elements(let elements, let held) = storage, held == part { return elements }
    return []
  }

  /// The element moves, taken out as ``takeElements(_:)``, after ``partsForMoves()`` answered
  /// `nil`.
  @inline(__always)
  mutating func takeMoves() -> [Move] {
    defer { storage = .empty }
    if case .moves(let moves) = storage { return moves }
    return []
  }

  /// Puts back the element part taken by ``takeElements(_:)``; an empty one with no storage
  /// reserved is not kept.
  @inline(__always)
  mutating func putElements(_ elements: [IndexPath], _ part: ElementPart) {
    storage = elements.capacity == 0 ? .empty : .elements(elements, part)
  }
}
