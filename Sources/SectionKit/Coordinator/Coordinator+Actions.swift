import Foundation

/// Per-element named actions of ``ActionHandler`` sections.
extension Coordinator {
  /// The actions the element at `indexPath` offers; empty when its section is not an
  /// ``ActionHandler``. Traps when the path is out of range (resolve input from outside with
  /// ``indexPath(for:)``, which throws instead).
  public func actions(at indexPath: IndexPath) -> [ElementAction] {
    let (section, index) = current.locate(indexPath)
    return (section as? any ActionHandler)?.actions(at: index) ?? []
  }

  /// Performs the action called `name` on the element at `indexPath`, with `argument` for an
  /// action that takes one (``ElementAction/argumentLabel``: "rename" to a new name).
  ///
  /// Changes the action makes to the model reach the adapter as a normal changeset. Traps when
  /// the path is out of range (resolve input from outside with ``indexPath(for:)``, which throws
  /// instead).
  ///
  /// - Returns: whether the element offers that action and it was performed: `false` for an
  ///   action the element does not list, and for one that takes an argument called without one.
  @discardableResult
  public func performAction(_ name: String, at indexPath: IndexPath, argument: String? = nil)
    -> Bool
  {
    let (section, index) = current.locate(indexPath)
    guard let handler = section as? any ActionHandler,
      let action = handler.actions(at: index).first(where: { $0.name == name }),
      action.argumentLabel == nil || argument != nil
    else { return false }
    handler.performAction(named: name, at: index, argument: argument)
    return true
  }
}
