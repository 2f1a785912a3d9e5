import Foundation

/// A source of elements: the leaf of a SectionKit tree.
///
/// A section knows how many elements it holds and tells its ``updateDelegate`` about every change,
/// one event per element, in the section's own (local) indexes `0..<numberOfElements`. Events that
/// belong together are bracketed by ``SectionUpdateDelegate/willBeginUpdating(_:)`` and
/// ``SectionUpdateDelegate/didEndUpdating(_:)``; the tree above turns each outermost bracket into
/// one batch for the view.
///
/// Conforming types hold the delegate **weakly** (`public weak var updateDelegate`). A section has at
/// most one parent at a time: the provider it is added to sets the delegate (to an internal object
/// that forwards each event to that provider, which keeps it alive), and adding it to a second
/// parent traps.
///
/// ```swift
/// final class Clock: Section {
///     weak var updateDelegate: (any SectionUpdateDelegate)?
///     private(set) var ticks: [Date] = []
///     var numberOfElements: Int { ticks.count }
///
///     func tick() {
///         updateDelegate?.willBeginUpdating(self)
///         ticks.append(Date())
///         updateDelegate?.section(self, didInsertElementAt: ticks.count - 1)
///         updateDelegate?.didEndUpdating(self)
///     }
/// }
/// ```
///
/// ``ArraySection`` and ``SingleElementSection`` are the ready-made sections.
public protocol Section: AnyObject {
  /// The number of elements in this section.
  var numberOfElements: Int { get }

  /// The object told about this section's changes; in a tree, set by the section's parent provider
  /// to the link that forwards the events to it.
  ///
  /// Conforming types declare it `weak`.
  var updateDelegate: (any SectionUpdateDelegate)? { get set }

  /// SectionKit's own: the link a built-in section is (``ArraySection`` and
  /// ``SingleElementSection`` answer with themselves, unretained), `nil` for any other section.
  /// Do not implement it; the default answers `nil`.
  ///
  /// A lookup finds a built-in section's place through it with one witness call and no retain,
  /// where a cast to the class ``TreeLink`` walks the section's class hierarchy and retains the
  /// result (see `Docs/Performance.md`).
  var _sectionKitLink: Unmanaged<TreeLink>? { get }
}

extension Section {
  /// `nil`: a section of the user's is not a link of SectionKit's.
  public var _sectionKitLink: Unmanaged<TreeLink>? { nil }
}

/// Receives the changes of a ``Section``, in the section's local indexes.
///
/// Each element event describes one step applied to the state left by the previous event: a
/// removal's index is valid before it, an insertion's index after it, and a move goes from the
/// index before it to the index after it (as `Array.remove(at:)` then `Array.insert(_:at:)`).
/// The section has already changed when an event arrives.
public protocol SectionUpdateDelegate: AnyObject {
  /// The section is about to emit one or more related events.
  func willBeginUpdating(_ section: any Section)
  /// The section emitted the last event of the bracket opened by
  /// ``SectionUpdateDelegate/willBeginUpdating(_:)``.
  func didEndUpdating(_ section: any Section)
  /// Anything in the section may have changed, including its count: reload it whole.
  func invalidateAll(_ section: any Section)
  /// An element was inserted at `index` (valid after the insertion).
  func section(_ section: any Section, didInsertElementAt index: Int)
  /// The element at `index` (valid before the removal) was removed.
  func section(_ section: any Section, didRemoveElementAt index: Int)
  /// The element at `index` changed its content but kept its identity and position.
  func section(_ section: any Section, didUpdateElementAt index: Int)
  /// The element at `index` was moved to `newIndex` (remove, then insert).
  func section(_ section: any Section, didMoveElementAt index: Int, to newIndex: Int)
  /// The element at `index` changed its content but kept its identity, its position and its cell
  /// kind: a view may refresh the cell it shows instead of replacing it. A delegate that does not
  /// implement it hears ``section(_:didUpdateElementAt:)``.
  func section(_ section: any Section, didReconfigureElementAt index: Int)
}

extension SectionUpdateDelegate {
  /// Reports the reconfigure as an update (a reload): the default for a delegate that does not
  /// tell the two apart.
  public func section(_ section: any Section, didReconfigureElementAt index: Int) {
    self.section(section, didUpdateElementAt: index)
  }
}

/// One element-level change of a section, in the section's local indexes.
///
/// The same step semantics as ``SectionUpdateDelegate``: each change applies to the state left by
/// the previous one.
public enum ElementChange: Hashable, Sendable, Codable {
  /// An element was inserted at this index (valid after the insertion).
  case insert(Int)
  /// The element at this index (valid before the removal) was removed.
  case remove(Int)
  /// The element at this index changed its content.
  case update(Int)
  /// The element at this index changed its content, keeping its identity and its cell kind: the
  /// view may keep the cell and refresh it (``Changeset/reconfiguredElements``). An update of the
  /// same element in the batch wins over it.
  case reconfigure(Int)
  /// The element at `from` was removed and inserted at `to`.
  case move(from: Int, to: Int)
}

extension SectionUpdateDelegate {
  /// Delivers `change` through the matching element method.
  func section(_ section: any Section, didChange change: ElementChange) {
    switch change {
    case .insert(let index): self.section(section, didInsertElementAt: index)
    case .remove(let index): self.section(section, didRemoveElementAt: index)
    case .update(let index): self.section(section, didUpdateElementAt: index)
    case .reconfigure(let index): self.section(section, didReconfigureElementAt: index)
    case .move(let from, let to): self.section(section, didMoveElementAt: from, to: to)
    }
  }
}
