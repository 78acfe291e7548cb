import Testing
@testable import BlazeKit
@Test func placeholderVersion() { #expect(BlazeKitInfo.version == "0.1.0") }
