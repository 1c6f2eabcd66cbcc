package suggest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

func ExampleDidYouMean() {
	fmt.Println(DidYouMean("commandPrefx", []string{"commandPrefix", "commandRegex", "toolName"}))
	fmt.Printf("%q\n", DidYouMean("zzz", []string{"commandPrefix"}))
	// Output:
	//  (did you mean commandPrefix?)
	// ""
}

// [word, candidates, suggested]: a slip is an edit distance of at most a
// third of the word, two letters swapped, or a prefix of three letters.
func TestDidYouMean(t *testing.T) {
	for _, tc := range []struct {
		word, want string
		candidates []string
	}{
		{"biuld", "build", []string{"build"}},
		{"Raed", "Read", []string{"Read", "Write"}},
		{"prox", "proxy", []string{"proxy"}},
		{"alow", "allow", []string{"allow", "deny", "ask"}},
		{"xyz", "", []string{"allow", "deny"}},
		{"anything", "", nil},
	} {
		want := ""
		if tc.want != "" {
			want = " (did you mean " + tc.want + "?)"
		}
		require.Equal(t, want, DidYouMean(tc.word, tc.candidates), tc.word)
	}
}
