import Foundation
import SectionKit

/// Assertions usable from both Swift Testing and XCTest: a failure is reported to the running
/// test at the call site (see ``TestFailureReporter``), and the result is returned for tests that
/// want to branch on it.
extension TestAdapter {
  /// Checks that the most recent changeset equals `expected`.
  ///
  /// - Parameters:
  ///   - expected: The changeset the last batch should have produced.
  ///   - fileID: The file ID of where to report a failure; the call site by default.
  ///   - filePath: The path of that file.
  ///   - line: The line to report a failure on.
  ///   - column: The column to report a failure at.
  /// - Returns: Whether the last changeset equals `expected`.
  @discardableResult
  public func assertLastChangeset(
    equals expected: Changeset, fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> Bool {
    let location = TestSourceLocation(
      fileID: fileID, filePath: filePath, line: line, column: column)
    guard let last = lastChangeset else {
      TestFailureReporter.report(
        "TestAdapter: no changeset was applied; expected:\n\(expected)", at: location)
      return false
    }
    guard last != expected else { return true }
    TestFailureReporter.report(
      "TestAdapter: the last changeset is\n\(last)\nbut expected\n\(expected)", at: location)
    return false
  }

  /// Checks that the adapter shows exactly `expected` (one array of element descriptions per
  /// section).
  ///
  /// - Parameters:
  ///   - expected: The element descriptions the view should show.
  ///   - fileID: The file ID of where to report a failure; the call site by default.
  ///   - filePath: The path of that file.
  ///   - line: The line to report a failure on.
  ///   - column: The column to report a failure at.
  /// - Returns: Whether ``mirrorValues`` equals `expected`.
  @discardableResult
  public func assertMirror(
    equals expected: [[String]], fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> Bool {
    let location = TestSourceLocation(
      fileID: fileID, filePath: filePath, line: line, column: column)
    guard mirrorValues != expected else { return true }
    let mismatch = BatchValidator.firstMismatch(mirrorValues, expected)
    TestFailureReporter.report(
      "TestAdapter: the view shows \(mirrorValues), expected \(expected)"
        + (mismatch.map { " (first difference at \($0.indexPath.bracketed))" } ?? ""),
      at: location)
    return false
  }

  /// Checks that no batch failed since the adapter was created (or since
  /// ``removeAllHistory()``). Useful with a custom ``onFailure`` that only collects failures.
  ///
  /// - Parameters:
  ///   - fileID: The file ID of where to report a failure; the call site by default.
  ///   - filePath: The path of that file.
  ///   - line: The line to report a failure on.
  ///   - column: The column to report a failure at.
  /// - Returns: Whether ``failures`` is empty.
  @discardableResult
  public func assertNoFailures(
    fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> Bool {
    guard !failures.isEmpty else { return true }
    TestFailureReporter.report(
      "TestAdapter: \(failures.count) failing batch(es); the first:\n\(failures[0])",
      at: location)
    return false
  }
}
