import Foundation

/// What `JSONDecoder` lets through in a line that is valid JSON: a key repeated in an object (it
/// keeps the first value, where JavaScript's `JSON.parse` keeps the last, so two readers would
/// see two different updates), a key the format does not define in one of its own objects (a
/// misspelt `"deletedElement"` would be read as an empty list, and the mirror would silently
/// diverge), and `null` for one of its fields (read as left out).
///
/// The values of the stream (`sections`' elements, `newSections[i].elements`,
/// `newElements[i].value`) are the application's: only repeated keys are refused inside them.
enum WireShape {
  /// The fields of each of the format's objects, by where the object is.
  private static let line: Set<String> = [
    "v", "type", "seq", "stream", "sections", "changeset", "newSections", "newElements",
  ]
  private static let changeset: Set<String> = [
    "deletedSectionRanges", "insertedSectionRanges", "reloadedSectionRanges", "movedSections",
    "deletedElements", "insertedElements", "reloadedElements", "movedElements",
  ]
  private static let move: Set<String> = ["from", "to"]
  private static let sectionElements: Set<String> = ["index", "elements"]
  private static let element: Set<String> = ["path", "value"]

  /// One step of the path to a value: a key of an object or an index of an array.
  private enum Step {
    case key(String)
    case index(Int)
  }

  /// An object or an array being read.
  private struct Frame {
    var isObject: Bool
    /// The fields the format defines for this object; `nil` for the application's values.
    var fields: Set<String>?
    var keys: Set<String> = []
    /// The step to the value being read in this container (its key, or its index).
    var step: Step?
    /// In an object: the next string is a key.
    var expectsKey = true
  }

  /// The first problem of `bytes`, a line `JSONDecoder` read as valid JSON, or `nil`.
  ///
  /// - Complexity: O(n) for n bytes.
  static func problem(in bytes: [UInt8]) -> String? {
    var stack: [Frame] = []
    var index = 0

    /// `changeset.movedSections[0]`: the path to the value being read, or with `key`, to the
    /// value of that key of the object on top of the stack.
    func path(key: String? = nil) -> String {
      let steps =
        key.map { stack.dropLast().compactMap(\.step) + [.key($0)] } ?? stack.compactMap(\.step)
      var text = ""
      for step in steps {
        switch step {
        case .key(let key): text += text.isEmpty ? key : "." + key
        case .index(let index): text += "[\(index)]"
        }
      }
      return text.isEmpty ? "the line" : text
    }

    /// The fields of an object opened at the current path.
    func fieldsOfNewObject() -> Set<String>? {
      let steps = stack.compactMap(\.step)
      switch steps.count {
      case 0: return line
      case 1:
        if case .key("changeset") = steps[0] { return changeset }
      case 2:
        guard case .key(let list) = steps[0], case .index = steps[1] else { return nil }
        if list == "newSections" { return sectionElements }
        if list == "newElements" { return element }
      case 3:
        guard case .key("changeset") = steps[0], case .key(let list) = steps[1],
          case .index = steps[2]
        else { return nil }
        if list == "movedSections" || list == "movedElements" { return move }
      default: break
      }
      return nil
    }

    /// A value starts in the container on top of the stack (not a key).
    func valueStarts() {
      guard var top = stack.popLast() else { return }
      if !top.isObject {
        switch top.step {
        case .index(let index)?: top.step = .index(index + 1)
        default: top.step = .index(0)
        }
      }
      stack.append(top)
    }

    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        valueStarts()
        let isObject = byte == UInt8(ascii: "{")
        stack.append(Frame(isObject: isObject, fields: isObject ? fieldsOfNewObject() : nil))
        index += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        _ = stack.popLast()
        index += 1
      case UInt8(ascii: ","):
        if stack.last?.isObject == true { stack[stack.count - 1].expectsKey = true }
        index += 1
      case UInt8(ascii: "\""):
        let start = index
        index += 1
        var escaped = false
        while index < bytes.count {
          if bytes[index] == UInt8(ascii: "\\") {
            escaped = true
            index += 2
            continue
          }
          if bytes[index] == UInt8(ascii: "\"") { break }
          index += 1
        }
        index += 1
        guard let top = stack.last, top.isObject, top.expectsKey else {
          valueStarts()
          continue
        }
        let raw = bytes[start..<min(index, bytes.count)]
        let key =
          escaped
          ? (try? JSONDecoder().decode(String.self, from: Data(raw))) ?? ""
          : String(decoding: raw.dropFirst().dropLast(), as: UTF8.self)
        if top.keys.contains(key) {
          return "\(path(key: key)): the key \(key) is repeated"
        }
        if let fields = top.fields, !fields.contains(key) {
          return "\(path(key: key)): no such field in version \(StreamLine.version)"
        }
        stack[stack.count - 1].keys.insert(key)
        stack[stack.count - 1].step = .key(key)
        stack[stack.count - 1].expectsKey = false
      case UInt8(ascii: "n"):
        // `null` for a field of the format's own (not for an element's value, which the
        // application's type reads).
        if let top = stack.last, top.isObject, let fields = top.fields {
          var isElementValue = false
          if fields == element, case .key("value")? = top.step { isElementValue = true }
          if !isElementValue {
            return "\(path()): null where a value was expected (leave the field out instead)"
          }
        }
        valueStarts()
        index += 4
      case UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"),
        UInt8(ascii: "\n"):
        index += 1
      default:
        // A number, `true` or `false`: one value, up to the next delimiter.
        valueStarts()
        while index < bytes.count, !Self.isDelimiter(bytes[index]) { index += 1 }
      }
    }
    return nil
  }

  private static func isDelimiter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: " "),
      UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"):
      true
    default: false
    }
  }
}
