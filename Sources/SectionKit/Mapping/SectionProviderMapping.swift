import Foundation

/// Flattens a tree of providers and sections into global coordinates, and passes every change of
/// the tree on in those coordinates.
///
/// A global section index counts every presented section of the tree, depth-first; a global
/// `IndexPath` is `[section, element]`.
///
/// ```swift
/// let root = ComposedSectionProvider()
/// let family: ArraySection<String> = ["Mum", "Dad"]
/// let friends: ArraySection<String> = ["Ada"]
/// root.append(family)
/// root.append(friends)
///
/// let mapping = SectionProviderMapping(sectionProvider: root)
/// mapping.indexPath(for: 0, in: friends)          // [1, 0]
/// mapping.sectionAndIndex(for: [0, 1]).index      // 1 (in family)
/// ```
///
/// The mapping becomes the root provider's delegate (through an internal link object); a root can
/// have one mapping at a time. Events reach the ``delegate`` as ``Event`` values, each outermost batch bracketed by exactly one
/// ``Event/willBeginUpdating`` / ``Event/didEndUpdating`` pair.
///
/// - Complexity: `section(at:)` and `sectionAndIndex(for:)` are O(1); `indexPath(for:in:)` and a
///   section's `sectionOffset(for:)` are O(1) amortized (an index of the sections by identity); a
///   provider's `sectionOffset(for:)` is O(d) for a provider d levels deep, using the providers'
///   cached offsets; forwarding an event costs O(1) plus, for a section insertion or removal,
///   moving the flat list of sections.
public final class SectionProviderMapping {
  /// A change of the tree in global coordinates.
  ///
  /// The step semantics of ``SectionUpdateDelegate`` apply: each event is relative to the state
  /// left by the previous one.
  public enum Event: Hashable, Sendable, CustomStringConvertible {
    /// A batch starts.
    case willBeginUpdating
    /// The batch started by ``willBeginUpdating`` ends.
    case didEndUpdating
    /// Anything may have changed: reload.
    case invalidateAll
    /// Sections were inserted at these global indexes (valid after the insertion).
    case insertSections(IndexSet)
    /// Sections were removed from these global indexes (valid before the removal).
    case removeSections(IndexSet)
    /// An element of the section at this global index changed.
    case element(ElementChange, inSection: Int)
    /// The section at global index `from` moved to `to` (step semantics: `from` is valid before
    /// the move, `to` after it). A provider that moves a child with several sections sends one
    /// such event per section.
    case moveSection(from: Int, to: Int)
    /// The sections at these global indexes changed as a whole: reload them.
    case reloadSections(IndexSet)

    /// `begin`, `insertSections(1-3)`, `insert([2, 0])`, `move([0, 1] → [0, 3])`, ….
    public var description: String {
      switch self {
      case .willBeginUpdating: "begin"
      case .didEndUpdating: "end"
      case .invalidateAll: "invalidateAll"
      case .insertSections(let indexes): "insertSections(\(describe(indexes)))"
      case .removeSections(let indexes): "removeSections(\(describe(indexes)))"
      case .element(.insert(let index), let section): "insert([\(section), \(index)])"
      case .element(.remove(let index), let section): "remove([\(section), \(index)])"
      case .element(.update(let index), let section): "update([\(section), \(index)])"
      case .element(.reconfigure(let index), let section): "reconfigure([\(section), \(index)])"
      case .element(.move(let from, let to), let section):
        "move([\(section), \(from)] → [\(section), \(to)])"
      case .moveSection(let from, let to): "moveSection(\(from) → \(to))"
      case .reloadSections(let indexes): "reloadSections(\(describe(indexes)))"
      }
    }
  }

