package corpus

import (
	"fmt"
	"os"
	"strconv"
)

// ScaleVariable names the environment variable that multiplies how many
// generated documents (and goroutines) a test checks a property on:
// make test leaves it unset (1), make soak sets it to 10.
const ScaleVariable = "TOOLEVAL_TEST_SCALE"

// Scaled returns n times the scale in ScaleVariable, or an error when the
// variable is set to anything but a positive whole number.
func Scaled(n int) (int, error) {
	s := os.Getenv(ScaleVariable)
	if s == "" {
		return n, nil
	}
	k, err := strconv.Atoi(s)
	if err != nil || k < 1 {
		return 0, fmt.Errorf("%s=%q: want a positive whole number", ScaleVariable, s)
	}
	return n * k, nil
}
