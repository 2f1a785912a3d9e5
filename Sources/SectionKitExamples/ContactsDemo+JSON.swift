import Foundation
import SectionKit
import SectionKitConsole
import SectionKitStreaming

extension ContactsDemo {
  /// Plays the demo's script with an ``/SectionKitStreaming/UpdatePublisher`` attached and
  /// writes each update as a JSON line (`sectionkit-demo --json`): the snapshot the attachment
  /// gives, then one changeset line per step. The script's console output is discarded.
  ///
  /// - Parameter write: called with each line, newline included.
  /// - Returns: the coordinator, still attached to the publisher.
  @discardableResult
  public static func streamJSON(to write: (Data) -> Void) -> Coordinator {
    let encoder = StreamLineEncoder<String>()
    var subscription: StreamSubscription<String>?
    func flush() {
      while let update = subscription?.poll() {
        do {
          write(try encoder.encode(update))
        } catch {
          preconditionFailure("ContactsDemo.streamJSON(to:): a string did not encode: \(error)")
        }
      }
    }
    let coordinator = run(on: ConsoleAdapter(output: ""), pause: flush) { console in
      let publisher = UpdatePublisher(forwardingTo: console, value: elementValue)
      subscription = publisher.stream.subscribe()
      return publisher
    }
    flush()
    return coordinator
  }

  /// The demo's elements as the stream sends them: their text.
  public static func elementValue(_ section: any Section, _ index: Int) -> String {
    describeElement(of: section, at: index) ?? ""
  }
}
