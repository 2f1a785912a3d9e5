/// A section tree described declaratively: each ``render(_:)`` gives the whole tree — sections,
/// groups and segmented groups, with conditions and loops — and the tree works out what changed,
/// by identity, in one batch.
///
/// ```swift
/// let tree = SectionTree<Contact>()   // elements diffed by `id`, updated when `!=`
/// let coordinator = Coordinator(sectionProvider: tree.provider)
///
/// try tree.render {
///   SectionNode(id: "favourites", elements: favourites)
///   if showFamily {
///     SectionNode(id: "family", elements: family)
///   }
///   for team in teams {
///     SectionNode(id: team.name, elements: team.members)
///   }
/// }
/// showFamily = true
/// try tree.render { … }   // one changeset: the family section inserted, nothing else
/// ```
///
/// Children are matched with the previous render's by their identity among their siblings (and
/// their kind: a node whose kind changed is replaced). A matched section keeps its
/// ``ArraySection``, and its elements are diffed as
/// ``ArraySection/replaceElements(with:identifiedBy:isUpdated:)`` does; a matched group or
/// segmented group keeps its provider and its children are matched in turn. Children that are
/// new are inserted and children that are gone are removed, so toggling a condition inserts or
/// removes exactly the sections it guards, and a render that changes nothing
/// emits nothing. Every render is one bracket: the coordinator delivers one changeset.
///
/// A matched child of a group that changed place among its siblings is moved, keeping its section
/// or provider: the coordinator shows it as section moves (only the children outside a longest
/// increasing run of old positions move). Children of a segmented group may change place freely:
/// only the selected one is presented.
///
/// The tree owns ``provider`` and everything below it: change them only through ``render(_:)``.
/// A render traps when a provider of the tree gained or lost children by other means.
///
/// - Complexity: a render is O(n) in the number of nodes and elements described (every identity
///   is hashed), plus the diff of each section, plus O(c log c) to keep the matched children of a
///   group with c children in place.
public final class SectionTree<Element> {
  /// The provider presenting the rendered tree: give it to a ``Coordinator`` or nest it in
  /// another provider.
  public let provider = ComposedSectionProvider()

  /// What the last render built, mirroring the providers' children.
  private var mounted: [Mounted] = []
  /// Matches a section's old elements with new ones by the tree's element identity.
  private let match: ([Element], [Element]) throws(DuplicateIdentityError) -> IdentityMatching
  /// Whether a render is being checked or applied (a render from inside one traps).
  private var rendering = false

  /// Creates an empty tree whose elements are identified by `id`; an element with the same
  /// identity in two renders is updated when `isUpdated(old, new)`.
  public init<ID: Hashable>(
    identifiedBy id: @escaping (Element) -> ID,
    isUpdated: @escaping (_ old: Element, _ new: Element) -> Bool
  ) {
    match = { old, new throws(DuplicateIdentityError) in
      try IdentityMatching(old: old, new: new, id: id, isUpdated: isUpdated)
    }
  }

  /// Renders the tree that `content` describes: inserts the sections that are new, removes those
  /// that are gone and diffs the elements of those that stay, in one batch.
  ///
  /// - Throws: ``SectionTreeError`` when two siblings share an identity, two elements of a section
  ///   do, or a segmented group selects none of its children; the tree is then left exactly as it
  ///   was and nothing is emitted.
  public func render(@SectionTreeBuilder<Element> _ content: () -> [SectionNode<Element>])
    throws(SectionTreeError)
  {
    try render(nodes: content())
  }

