/// The styles the console uses, as ANSI SGR parameters.
enum TextStyle: String {
  case header = "1"
  case footer = "2"
  case indexPath = "90"
  case selected = "1;36"
  case deleted = "31"
  case inserted = "32"
  case reloaded = "33"
  case moved = "35"
  case note = "1;34"
  case warning = "1;31"
  case cursor = "7"
}

/// One output line made of styled runs, truncated to a width before it is painted.
struct StyledLine {
  private(set) var runs: [(text: String, style: TextStyle?)] = []

  init() {}

  init(_ text: String, _ style: TextStyle? = nil) {
    append(text, style)
  }

  mutating func append(_ text: String, _ style: TextStyle? = nil) {
    guard !text.isEmpty else { return }
    if let last = runs.last, last.style == style {
      runs[runs.count - 1].text += text
    } else {
      runs.append((text, style))
    }
  }

  var plainText: String { runs.map(\.text).joined() }

  /// The line cut to `width` terminal columns (a wide character takes two, a combining mark
  /// none), the end replaced by `…` when it was wider; a character is never split.
  /// - Complexity: O(n) in the length of the line.
  func truncated(to width: Int?) -> StyledLine {
    guard let width, TerminalColumns.width(of: plainText) > width else { return self }
    var result = StyledLine()
    var remaining = width - 1
    for run in runs where remaining > 0 {
      let kept = TerminalColumns.prefix(of: run.text, fitting: remaining)
      remaining -= TerminalColumns.width(of: kept)
      result.append(kept, run.style)
      if kept != run.text { break }
    }
    result.append("…", runs.last?.style)
    return result
  }

  /// The text, with ANSI styling when `ansi` is true, and a newline.
  func rendered(ansi: Bool) -> String {
    var text = ""
    for run in runs {
      if ansi, let style = run.style {
        text += "\u{1B}[\(style.rawValue)m\(run.text)\u{1B}[0m"
      } else {
        text += run.text
      }
    }
    return text + "\n"
  }
}

extension ConsoleOptions {
  /// Renders `lines` truncated to ``width`` with the resolved ``style`` (`.auto` renders plain).
  func render(_ lines: [StyledLine]) -> String {
    lines.map { $0.truncated(to: width).rendered(ansi: style == .ansi) }.joined()
  }
}

/// Text safe to show on one line of a terminal: line breaks (LF, CR, CR LF, NEL, U+2028,
/// U+2029) shown as `↵`, tabs as a space, and every other control character — C0 (U+0000–U+001F),
/// DEL (U+007F) and C1 (U+0080–U+009F), ESC among them — escaped as Swift writes it in a string
/// literal, e.g. `\u{1B}`, so that text never moves the cursor, clears the screen or styles the
/// terminal.
///
/// - Complexity: O(n) in the length of the text; no allocation when there is nothing to change.
func singleLine(_ text: String) -> String {
  guard text.unicodeScalars.contains(where: needsReplacing) else { return text }
  var result = ""
  var scalars = text.unicodeScalars.makeIterator()
  var pending = scalars.next()
  while let scalar = pending {
    pending = scalars.next()
    switch scalar {
    case "\r" where pending == "\n":
      pending = scalars.next()
      result += "↵"
    case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}":
      result += "↵"
    case "\t":
      result += " "
    case _ where isControl(scalar):
      let hex = String(scalar.value, radix: 16, uppercase: true)
      result += "\\u{" + (hex.count < 2 ? "0" + hex : hex) + "}"
    default:
      result.unicodeScalars.append(scalar)
    }
  }
  return result
}

/// A C0 control, DEL or a C1 control.
private func isControl(_ scalar: Unicode.Scalar) -> Bool {
  scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
}

private func needsReplacing(_ scalar: Unicode.Scalar) -> Bool {
  isControl(scalar) || scalar == "\u{2028}" || scalar == "\u{2029}"
}
