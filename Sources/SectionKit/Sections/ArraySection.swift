/// A section over one contiguous array of elements.
///
/// `ArraySection` is a full `RandomAccessCollection`, `MutableCollection` and
/// `RangeReplaceableCollection`: use it like an `Array`, and every mutation tells the tree exactly
/// which elements were inserted, removed, updated or moved, inside one begin/end bracket per call.
/// Nothing falls back to invalidate-all.
///
/// ```swift
/// let friends: ArraySection<String> = ["Ada", "Grace"]
/// friends.append("Linus")                 // one insert event at 2
/// friends[0] = "Ada Lovelace"             // one update event at 0
/// friends.move(from: 2, to: 0)            // one move event 2 → 0
/// friends.removeAll { $0.hasPrefix("G") } // one remove event at 2
/// ```
///
/// Group several mutations into one batch with ``performBatchUpdates(_:)``. Within a bracket the
/// section already holds the state after the whole mutation when its events arrive.
///
/// The class is `open` so that subclasses can adopt opt-in protocols; its mutators are not
/// overridable, which keeps the events exact. It is `nonisolated`, and so are its subclasses, even
/// in a module whose default isolation is the main actor: a section lives in the isolation domain
/// of the code that creates it.
nonisolated open class ArraySection<Element>: TreeLink, BracketedSection {
  // Declared first, then `bracket`: their two bytes each fill the end of the link's fields
  // (``TreeLink``), where at the end of the object they would be padded to eight (a class lays
  // its stored properties out in the order they are declared, after those of its superclass).
  // A delegate of the user's is kept in ``CustomSectionDelegates``, not here.
  @exclusivity(unchecked) final var mutationInProgress: MutationInProgress?

  /// The delegate told about every change: the parent provider once the section is in a tree.
  ///
  /// Held weakly. In a built-in parent the section is its own link to the parent (it keeps its
  /// place there itself, with no object for it), and this returns a view of that link; setting
  /// that view back makes the section report to its parent again.
  public var updateDelegate: (any SectionUpdateDelegate)? {
    get { sectionDelegate }
    set {
      setSectionDelegate(newValue)
      bracket.delegateChanged()
    }
  }
  /// The section itself while it reports to a built-in parent (``TreeLink/reportsToOwner``).
  final var uplink: TreeLink? { reportsToOwner ? self : nil }
  // The stored properties marked `@exclusivity(unchecked)` skip Swift's dynamic exclusivity
  // checks: each change reads and writes them several times, and the checks cost 2.8% of the
  // instructions of `sectionkit-bench churn` (callgrind, release: 10.66 G with, 10.96 G without,
  // 600,000 single-change batches). Every write is a plain value operation that calls no user code,
  // so no access can overlap another.
  @exclusivity(unchecked) final var bracket = UpdateBracket()

  /// The elements, in order.
  public final internal(set) var elements: [Element] {
    get { storage }
    _modify { yield &storage }
  }
  /// ``elements``, stored under a name the inlinable mutators can write (the public property's
  /// setter is internal).
  @usableFromInline @exclusivity(unchecked) final var storage: [Element]

  /// Creates an empty section.
  ///
  /// The one initializer a subclass must provide (`RangeReplaceableCollection` requires it). A
  /// subclass with constants of its own, which `init()` cannot supply, marks it unavailable and
  /// writes its own initializer:
  ///
  /// ```swift
  /// final class Tasks: ArraySection<Task>, SelectionHandler {
  ///   let store: TaskStore
  ///   init(store: TaskStore, _ tasks: [Task] = []) {
  ///     self.store = store
  ///     super.init(tasks)
  ///   }
  ///   @available(*, unavailable) required init() { fatalError("Tasks needs a store") }
  /// }
  /// ```
  public required override init() {
    storage = []
  }

  /// Creates a section holding `elements`. (Any other sequence goes through
  /// `RangeReplaceableCollection`'s `init(_:)`; array literals through `init(arrayLiteral:)`.)
  /// Not required: a subclass need not provide it.
  public init(_ elements: [Element]) {
    storage = elements
  }

  /// The number of elements.
  ///
  /// - Complexity: O(1).
  public var numberOfElements: Int { storage.count }

  /// The element at `index`; traps with the index and the count when `index` is out of range.
  public func element(at index: Int) -> Element {
    checkIndex(index, "element(at:)")
    return elements[index]
  }

  /// Groups every change made in `updates` into one bracket, hence one batch.
  ///
  /// Calls nest; only the outermost call closes the bracket.
  public func performBatchUpdates<R>(_ updates: () throws -> R) rethrows -> R {
    try withBracket(updates)
  }

  /// Moves the element at `index` to `newIndex` (as `remove(at:)` then `insert(_:at:)`), emitting
  /// one move event.
  ///
  /// - Complexity: O(n).
  @inlinable
  public final func move(from index: Int, to newIndex: Int) {
    precondition(
      index >= 0 && index < storage.count,
      "\(Self.self).move(from:to:): index \(index) is out of range (count \(storage.count))")
    precondition(
      newIndex >= 0 && newIndex < storage.count,
      "\(Self.self).move(from:to:) destination: index \(newIndex) is out of range (count "
        + "\(storage.count))")
    guard index != newIndex else { return }
    guard reportsOwnBatch else { return reportingMove(from: index, to: newIndex) }
    let element = storage.remove(at: index)
    storage.insert(element, at: newIndex)
    reportOwnBatch(.move(from: index, to: newIndex))
  }

  /// ``move(from:to:)`` off the fast path.
  @usableFromInline final func reportingMove(from index: Int, to newIndex: Int) {
    mutate(.move, reporting: .move(from: index, to: newIndex)) {
      let element = elements.remove(at: index)
      elements.insert(element, at: newIndex)
    }
  }

  /// Whether a mutator that makes one element change may do its work inline (specialised in
  /// the client's module) and then report it with ``reportOwnBatch(_:)``: no bracket of the
  /// section is open, no mutation is in progress (the slow path traps on one), and the delegate
  /// is a link. The work must run no user code (no element is released while it runs).
  @usableFromInline final var reportsOwnBatch: Bool {
    !bracket.isOpen && mutationInProgress == nil && reportsToOwner
  }

  /// Reports `change`, made while ``reportsOwnBatch`` held, as a batch of its own: the bracket's
  /// begin, the change and its end climb the tree as one ``Hop``; or drops it when the section
  /// was inserted in the open batch and no one but the coordinator above would hear it
  /// (``TreeLink/coversElementEvents``).
  @usableFromInline final func reportOwnBatch(_ change: ElementChange) {
    if coversElementEvents { return }
    carryOwnBatch(change)
  }

  /// The section itself: a built-in section is its own link.
  override final var child: SectionProviderChild { .section(self) }

  /// The section itself: a built-in section is its own link (see ``Section/_sectionKitLink``).
  public final var _sectionKitLink: Unmanaged<TreeLink>? { .passUnretained(self) }

  override final var linkedSection: any Section { self }

  override final func linkDidChange() { bracket.delegateChanged() }

  /// Traps with a message naming the section, the index and the count.
  func checkIndex(_ index: Int, _ operation: @autoclosure () -> String) {
    precondition(
      index >= 0 && index < elements.count,
      "\(Self.self).\(operation()): index \(index) is out of range (count \(elements.count))")
  }

  /// Traps unless `k` is a number of elements the section can give up (`0...count`), naming the
  /// public `method`.
  @usableFromInline
  final func _checkCount(_ k: Int, _ method: SectionMethod) {
    precondition(
      k >= 0 && k <= elements.count,
      "\(Self.self).\(method.name): count \(k) is out of range 0...\(elements.count)")
  }

  func checkRange(_ range: Range<Int>, _ operation: @autoclosure () -> String) {
    precondition(
      range.lowerBound >= 0 && range.upperBound <= elements.count,
      "\(Self.self).\(operation()): range \(range) is out of bounds 0..<\(elements.count)")
  }
}

