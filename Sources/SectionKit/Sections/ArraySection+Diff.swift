/// Data-driven updates of an `ArraySection`: replace the contents with a new array and let the
/// section work out what changed, by identity.
///
/// ```swift
/// struct Contact: Identifiable, Equatable { var id: Int; var name: String }
/// let contacts = ArraySection<Contact>([ada, grace])
/// try contacts.replaceElements(with: payload)   // one bracket: deletes, inserts, moves, updates
/// ```
///
/// Elements with the same identity in the old and new contents are the same element: when the
/// position changes it moves, when its content differs (`!=`) it is updated. Elements of the old
/// contents whose identity is gone are removed; new identities are inserted. The elements that stay
/// in place are a longest increasing subsequence of the survivors' old positions; only the others
/// move. Everything is emitted in one bracket, so the coordinator delivers one changeset.
///
/// Duplicate identities (in the old or the new contents) throw ``DuplicateIdentityError`` and
/// leave the section exactly as it was: the new contents usually come from outside (a payload, a
/// query result), and a bad payload must not crash a server.
extension ArraySection {
  /// Replaces the elements with `newElements`, diffed by `id`; elements with the same identity
  /// whose content `isUpdated` reports are updated.
  ///
  /// - Throws: ``DuplicateIdentityError`` when two old or two new elements share an identity; the
  ///   section is then left exactly as it was and nothing is emitted.
  /// - Complexity: O(n + m) expected (hashing), plus O(s log s) to find the elements that stay,
  ///   where n, m and s are the old, new and surviving counts; O(n + m) when nothing moved.
  @inlinable
  public func replaceElements<C: Collection, ID: Hashable>(
    with newElements: C, identifiedBy id: (Element) -> ID,
    isUpdated: (_ old: Element, _ new: Element) -> Bool
  ) throws(DuplicateIdentityError) where C.Element == Element {
    // Inlinable so that hashing the identities is specialized for the caller's types; the rest
    // works on indexes only.
    let result = _readingNewElements {
      () -> Result<([Element], IdentityMatching), DuplicateIdentityError> in
      let new = Array(newElements)
      return Result { () throws(DuplicateIdentityError) in
        (new, try IdentityMatching(old: elements, new: new, id: id, isUpdated: isUpdated))
      }
    }
    let (new, matching) = try result.get()
    _replaceElements(with: new, matching)
  }

  /// Runs `body`, which reads the new elements and calls the caller's identity and comparison
  /// closures, trapping on any mutation of the section from inside it.
  @usableFromInline
  func _readingNewElements<R>(_ body: () -> R) -> R {
    callingOut(.replaceElements, .readingAndComparing, body)
  }

  /// Replaces the elements with `new`, emitting the events of `matching` in one bracket.
  ///
  /// With a link as delegate (a built-in parent or a mapping), the whole matching climbs the tree
  /// as one event (an ``ElementDiff``), which the coordinator reads off directly; any other
  /// delegate gets the step-semantics events one by one.
  @usableFromInline
  func _replaceElements(with new: [Element], _ matching: IdentityMatching) {
    if let link = uplink, !ElementDiff.sendsSteps {
      guard !matching.isUnchanged else {
        elements = new
        return
      }
      let diff = ElementDiff(matching)
      mutate(.replaceElements) {
        elements = new
        var hop = Hop()
        hop.add(.elements(diff, inSection: 0), bracket.delivery())
        link.carry(hop)
      }
      return
    }
    let steps = matching.steps()
    guard !steps.isEmpty else {
      // Same identities in the same order, nothing updated: no event, but keep the new values.
      elements = new
      return
    }
    mutate(.replaceElements) {
      elements = new
      for change in steps { emit(change) }
    }
  }
}

