import Foundation

/// The delegates of the user's set on built-in sections (``ArraySection``,
/// ``SingleElementSection``), kept here by section instead of in every section: a section in a
/// built-in parent reports through itself (it is its own ``TreeLink``), so a delegate of the
/// user's is rare, and a field for it cost 8 bytes in every section (see `Docs/Performance.md`,
/// Memory). Each is held weakly, as the field held it.
///
/// A section marks that it has an entry (``TreeLink/hasCustomDelegate``), so that a section
/// without one never looks here, and removes its entry when it is released. Sections live in any
/// isolation domain, so the table is behind a lock; a section with a delegate of the user's pays
/// one locked lookup each time its delegate is read (once an event).
final class CustomSectionDelegates: @unchecked Sendable {
  /// The one table of the process.
  static let shared = CustomSectionDelegates()

  /// A delegate, held weakly.
  private struct Entry {
    weak var delegate: AnyObject?
  }

  private let lock = NSLock()
  /// By section; written only under `lock`.
  private var entries: [ObjectIdentifier: Entry] = [:]

  /// The delegate of the user's of `section`, or `nil` (none set, or released).
  func delegate(of section: TreeLink) -> AnyObject? {
    lock.lock()
    defer { lock.unlock() }
    return entries[ObjectIdentifier(section)]?.delegate
  }

  /// Sets the delegate of the user's of `section` (held weakly); `nil` removes the entry.
  func set(_ delegate: AnyObject?, of section: TreeLink) {
    lock.lock()
    defer { lock.unlock() }
    if let delegate {
      entries[ObjectIdentifier(section)] = Entry(delegate: delegate)
    } else {
      entries[ObjectIdentifier(section)] = nil
    }
    section.hasCustomDelegate = delegate != nil
  }

  /// Forgets the entry of `section`, which is being released.
  func remove(_ section: TreeLink) {
    lock.lock()
    defer { lock.unlock() }
    entries[ObjectIdentifier(section)] = nil
  }

  /// Whether the section of `identity` has an entry, for tests.
  func hasEntry(for identity: ObjectIdentifier) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    return entries[identity] != nil
  }
}
