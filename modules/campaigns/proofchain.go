package campaigns

import (
	"cmp"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"marquee/modules/campaigns/internal/proofchain"
	"marquee/modules/campaigns/internal/store"
	"marquee/modules/creatives"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/signing"
	"marquee/platform/storage"
)

// Signed proof of play (docs/delivery-assurance.md "Signed proof of play"). Every change
// to a week's delivery or proofs appends a record to the campaign's hash chain, in the transaction
// of the change. Records are never updated: a correction is a new record whose replaces names the
// week's previous record. Each record is signed with the server's Ed25519 key (platform/signing).

// Record reasons: what change made the record.
const (
	ProofReasonDelivery     = "delivery"
	ProofReasonProofsAdded  = "proofs_added"
	ProofReasonProofDeleted = "proof_deleted"
)

// hashProofFiles records the SHA-256 of each newly attached proof's stored bytes, once, before the
// transaction that attaches them (reading objects inside it would hold the write lock while the
// storage answers). File keys are never rewritten, so the digest is computed once per file.
func (a *assurance) hashProofFiles(ctx context.Context, files []*creatives.File) error {
	keys := make([]string, len(files))
	for i, f := range files {
		keys[i] = f.Key
	}
	known, err := a.store.ProofFileHashes(ctx, keys)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if _, ok := known[k]; ok {
			continue
		}
		sum, err := storage.SHA256(ctx, a.deps.Objects, k)
		if err != nil {
			return err
		}
		if err := a.store.SaveProofFileHash(ctx, k, sum); err != nil {
			return err
		}
		known[k] = sum
	}
	return nil
}

// appendProofRecord appends the week's current state (its impressions and proofs) to its
// campaign's chain. It must run inside the transaction of the change. Appends to one campaign
// take turns: an advisory lock on PostgreSQL (SQLite runs one writer at a time), and the unique
// (campaign, seq) refuses a second record at the same place should anything slip past.
func (a *assurance) appendProofRecord(ctx context.Context, weekID, reason string) error {
	return a.appendProofRecordCode(ctx, weekID, reason, "")
}

// appendProofRecordCode is appendProofRecord with a chosen code ("" draws one; the demo seed
// chooses a code it can print).
func (a *assurance) appendProofRecordCode(ctx context.Context, weekID, reason, code string) error {
	return a.appendProofRecordWith(ctx, weekID, reason, code, nil)
}

