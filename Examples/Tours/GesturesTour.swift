import BlazeKit
import BlazeImageIO

func gesturesTour(photo: String) throws {
    let image = try ImageFile.read(path: photo)
    var options = GestureRecognizerOptions()                     // the bundled canned gestures
    options.numHands = 2
    let recognizer = try GestureRecognizer(options: options)
    let result = try recognizer.recognize(image: image)
    for (gestures, handedness) in zip(result.gestures, result.handedness) {
        print(handedness[0].categoryName ?? "", gestures.first?.categoryName ?? "-", gestures.first?.score ?? 0)
    }

    // A Model Maker bundle: `blaze-model convert my_gestures.task --output-dir my_gestures` first.
    var custom = GestureRecognizerOptions()
    custom.baseOptions.modelAssetPath = "my_gestures"
    custom.customGesturesClassifierOptions.scoreThreshold = 0.6  // default: the model's own (0.5)
    if let recognizer = try? GestureRecognizer(options: custom) {
        print(try recognizer.recognize(image: image).gestures)
    }
}
