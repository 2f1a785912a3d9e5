/// The event plumbing of the built-in sections: brackets and lazy `willBeginUpdating`.
protocol BracketedSection: Section {
  var bracket: UpdateBracket { get set }
}

extension BracketedSection {
  /// Runs `updates` inside one bracket; nested calls share the outermost bracket.
  func withBracket<R>(_ updates: () throws -> R) rethrows -> R {
    bracket.open()
    defer {
      if bracket.close(owner: "\(Self.self)") { updateDelegate?.didEndUpdating(self) }
    }
    return try updates()
  }

  /// Sends one element event to the delegate, announcing the bracket first if needed.
  func emit(_ change: ElementChange) {
    send { $0.section(self, didChange: change) }
  }

  /// Sends `invalidateAll` to the delegate, inside the open bracket if there is one.
  func emitInvalidateAll() {
    send { $0.invalidateAll(self) }
  }

  private func send(_ event: (any SectionUpdateDelegate) -> Void) {
    guard let delegate = updateDelegate else { return }
    let delivery = bracket.delivery()
    deliver(
      delegate, delivery, begin: { $0.willBeginUpdating(self) }, end: { $0.didEndUpdating(self) },
      event: event)
  }
}
