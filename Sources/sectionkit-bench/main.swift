// The SectionKit benchmarks. Run in release: `swift run -c release sectionkit-bench`.
// Pass names to run a subset: `swift run -c release sectionkit-bench build churn`
// (build, churn, batches, insert, removal, chain, layout, diff, snapshot, console, stream, windows,
// and the figures beside an in-run reference: lookup, single, batch, bigbuild). `sectionkit-bench allocations …`
// is for counting allocations and bytes under `valgrind --tool=dhat` (see Ratios.allocations);
// `sectionkit-bench diffonce` diffs 100,000 rows once, alone and coordinated, for callgrind;
// `sectionkit-bench bigbuild1` builds the one-batch tree of `bigbuild` once, for callgrind.
// `sectionkit-bench difftimes` times the same diff of 10,000 and 100,000 rows, 21 runs each.
import Foundation
import SectionKit
import SectionKitLayout

let selected = Set(CommandLine.arguments.dropFirst())
func enabled(_ name: String) -> Bool { selected.isEmpty || selected.contains(name) }

if selected.contains("bigbuild1") {
  // The one-batch build of `bigbuild`, once, for callgrind: `bigbuild1 [PROVIDERS] [contentsOf]`
  // (`each`: each change its own batch).
  let arguments = CommandLine.arguments.drop { $0 != "bigbuild1" }.dropFirst()
  let providers = arguments.compactMap { Int($0) }.first ?? 100
  let seconds = Ratios.bigBuildOnce(
    providers: providers, oneBatch: !arguments.contains("each"),
    contentsOf: arguments.contains("contentsOf"))
  print(String(format: "bigbuild1 %d providers: %.1f ms", providers, seconds * 1000))
  exit(0)
}

if selected.contains("allocations") {
  Ratios.allocations(Array(CommandLine.arguments.drop { $0 != "allocations" }.dropFirst()))
  exit(0)
}

print("SectionKit benchmarks (release build expected; debug figures are meaningless)")
print()

for name in Ratios.names where enabled(name) { Ratios.run(name) }

if enabled("build") {
  print("## Building a tree child by child with a mapping (and a coordinator) attached")
  print("   Composed/ComposedUI: 10.6 s for 100 providers × 100 sections × 100 elements.")
  var previous: Double?
  for providers in [25, 50, 100] {
    let mapped = Bench.median { Bench.buildTree(providers: providers, attach: .mapping) }
    let coordinated = Bench.median { Bench.buildTree(providers: providers, attach: .coordinator) }
    let ratio = previous.map { String(format: "  (×%.2f for ×2 the size)", coordinated / $0) } ?? ""
    print(
      String(
        format: "   %3d providers × 100 × 100: mapping %7.2f ms, coordinator+adapter %7.2f ms%@",
        providers, mapped * 1000, coordinated * 1000, ratio))
    previous = coordinated
  }
  print()
}

if enabled("churn") {
  print("## A random element change (one batch each) in small and large trees (median of 3)")
  var perChange: [Int: Double] = [:]
  for sections in [100, 10_000] {
    let seconds = Bench.medianOf(3) {
      Bench.churn(sections: sections, elements: 10, changes: 100_000, batchSize: 1)
    }
    perChange[sections] = seconds / 100_000
    print(
      String(
        format: "   %6d sections: 100,000 changes in %7.1f ms = %6.2f µs per change",
        sections, seconds * 1000, seconds / 100_000 * 1e6))
  }
  print(
    String(
      format: "   ratio 10,000 / 100 sections: %.2f (same cost expected)",
      perChange[10_000]! / perChange[100]!))
  print()
}

if enabled("batches") {
  print("## 10,000 batches of 10 random changes (median of 3)")
  var times: [Int: Double] = [:]
  for sections in [100, 1_000] {
    let seconds = Bench.medianOf(3) {
      Bench.churn(sections: sections, elements: 1_000, changes: 100_000, batchSize: 10)
    }
    times[sections] = seconds
    print(
      String(
        format: "   %5d sections × 1,000 elements: %7.1f ms, %6.2f µs per batch",
        sections, seconds * 1000, seconds / 10_000 * 1e6))
  }
  print(
    String(
      format: "   ratio large / small tree: %.2f (must be within 2×)", times[1_000]! / times[100]!))
  print()
}

if enabled("insert") {
  print("## 10,000 sections inserted in one batch")
  let (seconds, changesets) = Bench.insertSectionsInOneBatch(10_000)
  print(String(format: "   %.1f ms, %d changeset(s) delivered", seconds * 1000, changesets))
  print()
}

if enabled("removal") {
  print("## Removing every other element of one section in one batch (coordinator + adapter)")
  for count in [20_000, 100_000] {
    let orders = Bench.RemovalOrder.allCases.map { order in
      let seconds = Bench.medianOf(3) { Bench.removeEveryOther(count: count, order: order) }
      return String(format: "%@ %.1f ms", order.rawValue, seconds * 1000)
    }
    let removeAll = Bench.medianOf(3) { Bench.removeAllEveryOther(count: count) }
    print(
      String(
        format: "   %6d elements: %@; ArraySection.removeAll(where:) %.1f ms", count,
        orders.joined(separator: ", "), removeAll * 1000))
  }
  print()
}

if enabled("chain") {
  print("## A chain of providers built bottom-up, read and released")
  for depth in [1_000, 10_000, 100_000] {
    let (build, read, release) = Bench.chain(depth: depth)
    print(
      String(
        format: "   depth %7d: build %8.2f ms, sections %7.2f ms, release %7.2f ms", depth,
        build * 1000, read * 1000, release * 1000))
  }
  print()
}

if enabled("layout") {
  print("## SectionKitLayout: a 100,000-element grid (4 columns, headers), full layout")
  for sections in [1, 100] {
    let figures = LayoutBenchmark.runGrid(iterations: 20, elements: 100_000, sections: sections)
    print(
      "   \(sections) section(s): best \(figures.best.formatted(.units(allowed: [.milliseconds], fractionalPart: .show(length: 2)))), "
        + "median \(figures.median.formatted(.units(allowed: [.milliseconds], fractionalPart: .show(length: 2)))) "
        + "for \(figures.elementCount) elements (budget: 50 ms)")
  }
  print()
}

if enabled("diff") { DiffBench.report() }
if selected.contains("diffonce") {
  // `diffonce 10000`: another size (quicker under callgrind, which spends most of the default
  // run generating the data).
  let count = CommandLine.arguments.drop { $0 != "diffonce" }.dropFirst().first.flatMap { Int($0) }
  DiffBench.once(count: count ?? 100_000)
}
if selected.contains("difftimes") {
  for count in [10_000, 100_000] { DiffBench.times(count: count, runs: 21) }
}

if enabled("snapshot") { SnapshotBench.report() }

if enabled("console") {
  print("## ConsoleListView, 100,000 elements in 26 sections, a 40×100 screen (mean; budget 5 ms)")
  for (name, seconds) in Bench.consoleList() {
    print(String(format: "   %@: %.3f ms", name, seconds * 1000))
  }
  print()
}

if enabled("stream") { StreamBench.run() }
if enabled("windows") { WindowBench.run() }