  /// The root of the tree.
  public let sectionProvider: any SectionProvider
  /// The object told about every change, in global coordinates.
  ///
  /// Held weakly.
  public var delegate: (any SectionProviderMappingDelegate)? {
    get { coordinator ?? customDelegate }
    set {
      // The sections the old coordinator let drop their element events have a new listener.
      coordinator?.uncoverElementEvents()
      let coordinator = newValue as? Coordinator
      self.coordinator = coordinator?.mapping === self ? coordinator : nil
      customDelegate = self.coordinator == nil ? newValue : nil
    }
  }
  // The two references behind `delegate` skip Swift's dynamic exclusivity checks: `take(_:from:)`
  // reads them on every hop, and the checks cost, with those of the coordinator's `mapping` and
  // `adapter`, 8.3% of the instructions of `sectionkit-bench churn` (callgrind, release: 5.04 G
  // unchecked, 5.50 G checked). Only the setter above writes them, and it calls out to nothing.
  /// ``delegate`` when it is not the coordinator presenting this mapping.
  @exclusivity(unchecked) private weak var customDelegate: (any SectionProviderMappingDelegate)?
  /// ``delegate`` when it is the coordinator presenting this mapping (whose ``Coordinator/mapping``
  /// is this one). Not `weak`: a weak reference to the coordinator would send every retain and
  /// release of it, several per event, down the runtime's slow path: 8.0% of the instructions of
  /// `sectionkit-bench churn` (callgrind, release: 4.64 G, 5.04 G with a weak reference). It never
  /// dangles: the coordinator clears it when it replaces its mapping and when it is released.
  @exclusivity(unchecked) unowned(unsafe) private(set) var coordinator: Coordinator?

  /// Every presented section, in global order.
  ///
  /// - Complexity: O(n): built on each read from the mapping's list of sections, which keeps one
  ///   8-byte reference a section (an array of sections takes 16). ``section(at:)`` and
  ///   ``numberOfSections`` are O(1).
  public var sections: [any Section] { list.sections }
  /// Every presented section, in global order, as the links that hold them.
  ///
  /// It and `positionsValidBelow` skip Swift's dynamic exclusivity checks: every lookup reads
  /// them, and the checks were a tenth of a lookup round trip's instructions (callgrind,
  /// `sectionkit-bench lookup`). They are only written by the mapping's own methods, which call
  /// out to no user code while they do.
  @exclusivity(unchecked) private(set) var list: SectionList
  /// The root provider's delegate; it counts the brackets the root has open.
  private var rootLink: ChildLink!
  /// The lookup index: the global index of each presented section, filled on the first lookup.
  /// A section that reports through a link of its own (every child of a built-in provider) keeps
  /// its index in that link (`TreeLink.sectionIndex`: a built-in section is its own link), so
  /// that a lookup hashes nothing; any
  /// other section (a child of a custom provider) has an entry here, by identity. Entries below
  /// `positionsValidBelow` are current, and every entry is checked against ``sections`` before
  /// use; a section insertion, removal or move at global index `g` only lowers that bound to `g`,
  /// and the next lookup that misses refreshes the entries from there: no more than the mapping
  /// already moved in ``sections`` for that change.
  private var positions: [ObjectIdentifier: Int] = [:]
  @exclusivity(unchecked) private var positionsValidBelow = 0
  /// How many entries of the position index were (re)computed, for tests that count work.
  private(set) var refreshedPositions = 0
  /// How many sections the lookup index keeps by identity (those without a link of their own),
  /// for tests.
  var hashedPositions: Int { positions.count }

  /// Creates a mapping for the tree rooted at `sectionProvider` and sets the provider's delegate to the
  /// link that forwards its events here.
  ///
  /// Traps when `sectionProvider` already has a delegate (a parent or another mapping).
  public init(sectionProvider provider: any SectionProvider) {
    precondition(
      provider.updateDelegate == nil,
      "SectionProviderMapping(sectionProvider:): \(type(of: provider)) already has a delegate "
        + "(\(parentDescription(provider.updateDelegate!))); a provider in a tree or with a "
        + "mapping cannot be the root of another mapping")
    self.sectionProvider = provider
    self.list = Self.presented(by: provider)
    rootLink = ChildLink(owner: self, child: .provider(provider))
    provider.updateDelegate = rootLink
  }

  deinit { detach() }

  /// The sections `provider` presents, as the mapping keeps them.
  private static func presented(by provider: any SectionProvider) -> SectionList {
    if let node = provider as? any ProviderNode { return presentedSectionList(of: node) }
    return SectionList(provider.sections)
  }