  /// Renders the tree whose root children are `nodes` (see ``render(_:)``).
  public func render(nodes: [SectionNode<Element>]) throws(SectionTreeError) {
    precondition(
      !rendering,
      "SectionTree.render(_:): called while a render of the same tree was being checked or "
        + "applied (from an identity or comparison closure, or a section's delegate); render "
        + "again once it returns")
    var matchings: [ObjectIdentifier: IdentityMatching] = [:]
    do {
      rendering = true
      // The caller's identity and comparison closures run now: a mutation of any section of the
      // tree from inside them traps here, naming them (it would leave the matchings stale).
      let sections = Self.sections(of: mounted)
      for section in sections {
        section.checkNoMutationInProgress()
        section.mutationInProgress = MutationInProgress(method: .treeRender, during: .treeClosures)
      }
      defer {
        for section in sections { section.mutationInProgress = nil }
        rendering = false
      }
      verify(provider, mirrors: mounted)
      var path: [AnyHashable] = []
      try check(nodes, against: mounted, path: &path, into: &matchings)
    }
    provider.performBatchUpdates {
      // Done before the bracket closes: the adapter may render again while it applies the
      // changeset (that render is the next batch).
      rendering = true
      defer { rendering = false }
      mounted = reconcile(provider, old: mounted, new: nodes, matchings)
    }
  }

  // MARK: Checking (nothing changes)

  /// Checks `nodes` (the children of the node at `path`, whose previous children were `old`)
  /// and everything below them, and records the matching of each section that stays.
  private func check(
    _ nodes: [SectionNode<Element>], against old: [Mounted], path: inout [AnyHashable],
    into matchings: inout [ObjectIdentifier: IdentityMatching]
  ) throws(SectionTreeError) {
    var positions: [AnyHashable: Int] = [:]
    positions.reserveCapacity(nodes.count)
    for (position, node) in nodes.enumerated() {
      if let first = positions.updateValue(position, forKey: node.id) {
        throw .duplicateChild(
          path: Self.describe(path),
          DuplicateIdentityError(
            id: Self.describe(node.id), contents: .new, positions: [first, position]))
      }
    }
    let previous = Self.previous(of: nodes, in: old)
    for (node, oldIndex) in zip(nodes, previous) {
      let before = oldIndex.map { old[$0] }
      path.append(node.id)
      defer { path.removeLast() }
      switch node.content {
      case .section(let elements, _):
        let result: Result<IdentityMatching, DuplicateIdentityError>
        if case .section(let section)? = before?.body {
          // Every section of the tree is guarded while the closures run (see render(nodes:)).
          result = Result { () throws(DuplicateIdentityError) in
            try match(section.elements, elements)
          }
        } else {
          result = Result { () throws(DuplicateIdentityError) in try match([], elements) }
        }
        switch result {
        case .success(let matching):
          if case .section(let section)? = before?.body {
            matchings[ObjectIdentifier(section)] = matching
          }
        case .failure(let error):
          throw .duplicateElement(path: Self.describe(path), error)
        }
      case .group(let children):
        if let before { verify(before.object, mirrors: before.children) }
        try check(children, against: before?.children ?? [], path: &path, into: &matchings)
      case .segmented(let selected, let children):
        guard children.isEmpty || children.contains(where: { $0.id == selected }) else {
          throw .unknownSelection(path: Self.describe(path), selected: Self.describe(selected))
        }
        if let before { verify(before.object, mirrors: before.children) }
        try check(children, against: before?.children ?? [], path: &path, into: &matchings)
      }
    }
  }

  /// Traps when `provider`'s children are not the ones the last render left.
  private func verify(_ provider: AnyObject, mirrors mounted: [Mounted]) {
    let children = (provider as? any ParentSectionProvider).map { Array($0.children) } ?? []
    precondition(
      children.count == mounted.count
        && zip(children, mounted).allSatisfy { $0.object === $1.object },
      "SectionTree.render(_:): \(type(of: provider)) of the tree has \(children.count) children "
        + "where the last render left \(mounted.count) (or others): a tree's providers change "
        + "only through render")
  }

  // MARK: Applying (one bracket)

