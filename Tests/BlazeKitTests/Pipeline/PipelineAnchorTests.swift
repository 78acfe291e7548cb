import Testing
@testable import BlazeKit

/// S2 anchors: counts equal the models' output rows, spot checks of docs/pipelines.md §9.
@Suite struct PipelineAnchorTests {
    @Test func countsMatchTheModels() {
        #expect(SSDAnchorOptions.faceShortRange.anchors().count == 896)
        #expect(SSDAnchorOptions.faceFullRange.anchors().count == 2304)
        #expect(SSDAnchorOptions.palm.anchors().count == 2016)
        #expect(SSDAnchorOptions.faceShortRange.anchorCount == 896)
        #expect(SSDAnchorOptions.palm.anchorCount == 2016)
    }

    @Test func groupsMergeEqualStrides() {
        let groups = SSDAnchorOptions.faceShortRange.groups
        #expect(groups.count == 2)
        #expect(groups[0] == (16, 16, 2))
        #expect(groups[1] == (8, 8, 6))
        let palm = SSDAnchorOptions.palm.groups
        #expect(palm[0] == (24, 24, 2) && palm[1] == (12, 12, 6))
        #expect(SSDAnchorOptions.faceFullRange.groups[0] == (48, 48, 1))
    }

    @Test func spotChecks() {
        let short = SSDAnchorOptions.faceShortRange.anchors()
        #expect(short[0] == SSDAnchor(xCenter: 0.03125, yCenter: 0.03125))
        #expect(short[1] == SSDAnchor(xCenter: 0.03125, yCenter: 0.03125))  // 2 anchors per cell
        #expect(short[2] == SSDAnchor(xCenter: 0.09375, yCenter: 0.03125))
        #expect(short[512] == SSDAnchor(xCenter: 0.0625, yCenter: 0.0625))
        #expect(short[895] == SSDAnchor(xCenter: 0.9375, yCenter: 0.9375))
        let full = SSDAnchorOptions.faceFullRange.anchors()
        #expect(full[0] == SSDAnchor(xCenter: Float(0.5) / 48, yCenter: Float(0.5) / 48))
        #expect(abs(full[0].xCenter - 1.0 / 96) < 1e-9)
        #expect(full[2303].xCenter == Float(47.5) / 48)
        let palm = SSDAnchorOptions.palm.anchors()
        #expect(palm[1152] == SSDAnchor(xCenter: Float(0.5) / 12, yCenter: Float(0.5) / 12))
        #expect(abs(palm[1152].xCenter - 1.0 / 24) < 1e-9)
        #expect(palm.allSatisfy { $0.width == 1 && $0.height == 1 })
    }

    /// Anchor index = group offset + (y·fw + x)·perCell + k.
    @Test func indexLayout() {
        let palm = SSDAnchorOptions.palm.anchors()
        let (x, y, k) = (5, 7, 3)
        let a = palm[1152 + (y * 12 + x) * 6 + k]
        #expect(a.xCenter == (Float(x) + 0.5) / 12 && a.yCenter == (Float(y) + 0.5) / 12)
    }
}