// appendProofRecordWith is appendProofRecordCode with the device part of a screen's batch (nil
// for a record Marquee alone signs).
func (a *assurance) appendProofRecordWith(ctx context.Context, weekID, reason, code string, dev *proofchain.Device) error {
	w, err := a.store.FindWeek(ctx, weekID)
	if err != nil {
		return err
	}
	if err := db.LockForTx(ctx, a.deps.DB, "campaigns-proofchain:"+w.CampaignID); err != nil {
		return err
	}
	wcs, err := a.store.WeekCreativesOfWeeks(ctx, []string{w.ID})
	if err != nil {
		return err
	}
	proofs := []proofchain.Proof{}
	keyOf := map[string]string{}
	var keys []string
	for _, wc := range wcs {
		if wc.CreativeType == CreativeTypeProof {
			proofs = append(proofs, proofchain.Proof{ID: wc.ID})
			keyOf[wc.ID] = wc.FileKey
			keys = append(keys, wc.FileKey)
		}
	}
	sums, err := a.store.ProofFileHashes(ctx, keys)
	if err != nil {
		return err
	}
	for i := range proofs {
		key := keyOf[proofs[i].ID]
		sum, ok := sums[key]
		if !ok { // a proof attached before the chain existed: hashed now, once
			if sum, err = storage.SHA256(ctx, a.deps.Objects, key); err != nil {
				return err
			}
			if err := a.store.SaveProofFileHash(ctx, key, sum); err != nil {
				return err
			}
		}
		proofs[i].SHA256 = sum
	}
	slices.SortFunc(proofs, func(x, y proofchain.Proof) int { return strings.Compare(x.ID, y.ID) })
	kj, err := json.Marshal(keyOf)
	if err != nil {
		return err
	}
	last, ofWeek, err := a.store.LastProofRecords(ctx, w.CampaignID, w.ID)
	if err != nil {
		return err
	}
	if code == "" {
		if code, err = proofchain.NewCode(); err != nil {
			return err
		}
	}
	f := &proofchain.Fields{Campaign: w.CampaignID, Code: code, Face: w.FaceID, ID: ids.New(), Impressions: w.ActImp,
		KeyID: signing.KeyID(a.deps.Signer.PublicKey()), Prev: proofchain.Genesis, Proofs: proofs, Reason: reason,
		RecordedAt: a.deps.Clock.Now().UTC().Format(proofchain.RecordedAtLayout), Seq: 1, V: proofchain.Version, Week: w.StartAt.String(), WeekID: w.ID,
		Device: dev}
	if dev != nil {
		f.V = proofchain.DeviceVersion
	}
	if last != nil {
		f.Seq, f.Prev = last.Seq+1, last.Hash
	}
	weekRecord := int64(1)
	if ofWeek != nil {
		f.Replaces, weekRecord = ofWeek.ID, ofWeek.WeekRecord+1
	}
	c := proofchain.Canonical(f)
	sig, err := a.deps.Signer.Sign(c)
	if err != nil {
		return err
	}
	hash := proofchain.SHA256Hex(c)
	if err := a.store.Create(ctx, &store.ProofRecord{ID: f.ID, CampaignID: f.Campaign, Seq: f.Seq, WeekID: f.WeekID, WeekRecord: weekRecord, Code: code,
		CodeHash: proofchain.SHA256Hex([]byte(code)), Canonical: string(c), Hash: hash, Signature: base64.StdEncoding.EncodeToString(sig),
		ProofKeys: string(kj)}); err != nil {
		return err
	}
	// The week's head, so the proof codes read one row a week (docs/screens.md).
	if err := a.store.SetWeekHead(ctx, store.ProofWeekHead{CampaignID: f.Campaign, WeekID: f.WeekID, Seq: f.Seq, Records: weekRecord}); err != nil {
		return err
	}
	// Every CheckpointEvery-th record is a checkpoint, pending until the job verifies the records
	// before it (docs/delivery-assurance.md "Checkpoints").
	if f.Seq%store.CheckpointEvery == 0 {
		return a.store.AddCheckpoint(ctx, f.Campaign, f.Seq, hash)
	}
	return nil
}

// ChainReport is a whole chain checked (marquee verify): every record, and the breaks.
type ChainReport struct {
	CampaignID string
	Records    []ChainRecordLine
	Problems   []ChainProblem
}

// ChainRecordLine is one record of a ChainReport.
type ChainRecordLine struct {
	Seq         int64
	Code        string
	Week        string
	FaceID      string
	Reason      string
	Impressions *int64
	Proofs      int
	Replaces    string
	RecordedAt  string
	Hash        string
	Screen      string // the screen that signed the record's batch (a device batch's record)
}

// VerifyCampaignChain checks the whole chain of a campaign with every signature against pub (nil:
// this server's key), for marquee verify. An empty chain answers no records and no problems.
func (a *assurance) VerifyCampaignChain(ctx context.Context, campaignID string, pub ed25519.PublicKey) (*ChainReport, error) {
	if pub == nil {
		pub = a.deps.Signer.PublicKey()
	}
	rows, err := a.store.ProofChain(ctx, campaignID, 0)
	if err != nil {
		return nil, err
	}
	problems, _ := checkChain(rows, pub, true)
	// The checkpoints /verify starts from must name the records as they are now.
	cps, err := a.store.Checkpoints(ctx, campaignID)
	if err != nil {
		return nil, err
	}
	for _, cp := range cps {
		i, found := slices.BinarySearchFunc(rows, cp.Seq, func(r store.ProofRecord, seq int64) int { return cmp.Compare(r.Seq, seq) })
		switch {
		case !found:
			problems = append(problems, ChainProblem{Seq: cp.Seq, Reason: "it is a checkpoint, and it is missing"})
		case rows[i].Hash != cp.Hash:
			problems = append(problems, ChainProblem{Seq: cp.Seq, Reason: "its hash is not the one its checkpoint kept: it was changed after it was appended"})
		}
	}
	out := &ChainReport{CampaignID: campaignID, Problems: problems}
	superseded := supersededRecords(rows)
	for i := range rows {
		r := &rows[i]
		f := proofchain.ParseFields(r.Canonical)
		_, photoProblems := a.checkPhotos(ctx, r, f, superseded[r.ID])
		out.Problems = append(out.Problems, photoProblems...)
		out.Records = append(out.Records, ChainRecordLine{Seq: r.Seq, Code: proofchain.DisplayCode(r.Code), Week: f.Week, FaceID: f.Face, Reason: f.Reason,
			Impressions: f.Impressions, Proofs: len(f.Proofs), Replaces: f.Replaces, RecordedAt: f.RecordedAt, Hash: r.Hash})
		if f.Device != nil {
			out.Records[len(out.Records)-1].Screen = f.Device.ScreenID
		}
	}
	return out, nil
}

