package campaigns

import "testing"

func TestDisplayStatusShowsPaidAsPending(t *testing.T) {
	for stored, want := range map[string]string{StatusPaid: StatusPending, StatusPending: StatusPending,
		StatusActive: StatusActive, StatusPaused: StatusPaused, StatusCompleted: StatusCompleted} {
		if got := DisplayStatus(stored); got != want {
			t.Errorf("DisplayStatus(%q) = %q, want %q", stored, got, want)
		}
	}
	if CampaignTypeOf(true) != "Basic" || CampaignTypeOf(false) != "Premium" {
		t.Fatal("campaign type of A §1")
	}
}
