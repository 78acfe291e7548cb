// swift-tools-version: 6.2
// 6.2 or later is required: from 6.2 on, SwiftPM accepts `.unsafeFlags` in a package consumed by
// version (`from:`), which the per-ISA kernel targets below need for their `-target-cpu`.
import PackageDescription

/// One kernel module per ISA level, each compiled from BlazeKernels/Shared with its own CPU flags;
/// the engine picks one at run time (`ISALevel`). Only these internal targets carry ISA flags.
/// The manifest runs on the building machine, so `#if arch` is that machine's architecture, not the
/// target's, and SwiftPM has no target-architecture condition: a cross build from x86-64 to arm64
/// says so with `BLAZEKIT_TARGET_ARCH=aarch64` (`make aarch64` sets it), or it would get the AVX sets.
///
/// The baseline module is named `BlazeKernels` on purpose: every level compiles the same types, so
/// the compiler emits the same linkonce helpers (`__swift_memcpy…` value witnesses) in each, and
/// the linker keeps the first copy in link order, which SwiftPM sorts by module name. The baseline
/// copy must come first, or baseline code would run an AVX helper. `Tools/isa/check_isa_isolation.sh`
/// (run by `.ci/run`) checks the linked binaries for exactly this.
let neonLevels: [(name: String, folder: String, settings: [SwiftSetting])] = [
    ("BlazeKernelsNEON", "NEON", [.define("BLAZE_FMA")])
]
#if arch(x86_64)
    let kernelLevels: [(name: String, folder: String, settings: [SwiftSetting])] =
        Context.environment["BLAZEKIT_TARGET_ARCH"] == "aarch64"
        ? neonLevels
        : [
            ("BlazeKernels", "Baseline", []),
            ("BlazeKernelsAVX2", "AVX2", [.define("BLAZE_FMA"), .unsafeFlags(["-target-cpu", "haswell"])]),
            ("BlazeKernelsAVX512", "AVX512", [.define("BLAZE_FMA"), .unsafeFlags(["-target-cpu", "skylake-avx512"])])
        ]
#else
    let kernelLevels = neonLevels
#endif

let kernelTargets: [Target] = kernelLevels.map { level in
    .target(
        name: level.name,
        dependencies: ["BlazeEngineCore", "COpenBLAS"],
        path: "Sources/BlazeKernels/\(level.folder)",
        swiftSettings: level.settings
    )
}

let package = Package(
    name: "BlazeKit",
    products: [
        .library(name: "BlazeEngine", targets: ["BlazeEngine"]),
        .library(name: "BlazeModels", targets: ["BlazeModels"]),
        .library(name: "BlazeKit", targets: ["BlazeKit"]),
        .library(name: "BlazeImageIO", targets: ["BlazeImageIO"]),
        // Video files and cameras through FFmpeg's libraries; apps that link only BlazeKit do not need FFmpeg.
        .library(name: "BlazeVideo", targets: ["BlazeVideo"]),
        .library(name: "BlazeConvert", targets: ["BlazeConvert"]),
        .executable(name: "blaze-model", targets: ["blaze-model"]),
        .executable(name: "blaze", targets: ["blaze"]),
        .executable(name: "bench", targets: ["bench"])
    ],
    targets: [
        .systemLibrary(
            name: "COpenBLAS",
            path: "Sources/COpenBLAS",
            pkgConfig: "openblas",
            providers: [.apt(["libopenblas-dev"])]
        ),
        .systemLibrary(
            name: "CTurboJPEG",
            path: "Sources/CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        .systemLibrary(
            name: "CPNG",
            path: "Sources/CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .target(
            name: "BlazeKit",
            dependencies: ["BlazeEngine", "BlazeModels"],
            path: "Sources/BlazeKit"
        ),
        .systemLibrary(
            name: "CFFmpeg",
            path: "Sources/CFFmpeg",
            // libavutil's flags: the headers' folder and only the libraries linked (shim.h).
            pkgConfig: "libavutil",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "libavdevice-dev"])]
        ),
        .target(
            name: "BlazeVideo",
            dependencies: ["BlazeKit", "BlazeImageIO", "CFFmpeg"],
            path: "Sources/BlazeVideo"
        ),
        .target(
            name: "BlazeImageIO",
            dependencies: ["BlazeKit", "CTurboJPEG", "CPNG"],
            path: "Sources/BlazeImageIO"
        ),
        .systemLibrary(
            name: "CCPUFeatures",
            path: "Sources/CCPUFeatures"
        ),
        .target(
            name: "BlazeEngineCore",
            dependencies: ["COpenBLAS", "CCPUFeatures"],
            path: "Sources/BlazeEngineCore"
        ),
        .target(
            name: "BlazeEngine",
            dependencies: ["BlazeEngineCore", "COpenBLAS"] + kernelLevels.map { .target(name: $0.name) },
            path: "Sources/BlazeEngine"
        ),
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(
            name: "BlazeConvert",
            dependencies: ["BlazeEngine", "CZlib"],
            path: "Sources/BlazeConvert"
        ),
        .target(
            name: "BlazeModels",
            dependencies: ["BlazeEngine"],
            path: "Models",
            exclude: ["README.md", "NOTICE", "LICENSE", "sources"],
            resources: [.copy("bkm")]
        ),
        .target(
            name: "BlazeCLISupport",
            dependencies: ["BlazeEngine"],
            path: "Tools/CLISupport"
        ),
        .executableTarget(
            name: "blaze-model",
            dependencies: ["BlazeEngine", "BlazeConvert", "BlazeCLISupport"],
            path: "Tools/blaze-model"
        ),
        .executableTarget(
            name: "blaze",
            dependencies: ["BlazeKit", "BlazeImageIO", "BlazeVideo", "BlazeConvert", "BlazeCLISupport"],
            path: "Tools/blaze"
        ),
        .executableTarget(
            name: "bench",
            dependencies: ["BlazeEngine", "BlazeModels", "BlazeKit", "BlazeImageIO"],
            path: "Benchmarks/bench"
        ),
        // The README's API tours, compiled with everything else (ReadmeToursTests keeps them equal).
        .executableTarget(
            name: "blaze-tours",
            dependencies: ["BlazeKit", "BlazeImageIO", "BlazeVideo", "BlazeEngine", "BlazeModels"],
            path: "Examples/Tours"
        ),
        .target(
            name: "BlazeTestSupport",
            dependencies: ["BlazeEngine"],
            path: "Tests/BlazeTestSupport"
        ),
        .testTarget(
            name: "BlazeEngineTests",
            dependencies: ["BlazeEngine", "BlazeModels", "BlazeTestSupport"],
            path: "Tests/BlazeEngineTests",
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "BlazeKitTests",
            dependencies: ["BlazeKit", "BlazeImageIO", "BlazeEngine", "BlazeModels", "BlazeTestSupport"],
            path: "Tests/BlazeKitTests",
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "BlazeImageIOTests",
            dependencies: ["BlazeImageIO", "BlazeKit", "BlazeTestSupport"],
            path: "Tests/BlazeImageIOTests",
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "BlazeVideoTests",
            dependencies: ["BlazeVideo", "BlazeImageIO", "BlazeKit", "BlazeEngine", "BlazeTestSupport"],
            path: "Tests/BlazeVideoTests",
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "BlazeConvertTests",
            dependencies: ["BlazeEngine", "BlazeConvert", "BlazeModels", "BlazeTestSupport"],
            path: "Tests/BlazeConvertTests",
            resources: [.copy("Fixtures")]
        )
    ] + kernelTargets,
    swiftLanguageModes: [.v6]
)