extension ArraySection: RandomAccessCollection, MutableCollection {
  /// A position in the section: `0..<count`, as in an array.
  public typealias Index = Int
  /// The section's valid positions, `0..<count`.
  public typealias Indices = Range<Int>
  /// A slice of the section's elements: an `ArraySlice`, which does not report changes.
  public typealias SubSequence = ArraySlice<Element>

  /// Always 0.
  public var startIndex: Int { 0 }
  /// The number of elements.
  public var endIndex: Int { storage.count }
  /// The number of elements.
  ///
  /// - Complexity: O(1).
  public var count: Int { storage.count }
  /// Whether the section has no elements.
  public var isEmpty: Bool { storage.isEmpty }

  /// The element at `position`; setting it emits one update event, or none when `Element` is
  /// `Equatable` and the new value is equal to the old one (see `reload(at:)`).
  ///
  /// Outside any batch of the section, the old element is released once the change is reported,
  /// so a `deinit` of it that changes the section makes a batch of its own, after this one.
  public subscript(position: Int) -> Element {
    get {
      checkIndex(position, "subscript")
      return elements[position]
    }
    @inlinable
    set {
      precondition(
        position >= 0 && position < storage.count,
        "\(Self.self).subscript: index \(position) is out of range (count \(storage.count))")
      // `==` is user code: a mutation of the section from inside it reports its own events, and
      // this write stays consistent with them while `position` is still an index (checked here,
      // for SectionKit's message rather than the array's; a guard around `==` cost 5% of a
      // single change).
      let equal = isKnownEqual(storage[position], newValue)
      precondition(
        position < storage.count,
        "\(Self.self).subscript(_:): the section was mutated from inside its elements' == "
          + "(index \(position) is out of range, count \(storage.count))")
      guard reportsOwnBatch else { return write(newValue, at: position, equal: equal) }
      // The old element leaves the array before it is released, and is released only once the
      // change is reported: its `deinit` may change the section, as a batch of its own.
      var old = newValue
      swap(&storage[position], &old)
      withExtendedLifetime(old) {
        if !equal { reportOwnBatch(.update(position)) }
      }
    }
  }

