import Foundation
import SectionKit
import SectionKitStreaming
import Testing

// swift-format-ignore
// Streaming quick start begins
actor Board {
  private var tasks: [String]
  private let tree: SectionTree<String>
  private let coordinator: Coordinator
  nonisolated let stream: UpdateStream<String>

  init(tasks: [String]) throws(SectionTreeError) {
    // A synchronous initializer is not isolated to the actor, so it cannot call `render()`:
    // it renders a tree of its own through the static `nodes(for:)`, then stores it.
    let tree = SectionTree<String>()
    try tree.render(nodes: Board.nodes(for: tasks))
    let publisher = UpdatePublisher<String> { section, index in
      (section as! ArraySection<String>)[index]       // element → a Sendable (and Codable) value
    }
    coordinator = Coordinator(sectionProvider: tree.provider)
    coordinator.adapter = publisher                     // the stream's first snapshot
    stream = publisher.stream
    self.tree = tree
    self.tasks = tasks
  }

  func add(_ task: String) throws(SectionTreeError) {  // one changeset on the stream
    tasks.append(task)
    try render()
  }

  private func render() throws(SectionTreeError) {
    try tree.render(nodes: Board.nodes(for: tasks))
  }

  private static func nodes(for tasks: [String]) -> [SectionNode<String>] {
    [SectionNode(id: "today", elements: tasks)]
  }
}
// Streaming quick start ends

/// The streaming guide's quick start: the actor above is its first block, compiled here in Swift 6
/// language mode, and run.
@Suite struct StreamingQuickStartTests {
  @Test func theActor_rendersFromInitAndStreams() async throws {
    let board = try Board(tasks: ["Water the plants"])
    let subscription = board.stream.subscribe()
    var mirror = StreamMirror<String>()
    let iterator = subscription.makeAsyncIterator()
    try mirror.apply(try #require(await iterator.next()))
    #expect(mirror.sections == [["Water the plants"]])
    try await board.add("Feed the cat")
    try mirror.apply(try #require(await iterator.next()))
    #expect(mirror.sections == [["Water the plants", "Feed the cat"]])
    // A duplicate is data from outside: it throws, the board unchanged.
    await #expect(throws: SectionTreeError.self) { try await board.add("Feed the cat") }
    #expect(throws: SectionTreeError.self) { try Board(tasks: ["a", "a"]) }
  }

  /// The guide's block is this file's code between the markers.
  @Test func theGuidesBlock_isThisCode() throws {
    let guide = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Docs/Streaming.md"),
      encoding: .utf8)
    let lines = guide.components(separatedBy: "\n")
    let heading = try #require(lines.firstIndex(of: "## Quick start"))
    let open = try #require(lines[heading...].firstIndex(of: "```swift"))
    let close = try #require(lines[(open + 1)...].firstIndex(of: "```"))
    let block = lines[(open + 1)..<close].drop { $0.hasPrefix("import ") || $0.isEmpty }
    let thisFile = try String(contentsOfFile: #filePath, encoding: .utf8)
      .components(separatedBy: "\n")
    let begin = try #require(thisFile.firstIndex(of: "// Streaming quick start begins"))
    let end = try #require(thisFile.firstIndex(of: "// Streaming quick start ends"))
    #expect(
      Array(block) == Array(thisFile[(begin + 1)..<end]),
      "Docs/Streaming.md's quick start and StreamingQuickStartTests differ: change both")
  }
}
