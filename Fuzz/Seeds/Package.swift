// swift-tools-version: 6.2
// Writes the generated seeds of Fuzz/Corpus (small .bkm and .npy files); see Fuzz/README.md.
import PackageDescription

let package = Package(
    name: "BlazeKitFuzzSeeds",
    dependencies: [.package(name: "BlazeKit", path: "../..")],
    targets: [.executableTarget(name: "fuzz-seeds", dependencies: [.product(name: "BlazeConvert", package: "BlazeKit"), .product(name: "BlazeEngine", package: "BlazeKit")])]
)
