extension ModelFile {
    /// Constants of the `.bkm` layout shared by the reader and the writer (see the layout comment
    /// at the top of `ModelFileReader.swift` and `docs/bkm-format.md`).
    public enum Layout {
        /// The first 8 bytes of every `.bkm` file.
        public static let magic: [UInt8] = Array("BLAZEKIT".utf8)
        /// The only version this reader accepts; bump it on any incompatible layout change.
        public static let formatVersion: UInt32 = 1
        /// Size of the fixed header; the graph section starts right after it.
        public static let headerSize = 64
        /// Every weight blob and the weights section itself start at a file offset that is a multiple of this.
        public static let weightAlignment = 64
        /// `TensorDescriptor.constant` value meaning "not a constant".
        public static let noConstant: UInt32 = 0xFFFF_FFFF

        /// Largest dimension of any shape (tensor, constant, RESHAPE target).
        public static let maxDimension = Int(Int32.max)
        /// Largest string (tensor name, metadata key or value), in UTF-8 bytes.
        public static let maxStringBytes = 1 << 20
        /// Most constants in one file.
        public static let maxConstants = Graph.Limits.maxTensors
        /// Most input or output tensors of one node.
        public static let maxNodeTensors = 4096
        /// Most metadata entries.
        public static let maxMetadataEntries = 1 << 16
        /// Largest encoded parameter block of one op.
        public static let maxParameterBytes = 1 << 12

        /// `value` rounded up to `weightAlignment`, or `nil` on overflow.
        public static func aligned(_ value: Int) -> Int? {
            let (sum, overflow) = value.addingReportingOverflow(weightAlignment - 1)
            guard value >= 0, !overflow else { return nil }
            return sum / weightAlignment * weightAlignment
        }
    }
}
