// The engine's error type is part of BlazeKit's API (faces throw it; `HandLandmarkerError` wraps
// what the engine reports): `import BlazeKit` alone lets callers `catch let e as BlazeError`.
@_exported import struct BlazeEngine.BlazeError

/// BlazeKit: on-device face detection (ML Kit style) and hand landmarks (MediaPipe Tasks style)
/// in pure Swift. Images come in as `VisionImage`; the nets run on `BlazeEngine`.
public enum BlazeKitInfo {
    public static let version = "0.1.0"
}
