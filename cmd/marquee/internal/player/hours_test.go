package player

import (
	"fmt"
	"testing"
	"time"
)

// The player plays only within the schedule's hours, read on the schedule's clock: a face whose
// zone is not the machine's nor the business zone opened half an hour ago (its time), so an hour
// of play holds about half an hour of plays, every one after the opening there.
func TestPlayerPlaysOnlyInTheSchedulesHoursAndZone(t *testing.T) {
	f := newFakeServer(t, creatives, nil)
	var zone *time.Location
	var now int
	for _, name := range []string{"America/Los_Angeles", "Asia/Tokyo", "Europe/Berlin"} {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		lt := time.Now().In(loc)
		// Away from midnight, so that the hour played and the window are on one local day.
		if m := lt.Hour()*60 + lt.Minute(); m >= 90 && m <= 22*60 {
			zone, now = loc, m
			break
		}
	}
	if zone == nil {
		t.Fatal("no candidate zone is away from midnight now")
	}
	open := now - 30
	f.mu.Lock()
	f.sched.Timezone = zone.String()
	f.sched.Hours.Open, f.sched.Hours.Close = fmt.Sprintf("%02d:%02d", open/60, open%60), fmt.Sprintf("%02d:%02d", (now+60)/60, (now+60)%60)
	f.mu.Unlock()

	st := run(t, opts(f, t.TempDir(), time.Hour))
	plays, _, _ := f.stored()
	// An hour is 450 slots; the open half of it is about 225 (the minute boundaries shift it).
	if st.Played < 200 || st.Played > 240 || len(plays) != st.Played {
		t.Fatalf("played %d (server holds %d), want about 225 of the 450 slots of the hour", st.Played, len(plays))
	}
	for _, p := range plays {
		lt := p.StartedAt.In(zone)
		if m := lt.Hour()*60 + lt.Minute(); m < open {
			t.Fatalf("seq %d started at %s, before the face opens at %s %s", p.Seq, lt.Format("15:04:05"), f.sched.Hours.Open, zone)
		}
	}
}
