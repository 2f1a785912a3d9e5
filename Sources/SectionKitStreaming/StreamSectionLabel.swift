import Foundation
import SectionKit

/// What a client can call a section: its identity and a header to show, both optional.
///
/// A stream carries elements by position only; labels let a client name a column that is
/// empty or was just inserted. A publisher gives them
/// (``UpdatePublisher/init(policy:digests:identity:forwardingTo:label:value:)``'s `label`, read
/// where it reads values: for every section of a snapshot, and for each section a changeset
/// inserts or reloads); a mirror follows them through section deletes, inserts and moves
/// (``StreamMirror/labels``). A label changes on the wire only when its section is inserted or
/// reloaded (or in a snapshot): a header that changes with the section's elements is sent when
/// the section is reloaded.
///
/// On the wire (version 4): a snapshot's `labels`, one object per section, and the `id` and
/// `header` fields of each `newSections` entry; the pages of a snapshot too long for one line
/// carry the labels of the sections that start on each (`Docs/Streaming.md`). A window
/// (``WindowMirror/labels``) gets the label of every section of the list.
public struct StreamSectionLabel: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The section's identity (a `SectionTree` node's `id`, an ``/SectionKit/IdentifiedSection``'s
  /// `id`, or a value of your own, as a string); `nil` when it has none.
  public var id: String?
  /// The header to show for the section; `nil` when it has none.
  public var header: String?

  /// Creates a label.
  ///
  /// - Parameters:
  ///   - id: the section's identity, if it has one.
  ///   - header: the header to show, if any.
  public init(id: String? = nil, header: String? = nil) {
    self.id = id
    self.header = header
  }

  /// Whether the label says nothing: no identity and no header.
  public var isEmpty: Bool { id == nil && header == nil }

  /// `id "header"`, or `(none)`.
  public var description: String {
    switch (id, header) {
    case (nil, nil): "(none)"
    case (let id?, nil): id
    case (nil, let header?): "\"\(header)\""
    case (let id?, let header?): "\(id) \"\(header)\""
    }
  }

  /// Throws a mismatch naming `labels` unless a snapshot of `sections` sections carries one
  /// label per section or none: what both mirrors check before they take a snapshot.
  static func checkSnapshot(
    _ labels: [StreamSectionLabel], sections: Int, sequence: Int
  ) throws(StreamMirrorError) {
    guard labels.isEmpty || labels.count == sections else {
      throw .mismatch(
        sequence: sequence,
        ChangesetMismatch(
          field: "labels", value: "\(labels.count) labels",
          reason: "for \(sections) sections (one per section, or none)"))
    }
  }

  /// The labels of the sections after `changeset`, from `labels`, those before it (empty, or
  /// one per section), and `new`, those of the sections it inserts or reloads. Empty when both
  /// are: a stream without labels costs nothing.
  ///
  /// The changeset must fit the sections (the applier checked it).
  ///
  /// - Complexity: O(1) when the changeset changes no section and `new` is empty; otherwise
  ///   O(s log r + k log k) for s sections, r section ranges and k changes.
  static func follow(
    _ labels: [StreamSectionLabel], through changeset: Changeset, newSectionCount: Int,
    new: [Int: StreamSectionLabel]
  ) -> [StreamSectionLabel] {
    if labels.isEmpty && new.isEmpty { return [] }
    let movesSections =
      !changeset.deletedSectionRanges.isEmpty || !changeset.insertedSectionRanges.isEmpty
      || !changeset.reloadedSectionRanges.isEmpty || !changeset.movedSections.isEmpty
    if !movesSections && new.isEmpty && labels.count == newSectionCount { return labels }
    let positions = ChangesetPositions(sectionsOf: changeset)
    return (0..<newSectionCount).map { section in
      if let label = new[section] { return label }
      guard let old = positions.oldSection(ofNew: section), old < labels.count,
        !positions.isReloaded(section: old)
      else { return StreamSectionLabel() }
      return labels[old]
    }
  }
}

// MARK: On the wire

extension StreamSectionLabel {
  /// The version of a line that carries labels: a snapshot's `labels`, a `newSections` entry's
  /// `id` and `header`. It also reads a changeset's `digest` as version 3 does.
  static let wireVersion = 4

  /// `,"header":"…","id":"…"`: the label's fields that are set, each after a comma (the fields
  /// of a `newSections` entry, between `elements` and `index`).
  func appendFields(to out: inout [UInt8]) {
    if let header {
      JSONWriter.appendRaw(#","header":"#, to: &out)
      JSONWriter.append(header, to: &out)
    }
    if let id {
      JSONWriter.appendRaw(#","id":"#, to: &out)
      JSONWriter.append(id, to: &out)
    }
  }

  /// `"labels":[{…},{}],`: a snapshot's labels, one object per section, before its `sections`.
  static func appendSnapshotField(_ labels: [StreamSectionLabel], to out: inout [UInt8]) {
    JSONWriter.appendRaw(#""labels":["#, to: &out)
    for (position, label) in labels.enumerated() {
      if position > 0 { out.append(UInt8(ascii: ",")) }
      out.append(UInt8(ascii: "{"))
      var fields: [UInt8] = []
      label.appendFields(to: &fields)
      out.append(contentsOf: fields.dropFirst())  // without the first comma
      out.append(UInt8(ascii: "}"))
    }
    JSONWriter.appendRaw(#"],"#, to: &out)
  }
}