  /// Makes `provider`'s children those `new` describes; returns the new mirror.
  ///
  /// Gone children are removed, matched ones are moved into their new order with
  /// ``ComposedSectionProvider/moveChild(at:to:)`` (the coordinator shows a section that only
  /// changed place as a section move, and moves only those outside a longest increasing run), and
  /// new ones are inserted.
  ///
  /// - Complexity: O(m log m) bookkeeping for m matched children, plus the moves themselves.
  private func reconcile(
    _ provider: ComposedSectionProvider, old: [Mounted], new: [SectionNode<Element>],
    _ matchings: [ObjectIdentifier: IdentityMatching]
  ) -> [Mounted] {
    let previous = Self.previous(of: new, in: old)
    provider.keepSurvivors(inOrder: previous)
    var result: [Mounted] = []
    result.reserveCapacity(new.count)
    for (position, node) in new.enumerated() {
      if let was = previous[position] {
        result.append(update(old[was], to: node, matchings))
      } else {
        let mounted = build(node)
        provider.insert(mounted.child, at: position)
        result.append(mounted)
      }
    }
    return result
  }

  /// Makes a segmented provider's children those `new` describes and presents `selected`;
  /// returns the new mirror. Only the presented child emits, so the others are removed and
  /// inserted again freely around it.
  private func reconcile(
    _ provider: SegmentedSectionProvider, old: [Mounted], new: [SectionNode<Element>],
    selected: AnyHashable, _ matchings: [ObjectIdentifier: IdentityMatching]
  ) -> [Mounted] {
    guard let target = new.firstIndex(where: { $0.id == selected }) else {
      provider.removeAll()  // checked: only when there are no children
      return []
    }
    let previous = Self.previous(of: new, in: old)
    if previous.elementsEqual(old.indices.map { $0 }) {
      // The same children in the same order.
      let result = zip(old, new).map { update($0, to: $1, matchings) }
      provider.currentIndex = target
      return result
    }
    // Present the target first (diffed in place when it already is, switched to otherwise)…
    let presented: Mounted
    let position: Int
    if let oldIndex = previous[target] {
      presented = update(old[oldIndex], to: new[target], matchings)
      position = oldIndex
    } else {
      presented = build(new[target])
      position = provider.children.count
      provider.insert(presented.child, at: position)
    }
    provider.currentIndex = position
    // … then place the others around it, none of them presented.
    for index in provider.children.indices.reversed() where index != position {
      provider.remove(at: index)
    }
    var result: [Mounted] = []
    result.reserveCapacity(new.count)
    for (index, node) in new.enumerated() {
      guard index != target else {
        result.append(presented)
        continue
      }
      let mounted = previous[index].map { update(old[$0], to: node, matchings) } ?? build(node)
      provider.insert(mounted.child, at: index)
      result.append(mounted)
    }
    return result
  }

  /// Brings a matched child up to date with `node` (same identity and kind).
  private func update(
    _ mounted: Mounted, to node: SectionNode<Element>,
    _ matchings: [ObjectIdentifier: IdentityMatching]
  ) -> Mounted {
    var mounted = mounted
    switch (mounted.body, node.content) {
    case (.section(let section), .section(let elements, let factory)):
      guard let matching = matchings[ObjectIdentifier(section)] else {
        preconditionFailure("SectionTree.render(_:): section \(node.id) was not checked")
      }
      if let factory {
        // The matching was read off the elements: a change of them from here traps.
        section.mutationInProgress = MutationInProgress(
          method: .treeRender, during: .treeClosures)
        factory.configure(section)
        section.mutationInProgress = nil
      }
      section._replaceElements(with: elements, matching)
    case (.group(let provider), .group(let children)):
      mounted.children = reconcile(provider, old: mounted.children, new: children, matchings)
    case (.segmented(let provider), .segmented(let selected, let children)):
      mounted.children = reconcile(
        provider, old: mounted.children, new: children, selected: selected, matchings)
    default:
      preconditionFailure("SectionTree.render(_:): node \(node.id) matched a node of another kind")
    }
    return mounted
  }