  /// Stops listening to the root provider (which may then join a tree or another mapping).
  func detach() {
    if sectionProvider.updateDelegate === rootLink { sectionProvider.updateDelegate = nil }
    rootLink.detachFromOwner()
  }

  /// The number of presented sections.
  ///
  /// - Complexity: O(1).
  public var numberOfSections: Int { list.count }

  /// The section at global index `index`; traps when out of range.
  ///
  /// - Complexity: O(1).
  public func section(at index: Int) -> any Section {
    checkSection(index, "section(at:)")
    return list[index]
  }

  /// The number of elements in the section at global index `index`; traps when out of range.
  public func numberOfElements(inSection index: Int) -> Int {
    checkSection(index, "numberOfElements(inSection:)")
    return list[index].numberOfElements
  }

  /// The global index of `section`, or `nil` when it is not presented.
  ///
  /// - Complexity: O(1) amortized: one hash lookup; the first lookup after sections were inserted
  ///   or removed at global index `g` refreshes the index from `g` on.
  public func sectionOffset(for section: any Section) -> Int? { position(of: section) }

  /// The global index of `provider`'s first section, or `nil` when it is not presented.
  /// - Complexity: O(depth).
  public func sectionOffset(for provider: any SectionProvider) -> Int? { offset(of: provider) }

  /// The global index path of element `index` of `section`, or `nil` when the section is not
  /// presented. Traps when `index` is out of the section's range.
  ///
  /// - Complexity: O(1) amortized, as ``sectionOffset(for:)-(Section)``.
  public func indexPath(for index: Int, in section: any Section) -> IndexPath? {
    let count = section.numberOfElements
    precondition(
      index >= 0 && index < count,
      "SectionProviderMapping.indexPath(for:in:): element index \(index) is out of range "
        + "0..<\(count) of \(type(of: section))")
    guard let position = position(of: section) else { return nil }
    return IndexPath(item: index, section: position)
  }

  /// The section and local element index behind a global index path; traps when the index path
  /// is malformed or out of range.
  ///
  /// - Complexity: O(1).
  public func sectionAndIndex(for indexPath: IndexPath) -> (section: any Section, index: Int) {
    precondition(
      indexPath.count == 2,
      "SectionProviderMapping.sectionAndIndex(for:): \(indexPath) is not a [section, element] path")
    // Each component read once: an `IndexPath` subscript is a call into Foundation.
    let (position, index) = (indexPath[0], indexPath[1])
    let section = self.section(at: position)
    let count = section.numberOfElements
    precondition(
      index >= 0 && index < count,
      "SectionProviderMapping.sectionAndIndex(for:): element index \(index) of \(indexPath) is out "
        + "of range 0..<\(count) (section \(position))")
    return (section, index)
  }

  private func checkSection(_ index: Int, _ operation: String) {
    precondition(
      index >= 0 && index < list.count,
      "SectionProviderMapping.\(operation): section index \(index) is out of range "
        + "0..<\(list.count)")
  }

  /// The global index of `section` from the lookup index, refreshing its stale entries.
  @inline(__always)
  private func position(of section: any Section) -> Int? {
    // A built-in section is its own link: its index is read through it unretained (the caller
    // holds the section).
    if let own = section._sectionKitLink {
      let guess = own._withUnsafeGuaranteedRef { $0.reportsToOwner ? $0.sectionIndex : -1 }
      if guess >= 0, let index = checked(guess, section) { return index }
    }
    let link = ownLink(of: section)
    if let link, let index = checked(link.sectionIndex, section, link) { return index }
    return refreshedPosition(of: section, link)
  }

  /// The link `section` reports through when it is its own: the link of a built-in parent.
  @inline(__always)
  private func ownLink(of section: any Section) -> TreeLink? { reportingLink(of: section) }

  /// `index` when `section` is presented there.
  @inline(__always)
  private func checked(_ index: Int, _ section: any Section, _ link: TreeLink? = nil) -> Int? {
    UInt(bitPattern: index) < UInt(bitPattern: list.count)
      && list.holds(section, at: index, link: link) ? index : nil
  }

