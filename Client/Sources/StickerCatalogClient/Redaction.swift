import Foundation

/// What an error may say of a URL: its scheme, host and path, never its query or fragment. A premium image's URL
/// carries its signature (`?exp=&sig=`), which must not outlive the request in an error, a log line, a crash report or
/// `sticker-sync`'s output; and the errors that carry URLs are not only this library's: `URLError` puts the failing
/// URL in its user info (`NSErrorFailingURLStringKey`), and its description prints it. So every error text this
/// library makes from something else's error goes through `describe`, whatever the error's type.
enum Redaction {
    /// `error` as text, each URL in it cut before its `?` or `#`.
    static func describe(_ error: any Error) -> String {
        text(String(describing: error))
    }

    /// `url` without its query or fragment.
    static func url(_ url: String) -> String {
        String(url.prefix { $0 != "?" && $0 != "#" })
    }

    /// `text` with every word that holds a path or URL (a `/` before a `?` or `#`) cut at that `?` or `#`, up to the
    /// word's end: a space, a quote, a bracket or a comma (a user-info dictionary's separators, as Foundation prints
    /// them on every platform).
    static func text(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var slash = false
        var cutting = false
        for scalar in text.unicodeScalars {
            if ends(scalar) {
                (slash, cutting) = (false, false)
                out.append(scalar)
                continue
            }
            if cutting { continue }
            if scalar == "/" { slash = true }
            if slash && (scalar == "?" || scalar == "#") {
                cutting = true
                continue
            }
            out.append(scalar)
        }
        return String(out)
    }

    /// Whether `scalar` ends a word as URLs are printed in messages and descriptions.
    private static func ends(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case " ", "\t", "\n", "\r", "\"", "'", "(", ")", "[", "]", "{", "}", "<", ">", ",", ";", "|": true
        default: false
        }
    }
}
