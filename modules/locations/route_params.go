package locations

import "marquee/platform/dates"

// The query parameters of the module's routes, for the OpenAPI document (server.Route.Params).

// LocationsQuery is /api/od/locations/'s.
type LocationsQuery struct {
	Market []string `query:"market" doc:"Markets (repeat, or a comma list)."`
	Place  string   `query:"place" validate:"max=300" doc:"A place id: faces around it."`
	Radius int      `query:"radius" doc:"Miles around the place."`
	Format string   `query:"format" validate:"omitempty,oneof=columns ids" doc:"columns: the web app's compact form (LocationColumns) instead of an array of Location; ids: the ids of the columns' faces (LocationIDs)."`
}

// MarketsQuery is the calendar's.
type MarketsQuery struct {
	Market []string `query:"market" doc:"Markets (repeat, or a comma list)."`
}

// PredictionsQuery is /api/places/predictions'.
type PredictionsQuery struct {
	Input string `query:"input" doc:"What was typed (a long text is cut)."`
}

// PlaceQuery is /api/places/details'.
type PlaceQuery struct {
	ID string `query:"id" validate:"max=300" doc:"A prediction's id."`
}

// WeekQuery is DELETE /api/calendar/week's.
type WeekQuery struct {
	ID string `query:"id" validate:"max=200" doc:"The calendar week's id."`
}

// availableSpotsExample is the document's example of POST /api/v1/available-spots, made when the
// document is served: the week after next, which the campaign cut-off (at most a week ahead) never
// closes, so the example answers spots on any day.
func availableSpotsExample(today dates.Date) any {
	return AvailableSpotsRequest{StartAt: today.NextMonday().AddWeeks(1).String(), Markets: []string{FixedCentreMarket}}
}
