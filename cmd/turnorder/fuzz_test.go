package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/turnorder/turnorder/rulesets"
)

// FuzzPlayAnswers plays a bundled ruleset at the table with whatever a
// player types: a wrong answer is asked again, never a panic or a hang.
//
//	go test ./cmd/turnorder -run '^$' -fuzz FuzzPlayAnswers -fuzztime 60s
func FuzzPlayAnswers(f *testing.F) {
	names := rulesets.Names()
	for _, in := range []string{
		"4\n2\nJay\nmaybe\ny\n3\n3\n2\nn\n",
		"six\n\n-1\n6\n0\n3\n5\nRob\n",
		"a1\nremove zed\nremove a1\ny\nn\n",
		"pass\n9\na2\nset agi of a1 = 7\ny\nreverse\n",
		"1\n1\n1\n1\n1\nkeep\nset movement of md1 = -3\ny\n",
		"4\n2\nremove Krug\nGrath is out_of_action\nset x of Volk = 1\nremove Mira\n1\n",
		"4\nundo\nundo\n4\n2\n1\nundo\nundo\nundo\nremove Krug\nundo\n1\ny\nundo\nundo\nquit\nn\n",
		"1\n2\n3\nundo\n1\nset agi of Aria = 1\nundo\nundo\nundo\nundo\nundo\nundo\ny\n5\nundo\n",
	} {
		for i := range names {
			f.Add(uint8(i), in)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, stdin string) {
		if strings.Contains(strings.ToLower(stdin), "save") {
			return // it writes whatever file it names
		}
		// n at "another round?" asks for a file to save the battle to,
		// and writes whatever the next line names.
		t.Chdir(t.TempDir())
		var out, errOut bytes.Buffer
		code := run([]string{"play", names[int(which)%len(names)]}, strings.NewReader(stdin), &out, &errOut)
		if code != exitOK && code != exitError {
			t.Fatalf("exit status %d:\n%s", code, errOut.String())
		}
	})
}
