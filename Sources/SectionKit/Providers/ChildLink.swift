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
  func take(_ hop: Hop, from link: ChildLink) -> (Hop, ChildLink)?
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

/// The delegate of one child: the pipe from a section or provider to its parent (a built-in
/// provider or a mapping).
///
/// The parent creates the link when the child joins it and keeps it alive; the child holds it
/// weakly, as its `updateDelegate`. Each call the child makes becomes a ``Hop`` carried up with a
/// loop, one iteration per level, so an event from any depth costs no stack frames.
final class ChildLink: SectionUpdateDelegate, SectionProviderUpdateDelegate {
  /// The parent; `nil` once the child is detached (``detachFromOwner()``).
  ///
  /// Not `weak`: the parent keeps its links and detaches them when it detaches the child or is
  /// released (``releaseDescendants(_:)``, ``SectionProviderMapping/detach()``), so it never
  /// dangles, and each level of a climb saves a weak load (a climb reads it once per level).
  /// Its type is ``ownerKind``.
  var ownerObject: AnyObject? { unmanagedOwner?.takeUnretainedValue() }
  /// ``ownerObject``, stored unmanaged so that a climb can use it without retaining it
  /// (``carryOwnBatch(_:)``).
  private(set) var unmanagedOwner: Unmanaged<AnyObject>?
  /// The child: the parent keeps its children here (its list of links is its list of children).
  let child: SectionProviderChild
  /// Brackets the child opened through this link and has not closed (4 bytes: 2³¹ brackets open
  /// at once through one link would trap on the conversion).
  var openBrackets: Int {
    get { Int(storedOpenBrackets) }
    set { storedOpenBrackets = Int32(newValue) }
  }
  /// Where the child was last found among the parent's children: a guess, checked before use.
  var position: Int {
    get { Int(storedPosition) }
    set { storedPosition = Int32(truncatingIfNeeded: newValue) }
  }
  /// Where the child, a section, was last found among the mapping's sections (its global index):
  /// written by the mapping when it refreshes its lookup index, checked by identity before use.
  var sectionIndex: Int {
    get { Int(storedSectionIndex) }
    set { storedSectionIndex = Int32(truncatingIfNeeded: newValue) }
  }
  // The counts and guesses take 4 bytes each (every section has a link). Neither guess can exceed
  // `Int32.max`: 2³¹ sections would take more than 100 GB.
  private var storedOpenBrackets: Int32 = 0
  private var storedPosition: Int32 = 0
  private var storedSectionIndex: Int32 = -1
  /// The type of ``ownerObject``.
  let ownerKind: LinkOwnerKind
  /// Whether the child, a section inserted in the open batch of the coordinator above, may drop
  /// its element events instead of sending them: the coordinator ignores them (the insertion
  /// covers them) and every node between is a built-in provider passing them on through its
  /// link, so no one else hears them. Set by the coordinator, and cleared when the batch ends or
  /// anything on the way up changes (see `Coordinator+InsertedSections.swift`).
  var coversElementEvents = false

  init<Owner: LinkOwner>(owner: Owner, child: SectionProviderChild) {
    self.unmanagedOwner = Unmanaged.passUnretained(owner)
    self.child = child
    self.ownerKind = Owner.linkOwnerKind
  }

  /// The child as an object, for identity comparisons.
  var childObject: AnyObject { child.object }

  /// The parent as a ``LinkOwner``; `nil` once the child is detached.
  var owner: (any LinkOwner)? {
    guard let object = ownerObject else { return nil }
    switch ownerKind {
    case .composed: return unsafeDowncast(object, to: ComposedSectionProvider.self)
    case .segmented: return unsafeDowncast(object, to: SegmentedSectionProvider.self)
    case .mapping: return unsafeDowncast(object, to: SectionProviderMapping.self)
    }
  }

  /// Leads this link to no parent: what the child sends through it goes nowhere.
  func detachFromOwner() { unmanagedOwner = nil }

