/// A sequence of slots stored as runs in an implicit treap, addressed by position.
///
/// The batch reducer keeps one per touched section (slots are elements) and one for the section
/// list (slots are sections). A slot is either *old* — it existed when the batch began, and knows
/// its old index — or *inserted* during the batch. Runs keep the cost proportional to the number of
/// events, not to the number of slots: the section list of a 10,000-section tree starts as a single
/// run `old(0..<10000)`.
///
/// Every operation is O(log r) expected for r runs; nodes live in one array (`RunPool`), so a batch
/// allocates O(k) memory for k events.
struct Run: Equatable {
  enum Kind: UInt8 {
    /// Old slots `start..<start + count`, unchanged so far.
    case old
    /// Old slots `start..<start + count` whose content was updated in the batch.
    case updated
    /// `count` slots inserted in the batch.
    case inserted
  }

  var kind: Kind
  var start: Int
  var count: Int

  static func old(_ range: Range<Int>) -> Run {
    Run(kind: .old, start: range.lowerBound, count: range.count)
  }
  static func inserted(_ count: Int) -> Run { Run(kind: .inserted, start: 0, count: count) }

  var isOld: Bool { kind != .inserted }

  /// The run cut after `offset` slots.
  func split(at offset: Int) -> (Run, Run) {
    var left = self
    var right = self
    left.count = offset
    right.count = count - offset
    if isOld { right.start = start + offset }
    return (left, right)
  }
}

