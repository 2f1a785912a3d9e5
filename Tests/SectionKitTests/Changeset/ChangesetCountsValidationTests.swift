import Foundation
import Testing

@testable import SectionKit

/// Issue 16, items done in an earlier step, checked against the issue's words: validation against
/// given counts throws and changes nothing; the README states the Swift version the documented
/// shapes need.
@Suite("Validating a changeset against counts; the README's Swift version")
struct ChangesetCountsValidationTests {
  @Test func countsThatDoNotFitThrowAMismatch() throws {
    #expect(try Changeset(insertedElements: [[0, 2]]).newCounts(from: [2, 5]) == [3, 5])
    #expect(throws: ChangesetMismatch.self) {
      try Changeset(deletedElements: [[0, 5]]).newCounts(from: [2])
    }
    #expect(throws: ChangesetMismatch.self) {
      try Changeset(insertedElements: [[0, 9]]).newCounts(from: [2])
    }
    #expect(throws: ChangesetMismatch.self) {
      try Changeset(deletedSections: [3]).newCounts(from: [2])
    }
    do {
      _ = try Changeset(deletedElements: [[1, 0]]).newCounts(from: [2])
      Issue.record("no mismatch")
    } catch let error as ChangesetMismatch {
      #expect(error.field == "deletedElements")
      #expect(error.description.contains("out of the old range 0..<1"))
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  /// The documented shapes (`@MainActor ViewAdapter`, default main-actor isolation) need Swift
  /// 6.2; the manifest's tools version and the README say so.
  @Test func theReadmeStatesTheToolsVersion() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let manifest = try String(
      contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let firstLine = try #require(manifest.split(separator: "\n").first)
    let version = try #require(firstLine.split(separator: ":").last)
    #expect(version == "6.2")
    #expect(readme.contains("Swift \(version) or later"))
    #expect(!readme.contains("Swift 6.0"))
  }
}
