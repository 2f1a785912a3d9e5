import Foundation
import SectionKitStreaming
import Testing

@testable import LiveBoard

@Suite struct EventPositionTests {
  @Test func parsesAnIdItWrote() {
    let position = StreamPosition(stream: "2ACF93B7-1C2D-4E5F-8A9B-0C1D2E3F4A5B", sequence: 41)
    #expect(EventPosition.parse(EventPosition.format(position)) == position)
    #expect(EventPosition.parse("a#0") == StreamPosition(stream: "a", sequence: 0))
  }

  @Test(arguments: [
    "", "#", "abc", "abc#", "#12", "abc#-1", "abc#+1", "abc# 1", "abc#1.5", "abc#0x10",
    "abc#9007199254740992", "abc#99999999999999999999999", "abc#9223372036854775807",
    "abc#-9223372036854775808", "ab c#1", "ab/c#1", "é#1", "abc#١", "abc#1\n",
    String(repeating: "a", count: 257) + "#1", String(repeating: "9", count: 5_000),
  ])
  func refusesHostileIds(_ text: String) {
    #expect(EventPosition.parse(text) == nil)
  }

  @Test func theLargestSequenceIsTheWireMaximum() {
    #expect(
      EventPosition.parse("a#\(StreamLine.maximumSequence)")?.sequence
        == StreamLine.maximumSequence)
  }

  @Test func aForeignOrFutureIdGetsASnapshot() async {
    let board = Board()
    for text in ["other-stream#1", "\(board.stream.id)#999999"] {
      let subscription = board.stream.subscribe(after: EventPosition.parse(text))
      let iterator = subscription.makeAsyncIterator()
      let first = await iterator.next()
      guard case .snapshot = first else {
        Issue.record("expected a snapshot for \(text), got \(String(describing: first))")
        return
      }
    }
  }
}
