import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

@Suite("Randomized: tree, mapping and a flat reference agree after every operation")
struct RandomizedModelTests {
  /// Replays `steps` on a fresh tree; returns the first disagreement.
  static func failure(of steps: [TreeOperation]) -> String? {
    let fixture = TreeFixture()
    let mapping = SectionProviderMapping(sectionProvider: fixture.root)
    let recorder = MappingRecorder(mapping)
    for (number, step) in steps.enumerated() {
      fixture.apply(step)
      let events = recorder.take()
      if !events.isEmpty {
        let begins = events.filter { $0 == .willBeginUpdating }.count
        let ends = events.filter { $0 == .didEndUpdating }.count
        if events.first != .willBeginUpdating || events.last != .didEndUpdating || begins != 1
          || ends != 1
        {
          return "step \(number + 1): events are not one bracket: \(events)"
        }
      }
      if let mismatch = fixture.mismatch(mapping: mapping) {
        return "step \(number + 1): \(mismatch)"
      }
      let expected = fixture.reference.flattened
      if recorder.counts != expected.map(\.items.count) {
        return
          "step \(number + 1): counts replayed from the events \(recorder.counts) != \(expected.map(\.items.count))"
      }
      let ids = recorder.sections.map { id in
        fixture.objects.first { ObjectIdentifier($0.value) == id }?.key
      }
      if ids != expected.map(\.id) {
        return "step \(number + 1): sections replayed from the events differ"
      }
    }
    return nil
  }

  @Test func randomOperations() {
    for seed in randomizedSeeds(base: 1, count: 40) {
      var rng = SeededGenerator(seed: seed)
      let generator = TreeFixture()
      var steps: [TreeOperation] = []
      for _ in 0..<150 {
        let step = generator.randomOperation(using: &rng)
        generator.apply(step)
        steps.append(step)
      }
      if let failure = Self.failure(of: steps) {
        let minimal = shrink(steps) { Self.failure(of: $0) }
        recordRandomizedFailure(seed: seed, failure: failure, steps: steps, minimal: minimal)
        return
      }
    }
  }
}
