/// Whether `a == b`, when `T` is `Equatable`; `false` when it is not (two values of a type
/// without equality are never known to be the same).
///
/// The built-in sections skip the update event of a write that stores an equal value.
///
/// - Complexity: one `==`, and unspecialised one conformance lookup (cached by the runtime).
///   Inlinable, so that a specialisation (`ArraySection<Int>`'s subscript setter in a client)
///   decides the cast at compile time: callgrind shows no dynamic cast on the write path.
@inlinable
func isKnownEqual<T>(_ a: T, _ b: T) -> Bool {
  guard let type = T.self as? any Equatable.Type else { return false }
  func open<E: Equatable>(_: E.Type) -> Bool {
    // `E` is `T`: the casts only rename the type.
    (a as! E) == (b as! E)
  }
  return open(type)
}

extension ArraySection {
  /// Reloads the element at `index`: emits one update event without changing the element. Use
  /// it for an element that changed in place (an object whose properties changed), which no
  /// write reports — writing an `Equatable` element that is equal to the one stored emits
  /// nothing.
  public func reload(at index: Int) {
    checkIndex(index, "reload(at:)")
    mutate(.reloadAt) { emit(.update(index)) }
  }

  /// Reloads the elements in `range`, one update event each, in one bracket (see
  /// ``reload(at:)``).
  public func reload(at range: Range<Int>) {
    checkRange(range, "reload(at:)")
    guard !range.isEmpty else { return }
    _report(.reloadAt, replacing: range, by: range.count) { Array(range) }
  }
}

extension SingleElementSection {
  /// Reloads the element, when there is one: emits one update event without changing it. Use it
  /// for an element that changed in place; ``replace(element:)`` with an equal `Equatable`
  /// element emits nothing.
  public func reload() {
    guard numberOfElements == 1 else { return }
    mutate(.reload) { emit(.update(0)) }
  }
}
