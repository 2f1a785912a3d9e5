// sectionkit-server-example: a server-style program on SectionKit and SectionKitStreaming.
//
//   swift run sectionkit-server-example [--writers 4] [--clients 6] [--batches 150] [--seed 1]
//
// A task board (Today, Upcoming, Done) is owned by an actor: its tree, its coordinator and the
// publisher attached to it never leave the actor. Several writers change it concurrently; several
// clients follow its stream — half of them over JSON lines, as a socket would carry them — and
// keep a mirror with the public applier. A client sends requests with index paths it saw some
// updates ago: the server resolves them through the changesets since, answers an error when the
// task is gone, and keeps going. At the end every mirror must equal the model (exit status 1
// otherwise).

import Foundation
import SectionKit
import SectionKitStreaming

/// A task on the board.
struct Item: Hashable, Codable, Sendable, CustomStringConvertible {
  var id: Int
  var title: String
  var description: String { "#\(id) \(title)" }
}

/// A small seeded random number generator (SplitMix64), so that runs can be repeated.
struct SplitMix: RandomNumberGenerator, Sendable {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// What a client asks, with the position its index path was seen at.
enum Request: Sendable {
  case rename(IndexPath, to: String, seenAt: StreamPosition)
  case delete(IndexPath, seenAt: StreamPosition)
}

/// The server: the board and everything attached to it, owned by this actor.
actor BoardServer {
  private let lists: [ArraySection<Item>]
  private let root = ComposedSectionProvider()
  private let coordinator: Coordinator
  private var random: SplitMix
  private var nextID = 0
  nonisolated let stream: UpdateStream<Item>
  private(set) var batches = 0

  init(seed: UInt64) {
    let publisher = UpdatePublisher<Item>(
      policy: StreamPolicy(replayCapacity: 64, subscriberCapacity: 32)
    ) { section, index in (section as! ArraySection<Item>)[index] }
    lists = [[], [], []]
    for list in lists { root.append(list) }
    coordinator = Coordinator(sectionProvider: root)
    coordinator.adapter = publisher
    stream = publisher.stream
    random = SplitMix(state: seed)
    for (index, list) in lists.enumerated() {
      for id in index * 3 + 1...index * 3 + 3 { list.append(Item(id: id, title: "task \(id)")) }
    }
    nextID = 9
  }

  private func newItem(by writer: Int) -> Item {
    nextID += 1
    return Item(id: nextID, title: "task \(nextID) by writer \(writer)")
  }

  /// One batch of a writer: tasks added, finished, renamed, reordered, postponed.
  func randomBatch(by writer: Int) {
    root.performBatchUpdates {
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let list = lists.randomElement(using: &random)!
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<3 where !list.isEmpty:
          // Finished: from its list to the top of Done (or out of Done).
          let item = list.remove(at: Int.random(in: 0..<list.count, using: &random))
          if list !== lists[2] { lists[2].insert(item, at: 0) }
        case 3..<5 where !list.isEmpty:
          list[Int.random(in: 0..<list.count, using: &random)].title += "!"
        case 5..<7 where list.count > 1:
          list.move(
            from: Int.random(in: 0..<list.count, using: &random),
            to: Int.random(in: 0..<list.count, using: &random))
        default:
          list.insert(newItem(by: writer), at: Int.random(in: 0...list.count, using: &random))
        }
      }
    }
    batches += 1
  }

  /// Handles a client's request: its path is resolved through the changesets since the client
  /// saw it; a path whose task is gone (or too old to follow) is answered with an error.
  func handle(_ request: Request) -> String {
    do {
      switch request {
      case .rename(let path, let title, let position):
        let now = try stream.resolve(path, at: position)
        let list = lists[now[0]]
        let old = list[now[1]].title
        list[now[1]].title = title
        return "ok: \(path) seen at update \(position.sequence) is \(now) now; "
          + "\"\(old)\" renamed \"\(title)\""
      case .delete(let path, let position):
        let now = try stream.resolve(path, at: position)
        let item = lists[now[0]].remove(at: now[1])
        return "ok: \(path) seen at update \(position.sequence) is \(now) now; \(item) deleted"
      }
    } catch {
      return "error: \(error)"
    }
  }

  var content: [[Item]] { lists.map { Array($0) } }

  func shutdown() { stream.finish() }
}

