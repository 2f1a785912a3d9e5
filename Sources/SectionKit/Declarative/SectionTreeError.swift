/// A description given to ``SectionTree/render(_:)`` that cannot be rendered. Thrown before anything
/// changes: the tree, its sections and its providers are left exactly as they were, and nothing is
/// emitted.
///
/// `path` names the node concerned by the identities from the root down (`[]` for the root itself),
/// each as `String(describing:)` gives it.
public enum SectionTreeError: Error, Hashable, CustomStringConvertible {
  /// Two children of the node at `path` share an identity; the error's positions are the
  /// children's positions (after conditions and loops are expanded).
  case duplicateChild(path: [String], DuplicateIdentityError)
  /// Two elements of the section at `path` share an identity (in the new elements, or in the
  /// section's current elements when they were changed outside the tree).
  case duplicateElement(path: [String], DuplicateIdentityError)
  /// The segmented group at `path` has children but none has the identity `selected`.
  case unknownSelection(path: [String], selected: String)

  /// `duplicate identity "a" among the children of inbox, at positions 0 and 2`, and so on.
  public var description: String {
    switch self {
    case .duplicateChild(let path, let error):
      "duplicate identity \(error.id) among the children of \(Self.describe(path)), "
        + "at positions \(Self.describe(error.positions))"
    case .duplicateElement(let path, let error):
      "duplicate identity \(error.id) in the \(error.contents.rawValue) elements of section "
        + "\(Self.describe(path)), at positions \(Self.describe(error.positions))"
    case .unknownSelection(let path, let selected):
      "segmented group \(Self.describe(path)) selects \(selected), which none of its children is"
    }
  }

  private static func describe(_ path: [String]) -> String {
    path.isEmpty ? "the root" : path.joined(separator: " › ")
  }

  private static func describe(_ positions: [Int]) -> String {
    positions.map(String.init).joined(separator: " and ")
  }
}
