import Foundation
import Testing

/// Every `<!-- snippet: NAME -->` block of `Docs/Streaming.md` is the code between
/// `// snippet:NAME` and `// snippet:end` in the example's sources, dedented: the documentation
/// shows code this package compiles and tests.
@Suite struct DocsSnippetTests {
  static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  func sourceSnippets() throws -> [String: String] {
    var result: [String: String] = [:]
    let sources = Self.package.appendingPathComponent("Sources/LiveBoard")
    for file in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
      let text = try String(
        contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      var name: String?
      var lines: [Substring] = []
      for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed == "// snippet:end", let current = name {
          let indent =
            lines.filter { !$0.allSatisfy(\.isWhitespace) }
            .map { $0.prefix { $0 == " " }.count }.min() ?? 0
          result[current] = lines.map { String($0.dropFirst(min(indent, $0.count))) }
            .joined(separator: "\n")
          name = nil
        } else if trimmed.hasPrefix("// snippet:") {
          name = String(trimmed.dropFirst("// snippet:".count))
          lines = []
        } else if name != nil {
          lines.append(line)
        }
      }
    }
    return result
  }

  @Test func theDocsShowTheExamplesCode() throws {
    let docs = try String(
      contentsOf: Self.package.appendingPathComponent("../../Docs/Streaming.md"), encoding: .utf8)
    let sources = try sourceSnippets()
    var checked = 0
    for part in docs.components(separatedBy: "<!-- snippet: ").dropFirst() {
      let name = String(part.prefix { $0 != " " })
      guard let start = part.range(of: "```swift\n"),
        let end = part.range(of: "\n```", range: start.upperBound..<part.endIndex)
      else {
        Issue.record("snippet \(name): no code block")
        continue
      }
      let code = String(part[start.upperBound..<end.lowerBound])
      #expect(sources[name] == code, "Docs/Streaming.md snippet \(name) differs from the source")
      checked += 1
    }
    #expect(checked == 4)
  }
}