// ProofCodesOf returns the verification code of each week's current record, by week then face
// (ProofCodes). The caller has checked the campaign is the principal's. It reads each week's last
// record only: a screen-fed week has a record per batch, thousands a week (docs/screens.md "Pages
// with a year of plays").
func (a *assurance) ProofCodesOf(ctx context.Context, campaignID string) ([]WeekProofCode, error) {
	rows, err := a.store.WeekHeads(ctx, campaignID)
	if err != nil {
		return nil, err
	}
	out := make([]WeekProofCode, 0, len(rows))
	for i := range rows {
		r := &rows[i]
		// The four fields without parsing the whole text (a tenth of the time): a year of a
		// year-long campaign is 260 heads, each a screen's 1.8 kB record.
		c := r.Canonical
		var imp *int64
		if n := proofchain.IntField(c, "impressions"); n >= 0 {
			imp = &n
		}
		out = append(out, WeekProofCode{WeekID: r.WeekID, Week: proofchain.TextField(c, "week"), FaceID: proofchain.TextField(c, "face"),
			Code: proofchain.DisplayCode(r.Code), Seq: r.Seq, RecordedAt: proofchain.TextField(c, "recorded_at"), Impressions: imp,
			Records: int(r.WeekRecord), SignedByScreen: strings.Contains(c, `,"device":{`)})
	}
	weeks, err := a.store.WeeksOf(ctx, campaignID)
	if err != nil {
		return nil, err
	}
	label := map[string]string{}
	for _, w := range weeks {
		label[w.ID] = strings.Join(nonEmpty(w.LocationName, w.Face), ", ")
	}
	for i := range out {
		out[i].Location = label[out[i].WeekID]
	}
	slices.SortStableFunc(out, func(x, y WeekProofCode) int {
		if c := strings.Compare(x.Week, y.Week); c != 0 {
			return c
		}
		return strings.Compare(x.FaceID, y.FaceID)
	})
	return out, nil
}

