// live-board: a SectionKit board served to browsers over Server-Sent Events.
//
//   swift run --package-path Examples/LiveBoard live-board --port 8080 [--host 127.0.0.1]
//     [--cards 6] [--replay 256] [--queue 1024] [--keep-alive 15] [--public DIR]
//
// Open http://127.0.0.1:8080/ in two tabs and edit: both follow. SIGTERM or Ctrl-C ends it at
// once, browsers connected or not.

import Foundation
import LiveBoard
import SectionKitStreaming

struct Configuration {
  var port = 8080
  var host = "127.0.0.1"
  var cards = 6
  var policy = StreamPolicy()
  var options = LiveBoardOptions()
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("live-board: \(message)\n".utf8))
  exit(2)
}

func parse(_ list: [String]) -> Configuration {
  var configuration = Configuration()
  var arguments = list[...]
  func value(_ name: String) -> String {
    guard let text = arguments.popFirst() else { fail("\(name) needs a value") }
    return text
  }
  func number(_ name: String, _ range: ClosedRange<Int>) -> Int {
    let text = value(name)
    guard let number = Int(text), range.contains(number) else {
      fail("\(name) \(text): expected \(range)")
    }
    return number
  }
  while let argument = arguments.popFirst() {
    switch argument {
    case "--port": configuration.port = number(argument, 0...65_535)
    case "--host": configuration.host = value(argument)
    case "--cards": configuration.cards = number(argument, 0...1_000_000)
    case "--replay": configuration.policy.replayCapacity = number(argument, 0...1_000_000)
    case "--queue": configuration.policy.subscriberCapacity = number(argument, 0...1_000_000)
    case "--keep-alive": configuration.options.keepAlive = .seconds(number(argument, 1...3_600))
    case "--public": configuration.options.publicDirectory = URL(fileURLWithPath: value(argument))
    case "--help", "-h":
      print(
        "usage: live-board [--port 8080] [--host 127.0.0.1] [--cards 6] [--replay 256] "
          + "[--queue 1024] [--keep-alive 15] [--public DIR]")
      exit(0)
    default: fail("unknown option \(argument)")
    }
  }
  return configuration
}

let configuration = parse(Array(CommandLine.arguments.dropFirst()))
let board = Board(data: .sample(cards: configuration.cards), policy: configuration.policy)
let host = configuration.host
let app = makeApplication(
  board: board, host: host, port: configuration.port, options: configuration.options
) { port in
  // The line the tests wait for.
  FileHandle.standardOutput.write(Data("live-board: http://\(host):\(port)/\n".utf8))
}
try await app.runService()
await board.finish()
