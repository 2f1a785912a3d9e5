import Foundation

@testable import SectionKit

/// A mutation of an ArraySection or SingleElementSection.
enum ElementOperation: CustomStringConvertible {
  case append(Item)
  case insert(Item, at: Int)
  case insertContents([Item], at: Int)
  case remove(at: Int)
  case removeSubrange(Range<Int>)
  case update(at: Int)
  /// `reconfigure(at:with:)` with the element's version raised.
  case reconfigure(at: Int)
  case move(from: Int, to: Int)
  case swap(Int, Int)
  case replaceSubrange(Range<Int>, with: [Item])
  case removeAllWhereOdd
  case removeAll
  case replaceSingle(Item?)
  /// `reconfigure(element:)` of a `SingleElementSection` with its element's version raised.
  case reconfigureSingle
  case sortByIDDescending
  case reverse

  var description: String {
    switch self {
    case .append(let item): "append(\(item))"
    case .insert(let item, let index): "insert(\(item), at: \(index))"
    case .insertContents(let items, let index): "insert(contentsOf: \(items), at: \(index))"
    case .remove(let index): "remove(at: \(index))"
    case .removeSubrange(let range): "removeSubrange(\(range))"
    case .update(let index): "[\(index)].version += 1"
    case .reconfigure(let index): "reconfigure(at: \(index), with: version + 1)"
    case .move(let from, let to): "move(from: \(from), to: \(to))"
    case .swap(let i, let j): "swapAt(\(i), \(j))"
    case .replaceSubrange(let range, let items): "replaceSubrange(\(range), with: \(items))"
    case .removeAllWhereOdd: "removeAll { $0.id is odd }"
    case .removeAll: "removeAll()"
    case .replaceSingle(let item): "replace(element: \(item.map(\.description) ?? "nil"))"
    case .reconfigureSingle: "reconfigure(element: version + 1)"
    case .sortByIDDescending: "sort { $0.id > $1.id }"
    case .reverse: "reverse()"
    }
  }

  /// Applies the operation to a plain array; `nil` when it does not apply to `count` elements.
  func applied(to items: [Item]) -> [Item]? {
    var items = items
    let count = items.count
    switch self {
    case .append(let item): items.append(item)
    case .insert(let item, let index):
      guard index <= count else { return nil }
      items.insert(item, at: index)
    case .insertContents(let new, let index):
      guard index <= count else { return nil }
      items.insert(contentsOf: new, at: index)
    case .remove(let index):
      guard index < count else { return nil }
      items.remove(at: index)
    case .removeSubrange(let range):
      guard range.upperBound <= count else { return nil }
      items.removeSubrange(range)
    case .update(let index), .reconfigure(let index):
      guard index < count else { return nil }
      items[index].version += 1
    case .move(let from, let to):
      guard from < count, to < count else { return nil }
      items.insert(items.remove(at: from), at: to)
    case .swap(let i, let j):
      guard i < count, j < count else { return nil }
      items.swapAt(i, j)
    case .replaceSubrange(let range, let new):
      guard range.upperBound <= count else { return nil }
      items.replaceSubrange(range, with: new)
    case .removeAllWhereOdd: items.removeAll { $0.id % 2 == 1 }
    case .removeAll: items.removeAll()
    case .replaceSingle, .reconfigureSingle: return nil
    case .sortByIDDescending: items.sort { $0.id > $1.id }
    case .reverse: items.reverse()
    }
    return items
  }

  /// Applies the operation to a real section.
  func apply(to section: ArraySection<Item>) {
    switch self {
    case .append(let item): section.append(item)
    case .insert(let item, let index): section.insert(item, at: index)
    case .insertContents(let items, let index): section.insert(contentsOf: items, at: index)
    case .remove(let index): section.remove(at: index)
    case .removeSubrange(let range): section.removeSubrange(range)
    case .update(let index): section[index].version += 1
    case .reconfigure(let index):
      var item = section[index]
      item.version += 1
      section.reconfigure(at: index, with: item)
    case .move(let from, let to): section.move(from: from, to: to)
    case .swap(let i, let j): section.swapAt(i, j)
    case .replaceSubrange(let range, let items): section.replaceSubrange(range, with: items)
    case .removeAllWhereOdd: section.removeAll { $0.id % 2 == 1 }
    case .removeAll: section.removeAll()
    case .replaceSingle, .reconfigureSingle: break
    case .sortByIDDescending: section.sort { $0.id > $1.id }
    case .reverse: section.reverse()
    }
  }
}

/// One step of a randomized test, naming nodes by stable ids so that a failing sequence can be
/// shrunk and replayed. A step that no longer applies (its node is gone, an index is out of range)
/// is skipped.
enum TreeOperation: CustomStringConvertible {
  case insertChild(parent: Int, at: Int, child: RefNode)
  case insertChildRelative(parent: Int, anchor: Int, after: Bool, child: RefNode)
  case removeChild(parent: Int, child: Int)
  case removeChildAt(parent: Int, index: Int)
  case removeAllChildren(parent: Int)
  case setSegment(parent: Int, index: Int)
  /// `ComposedSectionProvider.moveChild(at:to:)`.
  case moveChild(parent: Int, from: Int, to: Int)
  /// `ComposedSectionProvider.reloadChild(at:)`.
  case reloadChild(parent: Int, index: Int)
  case elements(section: Int, ElementOperation)
  /// Several steps in one `performBatchUpdates` of `on` (a provider or section id; `nil`: the
  /// coordinator), nested `depth` times.
  case batch(on: Int?, depth: Int, [TreeOperation])

  var description: String {
    switch self {
    case .insertChild(let parent, let at, let child): "P\(parent).insert(\(child), at: \(at))"
    case .insertChildRelative(let parent, let anchor, let after, let child):
      "P\(parent).insert(\(child), \(after ? "after" : "before"): #\(anchor))"
    case .removeChild(let parent, let child): "P\(parent).remove(#\(child))"
    case .removeChildAt(let parent, let index): "P\(parent).remove(at: \(index))"
    case .removeAllChildren(let parent): "P\(parent).removeAll()"
    case .setSegment(let parent, let index): "G\(parent).currentIndex = \(index)"
    case .moveChild(let parent, let from, let to): "P\(parent).moveChild(at: \(from), to: \(to))"
    case .reloadChild(let parent, let index): "P\(parent).reloadChild(at: \(index))"
    case .elements(let section, let operation): "#\(section).\(operation)"
    case .batch(let on, let depth, let steps):
      "batch(on: \(on.map { "#\($0)" } ?? "coordinator"), depth: \(depth)) { "
        + steps.map(\.description).joined(separator: "; ") + " }"
    }
  }
}
