import Foundation
import SectionKit
import SectionKitConsole
import Testing

/// The README's quick start, compiled and run as written.
///
/// `quickStart()` holds the README's block between two marker comments and runs it in a child
/// process (an exit test), so that `ConsoleAdapter()` writes to a real standard output that the
/// test reads back and compares with the output the block's last comment announces.
/// `theQuickStartBlock_isTheCodeOfQuickStart()` compares the README's block with the text between
/// the markers, so an edit to either fails a test.
@Suite struct ReadmeTests {
  @Test func quickStart() async throws {
    // The README aligns its comments; the formatter would not.
    // swift-format-ignore
    let result = try #require(
      await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
        // README quick start begins
        let family: ArraySection<String> = ["Mum", "Dad"]
        let friends: ArraySection<String> = ["Ada", "Grace"]
        let contacts = ComposedSectionProvider()
        contacts.append(family)
        contacts.append(friends)

        let coordinator = Coordinator(sectionProvider: contacts)
        coordinator.adapter = ConsoleAdapter()   // prints the tree

        contacts.performBatchUpdates {           // one batch → one changeset
          friends.append("Linus")
          family.remove(at: 0)
        }
        // changeset 1: 1 element deleted, 1 element inserted
        //   deleted  [0, 0] Mum
        //   inserted [1, 2] Linus
        // README quick start ends
      })
    let output = String(decoding: result.standardOutputContent, as: UTF8.self)
    let announced = try ReadmeQuickStart().announcedOutput
    #expect(!announced.isEmpty, "the README's block ends with the output it prints, as comments")
    #expect(output.hasSuffix(announced + "\n"), "the quick start printed:\n\(output)")
  }

  @Test func theQuickStartBlock_isTheCodeOfQuickStart() throws {
    let readme = try ReadmeQuickStart()
    let thisFile = try String(contentsOfFile: #filePath, encoding: .utf8)
    let imports = Set(thisFile.split(separator: "\n").filter { $0.hasPrefix("import ") })
    for line in readme.imports {
      #expect(imports.contains(Substring(line)), "README imports \(line); this file does not")
    }
    let tested = try ReadmeQuickStart.code(between: "README quick start", in: thisFile)
    #expect(
      readme.code == tested,
      "the README's quick start and the code of ReadmeTests.quickStart() differ: change both")
  }
}

/// A ```` ```swift ```` block after the README's `## Quick start` heading: its `import`
/// lines, the code after them, and the output its trailing `//` comment announces.
struct ReadmeQuickStart {
  struct Missing: Error, CustomStringConvertible {
    var description: String
  }

  /// The `import` lines at the top of the block.
  var imports: [String]
  /// The block without its `import` lines and the blank lines after them.
  var code: String
  /// The lines of the comment that ends the block, without their `// `: what the code prints last.
  var announcedOutput: String

  /// Reads the `block`-th (from 0) ```` ```swift ```` block under the README's quick start.
  init(block: Int = 0, readmePath: String = ReadmeQuickStart.readmePath()) throws {
    let text = try String(contentsOfFile: readmePath, encoding: .utf8)
    let lines = text.components(separatedBy: "\n")
    guard let heading = lines.firstIndex(of: "## Quick start") else {
      throw Missing(description: "README.md has no \"## Quick start\" heading")
    }
    var start = heading
    var end = heading
    for _ in 0...block {
      guard let open = lines[(end + 1)...].firstIndex(of: "```swift"),
        let close = lines[(open + 1)...].firstIndex(of: "```")
      else {
        throw Missing(
          description: "README.md has no ```swift block \(block) under \"## Quick start\"")
      }
      (start, end) = (open, close)
    }
    var block = Array(lines[(start + 1)..<end])
    imports = block.prefix { $0.hasPrefix("import ") }
    block.removeFirst(imports.count)
    while block.first?.isEmpty == true { block.removeFirst() }
    code = block.joined(separator: "\n")
    announcedOutput = block.reversed().prefix { $0.hasPrefix("//") }.reversed()
      .map { $0.hasPrefix("// ") ? String($0.dropFirst(3)) : String($0.dropFirst(2)) }
      .joined(separator: "\n")
  }

  /// `README.md` at the root of the package, found from this file's path.
  static func readmePath(filePath: String = #filePath) -> String {
    URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("README.md").path
  }

  /// The lines of `source` strictly between the comments `// <marker> begins` and
  /// `// <marker> ends`, without the indentation they share.
  static func code(between marker: String, in source: String) throws -> String {
    let lines = source.components(separatedBy: "\n")
    let trimmed = lines.map { $0.trimmingCharacters(in: .whitespaces) }
    guard let begin = trimmed.firstIndex(of: "// \(marker) begins"),
      let end = trimmed[(begin + 1)...].firstIndex(of: "// \(marker) ends")
    else {
      throw Missing(description: "no lines between \"// \(marker) begins\" and \"… ends\"")
    }
    let body = lines[(begin + 1)..<end]
    let indent =
      body.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
    return body.map { String($0.dropFirst(min(indent, $0.count))) }.joined(separator: "\n")
  }
}
