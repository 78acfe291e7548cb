/// BlazeKit: on-device face detection (ML Kit style) and hand landmarks (MediaPipe Tasks style)
/// in pure Swift. Images come in as `VisionImage`; the nets run on `BlazeEngine`.
public enum BlazeKitInfo {
    public static let version = "0.1.0"
}
