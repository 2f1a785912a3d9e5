/// The ordered children of a provider, as the links they report through (each link holds its
/// child, and a built-in section is its own link: no array of the children beside that of the
/// links), and cached section offsets.
///
/// A child's position is kept in its link (``ChildLink/position``), not in a table by identity:
/// the positions below `positionsValidBelow` are current, and every position is checked by
/// identity before use. Both caches are lazy: a structural change at position `i` only marks the
/// entries from `i` on as stale, and the next lookup recomputes them. Appending children and
/// looking them up in order is O(1) amortized; an insertion at the front followed by a lookup is
/// O(n), as `Array.insert` is.
struct ChildList {
  /// `links[i]` holds child `i` and is its delegate, kept alive here (children hold it weakly).
  private(set) var links: [TreeLink] = []
  /// `links[i].position == i` for every `i` below this bound.
  private var positionsValidBelow = 0
  /// How many children are providers. While none is, child `i` presents section `i` and no
  /// offsets are stored: a provider of sections only (the most common) keeps no offset per child.
  private var providerCount = 0
  /// `offsets[i]` is the number of sections presented by the children before `i`;
  /// `offsets.count == links.count + 1` while a child is a provider, empty otherwise. Valid
  /// through `offsetsValidThrough`.
  private var offsets: [Int] = []
  private var offsetsValidThrough = 0

  var count: Int { links.count }
  var isEmpty: Bool { links.isEmpty }

  subscript(index: Int) -> SectionProviderChild { links[index].child }

  /// The children, in order: a view of the links.
  var children: SectionProviderChildren { SectionProviderChildren(links: links) }

  /// The position of `object` among the children, or `nil`, found through the link it reports
  /// to.
  ///
  /// - Complexity: O(1) amortized; O(n) for an object whose delegate is not a link (not a child,
  ///   or a child whose delegate was replaced from outside).
  mutating func index(of object: AnyObject) -> Int? {
    // A built-in section is its own link.
    if let own = object as? TreeLink { return index(of: own) }
    if let delegate = delegate(of: object), let link = link(behind: delegate),
      link.childObject === object
    {
      // `nil` for a link of another parent: not a child.
      return index(of: link)
    }
    return links.firstIndex { $0.childObject === object }
  }

  /// The position of the child behind `link`, or `nil` when the link is not one of this list's.
  ///
  /// The link remembers where its child was found last; that guess is checked by identity, so a
  /// climb re-indexes without hashing. After an insertion, removal or move, the first guess that
  /// misses brings the positions of the later links up to date.
  ///
  /// - Complexity: O(1) amortized.
  mutating func index(of link: TreeLink) -> Int? {
    let guess = link.position
    if UInt(bitPattern: guess) < UInt(links.count), links[guess] === link { return guess }
    identityLookups += 1
    guard positionsValidBelow < links.count else { return nil }
    for index in positionsValidBelow..<links.count { links[index].position = index }
    positionsValidBelow = links.count
    let found = link.position
    return found < links.count && links[found] === link ? found : nil
  }

  /// How many times a link's remembered position was wrong and the positions were refreshed,
  /// for tests that count work.
  private(set) var identityLookups = 0

  /// The number of sections presented by the children before `index` (`0...count`), when the
  /// cache holds it; `nil` when it is stale (``sectionCount(of:through:)`` refreshes it).
  func cachedOffset(at index: Int) -> Int? {
    if providerCount == 0 { return index }
    return index <= offsetsValidThrough ? offsets[index] : nil
  }

  /// The children whose counts are needed to bring the offsets up to date through `index`.
  func staleChildren(through index: Int) -> Range<Int> {
    if providerCount == 0 { return index..<index }
    return offsetsValidThrough..<Swift.max(offsetsValidThrough, index)
  }

  /// Stores the offsets through `index` from the counts of ``staleChildren(through:)``.
  mutating func fillOffsets(through index: Int, _ counts: [Int]) {
    guard providerCount > 0 else { return }
    for (step, count) in counts.enumerated() {
      let position = offsetsValidThrough + 1 + step
      offsets[position] = offsets[position - 1] + count
    }
    offsetsValidThrough = Swift.max(offsetsValidThrough, index)
  }

  /// The child at `index` changed how many sections it presents.
  mutating func childCountChanged(at index: Int) {
    offsetsValidThrough = Swift.min(offsetsValidThrough, index)
  }