  /// The subscript's setter off the fast path.
  @usableFromInline final func write(_ newValue: Element, at position: Int, equal: Bool) {
    if equal {
      mutate(.subscriptElement) { elements[position] = newValue }
      return
    }
    mutate(.subscriptElement, reporting: .update(position)) {
      elements[position] = newValue
    }
  }

  /// A slice of the elements; setting it replaces that range (see ``replaceSubrange(_:with:)``).
  public subscript(bounds: Range<Int>) -> ArraySlice<Element> {
    get {
      checkRange(bounds, "subscript(bounds:)")
      return elements[bounds]
    }
    set {
      replace(bounds, with: newValue, .subscriptBounds)
    }
  }

  /// Exchanges two elements, emitting the moves that carry each to the other's place.
  public func swapAt(_ i: Int, _ j: Int) {
    checkIndex(i, "swapAt(_:_:)")
    checkIndex(j, "swapAt(_:_:)")
    guard i != j else { return }
    let (low, high) = (Swift.min(i, j), Swift.max(i, j))
    mutate(.swapAt) {
      elements.swapAt(low, high)
      emit(.move(from: low, to: high))
      if high - 1 != low { emit(.move(from: high - 1, to: low)) }
    }
  }
}

extension ArraySection: RangeReplaceableCollection {
  /// Replaces the elements in `subrange` with `newElements`.
  ///
  /// Emits, in one bracket: an update for each position both ranges share (none where
  /// `Element` is `Equatable` and the value is unchanged), then removals of the surplus old
  /// elements or insertions of the surplus new ones.
  ///
  /// `newElements` may read the section, but mutating it while it is read traps.
  ///
  /// - Complexity: O(n + m), where m is the length of `newElements`.
  @inlinable
  public final func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
  where C.Element == Element {
    replace(subrange, with: newElements, .replaceSubrange)
  }

  /// ``replaceSubrange(_:with:)`` for the public `method` that traps naming it.
  ///
  /// Inlinable, like the bulk mutators that call it, so that reading `newElements` (a range, a
  /// lazy map) and writing the storage are specialised for the caller's types: unspecialised,
  /// reading a `Range<Int>` element by element through its conformances cost 84% of the
  /// instructions of building 10,000 sections of 100 elements with `append(contentsOf:)`.
  @inlinable
  final func replace<C: Collection>(
    _ subrange: Range<Int>, with newElements: C, _ method: SectionMethod
  ) where C.Element == Element {
    _checkRange(subrange, method)
    // Materialised first, and the section kept as it is while user code reads `newElements`.
    let newElements = _materialising(method) { Array(newElements) }
    _replace(subrange, withMaterialised: newElements, method)
  }

  /// ``replace(_:with:_:)`` once `newElements` is an array; `subrange` is checked.
  @inlinable
  final func _replace(
    _ subrange: Range<Int>, withMaterialised newElements: [Element], _ method: SectionMethod
  ) {
    let newCount = newElements.count
    guard !(subrange.isEmpty && newCount == 0) else { return }
    _report(method, replacing: subrange, by: newCount) {
      let shared = Swift.min(subrange.count, newCount)
      let start = subrange.lowerBound
      var changed: [Int] = []
      for offset in 0..<shared where !isKnownEqual(storage[start + offset], newElements[offset]) {
        changed.append(start + offset)
      }
      storage.replaceSubrange(subrange, with: newElements)
      return changed
    }
  }

  /// Runs `body`, which reads the new elements of the mutator `method` (user code), trapping on
  /// any mutation of the section from inside it.
  @usableFromInline
  final func _materialising<R>(_ method: SectionMethod, _ body: () -> R) -> R {
    callingOut(method, .readingNewElements, body)
  }

