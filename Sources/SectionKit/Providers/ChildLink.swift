import Foundation

/// One change travelling up the tree, in the coordinates of the node that passes it on.
///
/// Brackets travel beside it, as the flags of a ``Hop``. A new kind of change (a section move, a
/// section reload) is one more case here, re-indexed once in ``ProviderNode`` and turned into
/// the mapping's output once in ``SectionProviderMapping``.
enum TreeEvent {
  /// Anything may have changed: reload.
  case invalidateAll
  /// `sections` were inserted at `indexes` (valid after the insertion).
  case insertSections([any Section], at: IndexSet)
  /// `sections` were removed from `indexes` (valid before the removal).
  case removeSections([any Section], at: IndexSet)
  /// An element of the section at this index changed.
  case element(ElementChange, inSection: Int)
  /// The sections at `range` moved, as a block, so that the first is at `to` after the move
  /// (step semantics: a removal of the block, then its insertion).
  case moveSections(Range<Int>, to: Int)
  /// The sections at `indexes` changed as a whole: reload them.
  case reloadSections(IndexSet)
  /// The elements of the section at this index changed as `diff` says, all at once: one event
  /// for a whole diff (see ``ElementDiff``; its ``ElementDiff/steps`` are the same change as
  /// element events).
  case elements(ElementDiff, inSection: Int)
}

/// What crosses one link in one step: a bracket opened, an event, a bracket closed, in this order.
struct Hop {
  var begin = false
  var event: TreeEvent?
  var end = false

  var isEmpty: Bool { !begin && event == nil && !end }

  /// Adds `event` as `delivery` says (wrapped in its own bracket, announcing the open one, or
  /// alone).
  mutating func add(_ event: TreeEvent, _ delivery: UpdateBracket.Delivery) {
    switch delivery {
    case .wrapped:
      begin = true
      end = true
    case .announced:
      begin = true
    case .plain:
      break
    }
    self.event = event
  }
}

/// The node a link leads to: a built-in provider or a mapping.
protocol LinkOwner: AnyObject {
  /// Takes what the child behind `link` sent, in the child's coordinates; returns what goes on
  /// up and the link it goes through, or `nil` when nothing goes on by a link.
  func take(_ hop: Hop, from link: TreeLink) -> (Hop, TreeLink)?
  /// The object the owner itself reports to (a link, a custom delegate, a coordinator).
  var delegateObject: AnyObject? { get }
  /// The coordinator presenting this owner's tree, when the owner is that coordinator's mapping.
  var presentingCoordinator: Coordinator? { get }
  /// Which of the three owner types this is.
  static var linkOwnerKind: LinkOwnerKind { get }
  /// The link the owner passes what it takes on through: a built-in provider's link to its
  /// parent or mapping; `nil` for a mapping, or a provider with a delegate of the user's or none.
  var uplink: ChildLink? { get }
}

/// The type of a link's owner: a link stores it in one byte beside a plain object reference, where
/// an `any LinkOwner` takes 16 bytes, and a climb calls the owner's `take` directly.
enum LinkOwnerKind: UInt8 {
  case composed, segmented, mapping
}

/// The delegate of one child that is not a built-in section (a provider, or a section of the
/// user's): the pipe from it to its parent (a built-in provider or a mapping). A built-in section
/// is its own link (it inherits ``TreeLink``).
///
/// The parent creates the link when the child joins it and keeps it alive; the child holds it
/// weakly, as its `updateDelegate`. Each call the child makes becomes a ``Hop`` carried up with a
/// loop, one iteration per level, so an event from any depth costs no stack frames.
final class ChildLink: TreeLink, SectionUpdateDelegate, SectionProviderUpdateDelegate {
  /// The child: the parent keeps its children here (its list of links is its list of children).
  let storedChild: SectionProviderChild

  init<Owner: LinkOwner>(owner: Owner, child: SectionProviderChild) {
    self.storedChild = child
    super.init()
    attach(to: owner)
  }

  override var child: SectionProviderChild { storedChild }

  override var linkedSection: any Section {
    guard case .section(let section) = storedChild else {
      preconditionFailure("ChildLink.linkedSection: the child is a provider")
    }
    return section
  }

  func willBeginUpdating(_ section: any Section) { carry(Hop(begin: true)) }
  func didEndUpdating(_ section: any Section) { carry(Hop(end: true)) }
  func invalidateAll(_ section: any Section) { carry(Hop(event: .invalidateAll)) }
  func section(_ section: any Section, didInsertElementAt index: Int) {
    carryElement(.insert(index))
  }
  func section(_ section: any Section, didRemoveElementAt index: Int) {
    carryElement(.remove(index))
  }
  func section(_ section: any Section, didUpdateElementAt index: Int) {
    carryElement(.update(index))
  }
  func section(_ section: any Section, didReconfigureElementAt index: Int) {
    carryElement(.reconfigure(index))
  }
  func section(_ section: any Section, didMoveElementAt index: Int, to newIndex: Int) {
    carryElement(.move(from: index, to: newIndex))
  }

