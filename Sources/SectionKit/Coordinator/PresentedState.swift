import Foundation

/// What the adapter shows: the sections and their element counts, by global index.
struct PresentedState {
  /// Shared with the mapping's list until a changeset changes one of them.
  private(set) var sections: SectionList
  /// 2 bytes a section while no section holds more than 65,535 elements (see ``PresentedCounts``).
  private(set) var counts: PresentedCounts

  /// No section.
  init() {
    sections = SectionList()
    counts = PresentedCounts()
  }

  init(mapping: SectionProviderMapping) {
    self.init(mapping: mapping, countsIn: PresentedCounts())
  }

  /// The state of `mapping`, its counts written into `storage` (emptied first, its capacity kept).
  init(mapping: SectionProviderMapping, countsIn storage: consuming PresentedCounts) {
    sections = mapping.list
    counts = consume storage
    counts.removeAll(keepingCapacity: true)
    counts.reserveCapacity(sections.count)
    for section in sections { counts.append(section.numberOfElements) }
  }

  /// Empties the state and returns the storage of its counts, for ``init(mapping:countsIn:)``: a
  /// reload then never holds the old counts and the new at once (at a coordinator's first flush,
  /// those of its first state and those of the reload).
  mutating func takeCounts() -> PresentedCounts {
    sections = SectionList()
    defer { counts = PresentedCounts() }
    return counts
  }

  func checkSection(_ index: Int, _ operation: String) {
    precondition(
      index >= 0 && index < counts.count,
      "Coordinator.\(operation): section index \(index) is out of range 0..<\(counts.count)")
  }

  /// Whether `section` is presented at global index `index` (compared through the links, no
  /// section read out of the list).
  func presents(_ section: any Section, at index: Int) -> Bool {
    UInt(bitPattern: index) < UInt(bitPattern: sections.count)
      && sections.holds(section, at: index)
  }

  /// The section and local index behind `indexPath`; traps, naming `operation` (by default the
  /// calling method), when the path is malformed or out of range.
  func locate(_ indexPath: IndexPath, _ operation: String = #function) -> (
    section: any Section, index: Int
  ) {
    precondition(
      indexPath.count == 2,
      "Coordinator.\(operation): \(indexPath) is not a [section, element] path")
    // Each component read once: an `IndexPath` subscript is a call into Foundation.
    let (section, index) = (indexPath[0], indexPath[1])
    checkSection(section, operation)
    let count = counts[section]
    precondition(
      index >= 0 && index < count,
      "Coordinator.\(operation): element index \(index) of \(format(indexPath)) "
        + "is out of range 0..<\(count) (section \(section))")
    return (sections[section], index)
  }

  /// What a changeset does to the presented state: computed when the batch ends (from the model
  /// as it is then), applied when the adapter calls `updateData`.
  struct Commit {
    var changeset: Changeset
    /// Deleted old section indexes.
    var deleted: [Range<Int>]
    /// Inserted new sections with their counts, ascending.
    var inserted: [InsertedSection] = []
    /// New counts of surviving sections whose elements changed, by new index.
    var recounted: [Recount] = []
    /// One more new count, kept apart so that a single change allocates no array for it.
    var recount: Recount?
  }

  struct InsertedSection {
    var index: Int
    var section: any Section
    var count: Int
  }

  struct Recount {
    var index: Int
    var count: Int
  }

  mutating func apply(_ commit: Commit) {
    for range in commit.deleted.reversed() {
      sections.removeSubrange(range)
      counts.removeSubrange(range)
    }
    for entry in commit.inserted {
      sections.insert(entry.section, at: entry.index)
      counts.insert(entry.count, at: entry.index)
    }
    for entry in commit.recounted { counts[entry.index] = entry.count }
    if let entry = commit.recount { counts[entry.index] = entry.count }
  }

}
