import Foundation

/// Per-element named actions of ``ActionHandler`` sections.
extension Coordinator {
  /// The actions the element at `indexPath` offers; empty when its section is not an
  /// ``ActionHandler``.
  public func actions(at indexPath: IndexPath) -> [ElementAction] {
    let (section, index) = current.locate(indexPath)
    return (section as? any ActionHandler)?.actions(at: index) ?? []
  }

  /// Performs the action called `name` on the element at `indexPath`.
  ///
  /// Changes the action makes to the model reach the adapter as a normal changeset.
  ///
  /// - Returns: whether the element offers that action (and it was performed).
  @discardableResult
  public func performAction(_ name: String, at indexPath: IndexPath) -> Bool {
    let (section, index) = current.locate(indexPath)
    guard let handler = section as? any ActionHandler,
      handler.actions(at: index).contains(where: { $0.name == name })
    else { return false }
    handler.performAction(named: name, at: index)
    return true
  }
}
