import SectionKit

/// A section that chooses how the console shows it: a header, a footer and one line per element.
///
/// Adopt it to give a section a title or to format its elements; every requirement has a default,
/// so adopt only what you need.
///
/// ```swift
/// final class Family: ArraySection<String>, ConsolePresentable {
///     var consoleHeader: String? { "Family" }
///     var consoleFooter: String? { "\(count) people" }
/// }
/// ```
///
/// A section that does not adopt the protocol gets a header like `Section 2 (3 elements)`, no
/// footer, and `String(describing:)` of each element (through `describeElement(of:at:)`).
public protocol ConsolePresentable: Section {
  /// The header line, or `nil` for no header. Defaults to `nil`.
  var consoleHeader: String? { get }
  /// The footer line, or `nil` for no footer. Defaults to `nil`.
  var consoleFooter: String? { get }
  /// The text of the element at `index` (`0..<numberOfElements`), on one line.
  ///
  /// Defaults to `String(describing:)` of the element for an `ElementSection`, and to
  /// `element <index>` otherwise. Newlines in the text are shown as `↵`.
  func consoleText(forElementAt index: Int) -> String
}

extension ConsolePresentable {
  /// No header.
  public var consoleHeader: String? { nil }
  /// No footer.
  public var consoleFooter: String? { nil }
  /// `String(describing:)` of the element, or `element <index>` for a section that is not an
  /// `ElementSection`.
  public func consoleText(forElementAt index: Int) -> String {
    describeElement(of: self, at: index) ?? "element \(index)"
  }
}
