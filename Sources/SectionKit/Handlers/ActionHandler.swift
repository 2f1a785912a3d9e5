import Foundation

/// A named action an element offers: what a context menu, a swipe action or a console command
/// shows.
public struct ElementAction: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The name that triggers the action (``Coordinator/performAction(_:at:)``).
  public var name: String
  /// The text to show; by default the name.
  public var title: String
  /// Whether the action destroys data (shown in red, asks for confirmation…).
  public var isDestructive: Bool

  /// Creates an action.
  public init(name: String, title: String? = nil, isDestructive: Bool = false) {
    self.name = name
    self.title = title ?? name
    self.isDestructive = isDestructive
  }

  /// The name.
  public var description: String { name }
}

/// A section whose elements offer named actions an adapter can list and trigger.
///
/// ```swift
/// final class Inbox: ArraySection<String>, ActionHandler {
///   func actions(at index: Int) -> [ElementAction] {
///     [ElementAction(name: "archive"), ElementAction(name: "delete", isDestructive: true)]
///   }
///   func performAction(named name: String, at index: Int) {
///     if name == "delete" { remove(at: index) }
///   }
/// }
/// coordinator.actions(at: [0, 1]).map(\.name)     // ["archive", "delete"]
/// coordinator.performAction("delete", at: [0, 1]) // a changeset deletes [0, 1]
/// ```
///
/// Changes an action makes to the model reach the adapter as a normal changeset.
public protocol ActionHandler: Section {
  /// The actions the element at `index` offers, in display order. Default: none.
  func actions(at index: Int) -> [ElementAction]
  /// Performs the action called `name` on the element at `index`; the coordinator only calls it
  /// with a name ``actions(at:)`` lists.
  func performAction(named name: String, at index: Int)
}

extension ActionHandler {
  /// No actions.
  public func actions(at index: Int) -> [ElementAction] { [] }
}
