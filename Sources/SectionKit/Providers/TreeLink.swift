import Foundation

/// What a parent in a tree knows of one of its children: the parent itself, where the child was
/// last found among the parent's children, where a section was last found among the mapping's
/// sections, and the brackets the child opened and has not closed.
///
/// SectionKit's built-in sections (``ArraySection``, ``SingleElementSection``) inherit it, so that
/// each carries its place in its parent itself, where every section once had an object of its own
/// for it (about 54 bytes a section). It has no public members and cannot be subclassed outside
/// SectionKit: its initializer is internal.
nonisolated open class TreeLink {
  /// A link with no parent yet.
  init() {}

  /// The parent; `nil` once the child is detached (``detachFromOwner()``) or before it joins one.
  ///
  /// Not `weak`: the parent keeps its children and detaches them when it detaches the child or is
  /// released (``releaseDescendants(_:)``, ``SectionProviderMapping/detach()``), so it never
  /// dangles, and each level of a climb saves a weak load (a climb reads it once per level).
  /// Its type is ``ownerKind``.
  final var ownerObject: AnyObject? { unmanagedOwner?.takeUnretainedValue() }
  /// ``ownerObject``, stored unmanaged so that a climb can use it without retaining it
  /// (``carryOwnBatch(_:)``).
  final private(set) var unmanagedOwner: Unmanaged<AnyObject>?
  /// Brackets the child opened through this link and has not closed (2 bytes: at most 32,767
  /// open at once through one link; one more traps, naming the count).
  final var openBrackets: Int {
    get { Int(storedOpenBrackets) }
    set {
      precondition(
        newValue <= Int(Int16.max),
        "TreeLink.openBrackets: \(newValue) brackets open at once through one link; at most "
          + "\(Int16.max) (a willBeginUpdating without its didEndUpdating, over and over?)")
      storedOpenBrackets = Int16(truncatingIfNeeded: newValue)
    }
  }
  /// Where the child was last found among the parent's children: a guess, checked before use.
  final var position: Int {
    get { Int(storedPosition) }
    set { storedPosition = Int32(truncatingIfNeeded: newValue) }
  }
  /// Where the child, a section, was last found among the mapping's sections (its global index):
  /// written by the mapping when it refreshes its lookup index, checked by identity before use.
  final var sectionIndex: Int {
    get { Int(storedSectionIndex) }
    set { storedSectionIndex = Int32(truncatingIfNeeded: newValue) }
  }
  // The guesses take 4 bytes each, the open brackets 2, the owner's kind and the three marks one
  // byte together (every section carries them: 11 bytes after the owner, so that a built-in
  // section's mutation record and bracket fill the rest of its fifth word; see
  // `Docs/Performance.md`, Memory). Neither guess can exceed `Int32.max`: 2³¹ sections would
  // take more than 100 GB.
  private final var storedPosition: Int32 = 0
  private final var storedSectionIndex: Int32 = -1
  private final var storedOpenBrackets: Int16 = 0
  /// The owner's kind in the low two bits, ``coversElementEvents``, ``reportsToOwner`` and
  /// ``hasCustomDelegate`` above.
  private final var flags: UInt8 = 0

  /// The type of ``ownerObject``.
  final var ownerKind: LinkOwnerKind { LinkOwnerKind(rawValue: flags & 3)! }

  /// Whether the child, a section inserted in the open batch of the coordinator above, may drop
  /// its element events instead of sending them: the coordinator ignores them (the insertion
  /// covers them) and every node between is a built-in provider passing them on through its
  /// link, so no one else hears them. Set by the coordinator, and cleared when the batch ends or
  /// anything on the way up changes (see `Coordinator+InsertedSections.swift`).
  final var coversElementEvents: Bool {
    get { flags & 4 != 0 }
    set { flags = newValue ? flags | 4 : flags & ~4 }
  }

  /// Whether the child, a built-in section that is its own link, reports its changes through
  /// itself to its owner (its ``Section/updateDelegate`` is its parent); `false` while it has a
  /// delegate of the user's or none. A separate link (``ChildLink``) is what its child's delegate
  /// is set to, and does not use this mark.
  final var reportsToOwner: Bool {
    get { flags & 8 != 0 }
    set { flags = newValue ? flags | 8 : flags & ~8 }
  }

  /// Whether the child, a built-in section that is its own link, has an entry in
  /// ``CustomSectionDelegates`` (a delegate of the user's was set on it).
  final var hasCustomDelegate: Bool {
    get { flags & 16 != 0 }
    set { flags = newValue ? flags | 16 : flags & ~16 }
  }

  deinit {
    if hasCustomDelegate { CustomSectionDelegates.shared.remove(self) }
  }

  /// The child behind this link: the link itself for a built-in section.
  var child: SectionProviderChild { preconditionFailure("TreeLink.child: no child") }

  /// The child behind this link as a section, without wrapping it in a ``SectionProviderChild``
  /// (a lookup reads the mapping's list of sections through it); traps when the child is a
  /// provider.
  var linkedSection: any Section {
    preconditionFailure("TreeLink.linkedSection: \(type(of: self)) holds no section")
  }

  /// The child as an object, for identity comparisons.
  final var childObject: AnyObject { child.object }

  /// Leads this link to `owner` (at child position ``position``).
  final func attach<Owner: LinkOwner>(to owner: Owner) {
    unmanagedOwner = Unmanaged.passUnretained(owner)
    flags = (flags & ~3) | Owner.linkOwnerKind.rawValue
  }

  /// Leads this link to no parent: what the child sends through it goes nowhere.
  final func detachFromOwner() { unmanagedOwner = nil }

  /// The parent as a ``LinkOwner``; `nil` once the child is detached.
  final var owner: (any LinkOwner)? {
    guard let object = ownerObject else { return nil }
    switch ownerKind {
    case .composed: return unsafeDowncast(object, to: ComposedSectionProvider.self)
    case .segmented: return unsafeDowncast(object, to: SegmentedSectionProvider.self)
    case .mapping: return unsafeDowncast(object, to: SectionProviderMapping.self)
    }
  }

  /// Carries `hop` up from this link to the top of the tree.
  final func carry(_ hop: Hop) {
    var hop = hop
    var link = self
    while let object = link.ownerObject {
      let next: (Hop, TreeLink)?
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

  /// Carries one element event of the child, a section, unless its events are covered.
  final func carryElement(_ change: ElementChange) {
    if coversElementEvents { return }
    carry(Hop(event: .element(change, inSection: 0)))
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
  final func carryOwnBatch(_ change: ElementChange) {
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

  /// The built-in section behind this link changed its delegate: sections override it to forget
  /// a delegate of the user's and what their bracket announced.
  func linkDidChange() {}
}
