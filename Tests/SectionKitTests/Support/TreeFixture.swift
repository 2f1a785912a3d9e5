import Foundation

@testable import SectionKit

/// A real SectionKit tree and its reference model, mutated in lockstep by ``TreeOperation``s.
final class TreeFixture {
  private(set) var reference: RefNode
  let root: ComposedSectionProvider
  private(set) var objects: [Int: AnyObject] = [:]
  private var ids: [ObjectIdentifier: Int] = [:]
  private var nextID = 1
  private var nextItem = 1
  /// Makes the real section for a reference array section (id, items): a plain `ArraySection`
  /// by default; handler tests pass subclasses.
  var makeArraySection: (Int, [Item]) -> ArraySection<Item> = { ArraySection($1) }
  /// Whether ``randomOperation(using:)`` also moves and reloads children (off by default, so that
  /// the other suites keep their sequences).
  var movesChildren = false
  /// The ids of the items an element operation updated, and of those it reconfigured, since the
  /// test last emptied them (an update reloads; a reconfigure of an item not also updated is a
  /// reconfigure).
  var updatedItems: Set<Int> = []
  var reconfiguredItems: Set<Int> = []

  init() {
    reference = .composed(id: 0, children: [])
    root = ComposedSectionProvider()
    register(root, id: 0)
  }

  private func register(_ object: AnyObject, id: Int) {
    objects[id] = object
    ids[ObjectIdentifier(object)] = id
  }

  func id(of object: AnyObject) -> Int? { ids[ObjectIdentifier(object)] }

  // MARK: Building

  /// Creates the real objects for a reference subtree.
  func build(_ node: RefNode) -> SectionProviderChild {
    switch node {
    case .array(let id, let items):
      let section = makeArraySection(id, items)
      register(section, id: id)
      return .section(section)
    case .single(let id, let item):
      let section = SingleElementSection<Item?>(element: item)
      register(section, id: id)
      return .section(section)
    case .composed(let id, let children):
      let provider = ComposedSectionProvider()
      register(provider, id: id)
      for child in children { provider.insert(build(child), at: provider.children.count) }
      return .provider(provider)
    case .segmented(let id, let children, let current):
      let provider = SegmentedSectionProvider()
      register(provider, id: id)
      for child in children { provider.insert(build(child), at: provider.children.count) }
      provider.currentIndex = current
      return .provider(provider)
    }
  }

  // MARK: Random operations

  func makeItem<R: RandomNumberGenerator>(using rng: inout R) -> Item {
    defer { nextItem += 1 }
    return Item(id: nextItem)
  }

