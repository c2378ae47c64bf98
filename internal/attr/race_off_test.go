//go:build !race

package attr

const raceDetector = false
