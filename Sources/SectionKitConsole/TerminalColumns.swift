#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Column widths as a terminal shows text: most characters take one column, CJK ideographs and
/// most emoji two, combining marks none. The measurement ``ConsoleListView`` lays its rows out
/// with, for an app that draws text of its own (a status line, a prompt) beside it.
///
/// ```swift
/// TerminalColumns.width(of: "日本")                    // 4
/// TerminalColumns.prefix(of: "日本語", fitting: 5)     // "日本" (a character is never split)
/// TerminalColumns.truncate("Grüße aus Köln", to: 8)   // "Grüße a…"
/// ```
///
/// Widths come from the C library's `wcwidth`, asked under a UTF-8 `LC_CTYPE` set for the
/// calling thread only (`uselocale`), so the process's locale is never changed. A control
/// character counts one column (the list view shows it as a replacement).
public enum TerminalColumns {
  /// The columns `text` takes on a terminal.
  ///
  /// - Complexity: O(n) in the length of the text.
  public static func width(of text: String) -> Int {
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
    return withWidthLocale { text.reduce(0) { $0 + columns(of: $1) } }
  }

  /// The columns `character` (one grapheme cluster) takes: the width of its first scalar, two
  /// for an emoji presentation (U+FE0F) or a flag, never less than zero.
  public static func width(of character: Character) -> Int {
    withWidthLocale { columns(of: character) }
  }

  /// ``width(of:)-(Character)``, with the width locale already set by the caller.
  static func columns(of character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if first.value >= 0x20 && first.value < 0x7F { return 1 }
    if scalars.contains("\u{FE0F}") || (0x1F1E6...0x1F1FF).contains(first.value) { return 2 }
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
      let columns = Int(systemWcwidth(Int32(bitPattern: first.value)))
      return columns < 0 ? 1 : columns
    #else
      return 1
    #endif
  }

  /// `text` cut to at most `columns` columns: unchanged when it fits, otherwise the characters
  /// that fit in `columns - 1` columns followed by `…`.
  ///
  /// - Complexity: O(n) in the length of the text.
  public static func truncate(_ text: String, to columns: Int) -> String {
    guard width(of: text) > columns else { return text }
    guard columns > 0 else { return "" }
    return prefix(of: text, fitting: columns - 1) + "…"
  }

  /// The longest start of `text` that takes at most `columns` columns. A character is never
  /// split: a wide one that would cross the limit is left out.
  ///
  /// - Complexity: O(m) for the m characters kept.
  public static func prefix(of text: String, fitting columns: Int) -> String {
    withWidthLocale {
      var end = text.startIndex
      var used = 0
      for index in text.indices {
        let next = self.columns(of: text[index])
        if used + next > columns { break }
        used += next
        end = text.index(after: index)
      }
      return String(text[..<end])
    }
  }

  /// Runs `body` with a UTF-8 character type on this thread, so that `wcwidth` knows non-ASCII
  /// characters; the thread's previous locale is restored after.
  static func withWidthLocale<T>(_ body: () -> T) -> T {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
      guard let locale = utf8Locale else { return body() }
      let previous = uselocale(locale)
      defer { uselocale(previous) }
      return body()
    #else
      return body()
    #endif
  }
}

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
  /// A UTF-8 character-type locale, created once and never freed (it is read-only).
  nonisolated(unsafe) private let utf8Locale: locale_t? =
    newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) ?? newlocale(LC_CTYPE_MASK, "en_US.UTF-8", nil)
#endif

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
  /// The C library's `wcwidth` (the Glibc module does not export it: it is declared only under
  /// `_XOPEN_SOURCE`).
  @_silgen_name("wcwidth")
  private func systemWcwidth(_ character: Int32) -> Int32
#endif
