// Package makegood is the pure core of make-goods (docs/delivery-assurance.md "Plan against
// delivered, with make-goods"): the credit a week's shortfall earns, the delivery figures a week
// shows and the bound on recorded impressions. No I/O: campaigns' assurance records and moves the
// credit.
package makegood

import (
	"fmt"
	"math/big"
	"strings"

	"marquee/platform/money"
)

// MaxActImp bounds one week's actual impressions.
const MaxActImp = 1_000_000_000

// LimitFactor bounds recorded impressions: more than 10 times the plan is refused as absurd.
const LimitFactor = 10

// Credit is the make-good policy: the credit a week earns for delivering `delivered` of `planned`
// contracted impressions at `price`. Nothing when nothing was planned or the delivery reached
// thresholdPercent of the plan; otherwise price × (planned − delivered) / planned, rounded to the
// nearest cent, half a cent up. Exact integer arithmetic (big.Int), no float.
func Credit(price money.Cents, planned, delivered int64, thresholdPercent int) money.Cents {
	if planned <= 0 || price <= 0 || delivered < 0 {
		return 0
	}
	if delivered*100 >= planned*int64(thresholdPercent) {
		return 0
	}
	num := new(big.Int).Mul(big.NewInt(int64(price)), big.NewInt(planned-delivered))
	num.Mul(num, big.NewInt(2))
	num.Add(num, big.NewInt(planned))
	den := big.NewInt(2 * planned)
	return money.Cents(num.Quo(num, den).Int64())
}

// DeliveryFigures are a week's difference (delivered − planned) and delivery percentage (one
// decimal), nil until delivery is recorded or when nothing was planned.
func DeliveryFigures(planned int64, actImp *int64) (diff *int64, pct *float64) {
	if actImp == nil {
		return nil, nil
	}
	d := *actImp - planned
	diff = &d
	if planned > 0 {
		// tenths of a percent, rounded half up, in integers.
		tenths := (*actImp*2000 + planned) / (2 * planned)
		p := float64(tenths) / 10
		pct = &p
	}
	return diff, pct
}

// MaxImpressions is the most impressions a week of this plan may record: LimitFactor × the plan
// (the general maximum when nothing was planned).
func MaxImpressions(planned int64) int64 {
	if planned <= 0 {
		return MaxActImp
	}
	return min(planned*LimitFactor, MaxActImp)
}

// CreditString writes a credit with its cents, as the web app does: 45000 → "$450.00".
func CreditString(cents int64) string {
	return fmt.Sprintf("$%s.%02d", GroupDigits(cents/100), cents%100)
}

// GroupDigits writes n with thousands separators (1,000,000).
func GroupDigits(n int64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}
