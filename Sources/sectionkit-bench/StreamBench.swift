import Foundation
import SectionKit
@_spi(Reference) import SectionKitStreaming

/// SectionKitStreaming's figures: JSON lines written and read, one model fanned out to many
/// subscribers, and the memory held for a subscriber that stopped reading.
enum StreamBench {
  /// Which parts run: all by default; `stream lines mirror publish fanout stalled` picks some
  /// (`publish small` or `publish large` one size of section), and
  /// `nobaseline` leaves out the old path and `nodigest` the runs with digests (for callgrind).
  static let parts: Set<String> = {
    let all: Set = ["lines", "mirror", "publish", "fanout", "stalled"]
    let chosen = Set(CommandLine.arguments).intersection(all)
    return chosen.isEmpty ? all : chosen
  }()
  static let baseline = !CommandLine.arguments.contains("nobaseline")

  static func run() {
    if parts.contains("lines") { runLines() }
    if parts.contains("mirror") { mirrorInsert(elements: 100_000, inserts: 2_000) }
    if parts.contains("publish") {
      print("## SectionKitStreaming: a server publishing 10-change batches into one section")
      // `small` or `large` picks one size (for callgrind).
      let arguments = CommandLine.arguments
      if !arguments.contains("large") { publish(elements: 10_000, batches: 2_000) }
      if !arguments.contains("small") { publish(elements: 100_000, batches: 500) }
    }
    if parts.contains("fanout") {
      if baseline { fanOut(changesets: 10_000, subscribers: 1_000, mode: .updates) }
      fanOut(changesets: 10_000, subscribers: 1_000, mode: .batches)
      fanOut(changesets: 10_000, subscribers: 1_000, mode: .lineBatches)
    }
    if parts.contains("stalled") { stalled(changesets: 100_000) }
    print()
  }

  static func runLines() {
    print(
      "## SectionKitStreaming: JSON lines, one section of 10,000 (new codec | old JSONEncoder/"
        + "JSONDecoder path; decode + apply: new reader + in-place mirror | JSONDecoder + rebuild)")
    let digestPolicies: [StreamDigestPolicy] =
      CommandLine.arguments.contains("nodigest") ? [.never] : [.never, .everyUpdate]
    for (changes, count) in [(10, 5_000), (1_000, 100)] {
      for digests in digestPolicies {
        let figures = lines(changesPerUpdate: changes, updates: count, digests: digests)
        let megabytes = Double(figures.bytes) / 1_048_576
        let rate = { (seconds: Double) in Double(figures.updates) / seconds }
        print(
          String(
            format:
              "   %5d changes, %d changesets, %.1f MB%@: encode %9.0f/s | %7.0f/s (%.0f×); "
              + "decode + apply %9.0f/s | %7.0f/s (%.0f×) [read alone %.0f/s, apply alone %.0f/s]",
            changes, figures.updates, megabytes,
            digests == .never ? "" : " (digest on every update)", rate(figures.encode),
            rate(figures.oldEncode), figures.oldEncode / figures.encode, rate(figures.decode),
            rate(figures.oldDecode), figures.oldDecode / figures.decode, rate(figures.read),
            rate(figures.apply)))
      }
    }
  }

  /// A model of `sections` sections of `elements` strings with a publisher attached.
  final class Model {
    let lists: [ArraySection<String>]
    let root = ComposedSectionProvider()
    let coordinator: Coordinator
    let publisher: UpdatePublisher<String>
    /// Seeded: every run (and every build compared) gets the same changesets, and no system
    /// call per number, which under callgrind cost more than the rest of the benchmark.
    var random = SplitMix64(seed: 0x5EC7_10E5)
    var next = 0

    init(
      sections: Int, elements: Int, policy: StreamPolicy = StreamPolicy(),
      digests: StreamDigestPolicy = .never
    ) {
      lists = (0..<sections).map { section in
        ArraySection((0..<elements).map { "element \(section).\($0)" })
      }
      for list in lists { root.append(list) }
      publisher = UpdatePublisher(policy: policy, digests: digests) { section, index in
        (section as! ArraySection<String>)[index]
      }
      coordinator = Coordinator(sectionProvider: root)
      coordinator.adapter = publisher
    }

