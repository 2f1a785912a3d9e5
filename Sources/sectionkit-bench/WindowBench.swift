import Foundation
import SectionKit
import SectionKitStreaming

/// Live windows: a model of 10⁶ rows, many clients each following 50 of them, random changes.
///
/// Times are the process's CPU time (`CLOCK_PROCESS_CPUTIME_ID`): the work is on one thread, and
/// on a loaded machine CPU time stays close to what an idle one takes.
enum WindowBench {
  static func cpuSeconds(_ body: () -> Void) -> Double {
    var start = timespec()
    var end = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start)
    body()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &end)
    return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
  }

  /// `windows [CHANGES]`: by default 10,000 changes.
  static func run() {
    print("## Live windows: 1,000 sections × 1,000 rows, windows of 50 rows (WindowedStream)")
    let changes =
      CommandLine.arguments.drop { $0 != "windows" }.dropFirst().compactMap { Int($0) }.first
      ?? 10_000
    // The server without windows, for the cost per change beside it.
    let plain = StreamBench.Model(sections: 1_000, elements: 1_000)
    let plainSubscription = plain.publisher.stream.subscribe()
    _ = plainSubscription.poll()
    let plainSeconds = cpuSeconds {
      for index in 0..<changes {
        plain.batch(1)
        if index % 100 == 99 { while plainSubscription.poll() != nil {} }
      }
    }

    let model = StreamBench.Model(sections: 1_000, elements: 1_000)
    let stream = model.publisher.stream
    let full = stream.subscribe()
    let before = StreamBench.residentMegabytes()
    let windows = WindowedStream(following: stream)
    var random = SystemRandomNumberGenerator()
    let subscriptions = (0..<1_000).map { _ in
      windows.subscribe(
        window: StreamWindow(start: Int.random(in: 0..<999_950, using: &random), length: 50))
    }
    // Bytes: every update of the first 10 windows, and every line of the full stream.
    let encoder = WindowLineEncoder<String>()
    let fullEncoder = StreamLineEncoder<String>()
    var windowBytes = 0
    var fullBytes = 0
    var updates = 0
    func drain() {
      for (index, subscription) in subscriptions.enumerated() {
        while let update = subscription.poll() {
          updates += 1
          if index < 10 { windowBytes += (try? encoder.encode(update).count) ?? 0 }
        }
      }
      while let update = full.poll() { fullBytes += (try? fullEncoder.encode(update).count) ?? 0 }
    }
    drain()
    let snapshotBytes = windowBytes
    let fullSnapshotBytes = fullBytes
    var serverSeconds = 0.0
    for index in 0..<changes {
      serverSeconds += cpuSeconds {
        model.batch(1)
        windows.pump()
      }
      if index % 100 == 99 { drain() }
    }
    drain()
    let after = StreamBench.residentMegabytes()
    print(
      String(
        format:
          "   %d random changes, 1,000 windows: %.1f µs of CPU per change on the server (publish + "
          + "clip for every window; without windows %.1f µs); %d window updates delivered",
        changes, serverSeconds / Double(changes) * 1e6, plainSeconds / Double(changes) * 1e6,
        updates))
    print(
      String(
        format:
          "   bytes per client: window %.1f KB (its snapshot %.1f KB) | full stream %.1f KB (its "
          + "snapshot %.1f KB): %.0f× less; resident memory %.0f MB → %.0f MB with 1,000 windows",
        Double(windowBytes) / 10 / 1024, Double(snapshotBytes) / 10 / 1024,
        Double(fullBytes) / 1024, Double(fullSnapshotBytes) / 1024,
        Double(fullBytes) / (Double(windowBytes) / 10), before, after))
    // Moving a window by one screen: the move, and the update read and encoded.
    let subscription = subscriptions[0]
    var moveBytes = 0
    let moves = 1_000
    let moveSeconds = cpuSeconds {
      for step in 0..<moves {
        subscription.move(to: 10_000 + step * 50)
        while let update = subscription.poll() {
          moveBytes += (try? encoder.encode(update).count) ?? 0
        }
      }
    }
    print(
      String(
        format: "   moving a window one screen (50 rows) down: %.1f µs each, %.1f KB per move",
        moveSeconds / Double(moves) * 1e6, Double(moveBytes) / Double(moves) / 1024))
    print()
  }
}
