/// Small lists: a section's runs kept in a flat list of up to ``RunPool/listCapacity`` runs while
/// they are few, edited in place by shifting, and moved into a treap once they are more.
///
/// Kept for its figure (issue 31; callgrind, instructions per change, `sectionkit-bench allocations
/// batches 100 100 N`, the difference of N = 20,000 and 10,000 over 10,000): a batch of 100 at 10²
/// sections costs 4,233 with treaps only, 3,385 with the lists (-20%): a treap's splits, merges and
/// node updates for a section with two or three changes cost more than shifting a few runs.
extension RunPool {

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

  /// The run holding slot `position` of `slots`, and the slot's offset in it.
  mutating func locate(_ slots: Slots, _ position: Int) -> (run: Run, offset: Int) {
    guard case .list(let list) = slots else {
      if case .tree(let tree) = slots { return locate(tree, position) }
      preconditionFailure("RunPool.locate: no slots")
    }
    var offset = position
    let base = Int(list) * listCapacity
    for run in listRuns[base..<base + Int(listCounts[Int(list)])] {
      if offset < run.count { return (run, offset) }
      offset -= run.count
    }
    preconditionFailure("RunPool.locate: position out of range")
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