  /// The lookup that missed its section's link: the entries of sections without a link of their
  /// own, and the refresh of the stale entries.
  @inline(never)
  private func refreshedPosition(of section: any Section, _ link: TreeLink?) -> Int? {
    guard rootLink.ownerObject != nil else {
      // Replaced in its coordinator, the mapping hears no more changes: it must not write the
      // links, which the mapping now attached to the tree relies on.
      return list.firstIndex { $0 === section }
    }
    func cached() -> Int? {
      checked(link?.sectionIndex ?? positions[ObjectIdentifier(section)] ?? -1, section)
    }
    if link == nil, let index = cached() { return index }
    guard positionsValidBelow < list.count else { return nil }
    for index in positionsValidBelow..<list.count {
      let stale = list[index]
      if let own = ownLink(of: stale) {
        own.sectionIndex = index
      } else {
        positions[ObjectIdentifier(stale)] = index
      }
    }
    refreshedPositions += list.count - positionsValidBelow
    positionsValidBelow = list.count
    return cached()
  }

  /// The index needs refreshing from global section `index` on.
  private func positionsChanged(from index: Int) {
    positionsValidBelow = Swift.min(positionsValidBelow, index)
  }

  private func offset(of node: AnyObject) -> Int? {
    if node === sectionProvider { return 0 }
    if let root = sectionProvider as? any ProviderNode { return root.offset(ofDescendant: node) }
    return list.firstIndex { $0 === node }
  }

  // MARK: Forwarding

  private func send(_ event: Event, to delegate: (any SectionProviderMappingDelegate)?) {
    guard let delegate else { return }
    let wrap = rootLink.openBrackets == 0
    if wrap { delegate.mapping(self, didReceive: .willBeginUpdating) }
    delegate.mapping(self, didReceive: event)
    if wrap { delegate.mapping(self, didReceive: .didEndUpdating) }
  }

  func checkInvariants() {
    #if SECTIONKIT_INTERNAL_CHECKS
      let fresh = sectionProvider.sections
      precondition(fresh.count == list.count, "SectionProviderMapping: section count is stale")
      for (cached, actual) in zip(list, fresh) {
        precondition(cached === actual, "SectionProviderMapping: cached sections are stale")
      }
      precondition(
        positionsValidBelow <= list.count, "SectionProviderMapping: lookup index bound is stale"
      )
      for index in 0..<positionsValidBelow {
        let section = list[index]
        let cached = ownLink(of: section)?.sectionIndex ?? positions[ObjectIdentifier(section)]
        precondition(
          cached == index,
          "SectionProviderMapping: lookup index entry of section \(index) is stale "
            + "(\(cached.map(String.init) ?? "none"))")
      }
    #endif
  }
}

/// Receives the changes of a tree from its ``SectionProviderMapping``, in global coordinates.
public protocol SectionProviderMappingDelegate: AnyObject {
  /// One change, or a bracket, of the tree.
  func mapping(_ mapping: SectionProviderMapping, didReceive event: SectionProviderMapping.Event)
}

/// The mapping is the top of the pipe: it keeps its flat list of sections up to date and passes
/// every event on, in global coordinates, one ``Event/willBeginUpdating`` /
/// ``Event/didEndUpdating`` pair per outermost bracket of the root.
extension SectionProviderMapping: LinkOwner {
  func take(_ hop: Hop, from link: TreeLink) -> (Hop, TreeLink)? {
    // The delegate is read once for the begin and the event (the coordinator does not call
    // out on either), and again for the end, after which the delegate may have changed.
    let delegate = self.delegate
    if hop.begin {
      link.openBrackets += 1
      if link.openBrackets == 1 { delegate?.mapping(self, didReceive: .willBeginUpdating) }
    }
    if let event = hop.event { receive(event, delegate) }
    if hop.end {
      precondition(
        link.openBrackets > 0, "SectionProviderMapping: didEndUpdating without willBeginUpdating")
      link.openBrackets -= 1
      if link.openBrackets == 0 {
        checkInvariants()
        self.delegate?.mapping(self, didReceive: .didEndUpdating)
      }
    }
    return nil
  }