  /// Carries `hop` up from this link to the top of the tree.
  func carry(_ hop: Hop) {
    var hop = hop
    var link = self
    while let object = link.ownerObject {
      let next: (Hop, ChildLink)?
      switch link.ownerKind {
      case .composed:
        next = unsafeDowncast(object, to: ComposedSectionProvider.self).take(hop, from: link)
      case .segmented:
        next = unsafeDowncast(object, to: SegmentedSectionProvider.self).take(hop, from: link)
      case .mapping:
        next = unsafeDowncast(object, to: SectionProviderMapping.self).take(hop, from: link)
      }
      guard let next else { return }
      (hop, link) = next
    }
  }

  /// Carries an element change of the child, a section, made as a batch of its own: what
  /// `carry(Hop(begin: true, event: .element(change, inSection: 0), end: true))` does, without
  /// building the hop while every provider on the way has its bracket closed and passes it on
  /// through its link (``ProviderNode/passOwnBatch(from:section:)``); the mapping at the top hands
  /// it to its coordinator directly (``SectionProviderMapping/takeOwnBatch(_:inSection:from:)``).
  /// Anywhere else the climb goes on as that hop, from where it is.
  ///
  /// The links and owners on the way are used unretained (each parent keeps its links, and a
  /// link's owner is not a weak reference): a climb retains and releases nothing.
  func carryOwnBatch(_ change: ElementChange) {
    var link = Unmanaged.passUnretained(self)
    var section = 0
    while true {
      let step = link._withUnsafeGuaranteedRef { link -> OwnBatchStep in
        guard let owner = link.unmanagedOwner else { return .dropped }
        let kind = link.ownerKind
        return owner._withUnsafeGuaranteedRef { object -> OwnBatchStep in
          switch kind {
          case .composed:
            return unsafeDowncast(object, to: ComposedSectionProvider.self)
              .passOwnBatch(from: link, section: &section)
          case .segmented:
            return unsafeDowncast(object, to: SegmentedSectionProvider.self)
              .passOwnBatch(from: link, section: &section)
          case .mapping:
            unsafeDowncast(object, to: SectionProviderMapping.self)
              .takeOwnBatch(change, inSection: section, from: link)
            return .dropped
          }
        }
      }
      switch step {
      case .up(let next): link = next
      case .dropped: return
      case .general:
        link._withUnsafeGuaranteedRef {
          $0.carry(Hop(begin: true, event: .element(change, inSection: section), end: true))
        }
        return
      }
    }
  }

  func willBeginUpdating(_ section: any Section) { carry(Hop(begin: true)) }
  func didEndUpdating(_ section: any Section) { carry(Hop(end: true)) }
  func invalidateAll(_ section: any Section) { carry(Hop(event: .invalidateAll)) }
  func section(_ section: any Section, didInsertElementAt index: Int) {
    if coversElementEvents { return }
    carry(Hop(event: .element(.insert(index), inSection: 0)))
  }
  func section(_ section: any Section, didRemoveElementAt index: Int) {
    if coversElementEvents { return }
    carry(Hop(event: .element(.remove(index), inSection: 0)))
  }
  func section(_ section: any Section, didUpdateElementAt index: Int) {
    if coversElementEvents { return }
    carry(Hop(event: .element(.update(index), inSection: 0)))
  }
  func section(_ section: any Section, didMoveElementAt index: Int, to newIndex: Int) {
    if coversElementEvents { return }
    carry(Hop(event: .element(.move(from: index, to: newIndex), inSection: 0)))
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
  let delegate: AnyObject?
  if let section = node as? any Section {
    delegate = section.updateDelegate
  } else if let provider = node as? any SectionProvider {
    delegate = provider.updateDelegate
  } else {
    return nil
  }
  if let link = delegate as? ChildLink { return link.ownerObject }
  return delegate
}

/// The type of the parent behind `delegate`, for trap messages.
func parentDescription(_ delegate: AnyObject) -> String {
  if let link = delegate as? ChildLink, let owner = link.ownerObject {
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
func uncoverElementEvents(above link: ChildLink) {
  var owner = link.owner
  while let node = owner {
    if let coordinator = node.presentingCoordinator {
      coordinator.uncoverElementEvents()
      return
    }
    owner = node.uplink?.owner
  }
}
