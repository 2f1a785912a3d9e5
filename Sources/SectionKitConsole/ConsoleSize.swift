#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The size of a terminal screen, in character cells.
public struct ConsoleSize: Hashable, Sendable, CustomStringConvertible {
  /// Lines on the screen, in ``range``; setting another value traps, as ``init(rows:columns:)``
  /// does.
  public var rows: Int {
    didSet { Self.check(rows, "rows") }
  }
  /// Columns on a line, in ``range``; setting another value traps, as ``init(rows:columns:)``
  /// does.
  public var columns: Int {
    didSet { Self.check(columns, "columns") }
  }

  /// A size; `rows` and `columns` must be in ``range`` (it traps otherwise).
  public init(rows: Int, columns: Int) {
    precondition(
      Self.range.contains(rows) && Self.range.contains(columns),
      "ConsoleSize(rows: \(rows), columns: \(columns)): each must be in "
        + "\(Self.range.lowerBound)...\(Self.range.upperBound)")
    self.rows = rows
    self.columns = columns
  }

  private static func check(_ value: Int, _ name: String) {
    precondition(
      range.contains(value),
      "ConsoleSize.\(name): \(value) is outside \(range.lowerBound)...\(range.upperBound)")
  }

  /// The sizes a list view draws to: at least 2 cells, at most 10,000.
  public static let range = 2...10_000

  /// The size the terminal on `fileDescriptor` reports (`ioctl(TIOCGWINSZ)`), or `nil` when it is
  /// not a terminal or reports a size outside ``range``.
  public static func terminal(fileDescriptor: Int32 = STDOUT_FILENO) -> ConsoleSize? {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
      var size = winsize()
      guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0 else { return nil }
      let rows = Int(size.ws_row)
      let columns = Int(size.ws_col)
      guard range.contains(rows), range.contains(columns) else { return nil }
      return ConsoleSize(rows: rows, columns: columns)
    #else
      return nil
    #endif
  }

  /// `24×80` (rows × columns).
  public var description: String { "\(rows)×\(columns)" }
}
