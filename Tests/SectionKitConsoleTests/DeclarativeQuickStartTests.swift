import Foundation
import SectionKit
import SectionKitConsole
import Testing

/// A declarative variant of the README's quick start (proposed for the README), run as written in
/// a child process so that `ConsoleAdapter()` writes to a real standard output, compared with the
/// output its last comment announces.
@Suite struct DeclarativeQuickStartTests {
  @Test func declarativeQuickStart() async throws {
    // The snippet aligns its comments; the formatter would not.
    // swift-format-ignore
    let result = try #require(
      await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
        // Declarative quick start begins
        var showFamily = false
        var friends = ["Ada", "Grace"]
        let contacts = SectionTree<String>()
        func render() throws {                   // the whole tree, from the data
          try contacts.render {
            if showFamily {
              SectionNode(id: "family", elements: ["Mum", "Dad"])
            }
            SectionNode(id: "friends", elements: friends)
          }
        }
        try render()

        let coordinator = Coordinator(sectionProvider: contacts.provider)
        coordinator.adapter = ConsoleAdapter()   // prints the tree

        showFamily = true
        friends.append("Linus")
        try render()                             // one render → one changeset
        // changeset 1: 1 section inserted, 1 element inserted
        //   inserted section 0 (2 elements)
        //   inserted [1, 2] Linus
        // Declarative quick start ends
      })
    let output = String(decoding: result.standardOutputContent, as: UTF8.self)
    let announced = try Self.announcedOutput()
    #expect(!announced.isEmpty)
    #expect(output.hasSuffix(announced + "\n"), "the quick start printed:\n\(output)")
  }

  /// The comment lines that end the snippet in this file, without their `// `.
  static func announcedOutput() throws -> String {
    let lines = try String(contentsOfFile: #filePath, encoding: .utf8)
      .components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let end = try #require(lines.firstIndex(of: "// Declarative quick start ends"))
    var start = end
    while start > 0, lines[start - 1].hasPrefix("// ") { start -= 1 }
    return lines[start..<end].map { String($0.dropFirst(3)) }.joined(separator: "\n")
  }
}
