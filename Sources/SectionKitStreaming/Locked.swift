import Foundation

/// A value guarded by a lock, shared between isolation domains.
///
/// `NSLock` rather than `Synchronization.Mutex`, which needs macOS 15 and iOS 18.
final class Locked<State>: @unchecked Sendable {
  private let lock = NSLock()
  private var state: State

  init(_ state: State) {
    self.state = state
  }

  /// Runs `body` with the state, holding the lock. `body` must not call back into the owner.
  func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }
}

/// A first-in first-out queue in a ring: O(1) append and removal at the front.
struct Ring<Element> {
  private var storage: [Element?] = []
  private var head = 0
  /// The number of elements held.
  private(set) var count = 0

  var isEmpty: Bool { count == 0 }

  /// Appends `element` at the back.
  ///
  /// - Complexity: O(1) amortized.
  mutating func append(_ element: Element) {
    if count == storage.count {
      // Grow: unroll the ring into a larger array.
      var grown: [Element?] = []
      grown.reserveCapacity(Swift.max(4, storage.count * 2))
      for offset in 0..<count { grown.append(storage[(head + offset) % storage.count]) }
      grown.append(contentsOf: repeatElement(nil, count: grown.capacity - grown.count))
      storage = grown
      head = 0
    }
    storage[(head + count) % storage.count] = element
    count += 1
  }

  /// Removes and returns the element at the front, if any.
  ///
  /// - Complexity: O(1).
  mutating func popFirst() -> Element? {
    guard count > 0 else { return nil }
    defer {
      storage[head] = nil
      head = (head + 1) % storage.count
      count -= 1
    }
    return storage[head]
  }

  /// The element `offset` places after the front.
  ///
  /// - Complexity: O(1).
  subscript(offset: Int) -> Element {
    precondition(offset >= 0 && offset < count, "Ring: offset \(offset) out of 0..<\(count)")
    return storage[(head + offset) % storage.count]!
  }

  /// Removes everything, keeping no storage.
  mutating func removeAll() {
    self = Ring()
  }

  /// The last `n` elements, oldest first.
  ///
  /// - Complexity: O(n).
  func suffix(_ n: Int) -> [Element] {
    var result: [Element] = []
    result.reserveCapacity(n)
    guard n > 0 else { return result }
    var index = (head + count - n) % storage.count
    for _ in 0..<n {
      result.append(storage[index]!)
      index += 1
      if index == storage.count { index = 0 }
    }
    return result
  }

  /// Every element, oldest first.
  var elements: [Element] { suffix(count) }
}

extension Ring: Sendable where Element: Sendable {}
