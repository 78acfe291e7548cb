// The README's API tours, compiled with the package (so a tour that stops compiling fails the
// build), and runnable: `swift run -c release blaze-tours PHOTO [VIDEO]`. Each tour's body is
// the README's code block verbatim (ReadmeToursTests checks that); the lines before it in each
// function supply the names the README takes as given.
import Foundation

let arguments = CommandLine.arguments.dropFirst()
if let photo = arguments.first {
    let folder = (photo as NSString).deletingLastPathComponent
    guard folder.isEmpty || FileManager.default.changeCurrentDirectoryPath(folder) else {
        print("blaze-tours: cannot enter \(folder)")
        exit(1)
    }
    try facesTour()
    try handsTour(photo: (photo as NSString).lastPathComponent)
    try faceLandmarkerTour(photo: (photo as NSString).lastPathComponent)
    try gesturesTour(photo: (photo as NSString).lastPathComponent)
    try delegateTour()
    try buffersTour()
    try await liveStreamTour(photo: (photo as NSString).lastPathComponent)
    try batchTour(paths: [(photo as NSString).lastPathComponent])
    try engineTour()
    if arguments.count > 1 { try videoTour() }
} else {
    print("usage: blaze-tours PHOTO [VIDEO]   (runs the README's tours; faces on PHOTO renamed three_people.jpg, video clip.mp4 next to it)")
}