  /// Traps unless `range` lies within the elements, naming the public `method`.
  @usableFromInline
  final func _checkRange(_ range: Range<Int>, _ method: SectionMethod) {
    checkRange(range, method.name)
  }

  /// Runs `write`, the work of the mutator `method`, which replaces the elements in `subrange`
  /// with `newCount` new ones and returns the indexes among the first `min(subrange.count,
  /// newCount)` whose value changed; then emits, in one bracket, an update for each of those,
  /// and removals of the surplus old elements (highest first) or insertions of the surplus new
  /// ones.
  ///
  /// With a link as delegate (a built-in parent or a mapping), a change of more than one event
  /// climbs the tree as one event (an ``ElementDiff``), which the coordinator reads off directly
  /// and every other receiver gets as these events; when the section was inserted in the open
  /// batch and no one but the coordinator above would hear it (``TreeLink/coversElementEvents``),
  /// nothing is sent. Either way the cost does not grow with the number of events.
  @usableFromInline
  final func _report(
    _ method: SectionMethod, replacing subrange: Range<Int>, by newCount: Int,
    _ write: () -> [Int]
  ) {
    mutate(method) {
      let updated = write()
      let replacement = ElementReplacement(
        range: subrange, replacementCount: newCount,
        oldCount: elements.count - newCount + subrange.count, updated: updated)
      if sendsWhole(replacement.stepCount, { ElementDiff(replacement) }) { return }
      for change in replacement.steps() { emit(change) }
    }
  }

  /// Sends a change of `stepCount` element events, inside the open bracket, as one event, the
  /// diff `makeDiff` makes, when the delegate is a link and there is more than one event; drops
  /// it when the section's events are covered (``TreeLink/coversElementEvents``). Returns
  /// whether the change was sent or dropped; if not, the caller emits its steps one by one.
  final func sendsWhole(_ stepCount: Int, _ makeDiff: () -> ElementDiff) -> Bool {
    guard let link = uplink else { return false }
    if link.coversElementEvents { return true }
    guard stepCount > 1, !ElementDiff.sendsSteps else { return false }
    var hop = Hop()
    hop.add(.elements(makeDiff(), inSection: 0), bracket.delivery())
    link.carry(hop)
    return true
  }

  /// Appends `element`, emitting one insert event.
  ///
  /// - Complexity: O(1) amortized.
  @inlinable
  public final func append(_ element: Element) {
    let index = storage.count
    guard reportsOwnBatch else { return reportingInsert(element, at: index, .append) }
    storage.append(element)
    reportOwnBatch(.insert(index))
  }

  /// Inserts `element` at `index` (`0...count`), emitting one insert event.
  @inlinable
  public final func insert(_ element: Element, at index: Int) {
    precondition(
      index >= 0 && index <= storage.count,
      "\(Self.self).insert(_:at:): index \(index) is out of range 0...\(storage.count)")
    guard reportsOwnBatch else {
      return reportingInsert(element, at: index, .insert)
    }
    storage.insert(element, at: index)
    reportOwnBatch(.insert(index))
  }

  /// ``insert(_:at:)`` and ``append(_:)`` off the fast path.
  @usableFromInline final func reportingInsert(
    _ element: Element, at index: Int, _ method: SectionMethod
  ) {
    mutate(method, reporting: .insert(index)) {
      elements.insert(element, at: index)
    }
  }

  /// Removes and returns the element at `index`, emitting one remove event.
  @inlinable
  @discardableResult
  public final func remove(at index: Int) -> Element {
    precondition(
      index >= 0 && index < storage.count,
      "\(Self.self).remove(at:): index \(index) is out of range (count \(storage.count))")
    guard reportsOwnBatch else { return reportingRemove(at: index) }
    let element = storage.remove(at: index)
    reportOwnBatch(.remove(index))
    return element
  }

  /// ``remove(at:)`` off the fast path.
  @usableFromInline final func reportingRemove(at index: Int) -> Element {
    mutate(.remove, reporting: .remove(index)) {
      elements.remove(at: index)
    }
  }

  /// Appends `newElements`, emitting one insert event per element, in one bracket.
  ///
  /// `newElements` may read the section, but mutating it while it is read traps.
  ///
  /// - Complexity: O(m) amortized, where m is the length of `newElements`.
  @inlinable
  public final func append<S: Sequence>(contentsOf newElements: S) where S.Element == Element {
    let added = _materialising(.appendContentsOf) { Array(newElements) }
    _replace(storage.count..<storage.count, withMaterialised: added, .appendContentsOf)
  }

