package campaigns

// Stand-ins for what camp-api-create delivers (rules.go, charges.go); this file is deleted when
// their branch is merged.

import (
	"context"
	"strings"

	"marquee/modules/campaigns/internal/store"
	"marquee/platform/dates"
	"marquee/platform/ids"
)

func CutOff(monday dates.Date) dates.Date { return monday.WeekStart().AddDays(-5) }

func PastCutOff(today, monday dates.Date) bool { return today.After(CutOff(monday)) }

func EarliestStart(today dates.Date) dates.Date {
	next := today.NextMonday()
	if PastCutOff(today, next) {
		return next.AddWeeks(1)
	}
	return next
}

func NormalizeFrequency(f string) string {
	switch strings.TrimSpace(strings.ToLower(f)) {
	case FrequencyOneTime:
		return FrequencyOneTime
	case FrequencyWeekly:
		return FrequencyWeekly
	case FrequencyOngoing, FrequencyIndefinitely:
		return FrequencyOngoing
	}
	return ""
}

// scheduleWeekCharge stand-in: records the week as charged (succeeded, no money).
func (m *Module) scheduleWeekCharge(ctx context.Context, c *store.Campaign, week dates.Date) error {
	now := m.deps.Clock.Now()
	return m.store.Create(ctx, &store.Charge{ID: ids.New(), CampaignID: c.ID, CompanyID: c.CompanyID, Week: week, Status: "succeeded", CreatedAt: now, UpdatedAt: now})
}
