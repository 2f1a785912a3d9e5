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
  public weak var updateDelegate: (any SectionUpdateDelegate)? {
    didSet {
      uplink = updateDelegate as? ChildLink
      bracket.delegateChanged()
    }
  }
  /// ``updateDelegate`` when it is the link to a built-in parent or a mapping.
  final weak var uplink: ChildLink?
  @exclusivity(unchecked) final var bracket = UpdateBracket()
  @exclusivity(unchecked) final var mutationInProgress: MutationInProgress?

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
    mutate("replace(element:)") {
      let unchanged = wasPresent && isPresent && isKnownEqual(element, newElement)
      element = newElement
      numberOfElements = isPresent ? 1 : 0
      switch (wasPresent, isPresent) {
      case (true, true): if !unchanged { emit(.update(0)) }
      case (false, true): emit(.insert(0))
      case (true, false): emit(.remove(0))
      case (false, false): break
      }
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