    /// One batch of `changes` random changes in one section: removals, insertions, updates.
    func batch(_ changes: Int) {
      let list = lists.randomElement(using: &random)!
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
  }

  /// What ``lines(changesPerUpdate:updates:digests:)`` measures: seconds for all the updates.
  struct LineFigures {
    var encode = 0.0
    var oldEncode = 0.0
    var decode = 0.0
    var oldDecode = 0.0
    /// Of `decode`: reading the lines alone, and applying the updates alone.
    var read = 0.0
    var apply = 0.0
    var updates = 0
    var bytes = 0
  }

  /// Seconds to encode and to decode and apply `updates` changesets of `changesPerUpdate`
  /// changes, with the codec and with the old path; the number of updates and bytes.
  static func lines(changesPerUpdate: Int, updates: Int, digests: StreamDigestPolicy)
    -> LineFigures
  {
    let model = Model(
      sections: 1, elements: 10_000, policy: StreamPolicy(subscriberCapacity: updates + 1),
      digests: digests)
    let subscription = model.publisher.stream.subscribe()
    var recorded: [StreamUpdate<String>] = []
    while let update = subscription.poll() { recorded.append(update) }
    let start = recorded[0]
    recorded.removeAll()
    for _ in 0..<updates { model.batch(changesPerUpdate) }
    while let update = subscription.poll() { recorded.append(update) }

    var figures = LineFigures(updates: recorded.count)
    let encoder = StreamLineEncoder<String>()
    var lines: [Data] = []
    figures.encode = Bench.seconds {
      lines = recorded.map { update in
        do { return try encoder.encode(update) } catch { fatalError("\(error)") }
      }
    }
    var oldLines: [Data] = []
    if baseline {
      figures.oldEncode = Bench.seconds {
        oldLines = recorded.map { update in
          do { return try encoder.encodeWithFoundation(update) } catch { fatalError("\(error)") }
        }
      }
    }
    figures.bytes = lines.reduce(0) { $0 + $1.count }
    let first = try! encoder.encode(start)

    var mirror = StreamMirror<String>()
    var decoder = StreamLineDecoder<String>()
    decoder.append(first)
    try! mirror.apply(decoder.next()!, line: 1)
    // The parts: reading the lines alone, and applying the updates alone.
    var readOnly = decoder
    var decodedUpdates: [StreamUpdate<String>] = []
    decodedUpdates.reserveCapacity(lines.count)
    figures.read = Bench.seconds {
      do {
        for line in lines {
          readOnly.append(line)
          while let update = try readOnly.next() { decodedUpdates.append(update) }
        }
      } catch {
        fatalError("\(error)")
      }
    }
    var applyOnly = mirror
    figures.apply = Bench.seconds {
      for update in decodedUpdates { try! applyOnly.apply(update) }
    }
    decodedUpdates.removeAll()
    applyOnly = StreamMirror()
    figures.decode = Bench.seconds {
      do {
        for line in lines {
          decoder.append(line)
          while let update = try decoder.next() {
            try mirror.apply(update, line: decoder.lineNumber)
          }
        }
      } catch {
        fatalError("\(error)")
      }
    }
    precondition(mirror.sections == model.lists.map { Array($0) })

    guard baseline else { return figures }
    // The old path: JSONDecoder, and every touched section rebuilt.
    var oldDecoder = StreamLineDecoder<String>()
    oldDecoder.usesFoundationReference = true
    oldDecoder.append(first)
    guard case .snapshot(let snapshot) = try! oldDecoder.next()! else { fatalError() }
    var sections = snapshot.sections
    figures.oldDecode = Bench.seconds {
      do {
        for line in oldLines {
          oldDecoder.append(line)
          while case .changeset(let update) = try oldDecoder.next() {
            try update.changeset.applyByRebuilding(
              to: &sections, insertedSection: { update.sections[$0]! },
              newElement: { update.elements[$0]! })
          }
        }
      } catch {
        fatalError("\(error)")
      }
    }
    precondition(sections == model.lists.map { Array($0) })
    return figures
  }

