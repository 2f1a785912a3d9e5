import Foundation
import SectionKit
import Testing

@testable import SectionKitConsole

/// Which element each display call is about, by identity (the fuzz's element names are unique):
/// a `didEndDisplaying` heard inside `apply` before `updateData` has an index of the state before
/// the changeset, read from `old`; every other call an index of the current state.
final class DisplayLedger {
  /// Net `willDisplay` calls per element.
  var count: [String: Int] = [:]
  var problems: [String] = []
  /// Each section's elements before the step, while a changeset is applied before `updateData`.
  var old: [ObjectIdentifier: [String]]?
}

/// A section that counts the display calls it hears, and notices a count going below zero.
final class Counted: ArraySection<String>, ConsolePresentable, DisplayHandler {
  var shown = 0
  var headerShown = 0
  var problems: [String] = []
  var ledger: DisplayLedger?
  var consoleHeader: String? { "S" }
  func willDisplay(at index: Int) {
    shown += 1
    guard let ledger else { return }
    let name = self[index]
    ledger.count[name, default: 0] += 1
    if ledger.count[name]! > 1 { ledger.problems.append("willDisplay twice for \(name)") }
  }
  func didEndDisplaying(at index: Int) {
    shown -= 1
    if shown < 0 { problems.append("didEndDisplaying(at: \(index)) without willDisplay") }
    guard let ledger else { return }
    let name = ledger.old.map { $0[ObjectIdentifier(self)]![index] } ?? self[index]
    ledger.count[name, default: 0] -= 1
    if ledger.count[name]! < 0 {
      ledger.problems.append("didEndDisplaying for \(name) without willDisplay")
    }
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

/// Random changes, key presses, resizes and status lines on a list view: after each step the
/// screen (as an emulated terminal shows what was written) is the frame the view means, every
/// element row on screen is the model's element, the cursor is on screen, each section has heard
/// `willDisplay` exactly as often, net, as it has rows on screen, and, element by element (by
/// identity, through the changesets), each element on screen has heard `willDisplay` exactly once
/// and each element that left has heard `didEndDisplaying` once for it.
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
      let ledger = DisplayLedger()
      for section in sections { section.ledger = ledger }
      let root = ComposedSectionProvider()
      for section in sections { root.append(section) }
      let coordinator = Coordinator(sectionProvider: root)
      let rows = 3 + random.below(8)
      let list = ConsoleListView(
        output: String(), size: ConsoleSize(rows: rows, columns: 24),
        options: ConsoleOptions(showsIndexPaths: true, style: .plain))
      var emulator = ScreenEmulator(rows: rows, columns: 24)
      let adapter = LedgerAdapter(list, ledger)
      coordinator.adapter = adapter
      emulator.feed(list.output)
      var read = list.output.endIndex
      for step in 0..<30 {
        let section = sections[random.below(3)]
        adapter.oldElements = Dictionary(
          uniqueKeysWithValues: sections.map { (ObjectIdentifier($0), Array($0)) })
        switch random.below(11) {
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
        case 5:
          // A resize: the first frame after it clears the screen.
          let size = ConsoleSize(rows: 2 + random.below(9), columns: 24)
          if size != list.size { emulator = ScreenEmulator(rows: size.rows, columns: size.columns) }
          list.size = size
          list.draw()
        case 6:
          list.statusLines = (0..<random.below(3)).map { "status \($0)" }
          list.draw()
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
        var namesOnScreen: Set<String> = []
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
          namesOnScreen.insert(model)
        }
        // Element by element: on screen, heard willDisplay once; off screen, heard as many
        // didEndDisplaying as willDisplay.
        #expect(ledger.problems.isEmpty, "\(context): \(ledger.problems)")
        ledger.problems = []
        for name in namesOnScreen {
          #expect(ledger.count[name] == 1, "\(context): \(name) is on screen")
        }
        for (name, count) in ledger.count where !namesOnScreen.contains(name) && count != 0 {
          Issue.record("\(context): \(name) left the screen, net willDisplay \(count)")
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

/// The list view as the coordinator's adapter, telling the ledger when a changeset is applied
/// before `updateData` (display calls then carry indexes of the old state).
final class LedgerAdapter: ViewAdapter {
  let list: ConsoleListView<String>
  let ledger: DisplayLedger
  var oldElements: [ObjectIdentifier: [String]] = [:]
  init(_ list: ConsoleListView<String>, _ ledger: DisplayLedger) {
    self.list = list
    self.ledger = ledger
  }
  func reloadData(from coordinator: Coordinator) { list.reloadData(from: coordinator) }
  func apply(
    _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
  ) {
    ledger.old = oldElements
    list.apply(changeset, from: coordinator) { [ledger] in
      ledger.old = nil
      updateData()
    }
    ledger.old = nil
  }
  func coordinator(_ coordinator: Coordinator, didSelect indexPaths: [IndexPath]) {
    list.coordinator(coordinator, didSelect: indexPaths)
  }
  func coordinator(_ coordinator: Coordinator, didDeselect indexPaths: [IndexPath]) {
    list.coordinator(coordinator, didDeselect: indexPaths)
  }
  func showsSelected(_ indexPath: IndexPath) -> Bool? { list.showsSelected(indexPath) }
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
