import Foundation

/// Every place where SectionKit turns a reload (or a reconfigure, read as one: B12) or a move into
/// a delete and an insert: one function per rule of `Docs/Batching.md`, named after what it
/// converts, with the rule it follows and why. "Why did this reload become a delete and an
/// insert?" is answered here; the callers (the reducer's read-off of the section list and of each
/// section's elements, ``ElementPlan``'s readings, and the coordinator's pairing of moves across
/// sections) find where a case arises and call the function of its rule.
///
/// A conversion is always valid: a delete at the old position and an insert at the true new one
/// replay to the right state whatever else the batch holds (B10). It costs one change more than a
/// reload or a move, so each one below is made only where it is the one valid reading, or where
/// it makes the changeset smaller.
///
/// Positions are generic: a section (`Range<Int>` of one), an element's item within its section
/// (`Int`), or a whole index path.
enum UIKitConversions {
  // MARK: - Sections

  /// **B11** (and B9): a section that moves and whose elements changed is deleted and inserted —
  /// no element change may touch a section that moves (UIKit applies it at the wrong index).
  @inline(__always)
  static func sectionMovedWithElementChanges(
    old: Int, new: Int, deletes: inout [Range<Int>], inserts: inout [Range<Int>]
  ) {
    convert(old..<old + 1, new..<new + 1, &deletes, &inserts)
  }

  /// **B9**: a reloaded section that moves is deleted and inserted — a reload happens in place, it
  /// cannot also travel.
  @inline(__always)
  static func sectionReloadedAndMoved(
    old: Int, new: Int, deletes: inout [Range<Int>], inserts: inout [Range<Int>]
  ) {
    convert(old..<old + 1, new..<new + 1, &deletes, &inserts)
  }

  /// **B3**: whether section reloads stay reloads in a batch of `moves` section moves. UIKit lands
  /// a reload by the explicit deletes and inserts only, moves ignored, so beside a section move a
  /// reload can land on another section.
  @inline(__always)
  static func sectionReloadsLand(besideSectionMoves moves: Int) -> Bool { moves == 0 }

  /// **B3**: a section reload in a batch that moves sections
  /// (``sectionReloadsLand(besideSectionMoves:)`` is `false`) is deleted and inserted.
  @inline(__always)
  static func sectionReloadBesideSectionMoves(
    old: Int, new: Int, deletes: inout [Range<Int>], inserts: inout [Range<Int>]
  ) {
    convert(old..<old + 1, new..<new + 1, &deletes, &inserts)
  }

  // MARK: - Elements

  /// **B3**: whether UIKit lands the element reloads of old section `old` in the section it is now
  /// (`new`). UIKit places a reload's section by the explicit section deletes and inserts only
  /// (`sections`, B3's slot map of them), moves ignored.
  ///
  /// - Parameter sections: the slot map of the batch's explicit section deletes and inserts;
  ///   `nil` when the batch moves no section (every section's reloads land in it then).
  @inline(__always)
  static func elementReloadsLand(inSection old: Int, now new: Int, sections: SlotMap?) -> Bool {
    sections.map { $0.destination(of: old) == new } ?? true
  }

  /// **B3**: an updated element of a section whose reloads UIKit lands in another section
  /// (``elementReloadsLand(inSection:now:sections:)`` is `false`) is deleted and inserted. On a
  /// section's runs: an updated run reads as inserted slots (its new positions are inserts), and
  /// its old slots, left out of every surviving run, are deletes. Read so from the start, so that
  /// the reading weighs each as the two changes it becomes (read with reloads, it would turn a
  /// move into a delete and an insert to land reloads that cannot land: one change more).
  @inline(__always)
  static func elementReloadsInDisplacedSection(_ run: Run, reloadsLand: Bool) -> Run {
    reloadsLand || run.kind != .updated ? run : .inserted(run.count)
  }

  /// **B3**: ``elementReloadsInDisplacedSection(_:reloadsLand:)`` for reloads already read off
  /// into `changes` (one section's): each becomes a delete at its old path and an insert where
  /// UIKit's slot arithmetic of the section's own deletes and inserts puts it in `newSection`.
  static func elementReloadsInDisplacedSection(
    in changes: inout ChangesetDraft, newSection: Int
  ) {
    guard !changes.reloadedElements.isEmpty else { return }
    let slots = SlotMap(
      removed: changes.deletedElements.map { $0[1] }.sorted(),
      fixed: changes.insertedElements.map { $0[1] }.sorted())
    for path in changes.reloadedElements {
      convert(
        path, IndexPath(item: slots.destination(of: path[1]), section: newSection),
        &changes.deletedElements, &changes.insertedElements)
    }
    changes.reloadedElements = []
  }

  /// **B10** (and B11): an updated element outside the elements that keep their order is deleted
  /// and inserted, not moved — a moved cell keeps its old content and is not reconfigured.
  @inline(__always)
  static func elementUpdatedAndMoved(
    old: Int, new: Int, deletes: inout [Int], inserts: inout [Int]
  ) {
    convert(old, new, &deletes, &inserts)
  }

  /// **B3**: an element reload that UIKit would land away from the element's true new position is
  /// deleted and inserted. UIKit places a reload at its rank among the old positions no explicit
  /// delete removes, in the first new position no explicit insert takes (moves and other reloads
  /// ignored); ``ElementPlan`` measures how far each lands from where it belongs.
  @inline(__always)
  static func elementReloadLandingElsewhere(
    old: Int, new: Int, deletes: inout [Int], inserts: inout [Int]
  ) {
    convert(old, new, &deletes, &inserts)
  }

  /// **B3** (minimality): an unchanged element that moved is deleted and inserted instead of
  /// moved when that lets more reloads land than it costs — a move is no explicit delete or
  /// insert, so it does not count where UIKit lands the section's reloads; a delete and an insert
  /// do. ``ElementPlan`` makes this reading only to compare it, and keeps it only when smaller.
  @inline(__always)
  static func elementMovedToLandReloads(
    old: Int, new: Int, deletes: inout [Int], inserts: inout [Int]
  ) {
    convert(old, new, &deletes, &inserts)
  }

  /// **B3**: an element reload in a section that moves across sections leave or enter is deleted
  /// and inserted when those moves leave from below it a different number of times than they
  /// arrive below its destination (each move made takes a delete and an insert out of B3's count)
  /// — only where that lets at least as many moves through as it costs
  /// (`Coordinator.pairMovesAcross`).
  @inline(__always)
  static func elementReloadUnbalancedByMovesAcross<Position>(
    old: Position, new: Position, deletes: inout [Position], inserts: inout [Position]
  ) {
    convert(old, new, &deletes, &inserts)
  }

  /// Writes `old` as a delete and `new` as an insert.
  @inline(__always)
  private static func convert<Position>(
    _ old: Position, _ new: Position, _ deletes: inout [Position], _ inserts: inout [Position]
  ) {
    deletes.append(old)
    inserts.append(new)
  }
}
