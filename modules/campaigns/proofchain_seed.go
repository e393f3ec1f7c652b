package campaigns

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"

	"marquee/modules/campaigns/internal/proofchain"
	"marquee/modules/campaigns/internal/store"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/signing"
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

// GenerateDeviceChain appends n device_batch records to a campaign's chain as paired screens
// leave them (benchmarks: a long chain fast): one record a batch, week after week (n spread
// evenly over the campaign's weeks, the faces of a week in turn), each replacing its week's
// previous record, with a real screen signature over a batch message
// and Marquee's real signature, written by bulk inserts with the week heads and the pending
// checkpoints the append writes. It answers the codes of the records appended, in seq order.
func (a *assurance) GenerateDeviceChain(ctx context.Context, campaignID string, n int) ([]string, error) {
	weeks, err := a.store.WeeksOf(ctx, campaignID)
	if err != nil || len(weeks) == 0 {
		return nil, fmt.Errorf("campaign %s has no weeks: %v", campaignID, err)
	}
	slices.SortFunc(weeks, func(x, y store.Week) int {
		if c := strings.Compare(x.StartAt.String(), y.StartAt.String()); c != 0 {
			return c
		}
		return strings.Compare(x.FaceID, y.FaceID)
	})
	var groups [][]store.Week // the faces of each calendar week
	for i := range weeks {
		if i == 0 || weeks[i].StartAt != weeks[i-1].StartAt {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], weeks[i])
	}
	perGroup := max((n+len(groups)-1)/len(groups), 1)
	last, _, err := a.store.LastProofRecords(ctx, campaignID, "")
	if err != nil {
		return nil, err
	}
	seq, prev := int64(0), proofchain.Genesis
	if last != nil {
		seq, prev = last.Seq, last.Hash
	}
	heads, err := a.store.WeekHeads(ctx, campaignID)
	if err != nil {
		return nil, err
	}
	type head struct {
		id      string
		records int64
	}
	headOf := map[string]head{}
	for _, h := range heads {
		headOf[h.WeekID] = head{h.ID, h.WeekRecord}
	}
	devPub, devPriv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	pubB64 := base64.StdEncoding.EncodeToString(devPub)
	keyID := signing.KeyID(a.deps.Signer.PublicKey())
	at := a.deps.Clock.Now().UTC()
	codes := make([]string, 0, n)
	rows := make([]store.ProofRecord, 0, 500)
	var cps []store.ProofCheckpoint
	flush := func(ctx context.Context) error {
		if len(rows) > 0 {
			if err := a.store.Create(ctx, &rows); err != nil {
				return err
			}
			rows = rows[:0]
		}
		return nil
	}
	err = db.Transact(ctx, a.deps.DB, func(ctx context.Context) error {
		for i := 0; i < n; i++ {
			g := groups[min(i/perGroup, len(groups)-1)]
			w := g[i%len(g)]
			s := seq + int64(i) + 1
			code, err := proofchain.NewCode()
			if err != nil {
				return err
			}
			batch := proofchain.SHA256Hex([]byte(fmt.Sprintf("batch %s %d", campaignID, s)))
			msg := "POST\n/api/device/plays\n" + fmt.Sprint(at.Unix()) + "\n" + batch
			dev := &proofchain.Device{BatchHash: batch, Message: msg, Plays: 7, PublicKey: pubB64, ScreenID: "bench-screen-" + w.FaceID,
				Signature: base64.StdEncoding.EncodeToString(ed25519.Sign(devPriv, []byte(msg)))}
			imp := int64(i)
			h := headOf[w.ID]
			f := &proofchain.Fields{Campaign: campaignID, Code: code, Device: dev, Face: w.FaceID, ID: ids.New(), Impressions: &imp, KeyID: keyID,
				Prev: prev, Proofs: []proofchain.Proof{}, Reason: ProofReasonDeviceBatch, RecordedAt: at.Format(proofchain.RecordedAtLayout),
				Replaces: h.id, Seq: s, V: proofchain.DeviceVersion, Week: w.StartAt.String(), WeekID: w.ID}
			c := proofchain.Canonical(f)
			sig, err := a.deps.Signer.Sign(c)
			if err != nil {
				return err
			}
			hash := proofchain.SHA256Hex(c)
			rows = append(rows, store.ProofRecord{ID: f.ID, CampaignID: campaignID, Seq: s, WeekID: w.ID, WeekRecord: h.records + 1, Code: code,
				CodeHash: proofchain.SHA256Hex([]byte(code)), Canonical: string(c), Hash: hash, Signature: base64.StdEncoding.EncodeToString(sig), ProofKeys: "{}"})
			headOf[w.ID] = head{f.ID, h.records + 1}
			if s%store.CheckpointEvery == 0 {
				cps = append(cps, store.ProofCheckpoint{CampaignID: campaignID, Seq: s, Hash: hash})
			}
			prev = hash
			codes = append(codes, code)
			if len(rows) == cap(rows) {
				if err := flush(ctx); err != nil {
					return err
				}
			}
		}
		if err := flush(ctx); err != nil {
			return err
		}
		for _, cp := range cps {
			if err := a.store.AddCheckpoint(ctx, cp.CampaignID, cp.Seq, cp.Hash); err != nil {
				return err
			}
		}
		for _, w := range weeks {
			if h, ok := headOf[w.ID]; ok {
				r, err := a.store.ProofRecordsByIDs(ctx, campaignID, []string{h.id})
				if err != nil || len(r) != 1 {
					return fmt.Errorf("the head of week %s: %v", w.ID, err)
				}
				if err := a.store.SetWeekHead(ctx, store.ProofWeekHead{CampaignID: campaignID, WeekID: w.ID, Seq: r[0].Seq, Records: h.records}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return codes, err
}
