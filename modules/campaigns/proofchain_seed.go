package campaigns

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"marquee/modules/campaigns/internal/proofchain"
	"marquee/modules/campaigns/internal/store"
	"marquee/platform/db"
)

// DemoProofCode is the verification code of a demo record (marquee seed --demo): it validates at
// /verify/DEMO-PLAY-CODE on a freshly seeded app. It is public by design: a code shows one record
// of proof of play and nothing else of the company.
const DemoProofCode = "DEMOPLAYCODE"

// demoChainCampaign is the demo campaign whose delivered weeks get a chain.
const demoChainCampaign = "advertiser:Holiday Coffee Push"

// seedProofChain appends the demo campaign's delivered weeks to its chain, then a correction of
// its first week (10% more impressions), whose record carries DemoProofCode. A campaign that has
// a chain already is left alone.
func (a *assurance) seedProofChain(ctx context.Context) (string, error) {
	id := demoID("campaign", demoChainCampaign)
	if rows, err := a.store.CampaignsByIDs(ctx, []string{id}); err != nil || len(rows) == 0 {
		return "", err
	}
	if last, _, err := a.store.LastProofRecords(ctx, id, ""); err != nil || last != nil {
		return "proof-of-play chain already there", err
	}
	weeks, err := a.store.WeeksOf(ctx, id)
	if err != nil {
		return "", err
	}
	slices.SortFunc(weeks, func(x, y store.Week) int {
		if c := strings.Compare(x.StartAt.String(), y.StartAt.String()); c != 0 {
			return c
		}
		return strings.Compare(x.FaceID, y.FaceID)
	})
	n := 0
	err = db.Transact(ctx, a.deps.DB, func(ctx context.Context) error {
		var first *store.Week
		for i := range weeks {
			if weeks[i].ActImp == nil {
				continue
			}
			if first == nil {
				first = &weeks[i]
			}
			if err := a.appendProofRecord(ctx, weeks[i].ID, ProofReasonDelivery); err != nil {
				return err
			}
			n++
		}
		if first == nil {
			return nil
		}
		// A correction: the first week's count, recounted.
		v := *first.ActImp + *first.ActImp/10
		now := a.deps.Clock.Now()
		if err := a.store.UpdateWeeks(ctx, []string{first.ID}, map[string]any{"act_imp": &v, "updated_at": now}); err != nil {
			return err
		}
		if err := a.store.RefreshActImp(ctx, id, now); err != nil {
			return err
		}
		n++
		return a.appendProofRecordCode(ctx, first.ID, ProofReasonDelivery, DemoProofCode)
	})
	if err != nil || n == 0 {
		return "", err
	}
	return fmt.Sprintf("proof-of-play chain of %d records; verification code %s validates at /verify/%s", n, proofchain.DisplayCode(DemoProofCode), proofchain.DisplayCode(DemoProofCode)), nil
}

// GenerateProofChain gives a campaign's weeks rounds of delivery records (benchmarks): each round
// records every week again (the first a delivery, the others corrections), in week then face
// order, in one transaction. It answers the codes of the last round's records, whose chains are
// the longest to check.
func (a *assurance) GenerateProofChain(ctx context.Context, campaignID string, rounds int) ([]string, error) {
	weeks, err := a.store.WeeksOf(ctx, campaignID)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(weeks, func(x, y store.Week) int {
		if c := strings.Compare(x.StartAt.String(), y.StartAt.String()); c != 0 {
			return c
		}
		return strings.Compare(x.FaceID, y.FaceID)
	})
	var codes []string
	err = db.Transact(ctx, a.deps.DB, func(ctx context.Context) error {
		now := a.deps.Clock.Now()
		for r := 0; r < rounds; r++ {
			for i, w := range weeks {
				v := w.Ooh*int64(85+(i*7+r*11)%30)/100 + int64(r)
				if err := a.store.UpdateWeeks(ctx, []string{w.ID}, map[string]any{"act_imp": &v, "updated_at": now}); err != nil {
					return err
				}
				code, err := proofchain.NewCode()
				if err != nil {
					return err
				}
				if err := a.appendProofRecordCode(ctx, w.ID, ProofReasonDelivery, code); err != nil {
					return err
				}
				if r == rounds-1 {
					codes = append(codes, code)
				}
			}
		}
		return a.store.RefreshActImp(ctx, campaignID, now)
	})
	return codes, err
}
