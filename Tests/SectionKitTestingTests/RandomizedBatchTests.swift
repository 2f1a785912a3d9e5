import Foundation
import SectionKit
import SectionKitTesting
import Testing

/// Random batches through the real coordinator, every one checked by `TestAdapter`.
///
/// Reproduce a failure with `SECTIONKIT_SEED=<seed> swift test --filter RandomizedBatchTests`.
@Suite struct RandomizedBatchTests {
  @Test func randomElementAndSectionBatches_areValidAndReplayExactly() {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 20_261_122)
    var random = SeededGenerator(seed: seed)
    var nextID = 0
    func element() -> String {
      nextID += 1
      return "e\(nextID)@1"
    }
    func bump(_ value: String) -> String {
      let parts = value.split(separator: "@")
      return "\(parts[0])@\(Int(parts[1])! + 1)"
    }

    let root = ComposedSectionProvider()
    var sections: [ArraySection<String>] = (0..<3).map { _ in
      ArraySection((0..<4).map { _ in element() })
    }
    for section in sections { root.append(section) }
    let coordinator = Coordinator(sectionProvider: root)
    var trace: [String] = []
    let view = TestAdapter(onFailure: { failure in
      Issue.record(
        "seed \(seed), batch trace:\n\(trace.joined(separator: "\n"))\n\(failure)")
    })
    coordinator.adapter = view

    for batch in 0..<300 where view.failures.isEmpty {
      trace.append("batch \(batch):")
      root.performBatchUpdates {
        for _ in 0..<Int.random(in: 1...6, using: &random) {
          let roll = Int.random(in: 0..<100, using: &random)
          if roll < 6 && sections.count < 6 {
            let index = Int.random(in: 0...sections.count, using: &random)
            let section = ArraySection(
              (0..<Int.random(in: 0...3, using: &random)).map { _ in
                element()
              })
            trace.append("  insert section at \(index)")
            root.insert(section, at: index)
            sections.insert(section, at: index)
            continue
          }
          if roll < 10 && sections.count > 1 {
            let index = Int.random(in: 0..<sections.count, using: &random)
            trace.append("  remove section \(index)")
            _ = root.remove(at: index)
            sections.remove(at: index)
            continue
          }
          let s = Int.random(in: 0..<sections.count, using: &random)
          let section = sections[s]
          let count = section.count
          switch roll {
          case 10..<40:
            let index = Int.random(in: 0...count, using: &random)
            trace.append("  section \(s): insert at \(index)")
            section.insert(element(), at: index)
          case 40..<60 where count > 0:
            let index = Int.random(in: 0..<count, using: &random)
            trace.append("  section \(s): remove at \(index)")
            section.remove(at: index)
          case 60..<80 where count > 1:
            let from = Int.random(in: 0..<count, using: &random)
            let to = Int.random(in: 0..<count, using: &random)
            trace.append("  section \(s): move \(from) → \(to)")
            section.move(from: from, to: to)
          case 80..<100 where count > 0:
            let index = Int.random(in: 0..<count, using: &random)
            trace.append("  section \(s): update at \(index)")
            section[index] = bump(section[index])
          default:
            trace.append("  section \(s): append")
            section.append(element())
          }
        }
      }
      #expect(
        view.mirrorValues == sections.map(\.elements), "seed \(seed), batch \(batch)")
    }
    #expect(view.failures.isEmpty, "seed \(seed)")
    #expect(view.changesets.count > 250)
  }
}
