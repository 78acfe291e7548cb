/// BlazeImageIO: JPEG/PNG/PPM files, YUV4MPEG2 video streams and drawing, to and from `VisionImage`.
public enum BlazeImageIOInfo {
    public static let version = "0.1.0"
}
