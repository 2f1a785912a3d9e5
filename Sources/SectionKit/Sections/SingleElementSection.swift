/// A section that holds one element — or none, when `Element` is an `Optional` holding `nil`.
///
/// ```swift
/// let header = SingleElementSection(element: "Contacts")   // always 1 element
/// header.replace(element: "All contacts")                  // one update event
///
/// let banner = SingleElementSection<String?>(element: nil) // 0 elements
/// banner.replace(element: "Offline")                       // one insert event
/// banner.replace(element: nil)                             // one remove event
/// ```
///
/// It is `nonisolated`, and so are its subclasses, even in a module whose default isolation is
/// the main actor: a section lives in the isolation domain of the code that creates it.
nonisolated open class SingleElementSection<Element>: TreeLink, BracketedSection {
  // Declared first, then `bracket` (see ``ArraySection``): they fill the end of the link's
  // fields.
  final var mutationInProgress: MutationInProgress?

  /// The delegate told about every change: the parent provider once the section is in a tree.
  ///
  /// Held weakly. In a built-in parent the section is its own link to the parent, and this
  /// returns a view of that link, as in ``ArraySection``.
  public var updateDelegate: (any SectionUpdateDelegate)? {
    get { sectionDelegate }
    set {
      setSectionDelegate(newValue)
      bracket.delegateChanged()
    }
  }
  /// The section itself while it reports to a built-in parent (``TreeLink/reportsToOwner``).
  final var uplink: TreeLink? { reportsToOwner ? self : nil }
  final var bracket = UpdateBracket()

  /// The element. When `Element` is an `Optional` holding `nil`, the section has no elements.
  public final private(set) var element: Element

  /// 1, or 0 when the element is an `Optional` holding `nil`.
  ///
  /// - Complexity: O(1).
  public final private(set) var numberOfElements: Int

  /// Creates a section holding `element`.
  public init(element: Element) {
    self.element = element
    self.numberOfElements = Self.isAbsent(element) ? 0 : 1
  }

  /// The section itself: a built-in section is its own link.
  override final var child: SectionProviderChild { .section(self) }

  /// The section itself: a built-in section is its own link (see ``Section/_sectionKitLink``).
  public final var _sectionKitLink: Unmanaged<TreeLink>? { .passUnretained(self) }

  override final var linkedSection: any Section { self }

  override final func linkDidChange() { bracket.delegateChanged() }

  /// The element at `index`, which must be 0 while the section holds an element.
  public func element(at index: Int) -> Element {
    precondition(
      index >= 0 && index < numberOfElements,
      "\(Self.self).element(at:): index \(index) is out of range (count \(numberOfElements))")
    return element
  }

  /// Replaces the element, emitting an update (present → present, unless `Element` is
  /// `Equatable` and the new element is equal to the old one), an insert (absent → present),
  /// a remove (present → absent), or nothing (absent → absent).
  ///
  /// Telling an absent element apart reflects it, which may run its `customMirror`; the section's
  /// state is read only after that. Mutating the section while the old element is released (from
  /// its `deinit`) traps.
  public func replace(element newElement: Element) {
    replace(newElement, method: .replaceElement, update: .update(0))
  }

  /// ``replace(element:)``, reporting `update` for a present element replaced by a present one
  /// that is not known to be equal, naming `method` in its traps.
  func replace(_ newElement: Element, method: SectionMethod, update: ElementChange) {
    let isPresent = !Self.isAbsent(newElement)
    let wasPresent = numberOfElements == 1
    // `==` is user code: a mutation of the section from inside it traps, naming this method.
    let unchanged =
      wasPresent && isPresent
      && callingOut(method, .readingAndComparing) { isKnownEqual(element, newElement) }
    let change: ElementChange? =
      switch (wasPresent, isPresent) {
      case (true, true): unchanged ? nil : update
      case (false, true): .insert(0)
      case (true, false): .remove(0)
      case (false, false): nil
      }
    guard let change else {
      mutate(method) { element = newElement }
      return
    }
    mutate(method, reporting: change) {
      element = newElement
      numberOfElements = isPresent ? 1 : 0
    }
  }

  /// Groups every change made in `updates` into one bracket, hence one batch.
  public func performBatchUpdates<R>(_ updates: () throws -> R) rethrows -> R {
    try withBracket(updates)
  }

  /// Whether `value` is an `Optional` holding `nil` (at its outermost level).
  private static func isAbsent(_ value: Element) -> Bool {
    guard Element.self is any ExpressibleByNilLiteral.Type else { return false }
    let mirror = Mirror(reflecting: value)
    return mirror.displayStyle == .optional && mirror.children.isEmpty
  }
}

extension SingleElementSection: CustomStringConvertible {
  /// `SingleElementSection<Element>(element)`.
  public var description: String {
    "\(Self.self)(\(element))"
  }
}
