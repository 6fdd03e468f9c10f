import PostgresNIO

/// A row's cells decoded one after another, each with its concrete type. Decoding a whole row as a tuple goes through
/// Swift's generic metadata once per row, which was most of the cost of reading a 10,000-sticker catalog.
package struct PostgresCells {
    private var cells: PostgresRow.Iterator

    package init(_ row: PostgresRow) {
        cells = row.makeIterator()
    }

    /// The next cell as `T`.
    package mutating func next<T: PostgresDecodable>(_ type: T.Type = T.self) throws -> T {
        guard let cell = cells.next() else { throw PostgresDecodingError.Code.missingData }
        return try cell.decode(T.self)
    }
}
