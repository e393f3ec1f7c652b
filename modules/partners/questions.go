package partners

// question is one exam question with its correct options. It stays on the server: the browser gets
// ExamQuestion, without Correct.
type question struct {
	ID       string
	Text     string
	Multiple bool
	Points   int
	Options  []ExamOption
	Correct  []string
}

// questionBank is the certification exam: how booking digital billboards on Marquee works
// (docs/campaigns.md, docs/campaign-lifecycle.md, docs/payments.md). A multiple-choice question
// scores only when exactly its correct options are chosen.
var questionBank = []question{
	{ID: "q1", Text: "On which day of the week must a campaign start?", Points: 1, Options: []ExamOption{
		{"a", "Any day"}, {"b", "Monday"}, {"c", "Sunday"}, {"d", "The first day of the month"}}, Correct: []string{"b"}},
	{ID: "q2", Text: "A week of a campaign runs…", Points: 1, Options: []ExamOption{
		{"a", "Monday to Sunday"}, {"b", "Sunday to Saturday"}, {"c", "Seven days from the booking"}}, Correct: []string{"a"}},
	{ID: "q3", Text: "What is the longest a campaign can run?", Points: 1, Options: []ExamOption{
		{"a", "12 weeks"}, {"b", "26 weeks"}, {"c", "52 weeks"}, {"d", "Without limit"}}, Correct: []string{"c"}},
	{ID: "q4", Text: "Which frequencies can an advertiser choose? Select all that apply.", Multiple: true, Points: 2, Options: []ExamOption{
		{"a", "One week"}, {"b", "Specified end date"}, {"c", "Ongoing"}, {"d", "Every other week"}}, Correct: []string{"a", "b", "c"}},
	{ID: "q5", Text: "Which ways of finding locations does the new-campaign form offer? Select all that apply.", Multiple: true, Points: 2, Options: []ExamOption{
		{"a", "A radius around an address"}, {"b", "A DMA market, optionally narrowed to cities"}, {"c", "A ZIP code list upload"}, {"d", "The billboard owner's name"}}, Correct: []string{"a", "b"}},
	{ID: "q6", Text: "What is the largest radius around an address?", Points: 1, Options: []ExamOption{
		{"a", "5 miles"}, {"b", "25 miles"}, {"c", "100 miles"}, {"d", "250 miles"}}, Correct: []string{"d"}}, // B §9: 5 to 250 (locations.RadiusOptions)
	{ID: "q7", Text: "When is a week's cut-off, after which it can no longer be started, booked or charged?", Points: 1, Options: []ExamOption{
		{"a", "The Wednesday before the week"}, {"b", "The Sunday before the week"}, {"c", "The Monday the week starts"}, {"d", "There is no cut-off"}}, Correct: []string{"a"}},
	{ID: "q8", Text: "When is a campaign no longer editable?", Points: 1, Options: []ExamOption{
		{"a", "Once it is paid"}, {"b", "When its start date is 5 or fewer days away"}, {"c", "Never: it can always be edited"}, {"d", "One month before it starts"}}, Correct: []string{"b"}},
	{ID: "q9", Text: "How is an ongoing campaign paid?", Points: 1, Options: []ExamOption{
		{"a", "All weeks up front"}, {"b", "The first week at creation, then each week at its cut-off"}, {"c", "Monthly, by invoice"}}, Correct: []string{"b"}},
	{ID: "q10", Text: "What does Marquee use before charging the card for a week? ", Points: 1, Options: []ExamOption{
		{"a", "The company's account credit (from promo codes, for example)"}, {"b", "Nothing: the card is always charged in full"}, {"c", "The partner's bonus"}}, Correct: []string{"a"}},
	{ID: "q11", Text: "A later week's card charge fails. What happens to the campaign?", Points: 1, Options: []ExamOption{
		{"a", "It is deleted"}, {"b", "It is paused and the advertiser is emailed"}, {"c", "It keeps running unpaid"}}, Correct: []string{"b"}},
	{ID: "q12", Text: "Which statements about pausing and stopping are true? Select all that apply.", Multiple: true, Points: 2, Options: []ExamOption{
		{"a", "A paused campaign keeps its spots"}, {"b", "Stopping (mark complete) cannot be undone"}, {"c", "A completed campaign can be resumed"}, {"d", "A canceled campaign can be paused"}}, Correct: []string{"a", "b"}},
	{ID: "q13", Text: "Some chosen faces are full in the weeks picked. What can the advertiser do? Select all that apply.", Multiple: true, Points: 2, Options: []ExamOption{
		{"a", "Keep their own dates, with only the free weeks"}, {"b", "Use the suggested dates"}, {"c", "Overbook the face"}}, Correct: []string{"a", "b"}},
	{ID: "q14", Text: "Two faces of a sign share a name. How does the map show them?", Points: 1, Options: []ExamOption{
		{"a", "As one double-faced sign, North and West faces on the left"}, {"b", "As two unrelated signs"}, {"c", "Only the larger face is shown"}}, Correct: []string{"a"}},
	{ID: "q15", Text: "Which are required to create a campaign with a weekly budget above $0? Select all that apply.", Multiple: true, Points: 2, Options: []ExamOption{
		{"a", "At least one location"}, {"b", "A creative, or the company's default creative"}, {"c", "A card on file"}, {"d", "A promo code"}}, Correct: []string{"a", "b", "c"}},
	{ID: "q16", Text: "How many times can a company redeem the same promo code?", Points: 1, Options: []ExamOption{
		{"a", "Once"}, {"b", "Once a month"}, {"c", "As often as it likes"}}, Correct: []string{"a"}},
	{ID: "q17", Text: "Which campaign weeks can a performance report include?", Points: 1, Options: []ExamOption{
		{"a", "Weeks whose end date is in the past"}, {"b", "Any booked week"}, {"c", "Only the current week"}}, Correct: []string{"a"}},
	{ID: "q18", Text: "An advertiser deletes a campaign and asks for a refund. What is refunded?", Points: 1, Options: []ExamOption{
		{"a", "The charges of the weeks that have not started, and the credit they used goes back to the account"}, {"b", "Every charge of the campaign, past weeks too"}, {"c", "Nothing: deleted campaigns are never refunded"}}, Correct: []string{"a"}},
}
