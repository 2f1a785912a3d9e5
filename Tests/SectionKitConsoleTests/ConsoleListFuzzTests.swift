import Foundation
import SectionKit
import Testing

@testable import SectionKitConsole

/// A section that counts the display calls it hears, and notices a count going below zero.
final class Counted: ArraySection<String>, ConsolePresentable, DisplayHandler {
  var shown = 0
  var headerShown = 0
  var problems: [String] = []
  var consoleHeader: String? { "S" }
  func willDisplay(at index: Int) { shown += 1 }
  func didEndDisplaying(at index: Int) {
    shown -= 1
    if shown < 0 { problems.append("didEndDisplaying(at: \(index)) without willDisplay") }
  }
  func willDisplayHeader() {
    headerShown += 1
    if headerShown > 1 { problems.append("willDisplayHeader twice") }
  }
  func didEndDisplayingHeader() {
    headerShown -= 1
    if headerShown < 0 { problems.append("didEndDisplayingHeader without willDisplayHeader") }
  }
}

/// Random changes and key presses on a list view: after each step the screen (as an emulated
/// terminal shows what was written) is the frame the view means, every element row on screen is
/// the model's element, the cursor is on screen, and each section has heard `willDisplay` exactly
/// as often, net, as it has rows on screen.
///
/// Reproduce a failure with `SECTIONKIT_SEED=<seed> swift test --filter ConsoleListFuzzTests`;
/// run longer with `SECTIONKIT_FUZZ_ITERATIONS=<n>` (default 100).
@Suite struct ConsoleListFuzzTests {
  @Test func randomChangesAndKeys_keepTheScreenAndTheDisplayCallsTrue() {
    let environment = ProcessInfo.processInfo.environment
    let iterations = environment["SECTIONKIT_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 100
    let seed = environment["SECTIONKIT_SEED"].flatMap { UInt64($0) } ?? 13
    var random = SplitMix(seed: seed)
    var next = 0
    func name() -> String {
      next += 1
      return "e\(next)"
    }
    for iteration in 0..<iterations {
      let sections = (0..<3).map { _ in Counted((0..<random.below(12)).map { _ in name() }) }
      let root = ComposedSectionProvider()
      for section in sections { root.append(section) }
      let coordinator = Coordinator(sectionProvider: root)
      let rows = 3 + random.below(8)
      let list = ConsoleListView(
        output: String(), size: ConsoleSize(rows: rows, columns: 24),
        options: ConsoleOptions(showsIndexPaths: true, style: .plain))
      var emulator = ScreenEmulator(rows: rows, columns: 24)
      coordinator.adapter = list
      var read = list.output.startIndex
      for step in 0..<30 {
        let section = sections[random.below(3)]
        switch random.below(9) {
        case 0:
          section.insert(name(), at: random.below(section.count + 1))
        case 1 where !section.isEmpty:
          section.remove(at: random.below(section.count))
        case 2 where !section.isEmpty:
          section[random.below(section.count)] = name()
        case 3:
          root.performBatchUpdates {
            for _ in 0..<random.below(5) {
              let target = sections[random.below(3)]
              if random.below(2) == 0 || target.isEmpty {
                target.insert(name(), at: random.below(target.count + 1))
              } else {
                target.remove(at: random.below(target.count))
              }
            }
          }
        case 4 where section.count > 1:
          section.move(from: random.below(section.count), to: random.below(section.count))
        default:
          let moves: [ConsoleListView<String>.CursorMove] = [
            .up, .down, .pageUp, .pageDown, .first, .last,
          ]
          list.moveCursor(moves[random.below(moves.count)])
        }
        emulator.feed(String(list.output[read...]))
        read = list.output.endIndex
        let context =
          "seed \(seed) (replay with SECTIONKIT_SEED=\(seed)), iteration \(iteration), step \(step)"
        let meant = list.screen.map {
          $0.replacingOccurrences(of: " +$", with: "", options: .regularExpression)
        }
        #expect(emulator.lines == meant, "\(context)")
        var onScreen: [IndexPath] = []
        for line in meant {
          guard let open = line.firstIndex(of: "["), let close = line.firstIndex(of: "]") else {
            continue
          }
          let numbers = line[line.index(after: open)..<close].split(separator: ",").map {
            Int($0.trimmingCharacters(in: .whitespaces))!
          }
          let path: IndexPath = [numbers[0], numbers[1]]
          onScreen.append(path)
          let text = String(line[line.index(close, offsetBy: 2)...])
          let model = (coordinator.section(at: path[0]) as! Counted)[path[1]]
          #expect(text == model, "\(context): row \(path) shows \(text), the model has \(model)")
        }
        #expect(onScreen == list.displayedIndexPaths, "\(context)")
        if let cursor = list.cursor { #expect(onScreen.contains(cursor), "\(context): cursor") }
        for (index, counted) in sections.enumerated() {
          let displayed = list.displayedIndexPaths.filter { $0[0] == index }.count
          #expect(counted.shown == displayed, "\(context): section \(index)")
          #expect(counted.problems.isEmpty, "\(context): \(counted.problems)")
          let header = list.displayedHeaderSections.contains(index) ? 1 : 0
          #expect(counted.headerShown == header, "\(context): header \(index)")
        }
      }
      coordinator.adapter = nil
      root.remove(sections[0])
    }
  }
}

/// SplitMix64: a small seeded generator.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func nextValue() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  /// A number in `0..<bound` (0 when `bound` is 0).
  mutating func below(_ bound: Int) -> Int {
    bound <= 0 ? 0 : Int(nextValue() % UInt64(bound))
  }
}
