// Lists the public symbols declared in this package's sources that have no `///` documentation of
// their own, from symbol graph files (`swift package dump-symbol-graph`). Run by
// scripts/build-docs.sh:
//
//   swift scripts/check-documentation.swift <Module>.symbols.json [<Module>@Other.symbols.json …]
//
// A symbol counts when it is `public` or `open` and has a source location: members the compiler
// writes (a synthesized `init(from:)`, an enum's `init(rawValue:)`) have none and cannot carry a
// comment. Documentation inherited from another module (a protocol requirement's, such as
// `Collection.Index`) does not count: DocC does not show it. Each finding is printed as
// `path:line:column: error: …` on standard error; the exit status is 1 when there is one.

import Foundation

struct SymbolGraph: Decodable {
  struct Module: Decodable { var name: String }
  struct Symbol: Decodable {
    struct Kind: Decodable { var displayName: String }
    struct DocComment: Decodable {
      struct Line: Decodable { var text: String }
      var module: String?
      var lines: [Line]
    }
    struct Location: Decodable {
      struct Position: Decodable { var line: Int, character: Int }
      var uri: String
      var position: Position
    }
    var kind: Kind
    var pathComponents: [String]
    var accessLevel: String
    var docComment: DocComment?
    var location: Location?
  }
  var module: Module
  var symbols: [Symbol]
}

var findings: [String] = []
for path in CommandLine.arguments.dropFirst() {
  let graph: SymbolGraph
  do {
    graph = try JSONDecoder().decode(
      SymbolGraph.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
  } catch {
    FileHandle.standardError.write(Data("error: cannot read \(path): \(error)\n".utf8))
    exit(2)
  }
  for symbol in graph.symbols where ["public", "open"].contains(symbol.accessLevel) {
    guard let location = symbol.location else { continue }
    let ownComment = symbol.docComment.flatMap { comment in
      (comment.module ?? graph.module.name) == graph.module.name ? comment : nil
    }
    let documented = ownComment?.lines.contains { !$0.text.allSatisfy(\.isWhitespace) } ?? false
    guard !documented else { continue }
    let file = URL(string: location.uri)?.path ?? location.uri
    let relative =
      file.hasPrefix(FileManager.default.currentDirectoryPath + "/")
      ? String(file.dropFirst(FileManager.default.currentDirectoryPath.count + 1)) : file
    findings.append(
      "\(relative):\(location.position.line + 1):\(location.position.character + 1): error: "
        + "\(symbol.accessLevel) \(symbol.kind.displayName.lowercased()) "
        + "`\(graph.module.name).\(symbol.pathComponents.joined(separator: "."))` "
        + "has no /// documentation")
  }
}
for finding in findings.sorted() {
  FileHandle.standardError.write(Data((finding + "\n").utf8))
}
exit(findings.isEmpty ? 0 : 1)
