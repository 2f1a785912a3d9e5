import Foundation

@testable import SectionKit

/// A plain value model of a SectionKit tree: what the real tree must present after every
/// operation. Flattening it gives the reference "flat array of arrays".
indirect enum RefNode: CustomStringConvertible {
  case array(id: Int, items: [Item])
  case single(id: Int, item: Item?)
  case composed(id: Int, children: [RefNode])
  case segmented(id: Int, children: [RefNode], current: Int)

  var id: Int {
    switch self {
    case .array(let id, _), .single(let id, _), .composed(let id, _), .segmented(let id, _, _): id
    }
  }

  var isSection: Bool {
    switch self {
    case .array, .single: true
    default: false
    }
  }

  var children: [RefNode] {
    switch self {
    case .composed(_, let children), .segmented(_, let children, _): children
    default: []
    }
  }

  /// Every node id in this subtree.
  var allIDs: [Int] { [id] + children.flatMap(\.allIDs) }

  /// The presented sections, in order: (section id, elements).
  func flatten(into result: inout [(id: Int, items: [Item])]) {
    switch self {
    case .array(let id, let items): result.append((id, items))
    case .single(let id, let item): result.append((id, item.map { [$0] } ?? []))
    case .composed(_, let children): for child in children { child.flatten(into: &result) }
    case .segmented(_, let children, let current):
      if !children.isEmpty { children[current].flatten(into: &result) }
    }
  }

  var flattened: [(id: Int, items: [Item])] {
    var result: [(id: Int, items: [Item])] = []
    flatten(into: &result)
    return result
  }

  /// The offset of every presented node (providers included, even empty ones).
  func offsets(start: Int, into result: inout [Int: Int]) -> Int {
    result[id] = start
    switch self {
    case .array, .single: return start + 1
    case .composed(_, let children):
      var position = start
      for child in children { position = child.offsets(start: position, into: &result) }
      return position
    case .segmented(_, let children, let current):
      guard !children.isEmpty else { return start }
      return children[current].offsets(start: start, into: &result)
    }
  }

  /// Finds node `id` and rewrites it with `transform`; returns whether it was found.
  mutating func modify(_ id: Int, _ transform: (inout RefNode) -> Void) -> Bool {
    if self.id == id {
      transform(&self)
      return true
    }
    switch self {
    case .composed(let own, var children):
      for index in children.indices where children[index].modify(id, transform) {
        self = .composed(id: own, children: children)
        return true
      }
    case .segmented(let own, var children, let current):
      for index in children.indices where children[index].modify(id, transform) {
        self = .segmented(id: own, children: children, current: current)
        return true
      }
    default: break
    }
    return false
  }

  func find(_ id: Int) -> RefNode? {
    if self.id == id { return self }
    for child in children {
      if let found = child.find(id) { return found }
    }
    return nil
  }

  var description: String {
    switch self {
    case .array(let id, let items): "A\(id)\(items)"
    case .single(let id, let item): "S\(id)(\(item.map(\.description) ?? "nil"))"
    case .composed(let id, let children): "C\(id)\(children)"
    case .segmented(let id, let children, let current): "G\(id)@\(current)\(children)"
    }
  }
}
