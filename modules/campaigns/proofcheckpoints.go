package campaigns

import (
	"context"
	"fmt"
	"time"

	"marquee/modules/campaigns/internal/proofchain"
	"marquee/modules/campaigns/internal/store"
	"marquee/platform/jobs"
)

// Checkpoints of a verified prefix (docs/delivery-assurance.md "Checkpoints"). A paired screen
// appends a record per batch and campaign-week, so a year-long campaign's chain reaches millions
// of records; the public /verify/{code} must not walk them all on every call. Every
// CheckpointEvery-th record is a checkpoint: the append writes it pending, and this job verifies
// the records from the previous verified checkpoint to it as marquee verify does (every hash,
// link, place and replaces, Marquee's signature and each screen's), then marks it verified. Its
// cost is proportional to the new records only. /verify walks from the newest verified
// checkpoint at or before its record; marquee verify still walks the whole chain.

const jobProofCheckpoints = "campaigns.proof-checkpoints"

// checkpointBatch is how many pending checkpoints one run verifies (about a million records).
const checkpointBatch = 1000

func (a *assurance) checkpointsJob() jobs.Job {
	return jobs.Job{Name: jobProofCheckpoints, Every: time.Minute, Run: func(ctx context.Context) error {
		_, err := a.RunProofCheckpoints(ctx)
		return err
	}}
}

// CheckpointsResult counts what one run of the checkpoint job did.
type CheckpointsResult struct {
	Verified int // checkpoints verified
	Broken   int // campaigns whose chain breaks before their next checkpoint (logged; retried next run)
	Records  int // records checked
}

// RunProofCheckpoints verifies the pending checkpoints, each campaign's in seq order from its
// newest verified one. A break stops that campaign's run at the checkpoint after it: the
// checkpoint stays pending with the break as its problem, and /verify keeps walking from the
// last good checkpoint, where it meets the break.
func (a *assurance) RunProofCheckpoints(ctx context.Context) (CheckpointsResult, error) {
	var res CheckpointsResult
	pending, err := a.store.PendingCheckpoints(ctx, checkpointBatch)
	if err != nil {
		return res, err
	}
	pub := a.deps.Signer.PublicKey()
	for i := 0; i < len(pending); {
		campaign := pending[i].CampaignID
		j := i
		for j < len(pending) && pending[j].CampaignID == campaign {
			j++
		}
		group := pending[i:j]
		i = j
		prev, err := a.store.VerifiedCheckpointAtOrBefore(ctx, campaign, group[0].Seq)
		if err != nil {
			return res, err
		}
		from := proofchain.Start{}
		if prev != nil {
			from = proofchain.Start{Seq: prev.Seq, Hash: prev.Hash}
		}
		for _, cp := range group {
			n, problem, err := a.checkSegment(ctx, campaign, from, cp, pub)
			res.Records += n
			if err != nil {
				return res, err
			}
			if problem != "" {
				res.Broken++
				if cp.Problem != problem {
					a.deps.Log.ErrorContext(ctx, "campaigns: a proof-of-play chain is broken", "campaign", campaign, "checkpoint", cp.Seq, "problem", problem)
					if err := a.store.MarkCheckpoint(ctx, campaign, cp.Seq, nil, problem); err != nil {
						return res, err
					}
				}
				break
			}
			now := a.deps.Clock.Now().UTC()
			if err := a.store.MarkCheckpoint(ctx, campaign, cp.Seq, &now, ""); err != nil {
				return res, err
			}
			res.Verified++
			from = proofchain.Start{Seq: cp.Seq, Hash: cp.Hash}
		}
	}
	return res, nil
}

// checkSegment checks the records after from up to the checkpoint cp, every signature included,
// and that cp's record still has cp's hash. It answers the records read and the first problem.
func (a *assurance) checkSegment(ctx context.Context, campaign string, from proofchain.Start, cp store.ProofCheckpoint, pub []byte) (int, string, error) {
	rows, err := a.store.ProofSegment(ctx, campaign, from.Seq+1, cp.Seq, true)
	if err != nil {
		return 0, "", err
	}
	earlier := map[string]proofchain.Earlier{}
	if ids := proofchain.ReplacesBefore(rows); len(ids) > 0 && from.Seq > 0 {
		recs, err := a.store.ProofRecordsByIDs(ctx, campaign, ids)
		if err != nil {
			return 0, "", err
		}
		for i := range recs {
			earlier[recs[i].ID] = proofchain.EarlierOf(recs[i].Seq, recs[i].Canonical)
		}
	}
	problems, _ := proofchain.CheckFrom(rows, from, earlier, pub, true)
	if len(problems) > 0 {
		p := problems[0]
		return len(rows), fmt.Sprintf("record %d: %s", p.Seq, p.Reason), nil
	}
	if len(rows) == 0 || rows[len(rows)-1].Seq != cp.Seq {
		return len(rows), fmt.Sprintf("record %d: it is missing", cp.Seq), nil
	}
	if rows[len(rows)-1].Hash != cp.Hash {
		return len(rows), fmt.Sprintf("record %d: its hash is not the one it had when it was appended", cp.Seq), nil
	}
	return len(rows), "", nil
}
