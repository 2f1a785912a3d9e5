import Foundation
import SectionKitConsole
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `ConsoleApp`'s loop on pipes (not terminals: nothing is switched): keys decoded across reads,
/// a lone Escape after the delay, and messages from another thread, in the order they came.
/// Serialized: a process has one terminal, and a second `ConsoleApp` started while one runs traps.
@Suite(.serialized) struct ConsoleAppTests {
  enum Seen: Equatable {
    case key(ConsoleKey)
    case message(String)
  }

  @Test func keysAndMessages_arriveInOrder() throws {
    var input: [Int32] = [-1, -1]
    var output: [Int32] = [-1, -1]
    try #require(pipe(&input) == 0 && pipe(&output) == 0)
    defer { for end in input + output { close(end) } }
    let app = ConsoleApp<String>(input: input[0], output: output[1])
    #expect(!app.isTerminal && app.size == nil)
    let mailbox = app.mailbox
    let writeEnd = input[1]
    let feeder = Thread {
      func type(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
        usleep(40_000)
      }
      type(Array("j".utf8))
      mailbox.send("first")
      usleep(40_000)
      type([0x1B, 0x5B])  // ESC [ … split from its end
      type([0x41])  // … A
      type([0x1B])  // a lone Escape: delivered after the delay
      usleep(100_000)
      mailbox.send("second")
      usleep(40_000)
      type(Array("q".utf8))
    }
    feeder.start()
    var seen: [Seen] = []
    app.run { event in
      switch event {
      case .key(let key): seen.append(.key(key))
      case .message(let text): seen.append(.message(text))
      case .resize: break
      }
      if case .key(.character("q")) = event { return false }
      return true
    }
    #expect(
      seen == [
        .key(.character("j")), .message("first"), .key(.up), .key(.escape), .message("second"),
        .key(.character("q")),
      ])
    // Once the loop ended, messages are dropped.
    mailbox.send("late")
  }

  @Test func theLoopEnds_whenTheInputCloses() throws {
    var input: [Int32] = [-1, -1]
    try #require(pipe(&input) == 0)
    defer { close(input[0]) }
    let app = ConsoleApp<Never>(input: input[0], output: input[0])
    _ = Array("k\u{1B}[".utf8).withUnsafeBytes { write(input[1], $0.baseAddress, $0.count) }
    close(input[1])
    var keys: [ConsoleKey] = []
    app.run { event in
      if case .key(let key) = event { keys.append(key) }
      return true
    }
    // What was held when the input ended is delivered as it stands.
    #expect(keys == [.character("k"), .unknown([0x1B, 0x5B])])
  }

  @Test func textMeasurement_isPublic() {
    #expect(TerminalColumns.width(of: "abc") == 3)
    #expect(TerminalColumns.width(of: "日本") == 4)
    #expect(TerminalColumns.width(of: Character("😀")) == 2)
    #expect(TerminalColumns.width(of: "e\u{301}") == 1)
    #expect(TerminalColumns.prefix(of: "日本語", fitting: 5) == "日本")
    #expect(TerminalColumns.prefix(of: "ab日", fitting: 3) == "ab")
    #expect(TerminalColumns.truncate("日本語です", to: 6) == "日本…")
    #expect(TerminalColumns.truncate("short", to: 10) == "short")
  }
}
