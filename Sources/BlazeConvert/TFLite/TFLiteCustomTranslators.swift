import BlazeEngine

/// Translators of the MediaPipe custom ops, keyed by `custom_code` (a TFLite CUSTOM operator
/// carries its name there and its parameters as opaque `custom_options` bytes).
extension TFLiteConverter {
    static let customTranslators: [String: Translator] = [
        "Convolution2DTransposeBias": transposeConvBias,
    ]

    /// The translator of an operator code: a builtin's, or a custom op's by name.
    static func translator(for code: TFLiteModel.OperatorCode) -> Translator? {
        if code.builtin == .custom { return code.customCode.flatMap { customTranslators[$0] } }
        return translators[code.builtin]
    }

    /// `Convolution2DTransposeBias`: inputs x, OHWI weights, bias. Its custom options are
    /// TFLite's `TfLiteTransposeConvParams` struct as raw bytes: i32 padding (TfLitePadding:
    /// 1 SAME, 2 VALID), i32 stride_width, i32 stride_height. MediaPipe's kernel reads only these
    /// three words, so longer blocks (later TFLite versions append fields) are accepted.
    @Sendable static func transposeConvBias(_ c: inout TranslationContext) throws -> Op {
        try c.expectInputs(3...3)
        let bytes = c.customOptions
        guard bytes.count >= 12 else {
            throw BlazeError(.corruptModel, "custom options have \(bytes.count) bytes, expected at least 12 (padding, stride_width, stride_height)")
        }
        func word(_ i: Int) -> Int32 {
            let at = bytes.startIndex + 4 * i
            return Int32(bitPattern: UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24)
        }
        let padding: Padding
        switch word(0) {
        case 1: padding = .same
        case 2: padding = .valid
        default: throw BlazeError(.corruptModel, "custom options have padding \(word(0)), expected 1 (SAME) or 2 (VALID)")
        }
        let strideW = Int(word(1)), strideH = Int(word(2))
        guard (1...65536).contains(strideW), (1...65536).contains(strideH) else {
            throw BlazeError(.corruptModel, "custom options have stride \(strideH)×\(strideW), expected 1...65536")
        }
        try c.data(0); try c.data(1); try c.data(2)
        return .transposeConv2D(TransposeConv2DParams(strideH: strideH, strideW: strideW, padding: padding))
    }
}
