extension HandLandmarker {
    /// A line between two landmarks (indices into a hand's 21 landmarks), for drawing.
    public struct Connection: Sendable, Hashable {
        public let start: Int
        public let end: Int

        public init(start: Int, end: Int) {
            self.start = start
            self.end = end
        }
    }

    private static func chain(_ pairs: [(Int, Int)]) -> [Connection] {
        pairs.map { Connection(start: $0.0, end: $0.1) }
    }

    /// The palm outline: (0,1) (0,5) (9,13) (13,17) (5,9) (0,17) — MediaPipe's order.
    public static let handPalmConnections = chain([(0, 1), (0, 5), (9, 13), (13, 17), (5, 9), (0, 17)])
    /// Thumb: 1–2–3–4.
    public static let handThumbConnections = chain([(1, 2), (2, 3), (3, 4)])
    /// Index finger: 5–6–7–8.
    public static let handIndexFingerConnections = chain([(5, 6), (6, 7), (7, 8)])
    /// Middle finger: 9–10–11–12.
    public static let handMiddleFingerConnections = chain([(9, 10), (10, 11), (11, 12)])
    /// Ring finger: 13–14–15–16.
    public static let handRingFingerConnections = chain([(13, 14), (14, 15), (15, 16)])
    /// Pinky: 17–18–19–20.
    public static let handPinkyConnections = chain([(17, 18), (18, 19), (19, 20)])
    /// All 21 connections: palm, thumb, index, middle, ring, pinky.
    public static let handConnections =
        handPalmConnections + handThumbConnections + handIndexFingerConnections
        + handMiddleFingerConnections + handRingFingerConnections + handPinkyConnections
}
