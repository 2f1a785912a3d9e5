import SectionKit
import SectionKitConsole

/// A row of a list a client follows through a window: a value it holds, or a row outside the
/// window, whose value it does not have.
public enum WindowRow<Value> {
  /// A row inside the window, with its value.
  case row(Value)
  /// A row outside the window: the list knows it is there, not what it is.
  case placeholder

  /// The value, for a row inside the window.
  public var value: Value? {
    if case .row(let value) = self { return value }
    return nil
  }
}

/// One section of a followed list, as many rows as the server's section: the window's values and
/// placeholders around them. Drawn by ``/SectionKitConsole/ConsoleListView`` with a header that
/// gives its title and count, whatever part of it the window holds.
public final class WindowRowsSection<Value: Sendable>: ArraySection<WindowRow<Value>>,
  ConsolePresentable
{
  /// The section's title, given when it arrived (``ConsoleWindowList``'s `title`).
  public let title: String
  /// How a value is shown on one line.
  private let text: (Value) -> String

  /// Creates a section of `rows`, titled `title`, showing each value with `text`.
  ///
  /// - Parameters:
  ///   - rows: the section's rows.
  ///   - title: the section's title, shown in its header.
  ///   - text: how a value is shown.
  public init(_ rows: [WindowRow<Value>], title: String, text: @escaping (Value) -> String) {
    self.title = title
    self.text = text
    super.init(rows)
  }

  /// An empty section titled `Section`, showing values with `String(describing:)`.
  public required init() {
    title = "Section"
    text = { String(describing: $0) }
    super.init()
  }

  /// What a row outside the window shows.
  public static var placeholderText: String { "…" }

  /// `title (n rows)`.
  public var consoleHeader: String? { "\(title) (\(count) \(count == 1 ? "row" : "rows"))" }

  /// The value's text, or `…` for a row outside the window.
  public func consoleText(forElementAt index: Int) -> String {
    switch self[index] {
    case .row(let value): text(value)
    case .placeholder: Self.placeholderText
    }
  }
}
