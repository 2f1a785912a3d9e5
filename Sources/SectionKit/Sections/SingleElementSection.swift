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
nonisolated open class SingleElementSection<Element>: BracketedSection {
  /// The delegate told about every change: the parent provider once the section is in a tree.
  ///
  /// Held weakly. A built-in parent's link is kept in an internal reference instead, not a weak one,
  /// so that the link's reference counting stays on the fast path and each change saves a weak
  /// load. The parent keeps the link alive while it is the delegate, and clears the delegate
  /// when it detaches this child or is released, so that reference never dangles.
  public var updateDelegate: (any SectionUpdateDelegate)? {
    get { uplink ?? customDelegate as? any SectionUpdateDelegate }
    set {
      uplink = newValue as? ChildLink
      customDelegate = uplink == nil ? newValue : nil
      bracket.delegateChanged()
    }
  }
  /// ``updateDelegate`` when it is not a link (an object of the user's), stored as `AnyObject`
  /// (8 bytes, where the existential takes 16), as in ``ArraySection``.
  private weak var customDelegate: AnyObject?
  /// ``updateDelegate`` when it is the link to a built-in parent or a mapping.
  final unowned(unsafe) var uplink: ChildLink?
  final var bracket = UpdateBracket()

  /// The element. When `Element` is an `Optional` holding `nil`, the section has no elements.
  public final private(set) var element: Element

  /// 1, or 0 when the element is an `Optional` holding `nil`.
  ///
  /// - Complexity: O(1).
  public final private(set) var numberOfElements: Int
  // Declared last (see ``ArraySection``): its two bytes end the object.
  final var mutationInProgress: MutationInProgress?

  /// Creates a section holding `element`.
  public init(element: Element) {
    self.element = element
    self.numberOfElements = Self.isAbsent(element) ? 0 : 1
  }

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
    let isPresent = !Self.isAbsent(newElement)
    let wasPresent = numberOfElements == 1
    // `==` is user code: a mutation of the section from inside it traps, naming this method.
    let unchanged =
      wasPresent && isPresent
      && callingOut(.replaceElement, .readingAndComparing) { isKnownEqual(element, newElement) }
    let change: ElementChange? =
      switch (wasPresent, isPresent) {
      case (true, true): unchanged ? nil : .update(0)
      case (false, true): .insert(0)
      case (true, false): .remove(0)
      case (false, false): nil
      }
    guard let change else {
      mutate(.replaceElement) { element = newElement }
      return
    }
    mutate(.replaceElement, reporting: change) {
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
