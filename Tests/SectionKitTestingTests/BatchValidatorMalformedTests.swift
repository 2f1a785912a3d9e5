import Foundation
import SectionKit
import SectionKitTesting
import Testing

/// Changesets with absurd numbers: the validator reports them, at a cost bounded by the size of
/// the changeset, never by the numbers in it.
@Suite struct BatchValidatorMalformedTests {
  static let huge = IndexSet(integersIn: 0..<(1 << 62))

  @Test func aHugeSectionDeleteRange_isReportedAtOnce() {
    expectRejected(.deleteSectionOutOfBounds, [1, 1], [], Changeset(deletedSections: Self.huge))
  }

  @Test func aHugeSectionInsertRange_isReportedAtOnce() {
    expectRejected(.insertSectionOutOfBounds, [1], [1, 1], Changeset(insertedSections: Self.huge))
  }

  @Test func aHugeSectionReloadRange_isReportedAtOnce() {
    expectRejected(.deleteSectionOutOfBounds, [1], [1], Changeset(reloadedSections: Self.huge))
  }

  @Test func aHugeNegativeSectionRange_isReportedOnce() {
    let violations = expectRejected(
      .negativeIndex, [1], [1],
      Changeset(deletedSections: IndexSet(integersIn: -(1 << 62)..<1)))
    #expect(violations.filter { $0.rule == .negativeIndex }.count == 1)
  }

  @Test func reloadDestinations_withHugeSectionRanges_returnAtOnce() {
    let changeset = Changeset(
      deletedSections: IndexSet(integersIn: 0..<(1 << 61)),
      insertedSections: IndexSet(integersIn: 0..<(1 << 62)),
      reloadedSections: IndexSet(integersIn: (1 << 62)..<Int.max),
      reloadedElements: [path(1 << 61 + 5, 0), path(Int.max - 1, Int.max - 1)])
    let destinations = BatchValidator().reloadDestinations(in: changeset)
    #expect(destinations[path(1 << 61 + 5, 0)] == path(5 + (1 << 62), 0))
    #expect(destinations.count == 2)
  }

  @Test func reloadArithmetic_nearIntMax_doesNotOverflow() {
    let changeset = Changeset(
      insertedSections: IndexSet(integersIn: 0..<Int.max),
      insertedElements: [path(3, 0), path(3, 1)],
      reloadedElements: [path(3, Int.max - 1)])
    _ = BatchValidator().reloadDestinations(in: changeset)
    _ = validate([1], [1], changeset)
  }

  @Test func checkAndTestAdapter_withHugeRanges_reportInsteadOfHanging() {
    let result = BatchValidator().check(
      old: [["a"]], new: [["a"]], changeset: Changeset(insertedSections: Self.huge))
    #expect(!result.isSuccess)
  }
}
