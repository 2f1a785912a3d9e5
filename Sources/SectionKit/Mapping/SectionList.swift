/// A list of sections kept as one 8-byte reference each (a `[any Section]` takes 16): the link
/// that holds each section's place. A built-in section is its own link; a section of the user's
/// in a built-in provider has its ``ChildLink``; a section a custom provider presents gets a
/// ``SectionBox``.
///
/// The mapping's list of presented sections and the coordinator's presented state share one, so
/// that a tree of n sections keeps 8n bytes for them, not 16n (see `Docs/Performance.md`,
/// Memory).
struct SectionList: RandomAccessCollection {
  /// The links, in order; `links[i].child` is section `i`.
  private(set) var links: [TreeLink]

  /// No section.
  init() { links = [] }

  /// The links given, each holding a section.
  init(links: [TreeLink]) { self.links = links }

  /// `sections`, each through its link (or a box).
  init(_ sections: [any Section]) {
    links = sections.map(Self.link(holding:))
  }

  var startIndex: Int { 0 }
  var endIndex: Int { links.count }

  /// The section at `position`.
  ///
  /// - Complexity: O(1).
  subscript(position: Int) -> any Section { links[position].linkedSection }

  /// Whether the entry at `position` holds `section` (which `link`, when not `nil`, holds),
  /// compared through the links: no section is read out of the list.
  @inline(__always)
  func holds(_ section: any Section, at position: Int, link: TreeLink? = nil) -> Bool {
    let entry = links[position]
    return entry === link || entry === section || entry.childObject === section
  }

  /// The sections as an array, in order.
  ///
  /// - Complexity: O(n).
  var sections: [any Section] { map { $0 } }

  mutating func insert(contentsOf sections: some Collection<any Section>, at index: Int) {
    links.insert(contentsOf: sections.map(Self.link(holding:)), at: index)
  }

  mutating func insert(_ section: any Section, at index: Int) {
    links.insert(Self.link(holding: section), at: index)
  }

  mutating func removeSubrange(_ range: Range<Int>) { links.removeSubrange(range) }

  /// Moves the entries at `range` so that the first is at `destination` after the move.
  mutating func moveSubrange(_ range: Range<Int>, to destination: Int) {
    let moved = links[range]
    links.removeSubrange(range)
    links.insert(contentsOf: moved, at: destination)
  }

  /// The link that holds `section`: the section itself when it is a built-in one, the link it
  /// reports to in a built-in provider, or a new box.
  static func link(holding section: any Section) -> TreeLink {
    if let own = section._sectionKitLink?.takeUnretainedValue() { return own }
    if let link = section.updateDelegate as? ChildLink, link.childObject === section { return link }
    return SectionBox(section)
  }
}

/// Holds a section that has no link of its own (one a custom provider presents), for a
/// ``SectionList``. It leads to no owner.
final class SectionBox: TreeLink {
  let section: any Section

  init(_ section: any Section) {
    self.section = section
    super.init()
  }

  override var child: SectionProviderChild { .section(section) }

  override var linkedSection: any Section { section }
}