extension ArraySection where Element: Identifiable & Equatable {
  /// Replaces the elements with `newElements`, diffed by `id`; an element with the same `id` and
  /// different content (`!=`) is updated.
  ///
  /// ```swift
  /// try contacts.replaceElements(with: payload)
  /// ```
  ///
  /// - Throws: ``DuplicateIdentityError`` when two old or two new elements share an `id`; the
  ///   section is left exactly as it was.
  /// - Complexity: O(n + m) expected, plus O(s log s) for the elements that moved (see
  ///   ``replaceElements(with:identifiedBy:isUpdated:)``).
  @inlinable
  public func replaceElements<C: Collection>(with newElements: C) throws(DuplicateIdentityError)
  where C.Element == Element {
    try replaceElements(with: newElements, identifiedBy: { $0.id }, isUpdated: !=)
  }
}

extension ArraySection where Element: Hashable {
  /// Replaces the elements with `newElements`, diffed by value: equal values are the same element
  /// (moved when their position changes); nothing is ever updated.
  ///
  /// - Throws: ``DuplicateIdentityError`` when the old or new elements hold a value twice; the
  ///   section is left exactly as it was.
  /// - Complexity: O(n + m) expected, plus O(s log s) for the elements that moved.
  @inlinable
  public func replaceElements<C: Collection>(with newElements: C) throws(DuplicateIdentityError)
  where C.Element == Element {
    try replaceElements(with: newElements, identifiedBy: { $0 }, isUpdated: { _, _ in false })
  }
}

extension ArraySection where Element: Identifiable & Hashable {
  /// Replaces the elements with `newElements`, diffed by `id` (identifiable elements are diffed
  /// by identity even when they are also hashable); an element with the same `id` and a
  /// different value is updated.
  ///
  /// - Throws: ``DuplicateIdentityError`` when two old or two new elements share an `id`; the
  ///   section is left exactly as it was.
  /// - Complexity: O(n + m) expected, plus O(s log s) for the elements that moved.
  @inlinable
  public func replaceElements<C: Collection>(with newElements: C) throws(DuplicateIdentityError)
  where C.Element == Element {
    try replaceElements(with: newElements, identifiedBy: { $0.id }, isUpdated: !=)
  }
}

/// Two elements of one list share an identity, so a diff cannot tell which is which. Thrown before
/// anything changes: the section is left exactly as it was.
public struct DuplicateIdentityError: Error, Hashable, CustomStringConvertible {
  /// Which list holds the duplicate.
  public enum Contents: String, Sendable, Hashable {
    /// The contents before the update (the section's own elements).
    case old
    /// The contents given to the update.
    case new
  }

  /// The duplicate identity, as `String(describing:)` gives it.
  public var id: String
  /// Which list holds it.
  public var contents: Contents
  /// The positions of its first two occurrences, ascending.
  public var positions: [Int]

  /// Creates an error for the identity `id` found at `positions` of `contents`.
  public init(id: String, contents: Contents, positions: [Int]) {
    self.id = id
    self.contents = contents
    self.positions = positions
  }

  /// `duplicate identity 7 in the new elements, at positions 2 and 5`.
  public var description: String {
    let places = positions.map(String.init).joined(separator: " and ")
    return "duplicate identity \(id) in the \(contents.rawValue) elements, at positions \(places)"
  }
}

/// Which old element each new element continues, by identity, and which of them changed.
///
/// Built by inlinable code (specialized for the caller's element and identity types); everything
/// after it works on indexes only.
@usableFromInline
struct IdentityMatching {
  /// For each old index, its new index, or -1 when the element is gone.
  @usableFromInline var newOfOld: [Int]
  /// For each new index, its old index, or -1 when the element is new.
  @usableFromInline var oldOfNew: [Int]
  /// The old indexes of the elements whose content changed, ascending.
  @usableFromInline var updated: [Int] = []

