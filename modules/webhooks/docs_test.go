package webhooks_test

import (
	"os"
	"regexp"
	"slices"
	"testing"

	"marquee/modules/webhooks"
)

// The webhooks section of /developers lists exactly the events an endpoint receives: the types
// one can subscribe to and the test event (the page agrees with the server).
func TestDevelopersPageListsEveryEvent(t *testing.T) {
	src, err := os.ReadFile("../../webapp/src/features/developers/webhookDocs.ts")
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, m := range regexp.MustCompile(`\{ type: '([a-z_.]+)'`).FindAllStringSubmatch(string(src), -1) {
		listed = append(listed, m[1])
	}
	want := append(slices.Clone(webhooks.EventTypes), webhooks.TypeTest)
	slices.Sort(listed)
	slices.Sort(want)
	if !slices.Equal(listed, want) {
		t.Errorf("/developers lists %v, the server sends %v", listed, want)
	}
}
