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

  /// The line cut to `width` characters, the last one replaced by `…` when it was longer.
  /// - Complexity: O(n) in the length of the line.
  func truncated(to width: Int?) -> StyledLine {
    guard let width, plainText.count > width else { return self }
    var result = StyledLine()
    var remaining = width - 1
    for run in runs where remaining > 0 {
      let kept = String(run.text.prefix(remaining))
      remaining -= kept.count
      result.append(kept, run.style)
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

/// Text on one line: newlines shown as `↵`, tabs as spaces.
func singleLine(_ text: String) -> String {
  guard text.contains(where: \.isNewline) || text.contains("\t") else { return text }
  var result = ""
  for character in text {
    if character == "\r\n" || character == "\n" || character == "\r" {
      result += "↵"
    } else if character == "\t" {
      result += " "
    } else {
      result.append(character)
    }
  }
  return result
}