  func makeNode<R: RandomNumberGenerator>(depth: Int, using rng: inout R) -> RefNode {
    let id = nextID
    nextID += 1
    let roll = Int.random(in: 0..<10, using: &rng)
    if depth >= 3 || roll < 6 {
      if roll == 0 {
        return .single(id: id, item: Bool.random(using: &rng) ? makeItem(using: &rng) : nil)
      }
      let count = Int.random(in: 0...4, using: &rng)
      return .array(id: id, items: (0..<count).map { _ in makeItem(using: &rng) })
    }
    let children = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
      makeNode(depth: depth + 1, using: &rng)
    }
    if roll < 8 { return .composed(id: id, children: children) }
    return .segmented(
      id: id, children: children,
      current: children.isEmpty ? 0 : Int.random(in: 0..<children.count, using: &rng))
  }

  /// Every node of the reference, with its depth.
  private func nodes() -> [(node: RefNode, depth: Int)] {
    var result: [(RefNode, Int)] = []
    func visit(_ node: RefNode, _ depth: Int) {
      result.append((node, depth))
      for child in node.children { visit(child, depth + 1) }
    }
    visit(reference, 0)
    return result
  }

  /// A random operation that applies to the current state (most of the time: indexes may also
  /// point out of range, which the operation then skips).
  func randomOperation<R: RandomNumberGenerator>(using rng: inout R) -> TreeOperation {
    let all = nodes()
    let providers = all.filter { !$0.node.isSection }
    let sections = all.filter { $0.node.isSection }
    if !sections.isEmpty && Int.random(in: 0..<10, using: &rng) < 6 {
      let section = sections.randomElement(using: &rng)!.node
      return .elements(section: section.id, randomElementOperation(for: section, using: &rng))
    }
    let (parent, depth) = providers.randomElement(using: &rng)!
    let count = parent.children.count
    if movesChildren, case .composed = parent, count > 0, Int.random(in: 0..<3, using: &rng) > 0 {
      if Int.random(in: 0..<4, using: &rng) == 0 {
        return .reloadChild(parent: parent.id, index: Int.random(in: 0..<count, using: &rng))
      }
      return .moveChild(
        parent: parent.id, from: Int.random(in: 0..<count, using: &rng),
        to: Int.random(in: 0..<count, using: &rng))
    }
    switch Int.random(in: 0..<12, using: &rng) {
    case 0..<4:
      return .insertChild(
        parent: parent.id, at: Int.random(in: 0...count, using: &rng),
        child: makeNode(depth: depth + 1, using: &rng))
    case 4..<6 where count > 0:
      return .insertChildRelative(
        parent: parent.id, anchor: parent.children.randomElement(using: &rng)!.id,
        after: Bool.random(using: &rng), child: makeNode(depth: depth + 1, using: &rng))
    case 6 where count > 0:
      return .removeChild(parent: parent.id, child: parent.children.randomElement(using: &rng)!.id)
    case 7 where count > 0:
      return .removeChildAt(parent: parent.id, index: Int.random(in: 0..<count, using: &rng))
    case 8 where Int.random(in: 0..<4, using: &rng) == 0 && parent.id != 0:
      return .removeAllChildren(parent: parent.id)
    case 9..<12:
      if case .segmented = parent {
        return .setSegment(parent: parent.id, index: Int.random(in: -1...count, using: &rng))
      }
      fallthrough
    default:
      return .insertChild(
        parent: parent.id, at: Int.random(in: 0...count, using: &rng),
        child: makeNode(depth: depth + 1, using: &rng))
    }
  }

  func randomElementOperation<R: RandomNumberGenerator>(
    for section: RefNode, using rng: inout R
  ) -> ElementOperation {
    if case .single = section {
      switch Int.random(in: 0..<4, using: &rng) {
      case 0: return .replaceSingle(nil)
      case 1: return .reconfigureSingle
      default: return .replaceSingle(makeItem(using: &rng))
      }
    }
    guard case .array(_, let items) = section else { fatalError("not a section") }
    let count = items.count
    func index() -> Int { count == 0 ? 0 : Int.random(in: 0..<count, using: &rng) }
    func range() -> Range<Int> {
      let a = Int.random(in: 0...count, using: &rng)
      let b = Int.random(in: 0...count, using: &rng)
      return min(a, b)..<max(a, b)
    }
    switch Int.random(in: 0..<13, using: &rng) {
    case 0, 1: return .append(makeItem(using: &rng))
    case 2: return .insert(makeItem(using: &rng), at: Int.random(in: 0...count, using: &rng))
    case 3:
      return .insertContents(
        (0..<Int.random(in: 1...3, using: &rng)).map { _ in makeItem(using: &rng) },
        at: Int.random(in: 0...count, using: &rng))
    case 4: return .remove(at: index())
    case 5: return .removeSubrange(range())
    case 6: return .update(at: index())
    case 7: return .reconfigure(at: index())
    case 8: return .move(from: index(), to: index())
    case 9: return .swap(index(), index())
    case 10:
      return .replaceSubrange(
        range(), with: (0..<Int.random(in: 0...3, using: &rng)).map { _ in makeItem(using: &rng) })
    case 11:
      switch Int.random(in: 0..<4, using: &rng) {
      case 0: return .removeAllWhereOdd
      case 1: return .removeAll
      case 2: return .sortByIDDescending
      default: return .reverse
      }
    default: return .update(at: index())
    }
  }

  // MARK: Applying

  /// Applies `operation` to the real tree and the reference; returns whether it applied.
  @discardableResult
  func apply(_ operation: TreeOperation, coordinator: Coordinator? = nil) -> Bool {
    switch operation {
    case .batch(let on, let depth, let steps):
      let run = {
        for step in steps { self.apply(step, coordinator: coordinator) }
      }
      var nested = run
      for _ in 0..<max(depth, 1) {
        let inner = nested
        switch on.flatMap({ objects[$0] }) {
        case let provider as ComposedSectionProvider:
          nested = { provider.performBatchUpdates(inner) }
        case let provider as SegmentedSectionProvider:
          nested = { provider.performBatchUpdates(inner) }
        case let section as ArraySection<Item>: nested = { section.performBatchUpdates(inner) }
        default:
          if let coordinator {
            nested = { coordinator.performBatchUpdates(inner) }
          } else {
            nested = inner
          }
        }
      }
      nested()
      return true

    case .elements(let id, let elementOperation):
      guard let object = objects[id] else { return false }
      let inTree = reference.find(id) != nil
      if let section = object as? SingleElementSection<Item?> {
        var item = section.element
        switch elementOperation {
        case .replaceSingle(let new):
          if let old = item, let new, old != new { updatedItems.insert(old.id) }
          item = new
          section.replace(element: item)
        case .reconfigureSingle:
          item?.version += 1
          if let item { reconfiguredItems.insert(item.id) }
          section.reconfigure(element: item)
        default: return false
        }
        if inTree {
          _ = reference.modify(id) { $0 = .single(id: id, item: item) }
        }
        return true
      }
      guard let section = object as? ArraySection<Item>,
        let items = elementOperation.applied(to: section.elements)
      else { return false }
      record(elementOperation, on: section.elements)
      elementOperation.apply(to: section)
      if inTree {
        _ = reference.modify(id) { $0 = .array(id: id, items: items) }
      }
      return true

    case .insertChild(let parentID, let index, let child):
      guard let parent = reference.find(parentID), index <= parent.children.count else {
        return false
      }
      let real = build(child)
      (objects[parentID] as! any ParentSectionProvider).insert(real, at: index)
      insertReference(child, into: parentID, at: index)
      return true

    case .insertChildRelative(let parentID, let anchorID, let after, let child):
      guard let parent = reference.find(parentID),
        let position = parent.children.firstIndex(where: { $0.id == anchorID })
      else { return false }
      let real = build(child)
      let provider = objects[parentID] as! any ParentSectionProvider
      let anchor = objects[anchorID]!
      switch (real, anchor, after) {
      case (.section(let s), let a as any Section, true): provider.insert(s, after: a)
      case (.section(let s), let a as any SectionProvider, true): provider.insert(s, after: a)
      case (.provider(let p), let a as any Section, true): provider.insert(p, after: a)
      case (.provider(let p), let a as any SectionProvider, true): provider.insert(p, after: a)
      case (.section(let s), let a as any Section, false): provider.insert(s, before: a)
      case (.section(let s), let a as any SectionProvider, false): provider.insert(s, before: a)
      case (.provider(let p), let a as any Section, false): provider.insert(p, before: a)
      case (.provider(let p), let a as any SectionProvider, false): provider.insert(p, before: a)
      default: fatalError("unexpected anchor")
      }
      insertReference(child, into: parentID, at: after ? position + 1 : position)
      return true

    case .removeChild(let parentID, let childID):
      guard let parent = reference.find(parentID),
        let index = parent.children.firstIndex(where: { $0.id == childID })
      else { return false }
      let provider = objects[parentID] as! any ParentSectionProvider
      switch objects[childID] {
      case let section as any Section: precondition(provider.remove(section))
      case let child as any SectionProvider: precondition(provider.remove(child))
      default: fatalError("unknown child")
      }
      removeReference(at: index, from: parentID)
      return true

    case .removeChildAt(let parentID, let index):
      guard let parent = reference.find(parentID), index < parent.children.count else {
        return false
      }
      (objects[parentID] as! any ParentSectionProvider).remove(at: index)
      removeReference(at: index, from: parentID)
      return true

    case .removeAllChildren(let parentID):
      guard reference.find(parentID) != nil else { return false }
      (objects[parentID] as! any ParentSectionProvider).removeAll()
      _ = reference.modify(parentID) {
        switch $0 {
        case .composed(let id, _): $0 = .composed(id: id, children: [])
        case .segmented(let id, _, _): $0 = .segmented(id: id, children: [], current: 0)
        default: break
        }
      }
      return true

    case .moveChild(let parentID, let from, let to):
      guard case .composed(let id, var children)? = reference.find(parentID),
        from < children.count, to < children.count
      else { return false }
      (objects[parentID] as! ComposedSectionProvider).moveChild(at: from, to: to)
      children.insert(children.remove(at: from), at: to)
      _ = reference.modify(parentID) { $0 = .composed(id: id, children: children) }
      return true

    case .reloadChild(let parentID, let index):
      guard case .composed(_, let children)? = reference.find(parentID), index < children.count
      else { return false }
      (objects[parentID] as! ComposedSectionProvider).reloadChild(at: index)
      return true

    case .setSegment(let parentID, let index):
      guard case .segmented(_, let children, _)? = reference.find(parentID) else { return false }
      (objects[parentID] as! SegmentedSectionProvider).currentIndex = index
      _ = reference.modify(parentID) {
        $0 = .segmented(
          id: parentID, children: children,
          current: children.isEmpty ? 0 : max(0, min(index, children.count - 1)))
      }
      return true
    }
  }

  /// Notes the items `operation` updates or reconfigures in `items` (an update of a position
  /// replaced by an unequal element included: `replaceSubrange` reports one).
  private func record(_ operation: ElementOperation, on items: [Item]) {
    switch operation {
    case .update(let index): updatedItems.insert(items[index].id)
    case .reconfigure(let index): reconfiguredItems.insert(items[index].id)
    case .replaceSubrange(let range, let new):
      for (old, new) in zip(items[range], new) where old != new { updatedItems.insert(old.id) }
    default: break
    }
  }

  /// Applies `operation` to the reference only: the real section already made the change (for
  /// example through a handler).
  func updateReference(section id: Int, _ operation: ElementOperation) {
    guard case .array(_, let items)? = reference.find(id), let new = operation.applied(to: items)
    else { return }
    _ = reference.modify(id) { $0 = .array(id: id, items: new) }
  }

  private func insertReference(_ child: RefNode, into parentID: Int, at index: Int) {
    _ = reference.modify(parentID) {
      switch $0 {
      case .composed(let id, var children):
        children.insert(child, at: index)
        $0 = .composed(id: id, children: children)
      case .segmented(let id, var children, var current):
        if children.isEmpty { current = index } else if index <= current { current += 1 }
        children.insert(child, at: index)
        $0 = .segmented(id: id, children: children, current: current)
      default: fatalError("not a provider")
      }
    }
  }

  private func removeReference(at index: Int, from parentID: Int) {
    _ = reference.modify(parentID) {
      switch $0 {
      case .composed(let id, var children):
        children.remove(at: index)
        $0 = .composed(id: id, children: children)
      case .segmented(let id, var children, var current):
        children.remove(at: index)
        if index < current || (index == current && current == children.count) {
          current = max(0, current - 1)
        }
        if children.isEmpty { current = 0 }
        $0 = .segmented(id: id, children: children, current: current)
      default: fatalError("not a provider")
      }
    }
  }

  // MARK: Checking

  /// The elements the real tree presents, in the reference's shape.
  func realSections(_ sections: [any Section]) -> [(id: Int, items: [String])] {
    sections.map { section in
      (
        id(of: section) ?? -1,
        (0..<section.numberOfElements).map { describeElement(of: section, at: $0) ?? "?" }
      )
    }
  }

  /// Compares the real tree and `mapping` with the reference; returns the first difference.
  func mismatch(mapping: SectionProviderMapping) -> String? {
    let expected = reference.flattened
    let actual = realSections(mapping.sections)
    let expectedText = expected.map { "#\($0.id)\($0.items.map(\.description))" }
    let actualText = actual.map { "#\($0.id)\($0.items)" }
    if expectedText != actualText {
      return "presented sections differ:\n  expected \(expectedText)\n  actual   \(actualText)"
    }
    if root.numberOfSections != expected.count {
      return "root.numberOfSections \(root.numberOfSections) != \(expected.count)"
    }
    let rootSections = realSections(root.sections).map(\.id)
    if rootSections != expected.map(\.id) { return "root.sections \(rootSections) differ" }
    var offsets: [Int: Int] = [:]
    _ = reference.offsets(start: 0, into: &offsets)
    for id in reference.allIDs {
      let object = objects[id]!
      let expectedOffset = offsets[id]
      let viaMapping: Int?
      let viaRoot: Int?
      switch object {
      case let section as any Section:
        viaMapping = mapping.sectionOffset(for: section)
        viaRoot = root.sectionOffset(for: section)
      case let provider as any SectionProvider:
        viaMapping = mapping.sectionOffset(for: provider)
        viaRoot = root.sectionOffset(for: provider)
        let count = provider.numberOfSections
        var flat: [(id: Int, items: [Item])] = []
        reference.find(id)!.flatten(into: &flat)
        if count != flat.count { return "#\(id).numberOfSections \(count) != \(flat.count)" }
        for (index, entry) in flat.enumerated() {
          let section = sectionOf(provider, at: index)
          if self.id(of: section) != entry.id {
            return
              "#\(id).section(at: \(index)) is #\(self.id(of: section) ?? -1), expected #\(entry.id)"
          }
        }
      default: return "unknown object #\(id)"
      }
      if viaMapping != expectedOffset || (id != 0 && viaRoot != expectedOffset) {
        return "offset of #\(id): mapping \(String(describing: viaMapping)), root "
          + "\(String(describing: viaRoot)), expected \(String(describing: expectedOffset))"
      }
    }
    for (sectionIndex, entry) in expected.enumerated() where !entry.items.isEmpty {
      let section = mapping.section(at: sectionIndex)
      let index = entry.items.count - 1
      guard let path = mapping.indexPath(for: index, in: section),
        path == IndexPath(item: index, section: sectionIndex)
      else { return "indexPath(for: \(index), in: #\(entry.id)) is wrong" }
      let located = mapping.sectionAndIndex(for: path)
      if located.section !== section || located.index != index {
        return "sectionAndIndex(for: \(path)) is wrong"
      }
    }
    return nil
  }
}
