import SectionKitConsole
import Testing

@Suite struct ConsoleOptionsTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var environment: ConsoleEnvironment
    var style: ConsoleOptions.Style
    var mode: ConsoleOptions.Mode
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "terminal", environment: terminal(), style: .ansi, mode: .redraw),
    Case(
      name: "terminal, NO_COLOR=1", environment: terminal(["NO_COLOR": "1"]), style: .plain,
      mode: .redraw),
    Case(
      name: "terminal, NO_COLOR empty", environment: terminal(["NO_COLOR": ""]), style: .ansi,
      mode: .redraw),
    Case(
      name: "terminal, TERM=dumb", environment: terminal(["TERM": "dumb"]), style: .plain,
      mode: .log),
    Case(name: "pipe", environment: .pipe, style: .plain, mode: .log),
    Case(
      name: "pipe, TERM=xterm",
      environment: ConsoleEnvironment(isTerminal: false, variables: ["TERM": "xterm"]),
      style: .plain, mode: .log),
  ]

  @Test(arguments: cases)
  func autoStyleAndMode_followTheTerminalNoColorAndTerm(_ testCase: Case) {
    let resolved = ConsoleOptions().resolved(for: testCase.environment)
    #expect(resolved.style == testCase.style)
    #expect(resolved.mode == testCase.mode)
  }

  @Test func explicitStyleAndMode_winOverTheEnvironment() {
    let options = ConsoleOptions(style: .ansi, mode: .redraw).resolved(for: .pipe)
    #expect(options.style == .ansi)
    #expect(options.mode == .redraw)
    let plain = ConsoleOptions(style: .plain, mode: .log).resolved(for: terminal())
    #expect(plain.style == .plain)
    #expect(plain.mode == .log)
  }

  @Test func width_comesFromColumnsOnATerminalOnly_whenNotGiven() {
    #expect(ConsoleOptions().resolved(for: terminal(["COLUMNS": "100"])).width == 100)
    #expect(ConsoleOptions(width: 40).resolved(for: terminal(["COLUMNS": "100"])).width == 40)
    #expect(ConsoleOptions().resolved(for: terminal(["COLUMNS": "wide"])).width == nil)
    let pipe = ConsoleEnvironment(isTerminal: false, variables: ["COLUMNS": "100"])
    #expect(ConsoleOptions().resolved(for: pipe).width == nil)
  }

  @Test func width_fallsBackToTheSizeTheTerminalReports() {
    let reported = ConsoleEnvironment(isTerminal: true, variables: [:], terminalColumns: 72)
    #expect(ConsoleOptions().resolved(for: reported).width == 72)
    let both = ConsoleEnvironment(
      isTerminal: true, variables: ["COLUMNS": "100"], terminalColumns: 72)
    #expect(ConsoleOptions().resolved(for: both).width == 100)
  }

  @Test func theAdapterResolvesItsOptionsOnceAtInit() {
    let console = ConsoleAdapter(
      output: String(), options: ConsoleOptions(), environment: terminal(["NO_COLOR": "1"]))
    #expect(console.options.style == .plain)
    #expect(console.options.mode == .redraw)
    #expect(console.environment.noColor)
  }

  @Test func currentEnvironment_keepsOnlyTheVariablesItReads() {
    let environment = ConsoleEnvironment.current()
    #expect(Set(environment.variables.keys).isSubset(of: ["NO_COLOR", "TERM", "COLUMNS"]))
  }
}
