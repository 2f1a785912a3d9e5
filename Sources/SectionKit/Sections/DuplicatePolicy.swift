import Foundation

/// What a diff does when two elements of the contents it is given share an identity.
///
/// ```swift
/// let dropped = try contacts.replaceElements(with: payload, duplicates: .keepFirst)
/// for drop in dropped { log("ignored \(drop)") }   // dropped duplicate 7 at 4 (kept 1)
/// ```
///
/// The policy is applied to the new contents before the diff, so the diff sees unique identities
/// and the changeset is the one of the contents kept; what was left out is returned, as
/// ``DroppedDuplicate``s. It does not apply to the section's current contents: a duplicate
/// there (after direct mutation) still throws.
public enum DuplicatePolicy: Sendable, Hashable {
  /// Throw (``DuplicateIdentityError``, ``SnapshotError``) and change nothing: the default, since
  /// a duplicate in data from outside usually means the data is wrong.
  case throwError
  /// Keep the first element with each identity, at its position; drop the later ones.
  case keepFirst
  /// Keep the last element with each identity, at its position; drop the earlier ones.
  case keepLast
}

/// An element a ``DuplicatePolicy`` left out of the contents given to a diff.
///
/// Positions are in the contents as given (before anything was dropped): `[element]` in a
/// section's list, `[section, element]` in a snapshot — the form duplicate errors use.
public struct DroppedDuplicate: Hashable, Sendable, CustomStringConvertible {
  /// The identity, as `String(describing:)` gives it.
  public var id: String
  /// Where the dropped element was.
  public var position: IndexPath
  /// Where the element kept with the same identity is.
  public var kept: IndexPath

  /// A dropped element with identity `id` at `position`, the one kept being at `kept`.
  public init(id: String, position: IndexPath, kept: IndexPath) {
    self.id = id
    self.position = position
    self.kept = kept
  }

  /// `dropped duplicate 7 at 4 (kept 1)`, or `dropped duplicate 7 at [2, 0] (kept [0, 3])`.
  public var description: String {
    "dropped duplicate \(id) at \(Self.format(position)) (kept \(Self.format(kept)))"
  }

  /// `4` for a position in a list, `[2, 0]` for one in a snapshot.
  static func format(_ path: IndexPath) -> String {
    path.count == 1 ? "\(path[0])" : "[" + path.map(String.init).joined(separator: ", ") + "]"
  }
}

/// `sections` without the elements `policy` drops (identities unique across all of them), and
/// what was dropped, in the order of the positions dropped; `nil` when nothing is dropped.
/// Positions are `[section, element]`, or `[element]` when `flat` (one list).
///
/// - Complexity: O(n) expected for n elements (each identity hashed once, twice for
///   ``DuplicatePolicy/keepLast``).
@inlinable
func _droppingDuplicates<Element, ID: Hashable>(
  _ sections: [[Element]], policy: DuplicatePolicy, flat: Bool, id: (Element) -> ID
) -> (sections: [[Element]], dropped: [DroppedDuplicate])? {
  guard policy != .throwError else { return nil }
  // The position kept for each identity: its first occurrence, or its last.
  var kept: [ID: IndexPath] = [:]
  for section in sections.indices {
    for index in sections[section].indices {
      let key = id(sections[section][index])
      let path = flat ? IndexPath(index: index) : IndexPath(item: index, section: section)
      if policy == .keepLast || kept[key] == nil { kept[key] = path }
    }
  }
  var dropped: [DroppedDuplicate] = []
  var result = sections
  for section in sections.indices {
    var elements: [Element] = []
    for index in sections[section].indices {
      let element = sections[section][index]
      let key = id(element)
      let path = flat ? IndexPath(index: index) : IndexPath(item: index, section: section)
      let keptPath = kept[key]!
      if keptPath == path {
        elements.append(element)
      } else {
        dropped.append(
          DroppedDuplicate(id: String(describing: key), position: path, kept: keptPath))
      }
    }
    result[section] = elements
  }
  return dropped.isEmpty ? nil : (result, dropped)
}
