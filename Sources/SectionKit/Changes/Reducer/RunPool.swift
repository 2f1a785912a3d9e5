/// The node storage shared by all the run trees of one batch: each tree is a sequence of slots
/// stored as ``Run``s in an implicit treap, addressed by position. The batch reducer keeps one per
/// touched section (slots are elements) and one for the section list (slots are sections).
///
/// Every operation is O(log r) expected for r runs; nodes live in one array, so a batch
/// allocates O(k) memory for k events.
struct RunPool {
  typealias NodeID = Int32
  static let none: NodeID = -1

  private struct Node {
    var left: NodeID = RunPool.none
    var right: NodeID = RunPool.none
    var priority: UInt32
    /// Slots in this subtree.
    var size: Int
    var run: Run
  }

  private var nodes: [Node] = []
  private static let initialSeed: UInt64 = 0x9E37_79B9_7F4A_7C15
  private var seed = initialSeed

  /// The runs of the small lists (`RunPool+SmallLists.swift`), ``listCapacity`` places per list;
  /// the places beyond the lists in use are spare (kept when the pool is emptied).
  var listRuns: [Run] = []
  /// The number of runs, and of slots, of each small list.
  var listCounts: [Int32] = []
  var listSizes: [Int] = []
  /// How many runs a small list holds before it becomes a treap; 0: treaps only (for tests).
  let listCapacity: Int

  init(listCapacity: Int = 16) {
    precondition(listCapacity == 0 || listCapacity >= 4, "RunPool: list capacity \(listCapacity)")
    self.listCapacity = listCapacity
  }

  /// Empties the pool, keeping its arrays' capacity, for the next batch.
  mutating func removeAll() {
    // Each only when not empty: a batch whose sections each had one change used none.
    if !nodes.isEmpty { nodes.removeAll(keepingCapacity: true) }
    if !listCounts.isEmpty {
      listCounts.removeAll(keepingCapacity: true)
      listSizes.removeAll(keepingCapacity: true)
    }
    visits = 0
    // The priorities start over: a batch builds the same trees whatever came before.
    seed = Self.initialSeed
  }

  /// Up to how many nodes an emptied pool keeps its capacity for: beyond, it lets its array go,
  /// so that one huge batch does not hold its memory for good.
  static let retainedCapacity = 4_096

  /// Whether the pool's arrays are small enough to keep for the next batch.
  var isWorthKeeping: Bool {
    nodes.capacity <= Self.retainedCapacity && listRuns.capacity <= Self.retainedCapacity
  }

  mutating func makeNode(_ run: Run) -> NodeID {
    precondition(run.count > 0)
    // xorshift64*: deterministic priorities, so a batch always builds the same trees.
    seed ^= seed >> 12
    seed ^= seed << 25
    seed ^= seed >> 27
    let priority = UInt32(truncatingIfNeeded: (seed &* 2_685_821_657_736_338_717) >> 32)
    nodes.append(Node(priority: priority, size: run.count, run: run))
    return NodeID(nodes.count - 1)
  }

  /// A tree holding `run`, or an empty tree when the run has no slots.
  mutating func makeTree(_ run: Run) -> NodeID {
    run.count > 0 ? makeNode(run) : Self.none
  }

  func size(_ tree: NodeID) -> Int { tree < 0 ? 0 : nodes[Int(tree)].size }

  /// How many nodes splits and merges have visited: the reducer's work, counted by the tests of
  /// the O(k log k) batch contract.
  var visits = 0

  private mutating func update(_ node: NodeID) {
    visits &+= 1
    let i = Int(node)
    nodes[i].size = size(nodes[i].left) + nodes[i].run.count + size(nodes[i].right)
  }

  /// Splits `tree` into its first `position` slots and the rest.
  ///
  /// A run cut in two leaves its tail out of both halves while the split recurses (every subtree
  /// it returns is rooted at a node that was below the node it is attached to, so the heap order
  /// of priorities holds); the tail then becomes a node of its own, merged into the right half.
  /// Attaching a new node with a fresh priority in the middle of the recursion would break the
  /// heap order, and the tree would degenerate into a list under repeated splits.
  mutating func split(_ tree: NodeID, at position: Int) -> (NodeID, NodeID) {
    let (left, right, tail) = splitKeepingTail(tree, at: position)
    guard let tail else { return (left, right) }
    return (left, merge(makeNode(tail), right))
  }