  func willBeginUpdating(_ provider: any SectionProvider) { carry(Hop(begin: true)) }
  func didEndUpdating(_ provider: any SectionProvider) { carry(Hop(end: true)) }
  func invalidateAll(_ provider: any SectionProvider) { carry(Hop(event: .invalidateAll)) }
  func provider(
    _ provider: any SectionProvider, didInsertSections sections: [any Section], at indexes: IndexSet
  ) {
    carry(Hop(event: .insertSections(sections, at: indexes)))
  }
  func provider(
    _ provider: any SectionProvider, didRemoveSections sections: [any Section], at indexes: IndexSet
  ) {
    carry(Hop(event: .removeSections(sections, at: indexes)))
  }
  func provider(
    _ provider: any SectionProvider, section: any Section, at sectionIndex: Int,
    didChange change: ElementChange
  ) {
    carry(Hop(event: .element(change, inSection: sectionIndex)))
  }
  func provider(_ provider: any SectionProvider, didMoveSections range: Range<Int>, to index: Int) {
    carry(Hop(event: .moveSections(range, to: index)))
  }
  func provider(_ provider: any SectionProvider, didReloadSectionsAt indexes: IndexSet) {
    carry(Hop(event: .reloadSections(indexes)))
  }
}

/// The parent of a section or provider as an object: the owner of its link, or a custom delegate
/// itself.
func parentObject(of node: AnyObject) -> AnyObject? {
  if let own = node as? TreeLink, own.reportsToOwner { return own.ownerObject }
  let delegate: AnyObject?
  if let section = node as? any Section {
    delegate = section.updateDelegate
  } else if let provider = node as? any SectionProvider {
    delegate = provider.updateDelegate
  } else {
    return nil
  }
  if let delegate, let link = link(behind: delegate) { return link.ownerObject }
  return delegate
}

/// The link a delegate object stands for: a ``ChildLink``, or the view of a built-in section's own
/// link that its ``Section/updateDelegate`` returns; `nil` for any other object.
func link(behind delegate: AnyObject) -> TreeLink? {
  if let link = delegate as? ChildLink { return link }
  return (delegate as? SectionLinkDelegate)?.link
}

/// The link `section` reports its changes through, when it is one of a built-in parent: the
/// section itself when it is a built-in one reporting to its parent, or the ``ChildLink`` it
/// reports to; `nil` for a section reporting to anything else (a custom provider, a delegate of
/// the user's) or to no one.
func reportingLink(of section: any Section) -> TreeLink? {
  if let own = section._sectionKitLink?.takeUnretainedValue() {
    return own.reportsToOwner ? own : nil
  }
  guard let link = section.updateDelegate as? ChildLink, link.childObject === section else {
    return nil
  }
  return link
}

/// The type of the parent behind `delegate`, for trap messages.
func parentDescription(_ delegate: AnyObject) -> String {
  if let link = link(behind: delegate), let owner = link.ownerObject {
    return "\(type(of: owner))"
  }
  return "\(type(of: delegate))"
}

extension Hop {
  /// Delivers this hop, sent by `provider`, to a delegate that is not a link (a custom object
  /// the user set as the built-in provider's delegate).
  func deliver(to delegate: any SectionProviderUpdateDelegate, from provider: any ProviderNode) {
    if begin { delegate.willBeginUpdating(provider) }
    switch event {
    case .invalidateAll: delegate.invalidateAll(provider)
    case .insertSections(let sections, let indexes):
      delegate.provider(provider, didInsertSections: sections, at: indexes)
    case .removeSections(let sections, let indexes):
      delegate.provider(provider, didRemoveSections: sections, at: indexes)
    case .element(let change, let index):
      delegate.provider(
        provider, section: sectionOf(provider, at: index), at: index, didChange: change)
    case .moveSections(let range, let index):
      delegate.provider(provider, didMoveSections: range, to: index)
    case .reloadSections(let indexes):
      delegate.provider(provider, didReloadSectionsAt: indexes)
    case .elements(let diff, let index):
      let section = sectionOf(provider, at: index)
      for change in diff.steps {
        delegate.provider(provider, section: section, at: index, didChange: change)
      }
    case nil: break
    }
    if end { delegate.didEndUpdating(provider) }
  }
}

/// Whether what `owner` passes on reaches `mapping` through links only: `owner` is the mapping,
/// or a built-in provider whose delegate is its link to a node for which this holds.
///
/// - Complexity: O(depth).
func passesOnThroughLinks(_ owner: any LinkOwner, to mapping: SectionProviderMapping) -> Bool {
  var node = owner
  while node !== mapping {
    guard let link = node.uplink, link.childObject === node, let next = link.owner else {
      return false
    }
    node = next
  }
  return true
}

/// A node that reported through `link` gets another delegate (its parent detaches it, or the
/// user sets one): the sections below it may have another listener now, or none. The coordinator
/// presenting the tree `link` led to, if any, stops its sections from dropping element events.
///
/// - Complexity: O(depth).
func uncoverElementEvents(above link: TreeLink) {
  var owner = link.owner
  while let node = owner {
    if let coordinator = node.presentingCoordinator {
      coordinator.uncoverElementEvents()
      return
    }
    owner = node.uplink?.owner
  }
}