  /// Inserts the child of `link` at `index`.
  mutating func insert(_ link: TreeLink, at index: Int) {
    if case .provider = link.child {
      if providerCount == 0 {
        // The first provider child: the offsets so far are the positions.
        offsets = Array(0...links.count)
        offsetsValidThrough = links.count
      }
      providerCount += 1
    }
    if links.count == links.capacity {
      // Grown by half, not doubled as `Array` grows: a provider built by appending keeps about
      // 24% unused slots on average, not 47% (8 bytes a slot, one a child; see
      // `Docs/Performance.md`, Memory). Appending stays O(1) amortized: each link is moved about
      // twice, where doubling moves it once.
      links.reserveCapacity(links.count + links.count / 2 + 1)
    }
    links.insert(link, at: index)
    link.position = index
    if providerCount > 0 {
      offsets.append(0)
      offsetsValidThrough = Swift.min(offsetsValidThrough, index)
    }
    // The new link's position is current; those after it moved.
    if positionsValidBelow > index { positionsValidBelow = index + 1 }
  }

  /// Removes the child at `index`; returns its link, which holds it.
  mutating func remove(at index: Int) -> TreeLink {
    let link = links.remove(at: index)
    if case .provider = link.child { providerCount -= 1 }
    if providerCount == 0 {
      offsets = []
    } else {
      offsets.removeLast()
      offsetsValidThrough = Swift.min(offsetsValidThrough, index)
    }
    positionsValidBelow = Swift.min(positionsValidBelow, index)
    return link
  }

  /// Moves the child at `from` to `to` (its position after the move), with its link.
  mutating func move(from: Int, to: Int) {
    let link = links.remove(at: from)
    links.insert(link, at: to)
    let first = Swift.min(from, to)
    offsetsValidThrough = Swift.min(offsetsValidThrough, first)
    positionsValidBelow = Swift.min(positionsValidBelow, first)
  }

  /// Removes every child; returns their links, which hold them.
  mutating func removeAll() -> [TreeLink] {
    defer { self = ChildList() }
    return links
  }

  /// Removes every child of a provider being released; returns them. Their links no longer lead
  /// to the provider (a link's owner is not a weak reference), and the children no longer report
  /// to their links (which die here unless a view of the children still holds them, and which the
  /// children's `uplink`s do not keep alive).
  mutating func removeAllClearingLinks() -> [SectionProviderChild] {
    let links = removeAll()
    var children: [SectionProviderChild] = []
    children.reserveCapacity(links.count)
    for link in links {
      let child = link.child
      children.append(child)
      link.detachFromOwner()
      switch child {
      case .section(let section):
        if link === section {
          // A built-in section, its own link: it stops reporting, and keeps a delegate of the
          // user's.
          if link.reportsToOwner { section.updateDelegate = nil }
        } else if section.updateDelegate === link {
          section.updateDelegate = nil
        }
      case .provider(let provider):
        if provider.updateDelegate === link { provider.updateDelegate = nil }
      }
    }
    return children
  }

  /// The position of the child that presents section `sectionIndex`, and that section's index
  /// within the child; the offsets must be cached through the end.
  ///
  /// - Complexity: O(log n).
  func locate(section sectionIndex: Int) -> (child: Int, local: Int) {
    if providerCount == 0 { return (sectionIndex, 0) }
    // The last child whose offset is <= sectionIndex and that presents at least one section.
    var low = 0
    var high = links.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if offsets[mid] <= sectionIndex { low = mid } else { high = mid - 1 }
    }
    return (low, sectionIndex - offsets[low])
  }

  #if SECTIONKIT_INTERNAL_CHECKS
    /// Checks the caches against values recomputed from scratch.
    func checkInvariants(owner: String) {
      var running = 0
      var providers = 0
      for (index, link) in links.enumerated() {
        let child = link.child
        if case .provider = child { providers += 1 }
        if let offset = cachedOffset(at: index) {
          precondition(
            offset == running, "\(owner): cached offset of child \(index) is stale")
        }
        running += child.numberOfSections
        if index < positionsValidBelow {
          precondition(
            links[index].position == index, "\(owner): cached position of child \(index) is stale")
        }
      }
      precondition(providers == providerCount, "\(owner): provider count mismatch")
      precondition(
        offsets.count == (providerCount == 0 ? 0 : links.count + 1),
        "\(owner): offsets count mismatch")
    }
  #endif
}

/// The delegate of `object` when it is a section or a provider.
private func delegate(of object: AnyObject) -> AnyObject? {
  if let section = object as? any Section { return section.updateDelegate }
  if let provider = object as? any SectionProvider { return provider.updateDelegate }
  return nil
}
