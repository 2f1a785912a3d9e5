import Foundation
import SectionKit
import SectionKitConsole
import Testing

/// The README's declarative quick start (its second block), run as written in a child process so
/// that `ConsoleAdapter()` writes to a real standard output, compared with the output the README's
/// block announces in its last comment.
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
    let announced = try ReadmeQuickStart(block: 1).announcedOutput
    #expect(!announced.isEmpty)
    #expect(output.hasSuffix(announced + "\n"), "the quick start printed:\n\(output)")
  }

  /// The README's second quick-start block is the code of `declarativeQuickStart()`.
  @Test func theDeclarativeBlock_isTheCodeOfDeclarativeQuickStart() throws {
    let readme = try ReadmeQuickStart(block: 1)
    let thisFile = try String(contentsOfFile: #filePath, encoding: .utf8)
    let tested = try ReadmeQuickStart.code(between: "Declarative quick start", in: thisFile)
    #expect(readme.imports.isEmpty, "the declarative block uses the first block's imports")
    #expect(
      readme.code == tested,
      "the README's declarative quick start and declarativeQuickStart() differ: change both")
  }
}
