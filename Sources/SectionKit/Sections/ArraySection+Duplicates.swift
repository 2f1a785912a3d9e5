/// Diffs that tolerate duplicate identities in the new contents, by a ``DuplicatePolicy``.
extension ArraySection {
  /// Replaces the elements with `newElements`, diffed by `id`, after applying `duplicates` to
  /// `newElements`; see ``replaceElements(with:identifiedBy:isUpdated:)``.
  ///
  /// ```swift
  /// let dropped = try feed.replaceElements(
  ///   with: payload, identifiedBy: \.id, isUpdated: !=, duplicates: .keepLast)
  /// ```
  ///
  /// - Parameters:
  ///   - newElements: The new contents.
  ///   - id: The identity of an element.
  ///   - isUpdated: Whether an element that stays changed content.
  ///   - duplicates: What to do with elements of `newElements` whose identity an earlier (or,
  ///     with ``DuplicatePolicy/keepLast``, a later) element has.
  /// - Returns: The elements left out, positions in `newElements` (`[element]`); empty with
  ///   ``DuplicatePolicy/throwError``.
  /// - Throws: ``DuplicateIdentityError`` when two new elements share an identity and
  ///   `duplicates` is ``DuplicatePolicy/throwError``, or when two current elements do (whatever
  ///   the policy); the section is then left exactly as it was.
  /// - Complexity: O(n + m) expected, plus O(s log s) for the elements that moved; a policy
  ///   other than ``DuplicatePolicy/throwError`` hashes each new identity once or twice more.
  @inlinable
  @discardableResult
  public func replaceElements<C: Collection, ID: Hashable>(
    with newElements: C, identifiedBy id: (Element) -> ID,
    isUpdated: (_ old: Element, _ new: Element) -> Bool, duplicates: DuplicatePolicy
  ) throws(DuplicateIdentityError) -> [DroppedDuplicate] where C.Element == Element {
    let new = Array(newElements)
    let kept = _readingNewElements {
      _droppingDuplicates([new], policy: duplicates, flat: true, id: id)
    }
    try replaceElements(with: kept?.sections[0] ?? new, identifiedBy: id, isUpdated: isUpdated)
    return kept?.dropped ?? []
  }
}

extension ArraySection where Element: Identifiable & Equatable {
  /// Replaces the elements with `newElements`, diffed by `id` and updated when `!=`, after
  /// applying `duplicates` to them.
  ///
  /// - Parameters:
  ///   - newElements: The new contents.
  ///   - duplicates: What to do with new elements that share an `id`.
  /// - Returns: The elements left out (see
  ///   ``replaceElements(with:identifiedBy:isUpdated:duplicates:)``).
  /// - Throws: ``DuplicateIdentityError``, as
  ///   ``replaceElements(with:identifiedBy:isUpdated:duplicates:)``.
  /// - Complexity: O(n + m) expected, plus O(s log s) for the elements that moved.
  @inlinable
  @discardableResult
  public func replaceElements<C: Collection>(
    with newElements: C, duplicates: DuplicatePolicy
  ) throws(DuplicateIdentityError) -> [DroppedDuplicate] where C.Element == Element {
    try replaceElements(
      with: newElements, identifiedBy: { $0.id }, isUpdated: !=, duplicates: duplicates)
  }
}

extension ArraySection where Element: Hashable {
  /// Replaces the elements with `newElements`, diffed by value, after applying `duplicates`
  /// to them (equal values are duplicates).
  ///
  /// - Parameters:
  ///   - newElements: The new contents.
  ///   - duplicates: What to do with equal new values.
  /// - Returns: The elements left out (see
  ///   ``replaceElements(with:identifiedBy:isUpdated:duplicates:)``).
  /// - Throws: ``DuplicateIdentityError``, as
  ///   ``replaceElements(with:identifiedBy:isUpdated:duplicates:)``.
  /// - Complexity: O(n + m) expected, plus O(s log s) for the elements that moved.
  @inlinable
  @discardableResult
  public func replaceElements<C: Collection>(
    with newElements: C, duplicates: DuplicatePolicy
  ) throws(DuplicateIdentityError) -> [DroppedDuplicate] where C.Element == Element {
    try replaceElements(
      with: newElements, identifiedBy: { $0 }, isUpdated: { _, _ in false },
      duplicates: duplicates)
  }
}

extension ArraySection where Element: Identifiable & Hashable {
  /// Replaces the elements with `newElements`, diffed by `id` and updated when `!=`, after
  /// applying `duplicates` to them.
  ///
  /// - Parameters:
  ///   - newElements: The new contents.
  ///   - duplicates: What to do with new elements that share an `id`.
  /// - Returns: The elements left out (see
  ///   ``replaceElements(with:identifiedBy:isUpdated:duplicates:)``).
  /// - Throws: ``DuplicateIdentityError``, as
  ///   ``replaceElements(with:identifiedBy:isUpdated:duplicates:)``.
  /// - Complexity: O(n + m) expected, plus O(s log s) for the elements that moved.
  @inlinable
  @discardableResult
  public func replaceElements<C: Collection>(
    with newElements: C, duplicates: DuplicatePolicy
  ) throws(DuplicateIdentityError) -> [DroppedDuplicate] where C.Element == Element {
    try replaceElements(
      with: newElements, identifiedBy: { $0.id }, isUpdated: !=, duplicates: duplicates)
  }
}
