/// The value of each arrival of an ``ElementMirrorPlan``, in the plan's order: gathered before
/// the mirror changes, then moved into it, so that each value is copied once (from where it is
/// given) and never copied again or released on the way.
///
/// The raw memory behind it is its own: the handle cannot be copied, it is filled from the first
/// value on and emptied in the same order, and whatever is still in it when it goes (all of it,
/// when a value could not be given and nothing was applied) is released then.
struct ArrivalValues<Element>: ~Copyable {
  private let base: UnsafeMutablePointer<Element>
  /// How many values it holds room for.
  let capacity: Int
  /// How many values were given, from the first.
  private(set) var count = 0
  /// How many values were moved out, from the first.
  private(set) var taken = 0

  /// Room for `capacity` values, none given yet.
  init(capacity: Int) {
    base = .allocate(capacity: capacity)
    self.capacity = capacity
  }

  /// Gives the next value.
  mutating func append(_ value: consuming Element) {
    precondition(count < capacity, "ArrivalValues.append(_:): all \(capacity) values given")
    (base + count).initialize(to: value)
    count += 1
  }

  /// A copy of the next value to be moved out, which stays.
  var next: Element {
    precondition(taken < count, "ArrivalValues.next: \(taken) of \(count) values taken")
    return base[taken]
  }

  /// Moves the next value out to `destination`, uninitialized memory.
  mutating func moveNext(to destination: UnsafeMutablePointer<Element>) {
    precondition(
      taken < count, "ArrivalValues.moveNext(to:): \(taken) of \(count) values taken")
    destination.moveInitialize(from: base + taken, count: 1)
    taken += 1
  }

  deinit {
    (base + taken).deinitialize(count: count - taken)
    base.deallocate()
  }
}
