/// Reconfigures: an element whose content changed while its identity and its cell kind stayed.
///
/// A reconfigure is reported as ``ElementChange/reconfigure(_:)`` and reaches the adapter in
/// ``Changeset/reconfiguredElements``, where a view may refresh the cell it shows instead of
/// replacing it (UIKit's `reconfigureItems(at:)`); an adapter that does not tell the two apart
/// reloads it. It follows the rules of a reload (`Docs/Batching.md`, rule B3): a reconfigured
/// element that also moves in the batch is deleted and inserted, and an update of the same element
/// in the batch wins (the element is reloaded).
extension ArraySection {
  /// Reconfigures the element at `index`: emits one reconfigure event without changing the
  /// element. Use it for an element that changed in place (an object whose properties changed)
  /// and is shown by the same kind of cell; use ``reload(at:)-(Int)`` when the cell must be
  /// replaced.
  ///
  /// - Precondition: `index` is in `0..<count`.
  /// - Complexity: O(d) for a section `d` levels deep.
  public func reconfigure(at index: Int) {
    checkIndex(index, "reconfigure(at:)")
    mutate(.reconfigureAt, reporting: .reconfigure(index)) {}
  }

  /// Replaces the element at `index` with `element`, emitting one reconfigure event — or none
  /// when `Element` is `Equatable` and `element` is equal to the one stored (as the subscript's
  /// setter, which emits an update instead).
  ///
  /// - Parameters:
  ///   - index: The position of the element, in `0..<count`.
  ///   - element: The element's new value: the same identity, shown by the same kind of cell.
  /// - Complexity: O(d) for a section `d` levels deep, plus one `==`.
  public func reconfigure(at index: Int, with element: Element) {
    checkIndex(index, "reconfigure(at:with:)")
    // `==` is user code: a mutation of the section from inside it traps, naming this method.
    let equal = callingOut(.reconfigureAtWith, .readingAndComparing) {
      isKnownEqual(elements[index], element)
    }
    guard !equal else {
      mutate(.reconfigureAtWith) { elements[index] = element }
      return
    }
    mutate(.reconfigureAtWith, reporting: .reconfigure(index)) { elements[index] = element }
  }
}

extension SingleElementSection {
  /// Reconfigures the element, when there is one: emits one reconfigure event without changing
  /// it (see ``ArraySection/reconfigure(at:)``).
  public func reconfigure() {
    guard numberOfElements == 1 else { return }
    mutate(.reconfigure, reporting: .reconfigure(0)) {}
  }

  /// Replaces the element as ``replace(element:)`` does, but reports a present element replaced by
  /// a present one as a reconfigure rather than an update (nothing when `Element` is `Equatable`
  /// and the two are equal); an element appearing or disappearing is still an insert or a remove.
  ///
  /// - Parameter element: The new element: the same identity, shown by the same kind of cell.
  public func reconfigure(element: Element) {
    replace(element, method: .reconfigureElement, update: .reconfigure(0))
  }
}
