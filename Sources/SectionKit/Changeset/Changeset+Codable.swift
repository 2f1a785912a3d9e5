import Foundation

/// Encoding and validated decoding.
///
/// A changeset encodes as an object with one array per part: `deletedSectionRanges`,
/// `insertedSectionRanges` and `reloadedSectionRanges` (each range as `[lowerBound, upperBound]`),
/// `movedSections` (`{"from": s, "to": t}`), `deletedElements`, `insertedElements`,
/// `reloadedElements` (index paths) and `movedElements` (`{"from": path, "to": path}`), and
/// `reconfiguredElements` (index paths) only when there are any, so that a changeset without
/// reconfigures encodes as before. A part left out decodes as empty: a payload written before
/// reconfigures existed decodes unchanged.
///
/// Decoding accepts only what a changeset's own invariants allow (the rules of
/// ``Changeset/invariantViolation()``) and throws `DecodingError.dataCorrupted` otherwise: the
/// context's `codingPath` names the field (for example `deletedElements`, index 3) and its
/// `debugDescription` quotes the offending value. It never checks what needs the view's counts
/// (bounds, the count equations); that is the adapter's job.
///
/// - Complexity: Decoding is O(k log k) for k operations in the payload, whatever the numbers
///   in it (a range is never expanded).
extension Changeset: Codable {
  enum CodingKeys: String, CodingKey {
    case deletedSectionRanges, insertedSectionRanges, reloadedSectionRanges, movedSections
    case deletedElements, insertedElements, reloadedElements, movedElements, reconfiguredElements
  }

  /// Decodes a changeset and checks its invariants.
  ///
  /// - Throws: `DecodingError.dataCorrupted` naming the field and the value that break an
  ///   invariant, or the decoder's own errors for a payload of the wrong shape.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    func decode<T: Decodable>(_ key: CodingKeys) throws -> [T] {
      try container.decodeIfPresent([T].self, forKey: key) ?? []
    }
    try self.init(
      deletedSectionRanges: decode(.deletedSectionRanges),
      insertedSectionRanges: decode(.insertedSectionRanges),
      reloadedSectionRanges: decode(.reloadedSectionRanges), movedSections: decode(.movedSections),
      deletedElements: decode(.deletedElements), insertedElements: decode(.insertedElements),
      reloadedElements: decode(.reloadedElements), movedElements: decode(.movedElements),
      reconfiguredElements: decode(.reconfiguredElements))
    if let violation = invariantViolation() {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: container.codingPath + violation.codingPath,
          debugDescription: "Changeset: \(violation.fieldDescription) = \(violation.value) "
            + violation.reason))
    }
    storeSectionSets()
  }

  /// Encodes every part, empty ones included, but for ``reconfiguredElements``, left out when
  /// empty.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(deletedSectionRanges, forKey: .deletedSectionRanges)
    try container.encode(insertedSectionRanges, forKey: .insertedSectionRanges)
    try container.encode(reloadedSectionRanges, forKey: .reloadedSectionRanges)
    try container.encode(movedSections, forKey: .movedSections)
    try container.encode(deletedElements, forKey: .deletedElements)
    try container.encode(insertedElements, forKey: .insertedElements)
    try container.encode(reloadedElements, forKey: .reloadedElements)
    try container.encode(movedElements, forKey: .movedElements)
    if !reconfiguredElements.isEmpty {
      try container.encode(reconfiguredElements, forKey: .reconfiguredElements)
    }
  }
}