// verifyCode answers /api/verify/{code}. Every input, well-formed or not, takes the same path: it
// is normalised, hashed and looked up by its hash, so neither the answer nor its time tells a
// valid prefix from an invalid one.
func (a *assurance) verifyCode(ctx context.Context, code string) (*VerifyResult, error) {
	r, err := a.findByCode(ctx, code)
	if err != nil {
		return nil, err
	}
	// The walk starts at the newest checkpoint the job verified at or before the record (every
	// record of the chain up to it checked, every signature included), so a call costs at most
	// CheckpointEvery records plus what the job has not reached yet, however long the chain.
	cp, err := a.store.VerifiedCheckpointAtOrBefore(ctx, r.CampaignID, r.Seq)
	if err != nil {
		return nil, err
	}
	from := proofchain.Start{}
	if cp != nil {
		from = proofchain.Start{Seq: cp.Seq, Hash: cp.Hash}
	}
	chain, err := a.store.ProofSegment(ctx, r.CampaignID, max(from.Seq, 1), r.Seq, false)
	if err != nil {
		return nil, err
	}
	problems := []ChainProblem{} // [] not null: the /verify page reads its length
	if cp != nil {
		// The checkpoint's record must still be the one the job verified: its stored text hashes
		// to the hash the checkpoint kept.
		if len(chain) == 0 || chain[0].Seq != cp.Seq || chain[0].Hash != cp.Hash || proofchain.SHA256Hex([]byte(chain[0].Canonical)) != cp.Hash {
			problems = append(problems, ChainProblem{Seq: cp.Seq, Reason: "it no longer matches the record verified at this checkpoint: it was changed or removed after it was checked"})
		}
		if len(chain) > 0 && chain[0].Seq == cp.Seq {
			chain = chain[1:]
		}
	}
	last := len(chain) - 1
	at := last >= 0 && chain[last].Seq == r.Seq && chain[last].Hash == r.Hash && chain[last].Canonical == r.Canonical
	if cp != nil && cp.Seq == r.Seq { // the record is the checkpoint itself: compared above; its hash and signature here
		at = true
		chain = []store.ProofRecord{*r}
		from = proofchain.Start{Seq: r.Seq - 1, Hash: proofchain.TextField(r.Canonical, "prev")}
		last = 0
	}
	if at {
		chain[last].Signature = r.Signature // the one signature this check needs (checkChain)
	}
	earlier := map[string]proofchain.Earlier{}
	if ids := proofchain.ReplacesBefore(chain); len(ids) > 0 && from.Seq > 0 {
		rows, err := a.store.ProofRecordsByIDs(ctx, r.CampaignID, ids)
		if err != nil {
			return nil, err
		}
		for i := range rows {
			earlier[rows[i].ID] = proofchain.EarlierOf(rows[i].Seq, rows[i].Canonical)
		}
	}
	pub := a.deps.Signer.PublicKey()
	walked, sigOK := checkChainFrom(chain, from, earlier, pub, false)
	problems = append(problems, walked...)
	if !at {
		// the record itself is out of its place (its seq changed under another)
		problems = append(problems, ChainProblem{Seq: r.Seq, Reason: "it is not at its place in the chain"})
		sigOK = false
	}
	f := proofchain.ParseFields(r.Canonical)
	next, nerr := a.store.NextProofRecordOfWeek(ctx, r.CampaignID, r.WeekID, r.Seq)
	if nerr != nil {
		return nil, nerr
	}
	w, err := a.store.FindWeek(ctx, r.WeekID)
	view := ProofRecordView{Code: proofchain.DisplayCode(r.Code), Seq: r.Seq, Week: f.Week, Impressions: f.Impressions, Reason: f.Reason,
		Replaces: f.Replaces, RecordedAt: f.RecordedAt, PrevHash: f.Prev, Hash: r.Hash, Signature: r.Signature, KeyID: f.KeyID,
		Proofs: []ProofRecordProof{}, Canonical: r.Canonical}
	if d, derr := dates.Parse(f.Week); derr == nil {
		view.WeekEnd = d.AddDays(6).String()
	}
	if err == nil {
		view.Location = strings.Join(nonEmpty(w.LocationName, w.Face), ", ")
		view.Market = w.Market
	}
	photos, photoProblems := a.checkPhotos(ctx, r, f, next != nil)
	for _, p := range f.Proofs {
		base := "/api/verify/" + r.Code + "/proofs/" + p.ID
		view.Proofs = append(view.Proofs, ProofRecordProof{ID: p.ID, SHA256: p.SHA256, URL: base, Thumb: base + "?thumb=1", Status: photos[p.ID]})
	}
	out := &VerifyResult{Record: view, SignatureValid: sigOK, Problems: problems, ChainLength: r.Seq,
		PublicKey: base64.StdEncoding.EncodeToString(pub), PublicKeyURL: PublicKeyPath}
	if cp != nil {
		out.CheckedFrom, out.CheckpointVerifiedAt = cp.Seq, cp.VerifiedAt.UTC().Format(time.RFC3339)
	}
	// The chain is intact when nothing but this record's own signature is in question.
	out.ChainValid = true
	for _, p := range problems {
		if p.Seq != r.Seq || !strings.HasPrefix(p.Reason, "its signature") && !strings.HasPrefix(p.Reason, "it is signed with") {
			out.ChainValid = false
		}
	}
	// A screen's batch: the device's own signature over its batch hash (end to end: signed by
	// the screen, chained and countersigned by Marquee).
	if d := f.Device; d != nil {
		out.Device = &DeviceSignatureView{ScreenID: d.ScreenID, PublicKey: d.PublicKey, BatchHash: d.BatchHash, Message: d.Message,
			Signature: d.Signature, Plays: d.Plays, Valid: proofchain.CheckDevice(r.Canonical) == ""}
	}
	// The photos: each served file against the SHA-256 the record signs.
	out.PhotosValid = len(photoProblems) == 0
	out.Problems = append(out.Problems, photoProblems...)
	out.Valid = out.SignatureValid && len(out.Problems) == 0
	if next != nil {
		out.Superseded, out.SupersededAt, out.SupersededBy = true, proofchain.ParseFields(next.Canonical).RecordedAt, proofchain.DisplayCode(next.Code)
	}
	return out, nil
}

