package campaigns

import (
	"encoding/json"
	"strings"

	"marquee/platform/dates"
	"marquee/platform/money"
)

// The date rules of campaigns (B §4, B §9, A §5; brief decision 2). They are pure functions of
// "today" (the injected clock's day) so every rule is table and property tested (rules_test.go).
// The creation, the edit and the weekly job all use them; the web app asks GET
// /api/campaigns/defaults instead of repeating them.

// cutoffDaysBefore is how many days before its Monday a week's Wednesday cut-off falls (B §9).
const cutoffDaysBefore = 5

// CutOff is the Wednesday cut-off of the week starting on monday: the last day on which that week
// can still be started, booked by the weekly job or charged (B §9).
func CutOff(monday dates.Date) dates.Date { return monday.WeekStart().AddDays(-cutoffDaysBefore) }

// PastCutOff reports whether the week starting on monday has passed its cut-off on today.
func PastCutOff(today, monday dates.Date) bool { return today.After(CutOff(monday)) }

// EarliestStart is the first Monday a campaign may start on: the next Monday when today is Monday to
// Wednesday, otherwise the Monday after (B §9 "the Wednesday cut-off applies to the next Monday").
func EarliestStart(today dates.Date) dates.Date {
	next := today.NextMonday()
	if PastCutOff(today, next) {
		return next.AddWeeks(1)
	}
	return next
}

// jsWeekday is the web's weekday number: Sunday 0 … Saturday 6 (the spec's "weekday number").
func jsWeekday(d dates.Date) int { return int(d.Weekday()) }

// DefaultStart is the start date the pickers propose (A §5, B §4): the first Monday on or after
// today + 7 days when the weekday number (Sunday 0 … Saturday 6) is 3 or less, otherwise on or after
// today + 14 days.
func DefaultStart(today dates.Date) dates.Date {
	ahead := 14
	if jsWeekday(today) <= 3 {
		ahead = 7
	}
	return mondayOnOrAfter(today.AddDays(ahead))
}

// mondayOnOrAfter is d when d is a Monday, else the next Monday.
func mondayOnOrAfter(d dates.Date) dates.Date {
	if d.IsMonday() {
		return d
	}
	return d.NextMonday()
}

// ValidStart reports whether start may begin a campaign created on today: a Monday not past its
// cut-off.
func ValidStart(today, start dates.Date) bool {
	return start.IsMonday() && !PastCutOff(today, start)
}

// EndOf is the Sunday a campaign of duration weeks starting on start ends: start + 7·duration − 1
// (B §4). A duration below 1 counts as 1.
func EndOf(start dates.Date, duration int) dates.Date {
	return start.AddDays(7*max(duration, 1) - 1)
}

// DurationFromEnd is the number of weeks from start to end: whole weeks between them plus one,
// at least 1 (B §4).
func DurationFromEnd(start, end dates.Date) int {
	days := start.DaysUntil(end)
	if days < 0 {
		return 1
	}
	return days/7 + 1
}

// NormalizeFrequency reads a frequency; the older stored value "indefinitely" means ongoing (A §3).
// It answers "" for anything else.
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

// Duration is the campaign's duration in weeks by B §4: one-time and ongoing force 1; weekly takes
// it from the end date when there is one, else the given duration, else DefaultWeeklyDuration. It
// does not cap at MaxDurationWeeks: the caller refuses a longer one with MsgDurationTooLong.
func Duration(frequency string, start, end dates.Date, duration int) int {
	switch NormalizeFrequency(frequency) {
	case FrequencyOneTime, FrequencyOngoing:
		return 1
	}
	if !end.IsZero() && !start.IsZero() {
		return DurationFromEnd(start, end)
	}
	if duration < 1 {
		return DefaultWeeklyDuration
	}
	return duration
}

// BookedWeeks are the Mondays booked when the campaign is created (brief decision 3): every
// duration week of a weekly campaign, the one week of a one-time or ongoing one (the weekly job
// books each next week of an ongoing campaign at its cut-off).
func BookedWeeks(frequency string, start dates.Date, duration int) []dates.Date {
	if NormalizeFrequency(frequency) != FrequencyWeekly {
		duration = 1
	}
	return start.Weeks(max(duration, 1))
}

// ParseBudget reads a budget as typed (B §5): '$' and ',' are stripped; what is left must be an
// amount of dollars. ok is false for anything else ("abc"); empty is ok with present false.
func ParseBudget(in BudgetInput) (amount money.Cents, present, ok bool) {
	s := strings.NewReplacer("$", "", ",", "").Replace(strings.TrimSpace(string(in)))
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false, true
	}
	c, err := money.Parse(s)
	if err != nil || c < 0 {
		return 0, true, false
	}
	return c, true, true
}

// SuggestedDailyBudget is the maximum-budget mode's suggested daily budget: the number of chosen
// locations divided by 10, rounded up, times 20 dollars (B §9).
func SuggestedDailyBudget(locations int) money.Cents {
	if locations < 1 {
		return 0
	}
	return money.Dollars(int64((locations+9)/10) * MinDailyMaxBudget)
}

// weeklyOfDaily is the weekly budget of a maximum-budget campaign: its daily budget times 7 (B §9).
func weeklyOfDaily(daily money.Cents) money.Cents { return daily * 7 }

// MinDailyBudget is the least daily budget a maximum-budget campaign of that many locations accepts:
// the suggested one (B §5 "must not be below the suggested amount"), at least $20 (B §9 "Minimum
// daily maximum budget: 20").
func MinDailyBudget(locations int) money.Cents {
	return money.Max(SuggestedDailyBudget(locations), money.Dollars(MinDailyMaxBudget))
}

// MaxBudgetImpressions is the estimate of a maximum-budget week (B §9 "Maximum-budget impressions
// scale by budget ratio, capped at the total"): the chosen faces' impressions total times the
// weekly budget over the sum of their prices, at most total. A budget below the minimum gives 0
// (B §4).
func MaxBudgetImpressions(total int64, weeklyBudget, sumPrices money.Cents, belowMinimum bool) int64 {
	if belowMinimum || total <= 0 || weeklyBudget <= 0 {
		return 0
	}
	if sumPrices <= 0 || weeklyBudget >= sumPrices {
		return total
	}
	return total * int64(weeklyBudget) / int64(sumPrices)
}

// UnmarshalJSON takes a budget as a JSON number (12.5) or string ("$1,250"); null is empty. The
// text is kept as typed: ParseBudget decides whether it is a number (MsgInvalidNumber).
func (b *BudgetInput) UnmarshalJSON(raw []byte) error {
	s := strings.TrimSpace(string(raw))
	switch {
	case s == "null":
		*b = ""
	case strings.HasPrefix(s, `"`):
		var v string
		if err := json.Unmarshal(raw, &v); err != nil {
			return err
		}
		*b = BudgetInput(v)
	default:
		var n json.Number
		if err := json.Unmarshal(raw, &n); err != nil {
			return err
		}
		*b = BudgetInput(n.String())
	}
	return nil
}
