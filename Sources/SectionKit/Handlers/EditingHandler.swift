import Foundation

/// A section that takes part in the coordinator's editing mode.
///
/// ``Coordinator/setEditing(_:)`` reaches every conforming section the adapter shows: each hears
/// ``didSetEditing(_:)``, then ``didSetEditing(_:at:)`` for every element it
/// ``allowsEditing(at:)``. A section that starts being shown while the coordinator is editing
/// (inserted, or in a segment switched to) hears `didSetEditing(true)` once the changeset that
/// shows it is applied; one that stops being shown (removed, or in a segment switched away)
/// hears `didSetEditing(false)`. Sections of inactive segments are therefore never editing.
///
/// ```swift
/// final class Friends: ArraySection<String>, EditingHandler {
///   func allowsEditing(at index: Int) -> Bool { self[index] != "Me" }
///   func didSetEditing(_ editing: Bool) { print("friends editing:", editing) }
/// }
/// ```
///
/// Elements inserted into a section that is already editing get no per-element call: read
/// ``isEditing`` when you configure them.
public protocol EditingHandler: Section {
  /// Whether the element at `index` can be edited (deleted, reordered, changed). Default `true`.
  func allowsEditing(at index: Int) -> Bool
  /// The section entered (`true`) or left (`false`) editing mode. Default: nothing.
  func didSetEditing(_ editing: Bool)
  /// The element at `index`, which ``allowsEditing(at:)``, entered or left editing mode.
  /// Default: nothing.
  func didSetEditing(_ editing: Bool, at index: Int)
}

extension EditingHandler {
  /// `true`.
  public func allowsEditing(at index: Int) -> Bool { true }
  /// Does nothing.
  public func didSetEditing(_ editing: Bool) {}
  /// Does nothing.
  public func didSetEditing(_ editing: Bool, at index: Int) {}

  /// Whether the section is in editing mode: it is shown by a coordinator that is editing.
  /// - Complexity: O(d) for a section d levels deep.
  public var isEditing: Bool {
    owningCoordinator(of: self)?.isEditingSection(self) ?? false
  }

  /// The elements in editing mode: those that ``allowsEditing(at:)`` while ``isEditing``; empty
  /// otherwise.
  ///
  /// - Complexity: O(n) for n elements.
  public var editingIndexes: IndexSet {
    guard isEditing else { return [] }
    return IndexSet((0..<numberOfElements).filter { allowsEditing(at: $0) })
  }
}