  /// Creates the section or provider `node` describes, with everything below it; it is not yet
  /// in the tree, so nothing is emitted.
  private func build(_ node: SectionNode<Element>) -> Mounted {
    switch node.content {
    case .section(let elements, nil):
      return Mounted(id: node.id, body: .section(ArraySection(elements)), children: [])
    case .section(let elements, let factory?):
      let section = factory.make()
      section.storage = elements
      factory.configure(section)
      return Mounted(id: node.id, body: .section(section), children: [])
    case .group(let nodes):
      let provider = ComposedSectionProvider()
      let children = nodes.map(build)
      for child in children { provider.insert(child.child, at: provider.children.count) }
      return Mounted(id: node.id, body: .group(provider), children: children)
    case .segmented(let selected, let nodes):
      let provider = SegmentedSectionProvider()
      let children = nodes.map(build)
      for child in children { provider.insert(child.child, at: provider.children.count) }
      provider.currentIndex = nodes.firstIndex { $0.id == selected } ?? 0
      return Mounted(id: node.id, body: .segmented(provider), children: children)
    }
  }

  // MARK: Helpers

  /// For each of `nodes`, the position in `old` of the child with its identity and kind.
  private static func previous(of nodes: [SectionNode<Element>], in old: [Mounted]) -> [Int?] {
    guard !old.isEmpty else { return [Int?](repeating: nil, count: nodes.count) }
    var positions: [AnyHashable: Int] = [:]
    positions.reserveCapacity(old.count)
    for (position, child) in old.enumerated() { positions[child.id] = position }
    return nodes.map { node in
      positions[node.id].flatMap { old[$0].kind == node.kind ? $0 : nil }
    }
  }

  private static func describe(_ id: AnyHashable) -> String { String(describing: id.base) }

  /// Every section `mounted` built, at any depth.
  private static func sections(of mounted: [Mounted]) -> [ArraySection<Element>] {
    mounted.flatMap { node -> [ArraySection<Element>] in
      if case .section(let section) = node.body { return [section] }
      return sections(of: node.children)
    }
  }

  private static func describe(_ path: [AnyHashable]) -> [String] { path.map(describe) }

  /// A rendered node: its identity, what it built, and the rendered children of a group.
  private struct Mounted {
    let id: AnyHashable
    let body: Body
    var children: [Mounted]

    enum Body {
      case section(ArraySection<Element>)
      case group(ComposedSectionProvider)
      case segmented(SegmentedSectionProvider)
    }

    var kind: SectionNodeKind {
      switch body {
      case .section(let section): .section(ObjectIdentifier(type(of: section)))
      case .group: .group
      case .segmented: .segmented
      }
    }

    var object: AnyObject {
      switch body {
      case .section(let section): section
      case .group(let provider): provider
      case .segmented(let provider): provider
      }
    }

    var child: SectionProviderChild {
      switch body {
      case .section(let section): .section(section)
      case .group(let provider): .provider(provider)
      case .segmented(let provider): .provider(provider)
      }
    }
  }
}

extension SectionTree where Element: Identifiable & Equatable {
  /// Creates an empty tree whose elements are identified by `id` and updated when `!=`.
  public convenience init() {
    self.init(identifiedBy: { $0.id }, isUpdated: !=)
  }
}

extension SectionTree where Element: Hashable {
  /// Creates an empty tree whose elements are identified by value (never updated: a changed value
  /// is another element).
  public convenience init() {
    self.init(identifiedBy: { $0 }, isUpdated: { _, _ in false })
  }
}

extension SectionTree where Element: Identifiable & Hashable {
  /// Creates an empty tree whose elements are identified by `id` (identifiable elements are
  /// identified by `id` even when they are also hashable) and updated when `!=`.
  public convenience init() {
    self.init(identifiedBy: { $0.id }, isUpdated: !=)
  }
}
