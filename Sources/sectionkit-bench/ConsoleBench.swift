import SectionKit
import SectionKitConsole

/// A terminal that keeps only the number of bytes written.
struct CountingOutput: TextOutputStream {
  var bytes = 0
  mutating func write(_ string: String) { bytes += string.utf8.count }
}

/// A titled section for the console benchmark.
final class BenchContacts: ArraySection<String>, ConsolePresentable {
  var title = ""
  var consoleHeader: String? { title }
}

extension Bench {
  /// The list view on 100,000 elements (26 sections) and a 40×100 screen: the first screen, a
  /// key press (cursor down, page down) and a one-element changeset (a rename on screen, an
  /// insert above it, a delete on screen), each the mean of `repeats`, in seconds.
  static func consoleList(elements: Int = 100_000, repeats: Int = 2_000) -> [(String, Double)] {
    let root = ComposedSectionProvider()
    var sections: [BenchContacts] = []
    for letter in 0..<26 {
      let section = BenchContacts(
        (0..<elements / 26).map { "Contact \(letter)-\($0) with a fairly long name" })
      section.title = "Letter \(letter)"
      sections.append(section)
      root.append(section)
    }
    let coordinator = Coordinator(sectionProvider: root)
    let list = ConsoleListView(
      output: CountingOutput(), size: ConsoleSize(rows: 40, columns: 100),
      options: ConsoleOptions(showsIndexPaths: true, style: .ansi))
    let first = seconds { coordinator.adapter = list }
    list.setCursor([12, 1_000])
    let down = seconds { for _ in 0..<repeats { list.moveCursor(.down) } } / Double(repeats)
    let page = seconds { for _ in 0..<repeats { list.moveCursor(.pageDown) } } / Double(repeats)
    list.setCursor([12, 1_000])
    let section = sections[12]
    let rename =
      seconds {
        for step in 0..<repeats { section[1_000 + step % 10] = "Renamed \(step)" }
      } / Double(repeats)
    let insert =
      seconds {
        for step in 0..<repeats { sections[2].insert("Inserted \(step)", at: 0) }
      } / Double(repeats)
    let delete =
      seconds {
        for _ in 0..<repeats { section.remove(at: list.cursor![1]) }
      } / Double(repeats)
    // The list holds its coordinator weakly: keep it alive until the last measurement.
    withExtendedLifetime(coordinator) {}
    return [
      ("first screen", first), ("key: cursor down", down), ("key: page down", page),
      ("changeset: rename on screen", rename), ("changeset: insert above the screen", insert),
      ("changeset: delete the cursor element", delete),
    ]
  }
}