  /// Splits `tree` into its first `position` slots and the rest; when `position` falls inside a
  /// run, the run's slots from `position` on are in neither tree but returned as `tail`.
  private mutating func splitKeepingTail(
    _ tree: NodeID, at position: Int
  ) -> (left: NodeID, right: NodeID, tail: Run?) {
    guard tree >= 0 else { return (Self.none, Self.none, nil) }
    let i = Int(tree)
    let leftSize = size(nodes[i].left)
    let count = nodes[i].run.count
    if position <= leftSize {
      let (a, b, tail) = splitKeepingTail(nodes[i].left, at: position)
      nodes[i].left = b
      update(tree)
      return (a, tree, tail)
    }
    if position >= leftSize + count {
      let (a, b, tail) = splitKeepingTail(nodes[i].right, at: position - leftSize - count)
      nodes[i].right = a
      update(tree)
      return (tree, b, tail)
    }
    let (head, tail) = nodes[i].run.split(at: position - leftSize)
    nodes[i].run = head
    let right = nodes[i].right
    nodes[i].right = Self.none
    update(tree)
    return (tree, right, tail)
  }

  /// Concatenates two trees.
  mutating func merge(_ a: NodeID, _ b: NodeID) -> NodeID {
    if a < 0 { return b }
    if b < 0 { return a }
    if nodes[Int(a)].priority >= nodes[Int(b)].priority {
      let merged = merge(nodes[Int(a)].right, b)
      nodes[Int(a)].right = merged
      update(a)
      return a
    } else {
      let merged = merge(a, nodes[Int(b)].left)
      nodes[Int(b)].left = merged
      update(b)
      return b
    }
  }

  /// Inserts the slots of `piece` (a tree) at `position` of `tree`.
  mutating func insert(_ piece: NodeID, into tree: NodeID, at position: Int) -> NodeID {
    let (a, b) = split(tree, at: position)
    return merge(merge(a, piece), b)
  }

  /// Cuts `count` slots out of `tree` at `position`; returns the remaining tree and the cut piece.
  mutating func cut(_ tree: NodeID, at position: Int, count: Int) -> (tree: NodeID, piece: NodeID) {
    let (a, rest) = split(tree, at: position)
    let (piece, c) = split(rest, at: count)
    return (merge(a, c), piece)
  }

  /// The run holding slot `position`, and the slot's offset in it.
  mutating func locate(_ tree: NodeID, _ position: Int) -> (run: Run, offset: Int) {
    var node = tree
    var position = position
    while node >= 0 {
      visits &+= 1
      let n = nodes[Int(node)]
      let leftSize = size(n.left)
      if position < leftSize {
        node = n.left
      } else if position < leftSize + n.run.count {
        return (n.run, position - leftSize)
      } else {
        position -= leftSize + n.run.count
        node = n.right
      }
    }
    preconditionFailure("RunPool.locate: position out of range")
  }

  /// Marks the single slot at `position` as updated when it is old.
  mutating func markUpdated(_ tree: NodeID, at position: Int) -> NodeID {
    let (rest, piece) = cut(tree, at: position, count: 1)
    let i = Int(piece)
    if nodes[i].run.kind == .old { nodes[i].run.kind = .updated }
    return insert(piece, into: rest, at: position)
  }

  /// The number of nodes on the longest path from the root of `tree` down (0 for an empty tree),
  /// for tests that check the tree stays balanced.
  ///
  /// - Complexity: O(r) for r runs.
  func height(_ tree: NodeID) -> Int {
    var deepest = 0
    var stack: [(node: NodeID, depth: Int)] = tree >= 0 ? [(tree, 1)] : []
    while let (node, depth) = stack.popLast() {
      deepest = Swift.max(deepest, depth)
      for child in [nodes[Int(node)].left, nodes[Int(node)].right] where child >= 0 {
        stack.append((child, depth + 1))
      }
    }
    return deepest
  }

  /// The runs of `tree`, in order.
  func runs(_ tree: NodeID) -> [Run] {
    var result: [Run] = []
    var stack: [NodeID] = []
    runs(tree, into: &result, stack: &stack)
    return result
  }

  /// Appends the runs of `tree`, in order, to `result`; `stack` is scratch space (left empty),
  /// passed in so that its capacity serves the next call.
  func runs(_ tree: NodeID, into result: inout [Run], stack: inout [NodeID]) {
    var node = tree
    while node >= 0 || !stack.isEmpty {
      while node >= 0 {
        stack.append(node)
        node = nodes[Int(node)].left
      }
      let top = stack.removeLast()
      result.append(nodes[Int(top)].run)
      node = nodes[Int(top)].right
    }
  }
}