  /// Takes an element change of the root, made as a batch of its own (see
  /// ``TreeLink/carryOwnBatch(_:)``): what ``take(_:from:)`` does with the hop
  /// `(begin, .element(change, section), end)`, calling the coordinator presenting this mapping
  /// directly.
  func takeOwnBatch(_ change: ElementChange, inSection section: Int, from link: TreeLink) {
    guard link.openBrackets == 0, let coordinator, coordinator.mapping === self else {
      _ = take(Hop(begin: true, event: .element(change, inSection: section), end: true), from: link)
      return
    }
    if coordinator.appliesOwnBatchAtOnce {
      checkInvariants()
      coordinator.applyOwnBatch(change, inSection: section)
      return
    }
    // As in `take(_:from:)`; the coordinator does not call out on the begin or the event.
    link.openBrackets = 1
    coordinator.mappingBatchBegan()
    coordinator.record(.element(change, inSection: section))
    link.openBrackets = 0
    checkInvariants()
    coordinator.mappingBatchEnded()
  }

  var delegateObject: AnyObject? { delegate }

  static var linkOwnerKind: LinkOwnerKind { .mapping }

  var presentingCoordinator: Coordinator? {
    coordinator
  }

  /// None: the mapping is the top of the pipe.
  var uplink: ChildLink? { nil }

  private func receive(_ event: TreeEvent, _ delegate: (any SectionProviderMappingDelegate)?) {
    switch event {
    case .invalidateAll:
      list = Self.presented(by: sectionProvider)
      positions.removeAll()
      positionsValidBelow = 0
      send(.invalidateAll, to: delegate)
    case .insertSections(let inserted, let indexes):
      precondition(
        inserted.count == indexes.count,
        "SectionProviderMapping: \(inserted.count) sections inserted at \(indexes.count) indexes")
      if let first = indexes.first { positionsChanged(from: first) }
      var next = 0
      for range in indexes.rangeView {
        list.insert(contentsOf: inserted[next..<next + range.count], at: range.lowerBound)
        next += range.count
      }
      send(.insertSections(indexes), to: delegate)
      coordinator?.coverElementEvents(of: inserted)
    case .removeSections(let removed, let indexes):
      if let first = indexes.first { positionsChanged(from: first) }
      if !positions.isEmpty {
        for section in removed { positions[ObjectIdentifier(section)] = nil }
      }
      for range in indexes.rangeView.reversed() { list.removeSubrange(range) }
      send(.removeSections(indexes), to: delegate)
    case .element(let change, let index):
      send(.element(change, inSection: index), to: delegate)
    case .moveSections(let range, let destination):
      precondition(
        range.lowerBound >= 0 && range.upperBound <= list.count
          && destination >= 0 && destination + range.count <= list.count,
        "SectionProviderMapping: sections \(range) moved to \(destination) of \(list.count)")
      positionsChanged(from: min(range.lowerBound, destination))
      list.moveSubrange(range, to: destination)
      // One step per section: moving the block's first section to its place, in turn.
      for step in 0..<range.count {
        if destination < range.lowerBound {
          send(.moveSection(from: range.lowerBound + step, to: destination + step), to: delegate)
        } else {
          send(
            .moveSection(from: range.lowerBound, to: destination + range.count - 1), to: delegate)
        }
      }
    case .reloadSections(let indexes):
      send(.reloadSections(indexes), to: delegate)
    case .elements(let diff, let index):
      // The mapping's own coordinator takes a diff whole; any other delegate gets its steps.
      if let coordinator = delegate as? Coordinator, coordinator.mapping === self {
        coordinator.record(diff, inSection: index)
      } else {
        for change in diff.steps { send(.element(change, inSection: index), to: delegate) }
      }
    }
  }
}

/// `0-2, 5` style text for an index set.
func describe(_ indexes: IndexSet) -> String {
  indexes.rangeView.map {
    $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound - 1)"
  }
  .joined(separator: ", ")
}
