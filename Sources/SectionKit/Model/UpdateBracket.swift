/// The begin/end bookkeeping shared by every node that emits bracketed events.
///
/// Brackets nest: only the outermost `close()` ends the batch. `willBeginUpdating` is sent lazily,
/// just before the first event of a bracket reaches the delegate, so an empty bracket costs nothing
/// and a delegate set in the middle of a bracket still hears a balanced pair. `didEndUpdating` goes
/// only to a delegate that heard `willBeginUpdating`: the owner calls ``delegateChanged()`` whenever
/// its delegate changes.
struct UpdateBracket {
  /// How many brackets are open, times 2, plus 1 when the current delegate has heard
  /// `willBeginUpdating` for the open bracket: 2 bytes, where an `Int` and a `Bool` take 16 in
  /// the object that stores them (every section stores one, in what would be the padding after
  /// its link's fields; see `Docs/Performance.md`, Memory). At most ``maximumDepth`` brackets nest.
  private var state: UInt16 = 0

  /// The most brackets that nest on one node: one more traps.
  static let maximumDepth = Int(UInt16.max >> 1)

  /// How many brackets are open.
  var depth: Int { Int(state >> 1) }
  /// Whether the current delegate has heard `willBeginUpdating` for the open bracket.
  private var announced: Bool { state & 1 != 0 }

  var isOpen: Bool { state > 1 }

  mutating func open() {
    precondition(
      state >> 1 < UInt16.max >> 1,
      "UpdateBracket.open(): \(depth + 1) brackets nested on one node; at most \(Self.maximumDepth)"
    )
    state += 2
  }

  /// Closes one level; returns whether the delegate must now hear `didEndUpdating` (the outermost
  /// bracket closed and the delegate heard its `willBeginUpdating`).
  mutating func close(owner: @autoclosure () -> String) -> Bool {
    precondition(state > 1, "\(owner()): didEndUpdating without a matching willBeginUpdating")
    state -= 2
    guard state < 2 else { return false }
    defer { state = 0 }
    return announced
  }

  /// The owner's delegate changed: the new one has heard nothing of the open bracket.
  mutating func delegateChanged() {
    state &= ~1
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
    state |= 1
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
