/// An element with an identity and a content version: `String(describing:)` is `"id@version"`,
/// so a replayed view shows both a wrong position and stale content.
struct Item: Hashable, CustomStringConvertible {
  var id: Int
  var version: Int = 0
  var description: String { "\(id)@\(version)" }
}
