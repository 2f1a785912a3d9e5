/// How a ``ConsoleAdapter`` or ``ConsoleRenderer`` writes.
///
/// ```swift
/// var options = ConsoleOptions()
/// options.showsIndexPaths = true     // "[1, 0] Mum"
/// options.width = 60                 // truncate longer lines with "…"
/// options.style = .plain             // never ANSI
/// options.mode = .log                // append-only, even on a terminal
/// ```
public struct ConsoleOptions: Hashable, Sendable {
  /// Whether lines carry ANSI styling (bold headers, dim footers, coloured changes).
  public enum Style: Hashable, Sendable {
    /// ANSI when the output is a terminal, `NO_COLOR` is unset or empty and `TERM` is not `dumb`.
    case auto
    /// Never ANSI.
    case plain
    /// Always ANSI.
    case ansi
  }

  /// How the adapter shows successive states.
  public enum Mode: Hashable, Sendable {
    /// ``redraw`` when the output is a terminal (and `TERM` is not `dumb`), ``log`` otherwise.
    case auto
    /// Clear the screen and draw the whole tree after every change, with what changed below it.
    case redraw
    /// Append: the whole tree on a reload, one entry per changeset or selection change.
    case log
  }

  /// Prefix each element with its global index path, `[section, element]`.
  public var showsIndexPaths: Bool
  /// The maximum line width in characters: longer lines end with `…`, and header rules are drawn
  /// to this width. `nil`: no limit (the adapter uses `COLUMNS` on a terminal when it is set).
  ///
  /// A width must lie in ``widthRange``, here as in ``init(showsIndexPaths:width:style:mode:logsTreeAfterChanges:)``:
  /// another value is a programming error and traps.
  public var width: Int? {
    didSet { Self.checkWidth(width) }
  }

  /// The widths a console draws to: at least 8 characters (room for a rule and a few letters),
  /// at most 10,000 (far beyond any terminal, and a line that size is still cheap to build).
  public static let widthRange = 8...10_000

  static func checkWidth(_ width: Int?) {
    guard let width else { return }
    precondition(
      widthRange.contains(width),
      "ConsoleOptions: width \(width) is outside \(widthRange.lowerBound)...\(widthRange.upperBound)"
    )
  }
  /// ANSI or plain text.
  public var style: Style
  /// Redraw or log.
  public var mode: Mode
  /// In log mode, write the whole tree after each changeset too (not only on a reload).
  public var logsTreeAfterChanges: Bool

  /// Creates options; by default no index paths, no width limit, `.auto` style and mode.
  public init(
    showsIndexPaths: Bool = false, width: Int? = nil, style: Style = .auto, mode: Mode = .auto,
    logsTreeAfterChanges: Bool = false
  ) {
    Self.checkWidth(width)
    self.showsIndexPaths = showsIndexPaths
    self.width = width
    self.style = style
    self.mode = mode
    self.logsTreeAfterChanges = logsTreeAfterChanges
  }

  /// These options with `.auto` style, mode and width decided for `environment`.
  ///
  /// ```swift
  /// let env = ConsoleEnvironment(isTerminal: true, variables: ["NO_COLOR": "1"])
  /// ConsoleOptions().resolved(for: env).style   // .plain
  /// ConsoleOptions().resolved(for: env).mode    // .redraw
  /// ```
  public func resolved(for environment: ConsoleEnvironment) -> ConsoleOptions {
    var resolved = self
    if style == .auto { resolved.style = environment.supportsColor ? .ansi : .plain }
    if mode == .auto { resolved.mode = environment.supportsRedraw ? .redraw : .log }
    if width == nil, environment.isTerminal, let columns = environment.columns {
      resolved.width = columns
    }
    return resolved
  }
}
