import Foundation

/// Entity-tag comparison for `If-None-Match` (RFC 9110 13.1.2: weak comparison, lists and `*`).
package enum ETag {
    package static func matches(_ ifNoneMatch: String?, _ etag: String) -> Bool {
        guard let ifNoneMatch else { return false }
        if ifNoneMatch == etag { return true }
        return ifNoneMatch.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }
}
