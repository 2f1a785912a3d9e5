import Foundation

/// A node of a SectionKit tree that presents an ordered list of sections.
///
/// ``ComposedSectionProvider`` and ``SegmentedSectionProvider`` are the ready-made providers; they
/// nest sections and other providers to any depth. A provider tells its ``updateDelegate`` about
/// every change in its own flat section coordinates (`0..<numberOfSections`): sections inserted and
/// removed, and the element changes of the sections it presents, bracketed as for sections.
///
/// Conforming types hold the delegate **weakly**. A provider has at most one parent at a time: the
/// parent (or a ``SectionProviderMapping``) sets the delegate to an internal object that forwards
/// each event to it.
public protocol SectionProvider: AnyObject {
  /// The sections this provider presents, flattened, in order.
  ///
  /// - Complexity: O(n) for the built-in providers, where n is the number of sections.
  var sections: [any Section] { get }

  /// The number of sections this provider presents.
  var numberOfSections: Int { get }

  /// The object told about this provider's changes; in a tree, set by the provider's parent (or
  /// mapping) to the link that forwards the events to it.
  var updateDelegate: (any SectionProviderUpdateDelegate)? { get set }
}

/// Receives the changes of a ``SectionProvider`` in the provider's flat section coordinates.
///
/// A custom provider emits into it; the built-in providers and the mapping receive through an
/// internal link object and do not conform themselves.
///
/// Section indexes follow the step semantics of ``SectionUpdateDelegate``: removed indexes are
/// valid before the removal, inserted indexes after the insertion.
public protocol SectionProviderUpdateDelegate: AnyObject {
  /// The provider is about to emit one or more related events.
  func willBeginUpdating(_ provider: any SectionProvider)
  /// The provider emitted the last event of the bracket.
  func didEndUpdating(_ provider: any SectionProvider)
  /// Anything the provider presents may have changed: reload it whole.
  func invalidateAll(_ provider: any SectionProvider)
  /// `sections` were inserted at `indexes` (valid after the insertion).
  func provider(
    _ provider: any SectionProvider, didInsertSections sections: [any Section],
    at indexes: IndexSet)
  /// `sections` were removed from `indexes` (valid before the removal).
  func provider(
    _ provider: any SectionProvider, didRemoveSections sections: [any Section],
    at indexes: IndexSet)
  /// An element of `section`, presented at `sectionIndex`, changed.
  func provider(
    _ provider: any SectionProvider, section: any Section, at sectionIndex: Int,
    didChange change: ElementChange)
  /// The sections at `range` moved as a block, so that the first of them is at `index` after the
  /// move (step semantics: `range` is valid before the move, `index` after it).
  ///
  /// The default implementation calls ``invalidateAll(_:)``.
  func provider(_ provider: any SectionProvider, didMoveSections range: Range<Int>, to index: Int)
  /// The sections at `indexes` changed as a whole (their element count may differ): reload them.
  ///
  /// The default implementation calls ``invalidateAll(_:)``.
  func provider(_ provider: any SectionProvider, didReloadSectionsAt indexes: IndexSet)
}

extension SectionProviderUpdateDelegate {
  /// Reports the move as ``invalidateAll(_:)``: a delegate written before section moves existed
  /// reloads, which is always correct.
  public func provider(
    _ provider: any SectionProvider, didMoveSections range: Range<Int>, to index: Int
  ) {
    invalidateAll(provider)
  }
  /// Reports the reload as ``invalidateAll(_:)``: a delegate written before section reloads
  /// existed reloads everything, which is always correct.
  public func provider(_ provider: any SectionProvider, didReloadSectionsAt indexes: IndexSet) {
    invalidateAll(provider)
  }
}
