extension MutableCollection where Self: RandomAccessCollection, Index == Int {
  /// Sorts the elements by ascending `key`, in place and without allocating: an introsort
  /// (quicksort on a median of three, insertion sort below 17 elements, heapsort past a depth of
  /// 2 log₂ n). Elements with equal keys may change their relative order; the standard library's
  /// stable sort allocates a buffer of the elements' size to merge into.
  ///
  /// `depthLimit` replaces 2 log₂ n, for tests (0: heapsort alone above 16 elements).
  ///
  /// - Complexity: O(n log n) for n elements, whatever their order.
  mutating func sortUnstably(depthLimit: Int? = nil, by key: (Element) -> Int) {
    guard count > 1 else { return }
    let depthLimit = depthLimit ?? 2 * (Int.bitWidth - count.leadingZeroBitCount)
    introsort(startIndex, endIndex, depthLimit: depthLimit, key: key)
  }

  private mutating func introsort(
    _ low: Int, _ high: Int, depthLimit: Int, key: (Element) -> Int
  ) {
    var (low, high, depth) = (low, high, depthLimit)
    while high - low > 16 {
      if depth == 0 {
        heapsort(low, high, key: key)
        return
      }
      depth -= 1
      let pivot = partition(low, high, key: key)
      // The smaller side recursively, the larger in the loop: O(log n) stack.
      if pivot - low < high - pivot {
        introsort(low, pivot, depthLimit: depth, key: key)
        low = pivot + 1
      } else {
        introsort(pivot + 1, high, depthLimit: depth, key: key)
        high = pivot
      }
    }
    insertionSort(low, high, key: key)
  }

  /// Puts the median of the first, middle and last elements of `low..<high` at its sorted place
  /// and returns that place: every element before it has a key no greater, every one after no
  /// smaller.
  private mutating func partition(_ low: Int, _ high: Int, key: (Element) -> Int) -> Int {
    let middle = low + (high - low) / 2
    let last = high - 1
    if key(self[middle]) < key(self[low]) { swapAt(middle, low) }
    if key(self[last]) < key(self[low]) { swapAt(last, low) }
    if key(self[last]) < key(self[middle]) { swapAt(last, middle) }
    // The median at `last - 1`; `low` and `last` already bound the two sides.
    swapAt(middle, last - 1)
    let pivotKey = key(self[last - 1])
    var (left, right) = (low, last - 1)
    while true {
      repeat { left += 1 } while key(self[left]) < pivotKey
      repeat { right -= 1 } while pivotKey < key(self[right])
      if left >= right { break }
      swapAt(left, right)
    }
    swapAt(left, last - 1)
    return left
  }

  private mutating func insertionSort(_ low: Int, _ high: Int, key: (Element) -> Int) {
    guard high - low > 1 else { return }
    for index in low + 1..<high {
      let element = self[index]
      let elementKey = key(element)
      var hole = index
      while hole > low && elementKey < key(self[hole - 1]) {
        self[hole] = self[hole - 1]
        hole -= 1
      }
      self[hole] = element
    }
  }

  private mutating func heapsort(_ low: Int, _ high: Int, key: (Element) -> Int) {
    let count = high - low
    /// Moves the element at heap position `root` down to its place in a heap of `size`.
    func siftDown(_ root: Int, _ size: Int) {
      var parent = root
      while true {
        var child = 2 * parent + 1
        guard child < size else { return }
        if child + 1 < size && key(self[low + child]) < key(self[low + child + 1]) { child += 1 }
        guard key(self[low + parent]) < key(self[low + child]) else { return }
        swapAt(low + parent, low + child)
        parent = child
      }
    }
    for root in stride(from: count / 2 - 1, through: 0, by: -1) { siftDown(root, count) }
    for end in stride(from: count - 1, to: 0, by: -1) {
      swapAt(low, low + end)
      siftDown(0, end)
    }
  }
}
