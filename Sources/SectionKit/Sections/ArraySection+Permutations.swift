/// Reordering an `ArraySection` in one bracket of move events.
///
/// `MutableCollection`'s own `sort()`, `reverse()` and `shuffle()` write element by element through
/// the subscript, which would report every position as an update in its own batch. These methods
/// report a reordering for what it is — elements keeping their identity and changing place — so
/// the coordinator can animate it as moves (and, reading identities, reports only the elements
/// that left the longest run that kept its order).
extension ArraySection {
  /// Sorts the elements in place with `areInIncreasingOrder`, emitting the moves that carry each
  /// element to its place, in one bracket.
  ///
  /// `areInIncreasingOrder` may read the section, but mutating it from inside the comparator
  /// traps.
  ///
  /// - Complexity: O(n log n).
  public func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    let order = try callingOut(.sort, .comparator) {
      try elements.indices.sorted { try areInIncreasingOrder(elements[$0], elements[$1]) }
    }
    permute(to: order, .sort)
  }

  /// Reverses the elements in place, emitting moves in one bracket.
  ///
  /// - Complexity: O(n log n).
  public func reverse() {
    permute(to: Array(elements.indices.reversed()), .reverse)
  }

  /// Shuffles the elements in place with `generator`, emitting moves in one bracket.
  ///
  /// Mutating the section from inside `generator` traps.
  public func shuffle<G: RandomNumberGenerator>(using generator: inout G) {
    let order = callingOut(.shuffle, .generator) {
      elements.indices.shuffled(using: &generator)
    }
    permute(to: order, .shuffle)
  }

  /// Reorders the elements so that the element at old index `order[p]` ends at `p`.
  ///
  /// Events: for each target position `p` in turn, one move from where the element is at that
  /// point to `p` (none when it is already there). Before step `p`, positions `0..<p` hold the
  /// placed elements and the others follow in their old relative order, so the element's current
  /// position is `p` plus the number of unplaced elements older than it: a Fenwick tree counts
  /// them in O(log n).
  func permute(to order: [Int], _ method: SectionMethod) {
    let count = elements.count
    precondition(
      order.count == count,
      "\(Self.self).\(method.name): \(order.count) indexes for \(count) elements")
    guard order != Array(0..<count) else { return }
    let reordered = order.map { elements[$0] }
    var unplaced = FenwickCounter(count: count)
    mutate(method) {
      elements = reordered
      for (target, old) in order.enumerated() {
        let current = target + unplaced.count(below: old)
        unplaced.remove(old)
        if current != target { emit(.move(from: current, to: target)) }
      }
    }
  }
}

extension ArraySection where Element: Comparable {
  /// Sorts the elements in ascending order, emitting moves in one bracket.
  /// - Complexity: O(n log n).
  public func sort() {
    sort(by: <)
  }
}

extension ArraySection {
  /// Shuffles the elements with the system's random generator, emitting moves in one bracket.
  public func shuffle() {
    var generator = SystemRandomNumberGenerator()
    shuffle(using: &generator)
  }
}

/// Counts which of `0..<count` are still present, with prefix counts in O(log n).
struct FenwickCounter {
  private var tree: [Int]

  /// All of `0..<count` present.
  init(count: Int) {
    self.init(presence: [Bool](repeating: true, count: count))
  }

  /// The values `v` of `0..<presence.count` with `presence[v]` present.
  ///
  /// - Complexity: O(n).
  init(presence: [Bool]) {
    let count = presence.count
    tree = [Int](repeating: 0, count: count + 1)
    for index in 1...max(count, 1) where index <= count {
      if presence[index - 1] { tree[index] += 1 }
      let parent = index + (index & -index)
      if parent <= count { tree[parent] += tree[index] }
    }
  }

  /// How many present values are below `value`.
  func count(below value: Int) -> Int {
    var index = value
    var total = 0
    while index > 0 {
      total += tree[index]
      index -= index & -index
    }
    return total
  }

  /// Marks `value` as no longer present.
  mutating func remove(_ value: Int) {
    add(-1, at: value)
  }

  /// Marks `value`, absent, as present.
  mutating func insert(_ value: Int) {
    add(1, at: value)
  }

  private mutating func add(_ delta: Int, at value: Int) {
    var index = value + 1
    while index < tree.count {
      tree[index] += delta
      index += index & -index
    }
  }
}
