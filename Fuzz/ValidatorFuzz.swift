// libFuzzer entry point for the upload validator, compiled together with Sources/StickerImage by scripts/fuzz.sh
// (swiftc -sanitize=fuzzer,address). Any crash, leak, hang or sanitizer report is a finding.

@_cdecl("LLVMFuzzerTestOneInput")
public func validatorFuzz(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let validator = StickerValidator()
    // The upload path, and the format check that decodes any image whatever its size.
    if let info = try? validator.validate(bytes) {
        // What is stored must itself validate, to the same picture.
        precondition(
            (try? validator.validate(info.storedBytes)) != nil, "stored bytes of a valid sticker do not validate")
    }
    try? validator.checkFormat(bytes)
    return 0
}