// Photo statuses of a verified record's proofs (ProofRecordProof.Status).
const (
	PhotoMatches  = "matches"  // the served file's SHA-256 is the signed one
	PhotoMismatch = "mismatch" // the served file is not the photo that was signed
	PhotoMissing  = "missing"  // no file is stored for it any more
)

// checkPhotos hashes the file each proof of r serves (through proof_keys, the one place that
// names it, and which is not signed) and compares it with the SHA-256 the record signs. A file
// that differs is a problem; a file no longer stored is one only in a week's current record (a
// superseded record's photo may have been deleted since, which a later record says). It returns
// each proof's status and the problems.
func (a *assurance) checkPhotos(ctx context.Context, r *store.ProofRecord, f proofchain.Fields, superseded bool) (map[string]string, []ChainProblem) {
	var keys map[string]string
	_ = json.Unmarshal([]byte(r.ProofKeys), &keys)
	status := make(map[string]string, len(f.Proofs))
	var problems []ChainProblem
	for _, p := range f.Proofs {
		key, ok := keys[p.ID]
		var sum string
		var err error
		if ok {
			sum, err = storage.SHA256(ctx, a.deps.Objects, key)
		}
		switch {
		case !ok || apperr.CodeOf(err) == apperr.ENOTFOUND:
			status[p.ID] = PhotoMissing
			if !superseded {
				problems = append(problems, ChainProblem{Seq: r.Seq, Reason: fmt.Sprintf("proof photo %s is no longer stored", p.ID)})
			}
		case err != nil:
			status[p.ID] = PhotoMissing
			problems = append(problems, ChainProblem{Seq: r.Seq, Reason: fmt.Sprintf("proof photo %s could not be read", p.ID)})
		case sum != p.SHA256:
			status[p.ID] = PhotoMismatch
			problems = append(problems, ChainProblem{Seq: r.Seq, Reason: fmt.Sprintf("proof photo %s does not match its signed SHA-256: the file served is not the photo that was signed", p.ID)})
		default:
			status[p.ID] = PhotoMatches
		}
	}
	return status, problems
}

// supersededRecords returns the ids of the records of a chain that a later record of their week
// replaces.
func supersededRecords(rows []store.ProofRecord) map[string]bool {
	out := map[string]bool{}
	for i := range rows {
		if rep := proofchain.TextField(rows[i].Canonical, "replaces"); rep != "" {
			out[rep] = true
		}
	}
	return out
}

