import Foundation
import SectionKit
import SectionKitConsole
import SectionKitExamples
import SectionKitStreaming
import Testing

/// Runs one of the package's executables (built with the tests: they are dependencies of this
/// test target) and returns its exit status and standard output.
func run(_ executable: String, _ arguments: [String]) throws -> (Int32, Data) {
  let candidates = [
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
    Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
  ]
  guard
    let url = candidates.map({ $0.appendingPathComponent(executable) })
      .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
  else {
    throw CocoaError(
      .fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "\(executable) not in \(candidates)"])
  }
  let process = Process()
  process.executableURL = url
  process.arguments = arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  try process.run()
  let output = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, output)
}

@Suite("Streaming: the executables, run as a user runs them")
struct ExecutableTests {
  @Test func theDemosJSONLinesGiveAMirrorEqualToTheModel() throws {
    let (status, output) = try run("sectionkit-demo", ["--json"])
    #expect(status == 0)
    var decoder = StreamLineDecoder<String>()
    var mirror = StreamMirror<String>()
    decoder.append(output)
    while let update = try decoder.next() { try mirror.apply(update, line: decoder.lineNumber) }
    try decoder.finish()
    // A snapshot when the adapter is attached, then one changeset per step of the script.
    #expect(decoder.lineNumber == 6)

    // The model: the same script, played here.
    let coordinator = ContactsDemo.run(on: ConsoleAdapter(output: ""))
    let model = (0..<coordinator.numberOfSections).map { section in
      (0..<coordinator.numberOfElements(inSection: section)).map {
        ContactsDemo.elementValue(coordinator.section(at: section), $0)
      }
    }
    #expect(mirror.sections == model)
    #expect(model.joined().contains("Linus: Re: [PATCH v2]"))
  }

  @Test func theServerExampleEndsWithEveryMirrorEqualToTheModel() throws {
    let (status, output) = try run(
      "sectionkit-server-example", ["--writers", "3", "--clients", "4", "--batches", "60"])
    let text = String(decoding: output, as: UTF8.self)
    #expect(status == 0, "\(text)")
    #expect(text.contains("mirrors: 4 of 4 equal the model"), "\(text)")
    #expect(text.contains("error: the element at [0, 0] in update"), "\(text)")
    #expect(text.contains("\"still up\""), "\(text)")
  }
}
