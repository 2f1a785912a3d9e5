import Foundation

#if canImport(Testing)
  import Testing
#endif
#if canImport(XCTest)
  import XCTest
#endif

/// Reports a failure to whichever test framework is running the current test: Swift Testing
/// (`Issue.record`, when `Test.current != nil`), else XCTest (`XCTFail`); and prints it to standard
/// error when no XCTest test case is known to be running (a benchmark, the demo, or an XCTest run
/// whose first test has not finished yet — then it is both recorded and printed).
public enum TestFailureReporter {
  /// Records `message` as a failure of the running test, or prints it to standard error.
  ///
  /// - Parameters:
  ///   - message: The failure text.
  ///   - location: Where the failure is reported in the test's source.
  public static func report(_ message: String, at location: TestSourceLocation) {
    #if canImport(Testing)
      if Test.current != nil {
        Issue.record(
          Comment(rawValue: message),
          sourceLocation: SourceLocation(
            fileID: location.fileID, filePath: "\(location.filePath)", line: Int(location.line),
            column: Int(location.column)))
        return
      }
    #endif
    #if canImport(XCTest)
      let running = XCTestCaseTracker.shared.runningState
      if running != .notRunning {
        XCTFail(message, file: location.filePath, line: location.line)
      }
      if running == .running { return }
    #endif
    FileHandle.standardError.write(Data("error: \(location): \(message)\n".utf8))
  }

  /// Starts watching XCTest so that ``report(_:at:)`` knows whether a test case is running. Called
  /// by ``TestAdapter``'s initializer; calling it again does nothing.
  public static func startObservingXCTest() {
    #if canImport(XCTest)
      _ = XCTestCaseTracker.shared
    #endif
  }
}

#if canImport(XCTest)
  /// Follows XCTest's test cases through `XCTestObservationCenter`.
  private final class XCTestCaseTracker: NSObject, XCTestObservation, @unchecked Sendable {
    enum RunningState {
      /// Registered in the middle of a test, or no test has started yet.
      case unknown
      case running
      case notRunning
    }

    static let shared: XCTestCaseTracker = {
      let tracker = XCTestCaseTracker()
      XCTestObservationCenter.shared.addTestObserver(tracker)
      return tracker
    }()

    private let lock = NSLock()
    private var state = RunningState.unknown

    var runningState: RunningState { lock.withLock { state } }

    func testCaseWillStart(_ testCase: XCTestCase) { lock.withLock { state = .running } }
    func testCaseDidFinish(_ testCase: XCTestCase) { lock.withLock { state = .notRunning } }
  }
#endif