// ChainExport is a campaign's chain as GET /api/verify/{code}/chain answers it: the records after
// seq after, at most ChainPageRecords, superseded ones included, with its code, exact signed text,
// hash and signature, and where each proof photo is served, so a verifier outside Marquee can
// rebuild and check it all (docs/delivery-assurance.md); Next names the following page.
func (a *assurance) ChainExport(ctx context.Context, code string, after int64) (*ProofChainExport, error) {
	r, err := a.findByCode(ctx, code)
	if err != nil {
		return nil, err
	}
	rows, err := a.store.ProofChainPage(ctx, r.CampaignID, after, ChainPageRecords+1)
	if err != nil {
		return nil, err
	}
	next := ""
	if len(rows) > ChainPageRecords {
		rows = rows[:ChainPageRecords]
		next = fmt.Sprintf("/api/verify/%s/chain?after=%d", r.Code, rows[len(rows)-1].Seq)
	}
	// A record is superseded when it is not its week's newest (the week heads), whichever page
	// holds the record that replaces it.
	heads, err := a.store.WeekHeadSeqs(ctx, r.CampaignID)
	if err != nil {
		return nil, err
	}
	pub := a.deps.Signer.PublicKey()
	out := &ProofChainExport{KeyID: signing.KeyID(pub), PublicKey: base64.StdEncoding.EncodeToString(pub), PublicKeyURL: PublicKeyPath,
		Records: make([]ProofChainRecord, 0, len(rows)), Next: next}
	for i := range rows {
		row := &rows[i]
		f := proofchain.ParseFields(row.Canonical)
		rec := ProofChainRecord{Seq: row.Seq, Code: proofchain.DisplayCode(row.Code), Canonical: row.Canonical, Hash: row.Hash, Signature: row.Signature,
			Superseded: heads[row.WeekID] != row.Seq, Proofs: []ProofRecordProof{}}
		for _, p := range f.Proofs {
			base := "/api/verify/" + row.Code + "/proofs/" + p.ID
			rec.Proofs = append(rec.Proofs, ProofRecordProof{ID: p.ID, SHA256: p.SHA256, URL: base, Thumb: base + "?thumb=1"})
		}
		out.Records = append(out.Records, rec)
	}
	return out, nil
}

// CampaignOfCode returns the campaign of the record with this verification code (marquee verify
// --code). ENOTFOUND for an unknown code.
func (a *assurance) CampaignOfCode(ctx context.Context, code string) (string, error) {
	r, err := a.findByCode(ctx, code)
	if err != nil {
		return "", err
	}
	return r.CampaignID, nil
}

// findByCode looks a code up by its hash. lookups counts the lookups (the tests check that an
// unknown and a malformed code both reach it).
func (a *assurance) findByCode(ctx context.Context, code string) (*store.ProofRecord, error) {
	a.codeLookups.Add(1)
	r, err := a.store.ProofRecordByCodeHash(ctx, proofchain.SHA256Hex([]byte(proofchain.NormalizeCode(code))))
	if err != nil {
		return nil, db.Translate(err, MsgVerifyNotFound, "")
	}
	return r, nil
}

// proofOfRecord returns the file key of proof id when the record with this code lists it.
func (a *assurance) proofOfRecord(ctx context.Context, code, id string) (string, error) {
	r, err := a.findByCode(ctx, code)
	if err != nil {
		return "", err
	}
	var keys map[string]string
	_ = json.Unmarshal([]byte(r.ProofKeys), &keys)
	if key, ok := keys[id]; ok && slices.ContainsFunc(proofchain.ParseFields(r.Canonical).Proofs, func(p proofchain.Proof) bool { return p.ID == id }) {
		return key, nil
	}
	return "", apperr.NotFound(MsgVerifyNotFound)
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// proofCodes answers the codes of a campaign of the principal's company (any for an admin).
func (a *assurance) proofCodes(ctx context.Context, p *auth.Principal, id string) (*ProofCodes, error) {
	if _, err := a.store.FindCampaign(ctx, scope(p), id); err != nil {
		return nil, apperr.NotFound(MsgCampaignNotFound)
	}
	weeks, err := a.ProofCodesOf(ctx, id)
	if err != nil {
		return nil, err
	}
	return &ProofCodes{Weeks: weeks}, nil
}

// checkChain is proofchain.Check with its problems as the API shows them.
func checkChain(records []store.ProofRecord, pub []byte, allSigs bool) ([]ChainProblem, bool) {
	return checkChainFrom(records, proofchain.Start{}, nil, pub, allSigs)
}

// checkChainFrom is proofchain.CheckFrom with its problems as the API shows them.
func checkChainFrom(records []store.ProofRecord, from proofchain.Start, earlier map[string]proofchain.Earlier, pub []byte, allSigs bool) ([]ChainProblem, bool) {
	ps, lastSigOK := proofchain.CheckFrom(records, from, earlier, pub, allSigs)
	out := make([]ChainProblem, len(ps))
	for i, p := range ps {
		out[i] = ChainProblem(p)
	}
	return out, lastSigOK
}
