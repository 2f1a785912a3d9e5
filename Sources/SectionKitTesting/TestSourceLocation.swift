/// Where in a test a failure is reported: captured by ``TestAdapter``'s initializer (failures of a
/// batch point at the line that created the adapter) and by its assertion helpers (their call
/// site).
public struct TestSourceLocation: Sendable, CustomStringConvertible {
  /// `#fileID` of the site.
  public var fileID: String
  /// `#filePath` of the site (a `StaticString`, as XCTest wants it).
  public var filePath: StaticString
  /// `#line` of the site.
  public var line: UInt
  /// `#column` of the site.
  public var column: UInt

  /// Captures the caller's location by default.
  public init(
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// `fileID:line:column`.
  public var description: String { "\(fileID):\(line):\(column)" }
}
