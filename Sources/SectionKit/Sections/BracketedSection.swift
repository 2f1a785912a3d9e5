/// The event plumbing of the built-in sections: brackets and lazy `willBeginUpdating`.
protocol BracketedSection: Section {
  var bracket: UpdateBracket { get set }
  /// The mutation under way, while the section runs its own work or calls out to user code in
  /// the middle of it; `nil` otherwise.
  var mutationInProgress: MutationInProgress? { get set }
  /// The delegate when it is the link to a built-in parent or a mapping.
  var uplink: ChildLink? { get }
}

/// A mutation of a section that is running code which must not mutate the section again: the
/// user's predicate, comparator, generator or collection, an element's `deinit`, the delegate.
///
/// Every mutation writes it twice, and every section stores one, so it keeps only the start of
/// each static string's text (16 bytes instead of 42 for two `StaticString`s): a static string
/// from a string literal is stored null-terminated, and the text is read back only to trap.
struct MutationInProgress {
  private let methodStart: UnsafePointer<UInt8>
  private let duringStart: UnsafePointer<UInt8>

  /// `method`, the public method, as `removeAll(where:)`; `during`, what was running, completing
  /// "the section was mutated …". Both are string literals.
  init(method: StaticString, during: StaticString) {
    methodStart = method.utf8Start
    duringStart = during.utf8Start
  }

  /// The public method, as `removeAll(where:)`.
  var method: String { String(cString: methodStart) }
  /// What was running, completing "the section was mutated …".
  var during: String { String(cString: duringStart) }
}

extension BracketedSection {
  /// Traps when the section is in the middle of one of its own mutations: a change from inside
  /// a predicate, a comparator, a collection being read, an element's `deinit` or the delegate
  /// would be lost or reported with indexes that no longer hold.
  func checkNoMutationInProgress() {
    if let mutation = mutationInProgress {
      preconditionFailure(
        "\(Self.self).\(mutation.method): the section was mutated \(mutation.during)")
    }
  }

  /// Runs `body`, user code called by `method`, trapping on any mutation of the section from
  /// inside it.
  func callingOut<R>(
    _ method: StaticString, _ during: StaticString, _ body: () throws -> R
  ) rethrows -> R {
    checkNoMutationInProgress()
    mutationInProgress = MutationInProgress(method: method, during: during)
    defer { mutationInProgress = nil }
    return try body()
  }

  /// Runs `body`, the work of the mutator `method`, inside one bracket; any mutation of the
  /// section while it runs (from an element's `deinit` or the delegate) traps.
  /// The bracket closes after the guard is lifted: what the delegate does once the batch ends
  /// (an adapter reacting to the changeset) is not part of the mutation.
  func mutate<R>(_ method: StaticString, _ body: () throws -> R) rethrows -> R {
    try withBracket {
      try callingOut(
        method, "while it was being changed (by an element's deinit or the update delegate)", body)
    }
  }

  /// Runs `body`, the work of the mutator `method` that makes exactly one element change,
  /// `change`, and reports it. Outside any bracket of the section and with a link as delegate, the
  /// bracket's begin, the change and its end climb the tree as one ``Hop`` once `body` has run
  /// (one climb instead of two); otherwise as ``mutate(_:_:)`` does.
  func mutate<R>(
    _ method: StaticString, reporting change: ElementChange, _ body: () throws -> R
  ) rethrows -> R {
    guard !bracket.isOpen, let link = uplink else {
      return try mutate(method) {
        let result = try body()
        emit(change)
        return result
      }
    }
    let result = try callingOut(
      method, "while it was being changed (by an element's deinit or the update delegate)", body)
    if !link.coversElementEvents {
      link.carry(Hop(begin: true, event: .element(change, inSection: 0), end: true))
    }
    return result
  }

  /// Runs `updates` inside one bracket; nested calls share the outermost bracket.
  func withBracket<R>(_ updates: () throws -> R) rethrows -> R {
    bracket.open()
    defer {
      if bracket.close(owner: "\(Self.self)") {
        if let link = uplink {
          link.carry(Hop(end: true))
        } else {
          updateDelegate?.didEndUpdating(self)
        }
      }
    }
    return try updates()
  }

  /// Sends one element event to the delegate, announcing the bracket first if needed; drops it
  /// when the section was inserted in the open batch and no one but the coordinator above would
  /// hear it (``ChildLink/coversElementEvents``). A dropped event announces nothing: the bracket
  /// then closes without an end, unless an earlier event announced it.
  func emit(_ change: ElementChange) {
    if let link = uplink, link.coversElementEvents { return }
    send(.element(change, inSection: 0)) { $0.section(self, didChange: change) }
  }

  /// Sends `invalidateAll` to the delegate, inside the open bracket if there is one.
  func emitInvalidateAll() {
    send(.invalidateAll) { $0.invalidateAll(self) }
  }

  /// Sends one event: to a link (a built-in parent or a mapping) as one ``Hop`` carrying the
  /// bracket's begin and end with it, so that it climbs the tree once instead of up to three
  /// times; to any other delegate as method calls.
  private func send(
    _ treeEvent: @autoclosure () -> TreeEvent, _ event: (any SectionUpdateDelegate) -> Void
  ) {
    if let link = uplink {
      var hop = Hop()
      hop.add(treeEvent(), bracket.delivery())
      link.carry(hop)
      return
    }
    guard let delegate = updateDelegate else { return }
    let delivery = bracket.delivery()
    deliver(
      delegate, delivery, begin: { $0.willBeginUpdating(self) }, end: { $0.didEndUpdating(self) },
      event: event)
  }
}
