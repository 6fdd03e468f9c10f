import CLibPNG

/// One chunk of a PNG stream: its four-letter type and where its data lies in the file.
public struct PNGChunk: Sendable, Equatable {
    public let type: String
    /// Offset of the chunk's data (after length and type) in the file.
    public let dataOffset: Int
    public let length: Int

    public var data: Range<Int> { dataOffset..<(dataOffset + length) }
    /// The whole chunk: length, type, data and CRC.
    public var whole: Range<Int> { (dataOffset - 8)..<(dataOffset + length + 4) }
    /// Critical chunks have an upper-case first letter; a decoder must understand them.
    public var isCritical: Bool { type.utf8.first.map { $0 < 97 } ?? false }
}

/// Walks a PNG file chunk by chunk, checking every length and CRC, without decoding anything.
public enum PNGChunkWalker {
    /// The chunks from the signature to `IEND`, which must end the file, or the reason the stream is broken.
    public static func chunks(of bytes: [UInt8]) -> Result<[PNGChunk], StickerRejection> {
        guard bytes.starts(with: ImageFormat.pngSignature) else {
            return .failure(.unsupportedFormat(.unknown))
        }
        var chunks: [PNGChunk] = []
        var offset = ImageFormat.pngSignature.count
        while offset < bytes.count {
            guard bytes.count - offset >= 12 else {
                return .failure(.corrupt("truncated chunk header at byte \(offset)"))
            }
            let length = Int(bigEndian32(bytes, offset))
            let typeBytes = bytes[(offset + 4)..<(offset + 8)]
            guard typeBytes.allSatisfy({ (65...90).contains($0) || (97...122).contains($0) }) else {
                return .failure(.corrupt("invalid chunk type at byte \(offset)"))
            }
            let type = String(decoding: typeBytes, as: UTF8.self)
            guard length <= 0x7FFF_FFFF, length <= bytes.count - offset - 12 else {
                return .failure(
                    .corrupt("chunk \(type) at byte \(offset) claims \(length) bytes, past the end of the file"))
            }
            let stored = bigEndian32(bytes, offset + 8 + length)
            let computed = bytes.withUnsafeBufferPointer { buffer in
                UInt32(crc32(0, buffer.baseAddress! + offset + 4, UInt32(length + 4)))
            }
            guard stored == computed else {
                return .failure(.corrupt("CRC mismatch in chunk \(type) at byte \(offset)"))
            }
            chunks.append(PNGChunk(type: type, dataOffset: offset + 8, length: length))
            offset += 12 + length
            if type == "IEND" {
                guard offset == bytes.count else {
                    return .failure(.corrupt("\(bytes.count - offset) bytes follow the IEND chunk"))
                }
                return .success(chunks)
            }
        }
        return .failure(.corrupt("the file ends before its IEND chunk"))
    }

    /// A whole chunk: length, type, data and CRC.
    public static func encode(type: String, data: [UInt8]) -> [UInt8] {
        bigEndian(UInt32(data.count)) + Array(type.utf8) + data + bigEndian(crc(type: type, data: data))
    }

    /// The CRC-32 a chunk of `type` with `data` must carry.
    public static func crc(type: String, data: [UInt8]) -> UInt32 {
        let bytes = Array(type.utf8) + data
        return UInt32(bytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) })
    }

    /// Reads a big-endian 32-bit value at `offset`.
    static func bigEndian32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    static func bigEndian16(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }
}
