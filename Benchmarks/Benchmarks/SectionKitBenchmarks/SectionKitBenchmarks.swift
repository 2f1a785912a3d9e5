import Benchmark
import Foundation
import SectionKit
@_spi(Reference) import SectionKitStreaming
import SectionKitTesting

// SectionKit's benchmarks for package-benchmark. The workloads are `sectionkit-bench`'s own (its
// `Bench.swift`, `RatioBench.swift` and `DiffBench.swift` are linked into this target): the same
// tree shape (a root, 10 providers, 100 `Int` elements per section), the same seeded random edits,
// the same 10⁶-element builds and diffs. The stream lines are those of `StreamBench.lines` (one
// section of 10,000 strings, changesets of 10 changes), drawn from a seeded generator here.
//
// Each benchmark measures malloc counts, checked against `Thresholds/` (CI runs the check), and
// wall time, printed but not checked: this machine has no perf events (`perf stat -e
// instructions` reports "not supported"), so no instruction counts, and under the load of a
// shared 2-core machine the 90th percentile of wall time (the one percentile the threshold check
// reads) varies twentyfold between runs. See `Docs/Performance.md`, "package-benchmark and CI".

/// Malloc counts within 2 blocks a sample of the threshold, either way: the count is of the whole
/// process, and in 2 of 126 benchmark runs a sample counted one block more than every other run
/// (the runner's own threads allocate now and then), while one allocation per change, batch,
/// build step or line adds at least 10 a sample. Wall time is not checked (see above).
///
/// The 10⁶-element builds get 1,000 blocks either way (0.6% of their 161,173): one CI run on a
/// loaded machine counted fewer blocks than the threshold there, by less than a thousand, while
/// one allocation per element or per section (10⁴ sections) still adds at least 10,000 a sample.
func thresholds(mallocTolerance: Int = 2) -> [BenchmarkMetric: BenchmarkThresholds] {
  [
    .mallocCountTotal: BenchmarkThresholds(absolute: [.p90: mallocTolerance]),
    .wallClock: .none,
  ]
}

/// Benchmark names have no spaces: `thresholds update` writes a file named after the benchmark
/// with `_` for each space, and `thresholds check` (1.38.1) looks for the name as it is.
///
/// A configuration of at most `iterations` samples (and a second), after one warm-up.
func configuration(iterations: Int = 10, seconds: Int = 1, mallocTolerance: Int = 2)
  -> Benchmark.Configuration
{
  Benchmark.Configuration(
    metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, warmupIterations: 1,
    maxDuration: .seconds(seconds), maxIterations: iterations,
    thresholds: thresholds(mallocTolerance: mallocTolerance))
}

/// Edits per sample of the single-change and batch benchmarks; samples at most.
let editsPerSample = 1_000
let maxSamples = 10

/// A tree of `Ratios` with a coordinator and an adapter attached, and random edits drawn for
/// every sample ahead of time, `editsPerSample` a sample.
final class ChangingTree {
  let tree: Ratios.Tree
  let coordinator: Coordinator
  let adapter = NullAdapter()
  let samples: [[Ratios.Edit]]
  var next = 0

  init(sections: Int) {
    tree = Ratios.Tree(sections: sections)
    coordinator = Coordinator(sectionProvider: tree.root)
    coordinator.adapter = adapter
    // No element array grows during the measured changes (as `allocations changes` does).
    for section in tree.sections { section.reserveCapacity(400) }
    var counts = Array(repeating: Ratios.elementsPerSection, count: sections)
    var rng = SeededGenerator(seed: 11)
    // The warm-up and every sample take their own edits.
    samples = (0..<maxSamples + 2).map { _ in
      Ratios.draw(editsPerSample, counts: &counts, using: &rng)
    }
  }

  /// The edits of the next sample.
  func take() -> [Ratios.Edit] {
    defer { next += 1 }
    return samples[next]
  }
}

/// A section of rows and the same rows 20% churned (`DiffBench.churned`).
struct DiffData {
  let old: [DiffBench.Row]
  let new: [DiffBench.Row]

  init(count: Int) {
    (old, new, _) = DiffBench.churned(count, seed: 42)
  }
}

/// `updates` changesets of `changes` random changes (removals, insertions, updates) in one
/// section of 10,000 strings, published as JSON lines: the updates, their lines and the first
/// line (the snapshot).
struct StreamData {
  var updates: [StreamUpdate<String>] = []
  var lines: [Data] = []
  var first = Data()

  init(updates count: Int, changes: Int) {
    let list = ArraySection((0..<10_000).map { "element \($0)" })
    let root = ComposedSectionProvider()
    root.append(list)
    let publisher = UpdatePublisher<String>(
      policy: StreamPolicy(subscriberCapacity: count + 1)
    ) { section, index in (section as! ArraySection<String>)[index] }
    let coordinator = Coordinator(sectionProvider: root)
    coordinator.adapter = publisher
    let subscription = publisher.stream.subscribe()
    let encoder = StreamLineEncoder<String>()
    first = try! encoder.encode(subscription.poll()!)
    var random = SeededGenerator(seed: 28)
    var next = 0
    for _ in 0..<count {
      list.performBatchUpdates {
        for _ in 0..<changes {
          let index = Int.random(in: 0..<list.count, using: &random)
          switch Int.random(in: 0..<3, using: &random) {
          case 0 where list.count > 1: list.remove(at: index)
          case 1:
            next += 1
            list.insert("element \(next)", at: index)
          default: list[index] += "'"
          }
        }
      }
    }
    while let update = subscription.poll() { updates.append(update) }
    lines = updates.map { try! encoder.encode($0) }
    withExtendedLifetime(coordinator) {}
  }
}

