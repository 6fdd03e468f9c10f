import CatalogCore
import CatalogSearch

extension UsageStats {
    /// The JSON of openapi.yaml's `UsageStats`.
    var json: [UInt8] {
        var writer = SearchJSON(capacity: 256 + rows.count * (64 + query.days.count * 4))
        writer.object { page in
            page.field("action", query.action.rawValue)
            page.field("days", query.days.map(\.text))
            page.field("from", query.from.text)
            page.field("next", nextOffset.map { SearchCursor.encode(offset: $0) })
            page.key("rows")
            page.array(rows) { json, row in
                json.object { object in
                    object.key("counts")
                    object.array(row.counts) { $0.raw(Array(String($1).utf8)) }
                    if let group = row.group { object.field("group", group) }
                    object.field("id", row.id)
                    object.field("name", row.name)
                    object.field("total", row.total)
                }
            }
            page.field("to", query.to.text)
            page.field("total", total)
        }
        return writer.bytes
    }

    /// A header row (`id,name[,group],total,` and each day), then a row per sticker or group; RFC 4180 quoting.
    /// A name that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab or a carriage return first) is
    /// prefixed with an apostrophe.
    var csv: [UInt8] {
        let groups = query.subject == .stickers
        let header = ["id", "name"] + (groups ? ["group"] : []) + ["total"] + query.days.map(\.text)
        var lines = [header.joined(separator: ",")]
        for row in rows {
            let fields =
                [row.id, Self.cell(row.name ?? "")] + (groups ? [row.group ?? ""] : []) + ["\(row.total)"]
                + row.counts.map(String.init)
            lines.append(fields.joined(separator: ","))
        }
        return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    /// `text` as one CSV cell. The first Unicode scalar is what a spreadsheet reads, not the first character: `=`
    /// followed by a combining mark is one character that is not `=`, and went out unguarded.
    package static func cell(_ text: String) -> String {
        var text = text
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) { text = "'" + text }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