  /// Inserts `newElements` at `index` (`0...count`), emitting one insert event per element.
  ///
  /// `newElements` may read the section, but mutating it while it is read traps.
  @inlinable
  public final func insert<C: Collection>(contentsOf newElements: C, at index: Int)
  where C.Element == Element {
    precondition(
      index >= 0 && index <= storage.count,
      "\(Self.self).insert(contentsOf:at:): index \(index) is out of range 0...\(storage.count)")
    replace(index..<index, with: newElements, .insertContentsOf)
  }

  /// Removes the elements in `bounds`, emitting one remove event per element (highest first).
  @inlinable
  public final func removeSubrange(_ bounds: Range<Int>) {
    _checkRange(bounds, .removeSubrange)
    _replace(bounds, withMaterialised: [], .removeSubrange)
  }

  /// Removes and returns the first element, which must exist.
  @discardableResult
  public func removeFirst() -> Element {
    precondition(!elements.isEmpty, "\(Self.self).removeFirst(): the section is empty")
    return remove(at: 0)
  }

  /// Removes the first `k` elements (`0...count`).
  @inlinable
  public final func removeFirst(_ k: Int) {
    _checkCount(k, .removeFirst)
    _replace(0..<k, withMaterialised: [], .removeFirst)
  }

  /// Removes and returns the last element, which must exist.
  @discardableResult
  public func removeLast() -> Element {
    precondition(!elements.isEmpty, "\(Self.self).removeLast(): the section is empty")
    return remove(at: elements.count - 1)
  }

  /// Removes the last `k` elements (`0...count`).
  @inlinable
  public final func removeLast(_ k: Int) {
    _checkCount(k, .removeLast)
    _replace((storage.count - k)..<storage.count, withMaterialised: [], .removeLast)
  }

  /// Removes and returns the last element, or `nil` when the section is empty.
  public func popLast() -> Element? {
    elements.isEmpty ? nil : remove(at: elements.count - 1)
  }

  /// Removes every element that satisfies `shouldBeRemoved`, emitting one remove event per
  /// removed element (highest index first), in one bracket.
  ///
  /// `shouldBeRemoved` may read the section, but mutating it from inside the predicate traps
  /// (as `Array` does): the change could not be reported consistently.
  ///
  /// - Complexity: O(n).
  public func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    var kept: [Element] = []
    kept.reserveCapacity(elements.count)
    var removed: [Int] = []
    try callingOut(.removeAllWhere, .predicate) {
      for (index, element) in elements.enumerated() {
        if try shouldBeRemoved(element) { removed.append(index) } else { kept.append(element) }
      }
    }
    guard !removed.isEmpty else { return }
    mutate(.removeAllWhere) {
      elements = kept
      let count = kept.count + removed.count
      if sendsWhole(removed.count, { ElementDiff(IdentityMatching(removing: removed, of: count)) })
      {
        return
      }
      for index in removed.reversed() { emit(.remove(index)) }
    }
  }

  /// Removes every element, emitting one remove event per element, in one bracket.
  @inlinable
  public final func removeAll(keepingCapacity keepCapacity: Bool = false) {
    guard !storage.isEmpty else { return }
    _report(.removeAllKeepingCapacity, replacing: 0..<storage.count, by: 0) {
      storage.removeAll(keepingCapacity: keepCapacity)
      return []
    }
  }

  /// Reserves storage for `minimumCapacity` elements; emits nothing.
  public func reserveCapacity(_ minimumCapacity: Int) {
    elements.reserveCapacity(minimumCapacity)
  }
}

extension ArraySection: ExpressibleByArrayLiteral {}

extension ExpressibleByArrayLiteral
where Self: RangeReplaceableCollection & Section, ArrayLiteralElement == Element {
  /// Creates a section from an array literal: an empty section (`init()`), then the elements.
  /// Written once here, rather than as a required initializer of ``ArraySection``, so that a
  /// subclass need not write it.
  public init(arrayLiteral elements: Element...) {
    self.init()
    append(contentsOf: elements)
  }
}

extension ArraySection: Equatable where Element: Equatable {
  /// Two sections are equal when they hold equal elements in the same order.
  public static func == (lhs: ArraySection, rhs: ArraySection) -> Bool {
    lhs.elements == rhs.elements
  }
}

extension ArraySection: Hashable where Element: Hashable {
  /// Hashes the elements.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(elements)
  }
}

extension ArraySection: CustomStringConvertible {
  /// `ArraySection<Element>([…])`.
  public var description: String {
    "\(Self.self)(\(elements))"
  }
}
