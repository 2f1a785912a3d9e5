import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the console adapter knows about where it writes: whether the output is a terminal, and
/// the environment variables that matter (`NO_COLOR`, `TERM`, `COLUMNS`).
///
/// The adapter reads it once, at init. Inject one in tests:
///
/// ```swift
/// let pipe = ConsoleEnvironment(isTerminal: false, variables: [:])
/// let adapter = ConsoleAdapter(output: String(), environment: pipe)   // plain text, log mode
/// ```
public struct ConsoleEnvironment: Hashable, Sendable {
  /// Whether the output is a terminal.
  public var isTerminal: Bool
  /// Environment variables (only `NO_COLOR`, `TERM` and `COLUMNS` are read).
  public var variables: [String: String]
  /// The terminal's width in columns, as the terminal reports it, when the output is one.
  public var terminalColumns: Int?

  /// Creates an environment.
  public init(isTerminal: Bool, variables: [String: String], terminalColumns: Int? = nil) {
    self.isTerminal = isTerminal
    self.variables = variables
    self.terminalColumns = terminalColumns
  }

  /// The process environment, with `isatty` of `fileDescriptor` (standard output by default).
  public static func current(fileDescriptor: Int32 = STDOUT_FILENO) -> ConsoleEnvironment {
    let all = ProcessInfo.processInfo.environment
    let keys = ["NO_COLOR", "TERM", "COLUMNS"]
    let isTerminal = isatty(fileDescriptor) == 1
    return ConsoleEnvironment(
      isTerminal: isTerminal,
      variables: all.filter { keys.contains($0.key) },
      terminalColumns: isTerminal ? windowColumns(fileDescriptor) : nil)
  }

  /// Whether `NO_COLOR` is set to a non-empty value (https://no-color.org).
  public var noColor: Bool { !(variables["NO_COLOR"] ?? "").isEmpty }

  /// Whether `TERM` is `dumb` (a terminal that understands no escape sequences).
  public var isDumbTerminal: Bool { variables["TERM"] == "dumb" }

  /// Whether `.auto` style means ANSI: a terminal, not dumb, and no `NO_COLOR`.
  public var supportsColor: Bool { isTerminal && !isDumbTerminal && !noColor }

  /// Whether `.auto` mode means redraw: a terminal that is not dumb. (`NO_COLOR` turns off
  /// colour, not cursor control.)
  public var supportsRedraw: Bool { isTerminal && !isDumbTerminal }

  /// The width to draw to on a terminal: `COLUMNS` when it is a number in
  /// ``ConsoleOptions/widthRange``, else ``terminalColumns`` when it is in that range.
  public var columns: Int? {
    let range = ConsoleOptions.widthRange
    if let text = variables["COLUMNS"], let value = Int(text), range.contains(value) {
      return value
    }
    if let value = terminalColumns, range.contains(value) { return value }
    return nil
  }
}

/// The width of the terminal on `fileDescriptor` (`TIOCGWINSZ`), or `nil`.
private func windowColumns(_ fileDescriptor: Int32) -> Int? {
  #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    var size = winsize()
    guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  #else
    return nil
  #endif
}

extension ConsoleEnvironment {
  /// Not a terminal, no environment variables: plain text in log mode.
  public static let pipe = ConsoleEnvironment(isTerminal: false, variables: [:])
}
