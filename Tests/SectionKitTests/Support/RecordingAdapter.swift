import Foundation

@testable import SectionKit

/// A minimal adapter that records what it is told and the counts the coordinator answers before
/// and after `updateData`.
final class RecordingAdapter: ViewAdapter {
  enum Entry: Equatable {
    case reload(counts: [Int])
    case changeset(Changeset, before: [Int], after: [Int])
  }

  var entries: [Entry] = []
  /// Called inside `apply`, after `updateData`, to mutate the model re-entrantly.
  var duringApply: ((Coordinator) -> Void)?
  var callsUpdateData = true

  static func counts(_ coordinator: Coordinator) -> [Int] {
    (0..<coordinator.numberOfSections).map { coordinator.numberOfElements(inSection: $0) }
  }

  func reloadData(from coordinator: Coordinator) {
    entries.append(.reload(counts: Self.counts(coordinator)))
  }

  func apply(
    _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
  ) {
    let before = Self.counts(coordinator)
    if callsUpdateData { updateData() }
    let after = Self.counts(coordinator)
    entries.append(.changeset(changeset, before: before, after: after))
    if let duringApply {
      self.duringApply = nil
      duringApply(coordinator)
    }
  }

  var changesets: [Changeset] {
    entries.compactMap { if case .changeset(let changeset, _, _) = $0 { changeset } else { nil } }
  }

  var reloads: Int {
    entries.filter { if case .reload = $0 { true } else { false } }.count
  }

  func take() -> [Entry] {
    defer { entries = [] }
    return entries
  }
}

extension IndexPath {
  /// `[section, item]` shorthand for tests.
  static func at(_ section: Int, _ item: Int) -> IndexPath {
    IndexPath(item: item, section: section)
  }
}
