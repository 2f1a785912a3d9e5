import Foundation

/// A named action an element offers: what a context menu, a swipe action or a console command
/// shows.
public struct ElementAction: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The name that triggers the action (``Coordinator/performAction(_:at:argument:)``).
  public var name: String
  /// The text to show; by default the name.
  public var title: String
  /// Whether the action destroys data (shown in red, asks for confirmation…).
  public var isDestructive: Bool
  /// What the text the action takes is called ("new name"), or `nil` when it takes none. The
  /// adapter asks the user for it and passes it to
  /// ``Coordinator/performAction(_:at:argument:)``.
  public var argumentLabel: String?

  /// Creates an action; give `argumentLabel` for one that takes a text argument.
  public init(
    name: String, title: String? = nil, isDestructive: Bool = false, argumentLabel: String? = nil
  ) {
    self.name = name
    self.title = title ?? name
    self.isDestructive = isDestructive
    self.argumentLabel = argumentLabel
  }

  /// The name.
  public var description: String { name }
}

/// A section whose elements offer named actions an adapter can list and trigger.
///
/// ```swift
/// final class Inbox: ArraySection<String>, ActionHandler {
///   func actions(at index: Int) -> [ElementAction] {
///     [ElementAction(name: "archive"), ElementAction(name: "delete", isDestructive: true),
///      ElementAction(name: "rename", argumentLabel: "new name")]
///   }
///   func performAction(named name: String, at index: Int, argument: String?) {
///     switch name {
///     case "delete": remove(at: index)
///     case "rename": self[index] = argument!     // an action with a label gets its argument
///     default: break
///     }
///   }
/// }
/// coordinator.actions(at: [0, 1]).map(\.name)                    // ["archive", "delete", "rename"]
/// coordinator.performAction("delete", at: [0, 1])                // a changeset deletes [0, 1]
/// coordinator.performAction("rename", at: [0, 0], argument: "x") // a changeset reloads [0, 0]
/// ```
///
/// Implement ``performAction(named:at:argument:)``, or ``performAction(named:at:)`` when no
/// action takes an argument. Changes an action makes to the model reach the adapter as a normal
/// changeset.
public protocol ActionHandler: Section {
  /// The actions the element at `index` offers, in display order. Default: none.
  func actions(at index: Int) -> [ElementAction]
  /// Performs the action called `name` on the element at `index`; the coordinator only calls it
  /// with a name ``actions(at:)`` lists. Implement it (or ``performAction(named:at:argument:)``).
  /// Default: traps, naming the section (it lists actions it does not perform).
  func performAction(named name: String, at index: Int)
  /// Performs the action called `name` on the element at `index` with `argument`, which is
  /// never `nil` for an action with an ``ElementAction/argumentLabel``. The coordinator calls this
  /// one. Default: calls ``performAction(named:at:)``.
  func performAction(named name: String, at index: Int, argument: String?)
}

extension ActionHandler {
  /// No actions.
  public func actions(at index: Int) -> [ElementAction] { [] }

  /// Traps: a section that lists actions implements one of the two `performAction` methods.
  public func performAction(named name: String, at index: Int) {
    preconditionFailure(
      "\(Self.self).performAction(named:at:): the action \"\(name)\" is listed but not performed; "
        + "implement performAction(named:at:argument:) or performAction(named:at:)")
  }

  /// Calls ``performAction(named:at:)``.
  public func performAction(named name: String, at index: Int, argument: String?) {
    performAction(named: name, at: index)
  }
}