/// The node storage shared by all the run trees of one batch.
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

  /// The runs of the small lists (see ``Slots``), ``listCapacity`` places per list; the places
  /// beyond the lists in use are spare (kept when the pool is emptied).
  private var listRuns: [Run] = []
  /// The number of runs of each small list.
  private var listCounts: [Int32] = []
  /// The number of slots of each small list.
  private var listSizes: [Int] = []
  /// How many runs a small list holds before it becomes a treap; 0 makes every sequence a treap
  /// (tests compare the two).
  let listCapacity: Int

  init(listCapacity: Int = 16) {
    precondition(listCapacity == 0 || listCapacity >= 4, "RunPool: list capacity \(listCapacity)")
    self.listCapacity = listCapacity
  }

  /// Empties the pool, keeping its arrays' capacity, for the next batch.
  mutating func removeAll() {
    // Each only when not empty: a batch whose sections each had one change used none of them.
    if !nodes.isEmpty { nodes.removeAll(keepingCapacity: true) }
    if !listCounts.isEmpty {
      listCounts.removeAll(keepingCapacity: true)
      listSizes.removeAll(keepingCapacity: true)
    }
    visits = 0
    // The priorities start over: a batch builds the same trees whatever came before.
    seed = Self.initialSeed
  }

  /// Up to how many nodes and list runs an emptied pool keeps its capacity for: beyond, it lets its
  /// arrays go, so that one huge batch does not hold its memory for good.
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
  private(set) var visits = 0

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

  // MARK: - Small lists

  /// The slots of one section: a small list of runs in ``listRuns`` while it has a few runs, where
  /// an edit shifts at most ``listCapacity`` runs; a treap once it has more. Both hold the same
  /// runs after the same edits (a run is cut where an edit falls inside it, and runs are never
  /// merged), so a section reads off the same either way.
  enum Slots {
    case list(Int32)
    case tree(NodeID)
  }

  /// A sequence holding `run` (empty when the run has no slots): a small list unless lists are off.
  mutating func makeSlots(_ run: Run) -> Slots {
    guard listCapacity > 0 else { return .tree(makeTree(run)) }
    let list = listCounts.count
    listCounts.append(run.count > 0 ? 1 : 0)
    listSizes.append(run.count)
    // The places of the lists, kept when the pool is emptied; grown by doubling.
    if listRuns.count < (list + 1) * listCapacity {
      listRuns.append(
        contentsOf: repeatElement(run, count: Swift.max(listCapacity, listRuns.count)))
    }
    listRuns[list * listCapacity] = run
    return .list(Int32(list))
  }

  /// The number of slots of `slots`.
  func size(_ slots: Slots) -> Int {
    switch slots {
    case .list(let list): listSizes[Int(list)]
    case .tree(let tree): size(tree)
    }
  }

  /// `slots` as a sequence with room for an edit: a list with three runs to spare (an edit adds at
  /// most three), or a treap.
  private mutating func roomy(_ slots: Slots) -> Slots {
    guard case .list(let list) = slots, Int(listCounts[Int(list)]) + 3 > listCapacity else {
      return slots
    }
    var tree = Self.none
    let base = Int(list) * listCapacity
    for index in base..<base + Int(listCounts[Int(list)]) {
      tree = merge(tree, makeNode(listRuns[index]))
    }
    return .tree(tree)
  }

  /// The runs of one small list, edited in place through a pointer: no uniqueness or bounds check
  /// on each write, as an edit shifts up to ``listCapacity`` runs. ``roomy(_:)`` has made room for
  /// the three runs an edit adds at most.
  private struct ListEdit {
    let runs: UnsafeMutablePointer<Run>
    var count: Int
    /// The runs looked at, for ``RunPool/visits``.
    var visits = 0

    /// The index of the run holding slot `position`, and the slot's offset in it: one pass, which
    /// stops once.
    mutating func locate(_ position: Int) -> (index: Int, offset: Int) {
      var (index, offset) = (0, position)
      while index < count && offset >= runs[index].count {
        offset -= runs[index].count
        index += 1
      }
      visits &+= index + 1
      return (index, offset)
    }

    /// Inserts `run` at slot `position`: cutting the run there, one shift for both pieces.
    mutating func insert(_ run: Run, atSlot position: Int) {
      let (index, offset) = locate(position)
      guard index < count, offset > 0 else { return insert(run, at: index) }
      let (head, tail) = runs[index].split(at: offset)
      runs[index] = head
      insert(run, tail, at: index + 1)
    }

    /// The run holding slot `position` cut around it: its index, the slots before, the slot
    /// itself as a run of one, and the slots after (either may be empty).
    @inline(__always)
    mutating func cut(around position: Int) -> (index: Int, head: Run, slot: Run, tail: Run) {
      let (index, offset) = locate(position)
      precondition(index < count, "RunPool: slot \(position) is past the list's end")
      let (head, rest) = runs[index].split(at: offset)
      let (slot, tail) = rest.split(at: 1)
      return (index, head, slot, tail)
    }

    /// Takes the slot at `position` out, as a run of one slot; the run that held it keeps its
    /// other slots, as one or two runs (one shift at most).
    mutating func remove(slot position: Int) -> Run {
      let (index, head, slot, tail) = cut(around: position)
      switch (head.count > 0, tail.count > 0) {
      case (false, false): _ = remove(at: index)
      case (true, false): runs[index] = head
      case (false, true): runs[index] = tail
      case (true, true):
        runs[index] = head
        insert(tail, at: index + 1)
      }
      return slot
    }

    /// Marks the slot at `position` as updated when it is old, cutting it out of its run as a
    /// run of its own, as a treap does (one shift at most).
    mutating func markUpdated(_ position: Int) {
      let (index, head, old, tail) = cut(around: position)
      var slot = old
      if slot.kind == .old { slot.kind = .updated }
      switch (head.count > 0, tail.count > 0) {
      case (false, false): runs[index] = slot
      case (true, false):
        runs[index] = head
        insert(slot, at: index + 1)
      case (false, true):
        runs[index] = slot
        insert(tail, at: index + 1)
      case (true, true):
        runs[index] = head
        insert(slot, tail, at: index + 1)
      }
    }

    /// Puts `run` at index `index`, shifting the runs after it.
    mutating func insert(_ run: Run, at index: Int) {
      var cursor = count
      while cursor > index {
        runs[cursor] = runs[cursor - 1]
        cursor -= 1
      }
      runs[index] = run
      count += 1
    }

    /// Puts `first` and `second` at indexes `index` and `index + 1`, shifting the runs after them
    /// once.
    mutating func insert(_ first: Run, _ second: Run, at index: Int) {
      var cursor = count + 1
      while cursor > index + 1 {
        runs[cursor] = runs[cursor - 2]
        cursor -= 1
      }
      runs[index] = first
      runs[index + 1] = second
      count += 2
    }

    /// Takes the run at index `index` out, shifting the runs after it.
    mutating func remove(at index: Int) -> Run {
      let run = runs[index]
      var cursor = index
      while cursor < count - 1 {
        runs[cursor] = runs[cursor + 1]
        cursor += 1
      }
      count -= 1
      return run
    }
  }

  /// Runs `body` on the runs of small list `list`, in place.
  private mutating func editList<Result>(
    _ list: Int32, _ body: (inout ListEdit) -> Result
  ) -> Result {
    let list = Int(list)
    let (base, count) = (list * listCapacity, Int(listCounts[list]))
    let (result, edited) = listRuns.withUnsafeMutableBufferPointer { buffer in
      var edit = ListEdit(runs: buffer.baseAddress! + base, count: count)
      let result = body(&edit)
      return (result, edit)
    }
    listCounts[list] = Int32(edited.count)
    visits &+= edited.visits
    return result
  }

  /// Inserts `count` new slots at `position`.
  mutating func insert(_ count: Int, into slots: Slots, at position: Int) -> Slots {
    switch roomy(slots) {
    case .list(let list):
      editList(list) { $0.insert(.inserted(count), atSlot: position) }
      listSizes[Int(list)] += count
      return .list(list)
    case .tree(let tree):
      return .tree(insert(makeNode(.inserted(count)), into: tree, at: position))
    }
  }

  /// Removes the slot at `position`.
  mutating func remove(from slots: Slots, at position: Int) -> Slots {
    switch roomy(slots) {
    case .list(let list):
      editList(list) { _ = $0.remove(slot: position) }
      listSizes[Int(list)] -= 1
      return .list(list)
    case .tree(let tree):
      return .tree(cut(tree, at: position, count: 1).tree)
    }
  }

  /// Moves the slot at `from` to `to` (a position after the slot is taken out).
  mutating func move(in slots: Slots, from: Int, to: Int) -> Slots {
    switch roomy(slots) {
    case .list(let list):
      editList(list) { edit in
        let slot = edit.remove(slot: from)
        edit.insert(slot, atSlot: to)
      }
      return .list(list)
    case .tree(let tree):
      let (rest, piece) = cut(tree, at: from, count: 1)
      return .tree(insert(piece, into: rest, at: to))
    }
  }

  /// Marks the slot at `position` as updated when it is old.
  mutating func markUpdated(_ slots: Slots, at position: Int) -> Slots {
    switch roomy(slots) {
    case .list(let list):
      editList(list) { $0.markUpdated(position) }
      return .list(list)
    case .tree(let tree):
      return .tree(markUpdated(tree, at: position))
    }
  }

  /// Appends the runs of `slots`, in order, to `result`; `stack` is scratch space for a treap.
  func runs(_ slots: Slots, into result: inout [Run], stack: inout [NodeID]) {
    switch slots {
    case .list(let list):
      let base = Int(list) * listCapacity
      result.append(contentsOf: listRuns[base..<base + Int(listCounts[Int(list)])])
    case .tree(let tree):
      runs(tree, into: &result, stack: &stack)
    }
  }

  /// Calls `body` with the runs of `slots` in place when they are a small list; `nil` for a
  /// treap.
  @inline(__always)
  func withListRuns<Result>(
    _ slots: Slots, _ body: (UnsafeBufferPointer<Run>) -> Result
  ) -> Result? {
    guard case .list(let list) = slots else { return nil }
    let base = Int(list) * listCapacity
    let count = Int(listCounts[Int(list)])
    return listRuns.withUnsafeBufferPointer { body(.init(rebasing: $0[base..<base + count])) }
  }

  /// The runs of `slots`, in order.
  func runs(_ slots: Slots) -> [Run] {
    var result: [Run] = []
    var stack: [NodeID] = []
    runs(slots, into: &result, stack: &stack)
    return result
  }
}