  /// One element inserted at a random place of one section of `elements` elements, applied by
  /// a mirror, `inserts` times: in place, and by rebuilding the section.
  static func mirrorInsert(elements: Int, inserts: Int) {
    let values = (0..<elements).map { "element \($0)" }
    var random = SystemRandomNumberGenerator()
    let updates = (0..<inserts).map { index in
      let path = IndexPath(item: Int.random(in: 0...elements + index, using: &random), section: 0)
      return StreamChangeset(
        sequence: index + 2, changeset: Changeset(insertedElements: [path]),
        elements: [path: "new \(index)"])
    }
    var mirror = StreamMirror<String>()
    try! mirror.apply(.snapshot(StreamSnapshot(stream: "s", sequence: 1, sections: [values])))
    let inPlace = Bench.seconds {
      for update in updates { try! mirror.apply(.changeset(update)) }
    }
    var sections = [values]
    let rebuilt = Bench.seconds {
      for update in updates {
        try! update.changeset.applyByRebuilding(
          to: &sections, newElement: { update.elements[$0]! })
      }
    }
    precondition(sections == mirror.sections)
    // The floor: the same inserts into a plain array.
    var array = values
    let floor = Bench.seconds {
      for update in updates {
        let (path, value) = update.elements.first!
        array.insert(value, at: path[1])
      }
    }
    precondition([array] == mirror.sections)
    print(
      String(
        format:
          "   one element inserted into a section of %d, applied by a mirror: %.2f µs in place "
          + "| %.1f µs rebuilt (Array.insert alone: %.2f µs)",
        elements, inPlace / Double(inserts) * 1e6, rebuilt / Double(inserts) * 1e6,
        floor / Double(inserts) * 1e6))
  }

  /// `batches` batches of 10 random changes in one section of `elements` strings, published
  /// by an ``UpdatePublisher`` with a subscriber that keeps up: the time of a batch (the model's
  /// edit, the coordinator and the publisher, all of it); then the same with a snapshot of the
  /// stream taken before each batch and alive through it, which makes the stream copy the
  /// section (copy on write) — what every batch cost when the publisher and the stream shared
  /// the state (left out with `nobaseline`). Under callgrind, `UpdatePublisher.apply` alone
  /// (inclusive) is the publisher's part.
  static func publish(elements: Int, batches: Int) {
    func run(holdingSnapshots: Bool) -> Double {
      let model = Model(
        sections: 1, elements: elements, policy: StreamPolicy(subscriberCapacity: batches + 1))
      let stream = model.publisher.stream
      let subscription = stream.subscribe()
      _ = subscription.poll()
      var held: [StreamSnapshot<String>] = []
      let seconds = Bench.seconds {
        for _ in 0..<batches {
          if holdingSnapshots { held = [stream.snapshot] }
          model.batch(10)
        }
      }
      withExtendedLifetime(held) {}
      var updates = 0
      while subscription.poll() != nil { updates += 1 }
      precondition(updates == batches && stream.snapshot.sections == model.lists.map { Array($0) })
      return seconds / Double(batches) * 1e6
    }
    let inPlace = run(holdingSnapshots: false)
    guard baseline else {
      print(
        String(
          format: "   one section of %d: %.2f µs a batch, state edited in place", elements,
          inPlace))
      return
    }
    let copied = run(holdingSnapshots: true)
    print(
      String(
        format:
          "   one section of %d: %.2f µs a batch, state edited in place | %.2f µs with a "
          + "snapshot alive through each batch (the section copied, %.1f×)",
        elements, inPlace, copied, copied / inPlace))
  }

  /// How the subscribers of ``fanOut(changesets:subscribers:mode:)`` take their updates.
  enum FanOutMode {
    /// One update per `next()` (the baseline).
    case updates
    /// Every update due per `next()` (`batches()`).
    case batches
    /// Every line due per `next()` (`encodedLineBatches()`), each encoded once for everyone.
    case lineBatches
  }