  @inlinable
  init<Element, ID: Hashable>(
    old: [Element], new: [Element], id: (Element) -> ID, isUpdated: (Element, Element) -> Bool
  ) throws(DuplicateIdentityError) {
    // One table: an old identity maps to its old index (≥ 0), a new-only identity to ~newIndex.
    var table: [ID: Int] = [:]
    table.reserveCapacity(old.count + new.count / 4)
    for index in old.indices {
      let key = id(old[index])
      if let previous = table.updateValue(index, forKey: key) {
        throw DuplicateIdentityError(
          id: String(describing: key), contents: .old, positions: [previous, index])
      }
    }
    newOfOld = [Int](repeating: -1, count: old.count)
    oldOfNew = [Int](repeating: -1, count: new.count)
    // Most new elements continue the old element after the one the previous new element
    // continued (`guess`), or after the one before a jump (`resume`: the element after a moved
    // one): those are matched by comparing one or two identities, without hashing. An old element
    // matched so is the one the table holds for that identity (old identities are unique), so the
    // outcome, errors included, is the table's.
    var guess = 0
    var resume = 0
    for index in new.indices {
      let key = id(new[index])
      if guess < old.count, newOfOld[guess] < 0, id(old[guess]) == key {
        newOfOld[guess] = index
        oldOfNew[index] = guess
        guess += 1
        continue
      }
      if resume < old.count, newOfOld[resume] < 0, id(old[resume]) == key {
        newOfOld[resume] = index
        oldOfNew[index] = resume
        guess = resume + 1
        continue
      }
      if let entry = table[key] {
        guard entry >= 0, newOfOld[entry] < 0 else {
          throw DuplicateIdentityError(
            id: String(describing: key), contents: .new,
            positions: [entry >= 0 ? newOfOld[entry] : ~entry, index])
        }
        newOfOld[entry] = index
        oldOfNew[index] = entry
        resume = guess
        guess = entry + 1
      } else {
        table[key] = ~index
      }
    }
    for oldIndex in old.indices {
      let newIndex = newOfOld[oldIndex]
      if newIndex >= 0 && isUpdated(old[oldIndex], new[newIndex]) { updated.append(oldIndex) }
    }
  }

  /// The matching of the removal of the elements at `removed` (ascending, distinct) out of
  /// `count`: the others stay, in order, none updated.
  ///
  /// - Complexity: O(n).
  init(removing removed: [Int], of count: Int) {
    newOfOld = [Int](repeating: 0, count: count)
    oldOfNew = []
    oldOfNew.reserveCapacity(count - removed.count)
    var next = 0
    for old in 0..<count {
      if next < removed.count && removed[next] == old {
        newOfOld[old] = -1
        next += 1
      } else {
        newOfOld[old] = oldOfNew.count
        oldOfNew.append(old)
      }
    }
  }

  /// Whether the new elements are the old ones, in the same order, none updated: no event.
  ///
  /// - Complexity: O(n).
  var isUnchanged: Bool {
    guard updated.isEmpty, oldOfNew.count == newOfOld.count else { return false }
    for (newIndex, oldIndex) in oldOfNew.enumerated() where newIndex != oldIndex { return false }
    return true
  }

  /// The step-semantics element events of the change.
  ///
  /// In order: updates (old positions), removals (descending old positions), moves of the
  /// survivors outside a longest increasing subsequence (each to its place among the survivors),
  /// insertions (ascending new positions). The coordinator reads identities back off these events,
  /// so the changeset is the same whatever order they come in; this order keeps them few.
  ///
  /// - Complexity: O(n + m + s log s).
  func steps() -> [ElementChange] {
    var steps = updated.map { ElementChange.update($0) }
    // Each survivor's rank among the survivors in old order; removals, highest first.
    var rank = [Int](repeating: -1, count: newOfOld.count)
    var survivors = 0
    for oldIndex in newOfOld.indices where newOfOld[oldIndex] >= 0 {
      rank[oldIndex] = survivors
      survivors += 1
    }
    for oldIndex in newOfOld.indices.reversed() where newOfOld[oldIndex] < 0 {
      steps.append(.remove(oldIndex))
    }
    // The survivors' old ranks in new order.
    var order: [Int] = []
    order.reserveCapacity(survivors)
    for oldIndex in oldOfNew where oldIndex >= 0 { order.append(rank[oldIndex]) }
    steps.append(contentsOf: Self.moves(order))
    for newIndex in oldOfNew.indices where oldOfNew[newIndex] < 0 {
      steps.append(.insert(newIndex))
    }
    return steps
  }

