// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "BlazeKit",
    products: [
        .library(name: "BlazeEngine", targets: ["BlazeEngine"]),
        .library(name: "BlazeModels", targets: ["BlazeModels"]),
        .library(name: "BlazeKit", targets: ["BlazeKit"]),
        .library(name: "BlazeImageIO", targets: ["BlazeImageIO"]),
        .executable(name: "blaze-model", targets: ["blaze-model"]),
        .executable(name: "blaze", targets: ["blaze"]),
        .executable(name: "bench", targets: ["bench"]),
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
        .target(
            name: "BlazeImageIO",
            dependencies: ["BlazeKit", "CTurboJPEG", "CPNG"],
            path: "Sources/BlazeImageIO"
        ),
        .target(
            name: "BlazeEngine",
            dependencies: ["COpenBLAS"],
            path: "Sources/BlazeEngine"
        ),
        .target(
            name: "BlazeConvert",
            dependencies: ["BlazeEngine"],
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
            dependencies: ["BlazeKit", "BlazeImageIO", "BlazeCLISupport"],
            path: "Tools/blaze"
        ),
        .executableTarget(
            name: "bench",
            dependencies: ["BlazeEngine", "BlazeModels", "BlazeKit", "BlazeImageIO"],
            path: "Benchmarks/bench"
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
            name: "BlazeConvertTests",
            dependencies: ["BlazeEngine", "BlazeConvert", "BlazeModels", "BlazeTestSupport"],
            path: "Tests/BlazeConvertTests",
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
