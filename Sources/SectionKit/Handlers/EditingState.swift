import Foundation

/// The editing mode a ``Coordinator`` keeps: whether it is editing, and which shown
/// ``EditingHandler`` sections heard `didSetEditing(true)` and not `false` since.
///
/// A value with no handler calls in it: each change returns the sections owed a
/// `didSetEditing(_:)` call, and the coordinator makes the calls.
struct EditingState {
  /// Whether the coordinator is in editing mode.
  private(set) var isEditing = false
  /// The editing sections, by identity.
  private(set) var sections: [ObjectIdentifier: any EditingHandler] = [:]

  /// Whether `section` is editing.
  func contains(_ section: any Section) -> Bool { sections[ObjectIdentifier(section)] != nil }

  /// Enters or leaves editing mode with `shown` the sections the adapter shows; returns the
  /// sections owed the news, in order.
  mutating func set(_ editing: Bool, shown: some Sequence<any Section>) -> [any EditingHandler] {
    guard editing != isEditing else { return [] }
    isEditing = editing
    guard editing else {
      defer { sections = [:] }
      return Array(sections.values)
    }
    var told: [any EditingHandler] = []
    for section in shown {
      guard let handler = section as? any EditingHandler,
        sections.updateValue(handler, forKey: ObjectIdentifier(handler)) == nil
      else { continue }
      told.append(handler)
    }
    return told
  }

  /// `section` stopped being shown; returns it when it was editing (it is owed `false`).
  mutating func leave(_ section: any Section) -> (any EditingHandler)? {
    sections.removeValue(forKey: ObjectIdentifier(section))
  }

  /// `section` started being shown; returns it when the coordinator is editing and it is an
  /// ``EditingHandler`` (it is owed `true`).
  mutating func join(_ section: any Section) -> (any EditingHandler)? {
    guard isEditing, let handler = section as? any EditingHandler else { return nil }
    sections[ObjectIdentifier(handler)] = handler
    return handler
  }

  /// The adapter now shows exactly `shown` (a reload): returns the sections that left (owed
  /// `false`) and those that joined (owed `true`).
  mutating func reset(shown: some Sequence<any Section>) -> (
    left: [any EditingHandler], joined: [any EditingHandler]
  ) {
    guard isEditing else { return ([], []) }
    var now: [ObjectIdentifier: any EditingHandler] = [:]
    var joined: [any EditingHandler] = []
    for section in shown {
      guard let handler = section as? any EditingHandler else { continue }
      let key = ObjectIdentifier(handler)
      now[key] = handler
      if sections[key] == nil { joined.append(handler) }
    }
    let left = sections.filter { now[$0.key] == nil }.map(\.value)
    sections = now
    return (left, joined)
  }
}