  /// The step-semantics moves that turn the ranks `0..<order.count` into `order` (the rank at each
  /// target position), moving only the ranks outside a longest increasing subsequence.
  ///
  /// The ranks that move are placed in ascending target order, each right after the element that
  /// precedes it in the target (which is already in place): its *anchor*. Slots are numbered in
  /// the final interleaving of old places and moved elements — the chain placed at the front, then
  /// for each old rank its own slot and the chain anchored on it — so a Fenwick tree over slots
  /// gives every move's current and destination index.
  ///
  /// - Complexity: O(s log s) for s survivors.
  static func moves(_ order: [Int]) -> [ElementChange] {
    let count = order.count
    let staying = longestIncreasingSubsequence(order)
    guard staying.count < count else { return [] }
    var isStaying = [Bool](repeating: false, count: count)
    for target in staying { isStaying[target] = true }
    // Chain membership: anchor rank (-1 for the front) and position within the chain (1-based).
    var chainLength = [Int](repeating: 0, count: count + 1)  // index anchor + 1
    var anchorOf = [Int](repeating: -1, count: count)
    var chainPosition = [Int](repeating: 0, count: count)
    var anchor = -1
    for target in 0..<count {
      if isStaying[target] {
        anchor = order[target]
      } else {
        anchorOf[target] = anchor
        chainLength[anchor + 1] += 1
        chainPosition[target] = chainLength[anchor + 1]
      }
    }
    // Slot numbering: front chain, then for each rank r: r's own slot, then r's chain.
    var ownSlot = [Int](repeating: 0, count: count)
    var chainStart = [Int](repeating: 0, count: count + 1)
    var next = chainLength[0]
    for rank in 0..<count {
      ownSlot[rank] = next
      chainStart[rank + 1] = next + 1
      next += 1 + chainLength[rank + 1]
    }
    var presence = [Bool](repeating: false, count: next)
    for slot in ownSlot { presence[slot] = true }
    var present = FenwickCounter(presence: presence)
    var moves: [ElementChange] = []
    moves.reserveCapacity(count - staying.count)
    for target in 0..<count where !isStaying[target] {
      let from = ownSlot[order[target]]
      let fromIndex = present.count(below: from)
      present.remove(from)
      let to = chainStart[anchorOf[target] + 1] + chainPosition[target] - 1
      let toIndex = present.count(below: to)
      present.insert(to)
      moves.append(.move(from: fromIndex, to: toIndex))
    }
    return moves
  }
}

/// The positions of one longest strictly increasing subsequence of `values`, ascending.
///
/// Patience sorting; a value larger than every pile's top extends the longest pile in O(1), so a
/// sequence that is mostly in order costs close to O(n).
///
/// - Complexity: O(n log n) worst case, O(n) for a sequence in order.
func longestIncreasingSubsequence(_ values: [Int]) -> [Int] {
  guard !values.isEmpty else { return [] }
  var tops: [Int] = []  // positions of the pile tops; values[tops[k]] ascending
  var previous = [Int](repeating: -1, count: values.count)
  tops.reserveCapacity(values.count)
  for (position, value) in values.enumerated() {
    if let last = tops.last, values[last] >= value {
      var low = 0
      var high = tops.count - 1
      while low < high {
        let mid = (low + high) / 2
        if values[tops[mid]] < value { low = mid + 1 } else { high = mid }
      }
      previous[position] = low > 0 ? tops[low - 1] : -1
      tops[low] = position
    } else {
      previous[position] = tops.last ?? -1
      tops.append(position)
    }
  }
  var result = [Int](repeating: 0, count: tops.count)
  var cursor = tops[tops.count - 1]
  for slot in stride(from: tops.count - 1, through: 0, by: -1) {
    result[slot] = cursor
    cursor = previous[cursor]
  }
  return result
}
