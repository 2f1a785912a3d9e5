import Foundation

/// One way a ``/SectionKit/Changeset`` breaks UIKit's `performBatchUpdates` rules, as found by
/// ``BatchValidator``.
///
/// A violation names the ``rule`` it breaks (`Docs/Batching.md`, rules B3–B9), how
/// serious it is (``severity``) and the text UIKit's `NSInternalInconsistencyException` would
/// carry (``message``). Rules that UIKit does not raise for but that corrupt the view are reported
/// with an `unsafe:` message; strict warnings describe batches UIKit accepts silently but that a
/// canonical producer should not emit.
///
/// ```swift
/// let violations = BatchValidator().validate(
///   oldCounts: [3], newCounts: [3], changeset: Changeset(deletedElements: [[0, 1]]))
/// violations[0].rule      // .invalidNumberOfItems
/// violations[0].message   // "Invalid update: invalid number of items in section 0. …"
/// ```
public struct BatchViolation: Hashable, Sendable, Codable, CustomStringConvertible {
  /// How serious a violation is.
  public enum Severity: String, Hashable, Sendable, Codable, Comparable {
    /// UIKit's checks pass but the batch is not canonical; reported as a failure only in strict
    /// mode.
    case strictWarning
    /// UIKit raises, or the view ends up corrupted.
    case error

    /// Whether `lhs` is less severe than `rhs`: ``strictWarning`` before ``error``.
    public static func < (lhs: Severity, rhs: Severity) -> Bool {
      lhs == .strictWarning && rhs == .error
    }
  }

  /// The rule broken, named as in the rules of `Docs/Batching.md` (B3–B9).
  public enum Rule: String, Hashable, Sendable, Codable, CaseIterable {
    /// An explicit delete names the same index path (or section) as a reload.
    case deleteAndReloadSameIndexPath
    /// An element delete (or the delete half of a reload) is also a move's source.
    case deleteAndMoveSameIndexPath
    /// A section delete (or the delete half of a section reload) is also a section move's source.
    case deleteAndMoveSameSection
    /// An element insert (or the insert half of a reload) is also a move's destination.
    case insertAndMoveSameIndexPath
    /// A section insert (or the insert half of a section reload) is also a section move's
    /// destination.
    case insertAndMoveSameSection
    /// An element move out of a deleted or reloaded section.
    case moveFromDeletedSection
    /// An element move into an inserted section (or the new position of a reloaded one).
    case moveIntoInsertedSection

    /// A section delete (or section reload) beyond the old section count.
    case deleteSectionOutOfBounds
    /// An element delete (or reload) in a section beyond the old section count.
    case deleteItemSectionOutOfBounds
    /// An element delete (or reload) beyond its section's old count.
    case deleteItemOutOfBounds
    /// A section insert beyond the new section count.
    case insertSectionOutOfBounds
    /// An element insert in a section beyond the new section count.
    case insertItemSectionOutOfBounds
    /// An element insert beyond its section's new count.
    case insertItemOutOfBounds
    /// A section move from beyond the old section count.
    case moveSectionFromOutOfBounds
    /// A section move to beyond the new section count.
    case moveSectionToOutOfBounds
    /// An element move from a section beyond the old section count.
    case moveItemFromSectionOutOfBounds
    /// An element move from beyond its section's old count.
    case moveItemFromOutOfBounds
    /// An element move to a section beyond the new section count.
    case moveItemToSectionOutOfBounds
    /// An element move to beyond its section's new count.
    case moveItemToOutOfBounds

    /// One element moved to two different destinations.
    case moveItemToTwoDestinations
    /// Two elements moved to the same destination.
    case moveTwoItemsToSameDestination
    /// One section moved to two different destinations.
    case moveSectionToTwoDestinations
    /// Two sections moved to the same destination.
    case moveTwoSectionsToSameDestination

    /// `new = old + inserted − deleted` fails for the number of sections.
    case invalidNumberOfSections
    /// The per-section count equation of rule B7 fails.
    case invalidNumberOfItems
    /// The same index path appears twice among the deleted or among the inserted elements.
    case duplicateItemDeleteOrInsert

    /// `unsafe:` an element insert (or reload insert half) lands in a section-move destination.
    case itemInsertIntoMovedSection
    /// `unsafe:` an element move from a moved section or into a section-move destination.
    case itemMoveTouchingMovedSection
    /// `unsafe:` an element reload in a moved or explicitly deleted section.
    case itemReloadInMovedOrDeletedSection

    /// An index path that is not `[section, item]`.
    case malformedIndexPath
    /// A negative (or `NSNotFound`) section or element index.
    case negativeIndex

    /// Strict: a duplicate reload or an identical move (UIKit de-duplicates them).
    case duplicateEntry
    /// Strict: an element delete or reload inside a deleted or reloaded section (dropped).
    case itemDeleteOrReloadInsideRemovedSection
    /// Strict: an element insert inside an inserted or reloaded section (dropped).
    case itemInsertInsideInsertedSection
    /// Strict: an element delete in a moved section.
    case itemDeleteInMovedSection
    /// Strict: a reload a move can land on the wrong cell, since UIKit's reload arithmetic
    /// ignores moves: any reload in a batch that moves sections, or an element reload in a
    /// section an element moves out of or into. A reload in a section no move touches is not
    /// reported.
    case reloadCombinedWithMoves

    /// The severity this rule is reported with.
    public var severity: Severity {
      switch self {
      case .duplicateEntry, .itemDeleteOrReloadInsideRemovedSection,
        .itemInsertInsideInsertedSection, .itemDeleteInMovedSection, .reloadCombinedWithMoves:
        return .strictWarning
      default:
        return .error
      }
    }
  }

  /// The rule broken.
  public var rule: Rule
  /// How serious the violation is (the rule's default severity).
  public var severity: Severity
  /// UIKit's exception text for the violation (for `unsafe:` and strict rules, a description in
  /// the same style).
  public var message: String

  /// Creates a violation with the rule's default severity.
  public init(rule: Rule, message: String) {
    self.rule = rule
    self.severity = rule.severity
    self.message = message
  }

  /// Whether the violation is an error (UIKit raises or the view is corrupted).
  public var isError: Bool { severity == .error }

  /// `error [rule]: message` or `strict warning [rule]: message`.
  public var description: String {
    "\(severity == .error ? "error" : "strict warning") [\(rule.rawValue)]: \(message)"
  }
}
