package reports

import (
	"encoding/json"
	"fmt"
	"strings"

	"marquee/modules/campaigns"
	"marquee/platform/dates"
	"marquee/platform/mail"
)

// The HTML parts of the module's emails; their text parts are written beside the
// code that sends them (schedule.go, digest.go).

// reportFacts are a report's key figures for its emails: the period and the totals recorded with
// it (the PDF's cards). A report without figures gives the period alone.
func reportFacts(start, end dates.Date, figuresJSON string) []mail.Fact {
	facts := []mail.Fact{{Label: "Reported period", Value: start.Format("Jan 02") + " to " + end.Format("Jan 02, 2006")}}
	var figs figureSet
	if figuresJSON == "" || json.Unmarshal([]byte(figuresJSON), &figs) != nil {
		return facts
	}
	t := figs.Totals
	return append(facts,
		mail.Fact{Label: "Planned impressions", Value: formatInt(t.Planned)},
		mail.Fact{Label: "Delivered impressions", Value: formatInt(t.Delivered)},
		mail.Fact{Label: "Delivery", Value: formatPct(t.DeliveryPct, t.Planned)},
		mail.Fact{Label: "Spend in the period", Value: t.Spend.String()},
	)
}

func weeklyLetter(firstName, campaign string, facts []mail.Fact, link string, picture *mail.Picture) string {
	return mail.Letter{Title: "Your weekly report is ready", Greeting: "Hello " + firstName + ",",
		Intro:   []string{"The proof of performance of your campaign \u201c" + campaign + "\u201d for the week is ready."},
		Picture: picture,
		Facts:   facts,
		Button:  &mail.Link{Label: "Open the report", URL: link},
		Footer:  "You receive this email every Monday because the weekly report of this campaign is on. You can turn it off on the Reports page.",
	}.HTML()
}

func newReportLetter(firstName, campaign, name string, facts []mail.Fact, link, note string) string {
	return mail.Letter{Title: "A new performance report", Greeting: "Hello " + firstName + ",",
		Intro:  []string{"A new performance report of your campaign \u201c" + campaign + "\u201d is ready: " + name + "."},
		Facts:  facts,
		Note:   strings.TrimSpace(note),
		Button: &mail.Link{Label: "Open the report", URL: link},
	}.HTML()
}

// digestLetter shows each active campaign's pacing in a small table with its link.
func digestLetter(firstName string, week dates.Date, ps []campaigns.Pacing, base string) string {
	tables := make([]mail.Table, 0, len(ps))
	for _, p := range ps {
		delivered := "No delivery recorded yet"
		if p.PacePercent != nil {
			delivered = fmt.Sprintf("%s of %s (%d%%)", count(p.DeliveredToDate), count(p.PlannedToDate), *p.PacePercent)
		}
		tables = append(tables, mail.Table{Title: p.Name, Facts: []mail.Fact{
			{Label: "Impressions delivered", Value: delivered},
			{Label: "Spent", Value: dollars(p.Spent) + " of " + dollars(p.Committed)},
			{Label: "Finish", Value: finishText(p)},
		}, Link: &mail.Link{Label: "Open " + p.Name, URL: base + "/campaigns/" + p.CampaignID}})
	}
	return mail.Letter{Title: "Your weekly campaign digest", Greeting: "Hello " + firstName + ",",
		Intro: []string{"Here is how your active campaigns are delivering against their plan, as of the week of " +
			week.Format("Jan 02") + " to " + week.AddDays(6).Format("Jan 02, 2006") + "."},
		Tables:     tables,
		Footer:     "You receive this email every Monday because the weekly digest is on.",
		FooterLink: &mail.Link{Label: "Turn it off in Settings", URL: base + "/settings"},
	}.HTML()
}