  /// 1,000 subscribers, each in its own task taking every update (and checking its sequence
  /// number), while a model of 100 sections of 100 elements publishes 10,000 changesets of one
  /// change.
  static func fanOut(changesets: Int, subscribers: Int, mode: FanOutMode) {
    let lines = mode == .lineBatches
    let model = Model(sections: 100, elements: 100)
    let stream = model.publisher.stream
    let before = residentMegabytes()
    let done = DispatchSemaphore(value: 0)
    let elapsed = Locked(0.0)
    let consumers = (0..<subscribers).map { _ in
      let subscription = stream.subscribe()
      switch mode {
      case .lineBatches:
        // Bytes, as a server writes them to a socket: each line encoded once for everyone.
        return Task {
          var count = -1
          var bytes = 0
          do {
            for try await batch in subscription.encodedLineBatches() {
              for line in batch {
                count += 1
                bytes &+= line.count
              }
            }
          } catch {
            fatalError("\(error)")
          }
          precondition(bytes > 0)
          return count
        }
      case .batches:
        return Task {
          var last = -1
          for await batch in subscription.batches() {
            for update in batch {
              if case .changeset = update { precondition(update.sequence == last + 1) }
              last = update.sequence
            }
          }
          return last
        }
      case .updates: break
      }
      return Task {
        var last = -1
        for await update in subscription {
          if case .changeset = update { precondition(update.sequence == last + 1) }
          last = update.sequence
        }
        return last
      }
    }
    Task.detached {
      let start = ContinuousClock.now
      var finals: [Int] = []
      for consumer in consumers { finals.append(await consumer.value) }
      let duration = ContinuousClock.now - start
      precondition(finals.allSatisfy { $0 == stream.position.sequence || lines })
      elapsed.withLock {
        $0 = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
      }
      done.signal()
    }
    let publishing = Bench.seconds {
      for _ in 0..<changesets { model.batch(1) }
      stream.finish()
    }
    done.wait()
    let statistics = stream.statistics
    print(
      String(
        format:
          "   fan-out%@: %d changesets to %d subscribers (100 sections × 100): published in "
          + "%.2f s, all mirrors current after %.2f s; %d snapshots served after %d overflows; "
          + "resident memory %.0f MB → %.0f MB (peak %.0f MB)",
        [
          .updates: " of updates, one per next()", .batches: " of updates in batches (batches())",
          .lineBatches: " of JSON lines in batches (encodedLineBatches())",
        ][mode]!,
        changesets, subscribers,
        publishing,
        elapsed.withLock { $0 }, statistics.snapshotsServed,
        statistics.overflows, before, residentMegabytes(), peakMegabytes()))
  }

  /// One subscriber that never reads while a model of 100 sections of 100 elements publishes
  /// `changesets` changesets.
  static func stalled(changesets: Int) {
    let model = Model(
      sections: 100, elements: 100,
      policy: StreamPolicy(replayCapacity: 256, subscriberCapacity: 1_024))
    let stream = model.publisher.stream
    let stalled = stream.subscribe()
    _ = stalled.poll()
    let before = residentMegabytes()
    var maximumQueued = 0
    let seconds = Bench.seconds {
      for index in 0..<changesets {
        model.batch(1)
        if index % 1_000 == 0 {
          maximumQueued = max(maximumQueued, stream.statistics.queuedChangesets)
        }
      }
    }
    let statistics = stream.statistics
    print(
      String(
        format:
          "   one stalled subscriber, %d changesets: %.2f s (%.1f µs each); at most %d queued, "
          + "%d in the replay buffer; resident memory %.0f MB → %.0f MB; then one snapshot "
          + "(%@)",
        changesets, seconds, seconds / Double(changesets) * 1e6, maximumQueued,
        statistics.replayedChangesets, before, residentMegabytes(),
        { if case .snapshot = stalled.poll() { "yes" } else { "no" } }()))
  }

  /// The resident set now, in MB (Linux; 0 elsewhere).
  static func residentMegabytes() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
      return 0
    }
    let pages = text.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
  }

  /// The peak resident set of the process so far, in MB.
  static func peakMegabytes() -> Double {
    var usage = rusage()
    #if os(Linux)
      getrusage(RUSAGE_SELF.rawValue, &usage)
      return Double(usage.ru_maxrss) / 1024  // kilobytes
    #else
      getrusage(RUSAGE_SELF, &usage)
      return Double(usage.ru_maxrss) / 1_048_576  // bytes
    #endif
  }
}

/// A value shared with a detached task.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<R>(_ body: (inout Value) -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}

/// SplitMix64: a small seeded generator, so that the benchmark's batches are the same in every
/// run.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
