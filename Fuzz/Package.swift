// swift-tools-version: 6.2
// libFuzzer harnesses for every parser of outside bytes (see Fuzz/README.md). Built by
// `make fuzz` with `-sanitize=fuzzer,address`; not part of the library or the normal build.
import PackageDescription

let targets: [(name: String, products: [String])] = [
    ("fuzz-bkm", ["BlazeEngine"]),
    ("fuzz-tflite", ["BlazeConvert"]),
    ("fuzz-zip", ["BlazeConvert"]),
    ("fuzz-image", ["BlazeImageIO"]),
    ("fuzz-y4m", ["BlazeImageIO"]),
    ("fuzz-npy", ["BlazeEngine"]),
    ("fuzz-video", ["BlazeVideo"])
]

let package = Package(
    name: "BlazeKitFuzz",
    dependencies: [.package(name: "BlazeKit", path: "..")],
    targets: targets.map { t in
        .executableTarget(
            name: t.name,
            dependencies: t.products.map { .product(name: $0, package: "BlazeKit") },
            path: "Sources/\(t.name)",
            // No top-level code: `<module>_main` is the harness's own (see Driver/FuzzDriver.swift).
            swiftSettings: [.unsafeFlags(["-parse-as-library"])],
            // gold crashes (internal error in its DWARF reader) linking the instrumented binaries.
            linkerSettings: [.unsafeFlags(["-use-ld=lld"])]
        )
    }
)
