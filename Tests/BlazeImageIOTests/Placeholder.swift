import Testing
@testable import BlazeImageIO
@Test func placeholderVersion() { #expect(BlazeImageIOInfo.version == "0.1.0") }
