/// The event plumbing of the built-in sections: brackets and lazy `willBeginUpdating`.
protocol BracketedSection: Section {
  var bracket: UpdateBracket { get set }
  /// The mutation under way, while the section runs its own work or calls out to user code in
  /// the middle of it; `nil` otherwise.
  var mutationInProgress: MutationInProgress? { get set }
  /// The section itself while it reports to a built-in parent (it is its own link).
  var uplink: TreeLink? { get }
}

/// A mutation of a section that is running code which must not mutate the section again: the
/// user's predicate, comparator, generator or collection, an element's `deinit`, the delegate.
///
/// Every section stores one, so it is two one-byte codes (where two static strings took 16
/// bytes); their text is built only to trap.
struct MutationInProgress {
  /// The public method, as `removeAll(where:)`.
  let method: SectionMethod
  /// What was running, completing "the section was mutated …".
  let during: MutationContext
}

/// A public mutator of a built-in section, for the traps on a mutation during another.
@usableFromInline enum SectionMethod: UInt8 {
  case append, appendContentsOf, insert, insertContentsOf, remove, removeSubrange, removeFirst
  case removeLast, removeAllWhere, removeAllKeepingCapacity, replaceSubrange, subscriptElement
  case subscriptBounds, swapAt, move, sort, reverse, shuffle, reloadAt, reload, replaceElements
  case replaceElement, snapshotApply, treeRender, reconfigureAt, reconfigureAtWith, reconfigure
  case reconfigureElement

  /// The method as the traps name it.
  var name: String {
    switch self {
    case .append: "append(_:)"
    case .appendContentsOf: "append(contentsOf:)"
    case .insert: "insert(_:at:)"
    case .insertContentsOf: "insert(contentsOf:at:)"
    case .remove: "remove(at:)"
    case .removeSubrange: "removeSubrange(_:)"
    case .removeFirst: "removeFirst(_:)"
    case .removeLast: "removeLast(_:)"
    case .removeAllWhere: "removeAll(where:)"
    case .removeAllKeepingCapacity: "removeAll(keepingCapacity:)"
    case .replaceSubrange: "replaceSubrange(_:with:)"
    case .subscriptElement: "subscript(_:)"
    case .subscriptBounds: "subscript(bounds:)"
    case .swapAt: "swapAt(_:_:)"
    case .move: "move(from:to:)"
    case .sort: "sort(by:)"
    case .reverse: "reverse()"
    case .shuffle: "shuffle(using:)"
    case .reloadAt: "reload(at:)"
    case .reload: "reload()"
    case .replaceElements: "replaceElements(with:)"
    case .replaceElement: "replace(element:)"
    case .snapshotApply: "apply(_:) of its SnapshotSectionProvider"
    case .treeRender: "render(_:) of its SectionTree"
    case .reconfigureAt: "reconfigure(at:)"
    case .reconfigureAtWith: "reconfigure(at:with:)"
    case .reconfigure: "reconfigure()"
    case .reconfigureElement: "reconfigure(element:)"
    }
  }
}

/// What a mutation was running when the section was mutated again.
enum MutationContext: UInt8 {
  case changing, readingNewElements, readingAndComparing, predicate, comparator, generator
  case readingSnapshot, treeClosures, configure

  /// The end of the trap's message: "the section was mutated …".
  var text: String {
    switch self {
    case .changing: "while it was being changed (by an element's deinit or the update delegate)"
    case .readingNewElements: "while the new elements were read"
    case .readingAndComparing: "while the new elements were read and compared"
    case .predicate: "from inside its own predicate"
    case .comparator: "from inside its own comparator"
    case .generator: "from inside its own random number generator"
    case .readingSnapshot: "while a snapshot was read and compared"
    case .treeClosures: "from inside the tree's identity or comparison closure"
    case .configure: "from inside its configure closure, after its new elements were read"
    }
  }
}

extension BracketedSection {
  /// Traps when the section is in the middle of one of its own mutations: a change from inside
  /// a predicate, a comparator, a collection being read, an element's `deinit` or the delegate
  /// would be lost or reported with indexes that no longer hold.
  func checkNoMutationInProgress() {
    if let mutation = mutationInProgress {
      preconditionFailure(
        "\(Self.self).\(mutation.method.name): the section was mutated \(mutation.during.text)")
    }
  }

  /// Runs `body`, user code called by `method`, trapping on any mutation of the section from
  /// inside it.
  func callingOut<R>(
    _ method: SectionMethod, _ during: MutationContext, _ body: () throws -> R
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
  func mutate<R>(_ method: SectionMethod, _ body: () throws -> R) rethrows -> R {
    try withBracket {
      try callingOut(method, .changing, body)
    }
  }

  /// Runs `body`, the work of the mutator `method` that makes exactly one element change,
  /// `change`, and reports it. Outside any bracket of the section and with a link as delegate, the
  /// bracket's begin, the change and its end climb the tree as one ``Hop`` once `body` has run
  /// (one climb instead of two); otherwise as ``mutate(_:_:)`` does.
  func mutate<R>(
    _ method: SectionMethod, reporting change: ElementChange, _ body: () throws -> R
  ) rethrows -> R {
    guard !bracket.isOpen, let link = uplink else {
      return try mutate(method) {
        let result = try body()
        emit(change)
        return result
      }
    }
    let result = try callingOut(method, .changing, body)
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
  /// hear it (``TreeLink/coversElementEvents``). A dropped event announces nothing: the bracket
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
