import Foundation

/// Paths inside the source checkout, for tests that read committed files too large to copy as
/// resources (model sources, parity fixtures). Tests never read anything outside the repo.
public enum RepoPaths {
    /// The repository root (this file is Tests/BlazeTestSupport/RepoPaths.swift).
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static var modelSources: URL { root.appendingPathComponent("Models/sources") }
    public static var bundledModels: URL { root.appendingPathComponent("Models/bkm") }
    public static var parityFixtures: URL { root.appendingPathComponent("Tests/BlazeEngineTests/Fixtures/parity") }
}

extension RepoPaths {
    /// Copy of the project's shared test photos and MediaPipe 0.10.21 reference outputs
    /// (Tests/Fixtures/testdata; provenance and licences in its SOURCES.md).
    public static var testdata: URL { root.appendingPathComponent("Tests/Fixtures/testdata") }
    public static var testImages: URL { testdata.appendingPathComponent("images") }
    /// MediaPipe 0.10.21's outputs for those photos, made by
    /// Tools/fixtures/testdata/make_mediapipe_references.py.
    public static var referenceOutputs: URL { testdata.appendingPathComponent("reference") }
}
