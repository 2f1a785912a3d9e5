import Foundation

/// A snapshot that cannot be applied: two of its sections, or two of its elements, share an
/// identity. Thrown before anything changes: the provider is left exactly as it was and nothing is
/// emitted.
///
/// ```swift
/// do {
///   try inbox.apply(snapshot)
/// } catch {
///   log("rejected snapshot: \(error)")
///   // duplicate element identity 7 in the new snapshot, at [0, 3] and [2, 1]
/// }
/// ```
public enum SnapshotError: Error, Hashable, CustomStringConvertible {
  /// Two sections of the snapshot share the identity `id` (as `String(describing:)` gives it),
  /// at `positions` (the first two, ascending).
  case duplicateSection(id: String, positions: [Int])
  /// Two elements share the identity `id` (as `String(describing:)` gives it), at `positions`
  /// (`[section, element]`, the first two in snapshot order). Element identities must be unique
  /// across the whole snapshot, not only within a section. `contents` is `.new` for the snapshot
  /// given to ``SnapshotSectionProvider/apply(_:)``, or `.old` when the provider's current
  /// sections already held the duplicate (possible after mutating a section directly).
  case duplicateElement(
    id: String, contents: DuplicateIdentityError.Contents, positions: [IndexPath])

  /// `duplicate section identity "b" in the new snapshot, at positions 0 and 2`, or
  /// `duplicate element identity 7 in the new snapshot, at [0, 3] and [2, 1]`.
  public var description: String {
    switch self {
    case .duplicateSection(let id, let positions):
      let places = positions.map(String.init).joined(separator: " and ")
      return "duplicate section identity \(id) in the new snapshot, at positions \(places)"
    case .duplicateElement(let id, let contents, let positions):
      let places = positions.map { "[\($0[0]), \($0[1])]" }.joined(separator: " and ")
      let snapshot = contents == .new ? "the new snapshot" : "the current sections"
      return "duplicate element identity \(id) in \(snapshot), at \(places)"
    }
  }
}
