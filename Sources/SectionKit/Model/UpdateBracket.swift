/// The begin/end bookkeeping shared by every node that emits bracketed events.
///
/// Brackets nest: only the outermost `close()` ends the batch. `willBeginUpdating` is sent lazily,
/// just before the first event of a bracket reaches the delegate, so an empty bracket costs nothing
/// and a delegate set in the middle of a bracket still hears a balanced pair. `didEndUpdating` goes
/// only to a delegate that heard `willBeginUpdating`: the owner calls ``delegateChanged()`` whenever
/// its delegate changes.
struct UpdateBracket {
  /// How many brackets are open.
  private(set) var depth = 0
  /// Whether the current delegate has heard `willBeginUpdating` for the open bracket.
  private var announced = false

  var isOpen: Bool { depth > 0 }

  mutating func open() {
    depth += 1
  }

  /// Closes one level; returns whether the delegate must now hear `didEndUpdating` (the outermost
  /// bracket closed and the delegate heard its `willBeginUpdating`).
  mutating func close(owner: @autoclosure () -> String) -> Bool {
    precondition(depth > 0, "\(owner()): didEndUpdating without a matching willBeginUpdating")
    depth -= 1
    guard depth == 0 else { return false }
    defer { announced = false }
    return announced
  }

  /// The owner's delegate changed: the new one has heard nothing of the open bracket.
  mutating func delegateChanged() {
    announced = false
  }

  /// How an event must reach a delegate.
  enum Delivery {
    /// No bracket is open: wrap the event in its own begin/end pair (a batch of one).
    case wrapped
    /// The delegate has not heard this bracket's `willBeginUpdating` yet: send it first.
    case announced
    /// The delegate already heard `willBeginUpdating`: send the event alone.
    case plain
  }

  /// Prepares one event for the delegate. Call the delegate only after this returns (never while
  /// the bracket is being mutated), with ``deliver(_:_:begin:end:event:)``.
  mutating func delivery() -> Delivery {
    guard isOpen else { return .wrapped }
    if announced { return .plain }
    announced = true
    return .announced
  }
}

/// Sends one event to `delegate` as `delivery` says.
@inline(__always)
func deliver<D>(
  _ delegate: D, _ delivery: UpdateBracket.Delivery, begin: (D) -> Void, end: (D) -> Void,
  event: (D) -> Void
) {
  switch delivery {
  case .wrapped:
    begin(delegate)
    event(delegate)
    end(delegate)
  case .announced:
    begin(delegate)
    event(delegate)
  case .plain:
    event(delegate)
  }
}
