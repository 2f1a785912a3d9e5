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

  /// The README's third quick-start block: a declarative board column with a header and
  /// handlers, run as written in a child process, compared with what its last comment announces.
  @Test func declaredColumnQuickStart() async throws {
    // The snippet aligns its comments; the formatter would not.
    // swift-format-ignore
    let result = try #require(
      await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
        // Declared column quick start begins
        final class Column: ArraySection<String>, ConsolePresentable, SelectionHandler,
          EditingHandler, MoveHandler
        {
          var title = ""
          var consoleHeader: String? { title }           // the header the console shows
          var onMove: (Int, Int) -> Void = { _, _ in }
          func didMove(from: Int, to: Int) {             // the user moved a card: the model follows
            move(from: from, to: to)
            onMove(from, to)
          }
        }

        var columns = [(id: "todo", title: "To do", cards: ["Write", "Test"])]
        let board = SectionTree<String>()
        func render() throws {
          try board.render {
            for (position, column) in columns.enumerated() {
              SectionNode(id: column.id, elements: column.cards, as: Column.self) { section in
                section.title = column.title
                section.onMove = { from, to in
                  columns[position].cards.insert(columns[position].cards.remove(at: from), at: to)
                }
              }
            }
          }
        }
        try render()

        let coordinator = Coordinator(sectionProvider: board.provider)
        coordinator.setEditing(true)
        coordinator.moveElement(from: [0, 1], to: [0, 0])   // what a view reports after a drag
        try render()                                     // the model agrees: nothing to send
        print(columns[0].cards, (coordinator.section(at: 0) as! Column).title)
        // ["Test", "Write"] To do
        // Declared column quick start ends
      })
    let output = String(decoding: result.standardOutputContent, as: UTF8.self)
    let announced = try ReadmeQuickStart(block: 2).announcedOutput
    #expect(announced == "[\"Test\", \"Write\"] To do")
    #expect(output == announced + "\n", "the quick start printed:\n\(output)")
  }

  /// The README's third quick-start block is the code of `declaredColumnQuickStart()`.
  @Test func theDeclaredColumnBlock_isTheCodeOfItsTest() throws {
    let readme = try ReadmeQuickStart(block: 2)
    let thisFile = try String(contentsOfFile: #filePath, encoding: .utf8)
    let tested = try ReadmeQuickStart.code(between: "Declared column quick start", in: thisFile)
    #expect(readme.imports.isEmpty, "the block uses the first block's imports")
    #expect(readme.code == tested, "the README's block and declaredColumnQuickStart() differ")
  }
}