/// A client's copy of the board, kept from the stream; `viaJSON` clients read it as JSON lines.
func follow(_ stream: UpdateStream<Item>, viaJSON: Bool) async -> (StreamMirror<Item>, Int) {
  var mirror = StreamMirror<Item>()
  var resyncs = 0
  let encoder = StreamLineEncoder<Item>()
  subscribing: while true {
    var decoder = StreamLineDecoder<Item>(after: mirror.position)
    for await update in stream.subscribe(after: mirror.position) {
      do {
        if viaJSON {
          // What a socket would carry: bytes, read back line by line.
          decoder.append(try encoder.encode(update))
          while let decoded = try decoder.next() {
            try mirror.apply(decoded, line: decoder.lineNumber)
          }
        } else {
          try mirror.apply(update)
        }
      } catch {
        print("client: \(error); subscribing again from \(String(describing: mirror.position))")
        resyncs += 1
        continue subscribing
      }
    }
    return (mirror, resyncs)
  }
}

// MARK: The run

var options = (writers: 4, clients: 6, batches: 150, seed: UInt64(1))
var arguments = CommandLine.arguments.dropFirst()
while let option = arguments.popFirst() {
  guard let text = arguments.popFirst(), let value = UInt64(text), value > 0 else {
    print("usage: sectionkit-server-example [--writers n] [--clients n] [--batches n] [--seed n]")
    exit(2)
  }
  switch option {
  case "--writers": options.writers = Int(value)
  case "--clients": options.clients = Int(value)
  case "--batches": options.batches = Int(value)
  case "--seed": options.seed = value
  default:
    print("sectionkit-server-example: unknown option \(option)")
    exit(2)
  }
}

let (writers, clients, batches) = (options.writers, options.clients, options.batches)
let server = BoardServer(seed: options.seed)
print(
  "server: \(writers) writers × \(batches) batches; \(clients) clients, "
    + "\(clients / 2) of them over JSON lines")

let followers = (0..<clients).map { client in
  Task { await follow(server.stream, viaJSON: client % 2 == 0) }
}

// A client that is a few updates behind: it saw the board at `seen`, then sends requests with
// the paths it saw.
var seen = StreamMirror<Item>()
for await update in server.stream.subscribe() {
  try seen.apply(update)
  break
}
let seenAt = seen.position!
print(await server.handle(.delete([0, 0], seenAt: seenAt)))
print(await server.handle(.rename([0, 1], to: "call the plumber", seenAt: seenAt)))
// The same path again, from the same stale position: the task it named is gone.
print(await server.handle(.rename([0, 0], to: "renamed too late", seenAt: seenAt)))
print(await server.handle(.delete([9, 9], seenAt: seenAt)))

await withTaskGroup(of: Void.self) { group in
  for writer in 1...writers {
    group.addTask {
      for _ in 0..<batches {
        await server.randomBatch(by: writer)
        await Task.yield()
      }
    }
  }
}
// Still up after the rejected requests: a request stale by every batch since, then a current one.
print(await server.handle(.rename([1, 0], to: "too late", seenAt: seenAt)))
print(await server.handle(.rename([2, 0], to: "still up", seenAt: server.stream.position)))
await server.shutdown()

let model = await server.content
var equal = 0
for (client, follower) in followers.enumerated() {
  let (mirror, resyncs) = await follower.value
  let same = mirror.sections == model
  if same { equal += 1 }
  print(
    "client \(client) (\(client % 2 == 0 ? "JSON lines" : "in process")): "
      + "\(same ? "equal to" : "DIFFERENT from") the model at update "
      + "\(mirror.position?.sequence ?? -1), \(resyncs) resync(s)")
}
print(
  "mirrors: \(equal) of \(clients) equal the model (\(model.map(\.count)) tasks in "
    + "Today, Upcoming, Done; \(server.stream.statistics.published) updates)")
exit(equal == clients ? 0 : 1)
