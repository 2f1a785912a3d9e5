import Foundation

/// What the coordinator keeps for the opt-in handlers: the selection, the editing mode, an
/// adapter-initiated move in flight, and the handler calls owed once a changeset is applied.
struct HandlerState {
  /// The selected elements of one section, in presented coordinates, ascending.
  struct SelectionEntry {
    var section: any SelectionHandler
    var indexes: [Int]
  }

  /// A handler call owed to a section.
  enum Notification {
    /// A deselection a changeset or reload made: the index the element had before it.
    case deselect(any SelectionHandler, Int)
    case editing(any EditingHandler, Bool)
    /// Selections or deselections made while the adapter was applying, each index kept current.
    case selection(any SelectionHandler, TrackedIndexes, selected: Bool)
  }

  /// The selection, by section identity.
  var selection: [ObjectIdentifier: SelectionEntry] = [:]
  /// Whether the coordinator is in editing mode.
  var isEditing = false
  /// The shown sections that heard `didSetEditing(true)` and not `false` since.
  var editingSections: [ObjectIdentifier: any EditingHandler] = [:]
  /// The move the adapter already performed, expected as the batch's first event.
  var expectedMove: (section: Int, from: Int, to: Int)?
  /// Whether the last adapter-initiated move was performed as reported.
  var lastMoveAccepted = false
  /// Handler calls owed, delivered when no changeset is being applied.
  var notifications: [Notification] = []
  /// Whether the notifications are being delivered (they are not re-entered).
  var isDelivering = false
  /// Selection changes the adapter is owed, told between changesets (never inside `apply`).
  var adapterNotifications: [AdapterNotification] = []
  /// Whether the adapter notifications are being delivered (they are not re-entered).
  var isDeliveringToAdapter = false
  /// Local indexes kept current through every changeset while they wait to be handed out.
  var tracked: [TrackedIndexes] = []
}

/// Local indexes of one section that the coordinator is about to hand to a handler or an
/// adapter, kept in presented coordinates: each changeset applied meanwhile (a handler or the
/// adapter may change the model before its turn comes) remaps them, and an element that is
/// deleted — or a reload — makes its index `nil`.
final class TrackedIndexes {
  let section: any Section
  var indexes: [Int?]

  init(section: any Section, indexes: [Int]) {
    self.section = section
    self.indexes = indexes
  }
}

/// A selection change the adapter is owed.
struct AdapterNotification {
  var selected: Bool
  var elements: TrackedIndexes
}

/// A sorted list of disjoint ranges, with prefix counts for O(log r) rank queries.
struct RankedRanges {
  private let ranges: [Range<Int>]
  /// `before[i]`: how many indexes the ranges before `ranges[i]` hold.
  private let before: [Int]

  init(_ ranges: [Range<Int>]) {
    self.ranges = ranges
    var total = 0
    var before: [Int] = []
    before.reserveCapacity(ranges.count)
    for range in ranges {
      before.append(total)
      total += range.count
    }
    self.before = before
  }

  var isEmpty: Bool { ranges.isEmpty }

  func contains(_ index: Int) -> Bool {
    let i = firstRange(endingAfter: index)
    return i < ranges.count && ranges[i].contains(index)
  }

  /// How many indexes below `index` the ranges hold.
  func count(below index: Int) -> Int {
    let i = firstRange(endingAfter: index)
    guard i < ranges.count else { return before.last.map { $0 + ranges.last!.count } ?? 0 }
    return before[i] + Swift.max(0, index - ranges[i].lowerBound)
  }

  /// The `k`-th (0-based) index not held by the ranges.
  func free(_ k: Int) -> Int {
    // The first range whose free indexes before it exceed k.
    var low = 0
    var high = ranges.count
    while low < high {
      let mid = (low + high) / 2
      if ranges[mid].lowerBound - before[mid] <= k { low = mid + 1 } else { high = mid }
    }
    guard low > 0 else { return k }
    return k + before[low - 1] + ranges[low - 1].count
  }

  /// The index of the first range whose upper bound is above `index`.
  private func firstRange(endingAfter index: Int) -> Int {
    ranges.firstRange(endingAfter: index)
  }
}

/// The coordinator presenting `section`, found by walking up the parents to the mapping; `nil`
/// when the tree has no coordinator. - Complexity: O(depth).
func owningCoordinator(of section: any Section) -> Coordinator? {
  var node: AnyObject? = section.updateDelegate
  while let current = node {
    if let mapping = current as? SectionProviderMapping {
      guard let coordinator = mapping.delegate as? Coordinator, coordinator.mapping === mapping
      else { return nil }
      return coordinator
    }
    node = parentObject(of: current)
  }
  return nil
}
