import Foundation
import Testing

/// Compares `text` with the golden file `Golden/<name>.txt`, or writes the file when the
/// environment variable `SECTIONKIT_RECORD` is `1`.
///
/// Goldens are read from the test bundle (`Bundle.module`) and written to the source tree (next to
/// this file), so re-record with `SECTIONKIT_RECORD=1 swift test`, review the diff, and
/// run the tests again. The escape character is stored as `␛` so that goldens with ANSI styling
/// stay readable in a diff.
func assertSnapshot(
  _ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation,
  filePath: String = #filePath
) {
  let stored = text.replacingOccurrences(of: "\u{1B}", with: "␛")
  if ProcessInfo.processInfo.environment["SECTIONKIT_RECORD"] == "1" {
    let directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
      .appendingPathComponent("Golden")
    let file = directory.appendingPathComponent("\(name).txt")
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      try stored.write(to: file, atomically: true, encoding: .utf8)
    } catch {
      Issue.record("could not record \(file.path): \(error)", sourceLocation: sourceLocation)
    }
    return
  }
  guard
    let url = Bundle.module.url(forResource: name, withExtension: "txt", subdirectory: "Golden"),
    let golden = try? String(contentsOf: url, encoding: .utf8)
  else {
    let message =
      "no golden file Golden/\(name).txt; record it with SECTIONKIT_RECORD=1.\n"
      + "actual:\n\(stored)"
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    return
  }
  guard golden != stored else { return }
  let message =
    "output differs from Golden/\(name).txt (re-record with SECTIONKIT_RECORD=1)\n"
    + firstDifference(expected: golden, actual: stored) + "\nactual:\n\(stored)"
  Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
}

/// `line 3: expected "…" / actual "…"`.
private func firstDifference(expected: String, actual: String) -> String {
  let expectedLines = expected.components(separatedBy: "\n")
  let actualLines = actual.components(separatedBy: "\n")
  for index in 0..<max(expectedLines.count, actualLines.count) {
    let lhs = index < expectedLines.count ? expectedLines[index] : "<end of file>"
    let rhs = index < actualLines.count ? actualLines[index] : "<end of output>"
    if lhs != rhs { return "line \(index + 1):\n  expected: \(lhs)\n  actual:   \(rhs)" }
  }
  return "(no line differs)"
}
