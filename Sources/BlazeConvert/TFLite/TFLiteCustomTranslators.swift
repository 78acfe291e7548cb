import BlazeEngine

/// Translators of the MediaPipe custom ops, keyed by `custom_code` (a TFLite CUSTOM operator
/// carries its name there and its parameters as opaque `custom_options` bytes).
extension TFLiteConverter {
    static let customTranslators: [String: Translator] = [
        "Convolution2DTransposeBias": transposeConvBias,
        "Landmarks2TransformMatrix": landmarksToTransformMatrix,
        "TransformTensorBilinear": transformTensorBilinear,
        "TransformLandmarks": transformLandmarks
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

    // MARK: MediaPipe face-attention ops (FlexBuffer map options)

    /// Throws unless the operator code has `version` (MediaPipe gives v1 and v2 of an op one name).
    static func expectVersion(_ c: TranslationContext, _ version: Int) throws {
        let v = c.model.operatorCodes[c.op.opcodeIndex].version
        guard v == version else { throw BlazeError(.unsupported, "version \(v) is not supported (only \(version))") }
    }

    /// `Landmarks2TransformMatrix` v2: one `[1, N, 3]` input; options map with
    /// left_rotation_idx, right_rotation_idx, target_rotation_radians, output_height,
    /// output_width, scale_x, scale_y and subset_idxs (index pairs stored flat; MediaPipe pairs
    /// an odd last index with itself, which leaves the bounding box as it is, so the list is
    /// kept flat).
    @Sendable static func landmarksToTransformMatrix(_ c: inout TranslationContext) throws -> Op {
        try expectVersion(c, 2)
        try c.expectInputs(1...1)
        let o = try CustomOptionsMap(c.customOptions)
        let subset = try o.ints("subset_idxs")
        guard !subset.isEmpty else { throw BlazeError(.corruptModel, "custom option subset_idxs is empty") }
        let p = LandmarksToTransformMatrixParams(
            leftRotationIndex: try o.int("left_rotation_idx", in: 0...(1 << 20)),
            rightRotationIndex: try o.int("right_rotation_idx", in: 0...(1 << 20)),
            targetRotationRadians: try o.float("target_rotation_radians", default: 0),
            outputHeight: try o.int("output_height", in: 1...65536), outputWidth: try o.int("output_width", in: 1...65536),
            scaleX: try o.float("scale_x", positive: true), scaleY: try o.float("scale_y", positive: true), subset: subset)
        try c.data(0)
        return .landmarksToTransformMatrix(p)
    }

    /// `TransformTensorBilinear` v2: inputs `[1, H, W, C]` and a `[1, 4, 4]` matrix; options map
    /// with output_height, output_width.
    @Sendable static func transformTensorBilinear(_ c: inout TranslationContext) throws -> Op {
        try expectVersion(c, 2)
        try c.expectInputs(2...2)
        let o = try CustomOptionsMap(c.customOptions)
        let p = TransformTensorBilinearParams(
            outputHeight: try o.int("output_height", in: 1...65536),
            outputWidth: try o.int("output_width", in: 1...65536))
        try c.data(0); try c.data(1)
        return .transformTensorBilinear(p)
    }

    /// `TransformLandmarks` v2: inputs `[1, N, 2|3]` and a `[1, 4, 4]` matrix; no options (the
    /// landmark size is the last dimension).
    @Sendable static func transformLandmarks(_ c: inout TranslationContext) throws -> Op {
        try expectVersion(c, 2)
        try c.expectInputs(2...2)
        try c.data(0); try c.data(1)
        return .transformLandmarks
    }
}

/// A custom op's FlexBuffer options map, read by key with typed, range-checked accessors.
struct CustomOptionsMap {
    let values: [String: FlexValue]

    init(_ bytes: ArraySlice<UInt8>) throws {
        guard case .map(let m) = try FlexValue.parse(bytes) else {
            throw BlazeError(.corruptModel, "custom options are not a FlexBuffer map")
        }
        values = m
    }

    func value(_ key: String) throws -> FlexValue {
        guard let v = values[key] else { throw BlazeError(.corruptModel, "custom option \(key) is missing") }
        return v
    }

    func int(_ key: String, in range: ClosedRange<Int>) throws -> Int {
        guard let v = try value(key).integer, range.contains(v) else {
            throw BlazeError(.corruptModel, "custom option \(key) is \(try value(key)), expected an integer in \(range)")
        }
        return v
    }

    func float(_ key: String, default fallback: Float? = nil, positive: Bool = false) throws -> Float {
        if values[key] == nil, let fallback { return fallback }
        guard let d = try value(key).number, case let f = Float(d), f.isFinite, !positive || f > 0 else {
            throw BlazeError(.corruptModel, "custom option \(key) is \(try value(key)), expected a finite\(positive ? " positive" : "") number")
        }
        return f
    }

    func ints(_ key: String) throws -> [Int] {
        guard case .vector(let items) = try value(key), items.count <= 4096 else {
            throw BlazeError(.corruptModel, "custom option \(key) is not a vector of at most 4096 integers")
        }
        return try items.enumerated().map { i, item in
            guard let v = item.integer, (0...(1 << 20)).contains(v) else {
                throw BlazeError(.corruptModel, "custom option \(key)[\(i)] is \(item), expected an index in 0...\(1 << 20)")
            }
            return v
        }
    }
}