let benchmarks: @Sendable () -> Void = {
  for size in Ratios.sizes {
    // Lookups: 10,000 round trips section + index → IndexPath → section + index.
    let draws = { (tree: Ratios.Tree) -> [(Int, Int)] in
      var rng = SeededGenerator(seed: 10)
      return (0..<10_000).map { _ in
        (
          Int.random(in: 0..<tree.sections.count, using: &rng),
          Int.random(in: 0..<Ratios.elementsPerSection, using: &rng)
        )
      }
    }
    Benchmark(
      "lookup_10000_round_trips_mapping_\(size)_sections", configuration: configuration(),
      closure: { benchmark, state in
        blackHole(
          Ratios.mappingRoundTrips(state.0.coordinator.mapping, state.0.tree.sections, state.1))
      },
      setup: { () -> (ChangingTree, [(Int, Int)]) in
        let tree = ChangingTree(sections: size)
        return (tree, draws(tree.tree))
      })
    Benchmark(
      "lookup_10000_round_trips_coordinator_\(size)_sections", configuration: configuration(),
      closure: { benchmark, state in
        blackHole(Ratios.coordinatorRoundTrips(state.0.coordinator, state.0.tree.sections, state.1))
      },
      setup: { () -> (ChangingTree, [(Int, Int)]) in
        let tree = ChangingTree(sections: size)
        return (tree, draws(tree.tree))
      })

    // Single changes: 1,000 random element changes, each its own changeset.
    Benchmark(
      "single_change_1000_times_\(size)_sections", configuration: configuration(),
      closure: { benchmark, state in
        let edits = state.take()
        benchmark.startMeasurement()
        for edit in edits { state.tree.apply(edit) }
        benchmark.stopMeasurement()
      },
      setup: { ChangingTree(sections: size) })

    // Batches of 10 and of 100: 1,000 random element changes in batches.
    for batchSize in [10, 100] {
      Benchmark(
        "batch_of_\(batchSize)_\(editsPerSample / batchSize)_times_\(size)_sections",
        configuration: configuration(),
        closure: { benchmark, state in
          let edits = state.take()
          benchmark.startMeasurement()
          Ratios.inBatches(edits, batchSize, state.tree)
          benchmark.stopMeasurement()
        },
        setup: { ChangingTree(sections: size) })
    }
  }

  // 100 providers × 100 sections × 100 elements, a coordinator attached.
  Benchmark(
    "build_1000000_elements_a_batch_per_append",
    configuration: configuration(iterations: 5, seconds: 3, mallocTolerance: 1_000)
  ) {
    _ in
    blackHole(Ratios.bigBuildOnce(providers: 100, oneBatch: false, contentsOf: false))
  }
  Benchmark(
    "build_1000000_elements_one_batch",
    configuration: configuration(iterations: 10, mallocTolerance: 1_000)
  ) { _ in
    blackHole(Ratios.bigBuildOnce(providers: 100, oneBatch: true, contentsOf: false))
  }

  // `replaceElements(with:)` on a section under a coordinator, 20% churn.
  for count in [10_000, 100_000] {
    Benchmark(
      "diff_\(count)_elements", configuration: configuration(iterations: 10, seconds: 2),
      closure: { benchmark, data in
        let (section, adapter, coordinator) = DiffBench.coordinated(data.old)
        benchmark.startMeasurement()
        try! section.replaceElements(with: data.new)
        benchmark.stopMeasurement()
        precondition(adapter.changesets == 1)
        withExtendedLifetime(coordinator) {}
      },
      setup: { DiffData(count: count) })
  }

  // Stream lines: 100 changesets of 10 changes in a section of 10,000 strings.
  Benchmark(
    "stream_encode_100_changesets", configuration: configuration(),
    closure: { benchmark, data in
      let encoder = StreamLineEncoder<String>()
      for update in data.updates { blackHole(try! encoder.encode(update)) }
    },
    setup: { StreamData(updates: 100, changes: 10) })
  Benchmark(
    "stream_decode_and_apply_100_changesets", configuration: configuration(),
    closure: { benchmark, data in
      var mirror = StreamMirror<String>()
      var decoder = StreamLineDecoder<String>()
      decoder.append(data.first)
      try! mirror.apply(decoder.next()!, line: 1)
      benchmark.startMeasurement()
      for line in data.lines {
        decoder.append(line)
        while let update = try! decoder.next() {
          try! mirror.apply(update, line: decoder.lineNumber)
        }
      }
      benchmark.stopMeasurement()
      blackHole(mirror)
    },
    setup: { StreamData(updates: 100, changes: 10) })
}
