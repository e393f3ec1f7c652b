package campaigns

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"marquee/modules/campaigns/internal/store"
	"marquee/modules/creatives"
	"marquee/platform/apperr"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/signing"
)

// Signed proof of play (issue 17, docs/delivery-assurance.md "Signed proof of play"). Every change
// to a week's delivery or proofs appends a record to the campaign's hash chain, in the transaction
// of the change. Records are never updated: a correction is a new record whose replaces names the
// week's previous record. Each record is signed with the server's Ed25519 key (platform/signing).

// Record reasons: what change made the record.
const (
	ProofReasonDelivery     = "delivery"
	ProofReasonProofsAdded  = "proofs_added"
	ProofReasonProofDeleted = "proof_deleted"
)

// proofChainVersion is the "v" of the canonical form; a new format gets a new number.
const proofChainVersion = 1

// genesisHash is the prev of a chain's first record.
var genesisHash = strings.Repeat("0", 64)

// codeAlphabet is RFC 4648 base32: upper-case letters and 2-7, no 0/1/8/9 to mistake for O/I/B/g.
const codeAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

// codeLen characters of 5 bits: 60 random bits, far beyond guessing through a rate-limited page.
const codeLen = 12

// recordedAtLayout is the signed timestamp: UTC, milliseconds, so both databases give it back
// byte for byte (it is stored as text).
const recordedAtLayout = "2006-01-02T15:04:05.000Z"

// canonicalProof is a proof in the canonical form.
type canonicalProof struct {
	ID     string `json:"id"`
	SHA256 string `json:"sha256"`
}

// storedProof is a proof as the proofs column keeps it: the canonical fields and the file key the
// public page serves it from (not signed: the signed SHA-256 is what proves the image).
type storedProof struct {
	ID     string `json:"id"`
	SHA256 string `json:"sha256"`
	Key    string `json:"key"`
}

// canonicalRecord is the signed form. Its fields are declared in the order of their names, so
// encoding/json writes them with sorted keys and no spaces: the canonical JSON of the docs.
type canonicalRecord struct {
	Campaign    string           `json:"campaign"`
	Code        string           `json:"code"`
	Face        string           `json:"face"`
	ID          string           `json:"id"`
	Impressions *int64           `json:"impressions"`
	KeyID       string           `json:"key_id"`
	Prev        string           `json:"prev"`
	Proofs      []canonicalProof `json:"proofs"`
	Reason      string           `json:"reason"`
	RecordedAt  string           `json:"recorded_at"`
	Replaces    string           `json:"replaces"`
	Seq         int64            `json:"seq"`
	V           int              `json:"v"`
	Week        string           `json:"week"`
	WeekID      string           `json:"week_id"`
}

// canonical is the exact byte string a record's hash and signature are computed over, rebuilt
// from the row's columns (so a changed column changes it).
func canonical(r *store.ProofRecord) ([]byte, error) {
	var sp []storedProof
	if err := json.Unmarshal([]byte(r.Proofs), &sp); err != nil {
		return nil, fmt.Errorf("its proofs column is not readable: %v", err)
	}
	cp := make([]canonicalProof, len(sp))
	for i, p := range sp {
		cp[i] = canonicalProof{ID: p.ID, SHA256: p.SHA256}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(canonicalRecord{Campaign: r.CampaignID, Code: r.Code, Face: r.FaceID, ID: r.ID, Impressions: r.Impressions,
		KeyID: r.KeyID, Prev: r.PrevHash, Proofs: cp, Reason: r.Reason, RecordedAt: r.RecordedAt, Replaces: r.Replaces,
		Seq: r.Seq, V: proofChainVersion, Week: r.Week, WeekID: r.WeekID})
	if err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// newProofCode draws a verification code.
func newProofCode() (string, error) {
	var b [codeLen]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	for i := range b {
		b[i] = codeAlphabet[b[i]&31]
	}
	return string(b[:]), nil
}

// normalizeCode is what a typed code is looked up as: upper case, without the dashes and spaces of
// its display form. Whatever the input, its SHA-256 is looked up the same way.
func normalizeCode(code string) string {
	if len(code) > 64 {
		code = code[:64]
	}
	return strings.Map(func(r rune) rune {
		if r == '-' || r == ' ' {
			return -1
		}
		if r >= 'a' && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}, code)
}

// displayCode groups a code as XXXX-XXXX-XXXX.
func displayCode(code string) string {
	if len(code) != codeLen {
		return code
	}
	return code[:4] + "-" + code[4:8] + "-" + code[8:]
}

// hashProofFiles records the SHA-256 of each newly attached proof's stored bytes, once, before the
// transaction that attaches them (reading objects inside it would hold the write lock while the
// storage answers). File keys are never rewritten, so the digest is computed once per file.
func (m *Module) hashProofFiles(ctx context.Context, files []*creatives.File) error {
	keys := make([]string, len(files))
	for i, f := range files {
		keys[i] = f.Key
	}
	known, err := m.store.ProofFileHashes(ctx, keys)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if _, ok := known[k]; ok {
			continue
		}
		sum, err := m.hashObject(ctx, k)
		if err != nil {
			return err
		}
		if err := m.store.SaveProofFileHash(ctx, k, sum); err != nil {
			return err
		}
		known[k] = sum
	}
	return nil
}

func (m *Module) hashObject(ctx context.Context, key string) (string, error) {
	rc, _, err := m.deps.Objects.Get(ctx, key)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	h := sha256.New()
	if _, err := io.Copy(h, rc); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// appendProofRecord appends the week's current state (its impressions and proofs) to its
// campaign's chain. It must run inside the transaction of the change. Appends to one campaign
// take turns: an advisory lock on PostgreSQL (SQLite runs one writer at a time), and the unique
// (campaign, seq) refuses a second record at the same place should anything slip past.
func (m *Module) appendProofRecord(ctx context.Context, weekID, reason string) error {
	return m.appendProofRecordCode(ctx, weekID, reason, "")
}

// appendProofRecordCode is appendProofRecord with a chosen code ("" draws one; the demo seed
// chooses a code it can print).
func (m *Module) appendProofRecordCode(ctx context.Context, weekID, reason, code string) error {
	w, err := m.store.FindWeek(ctx, weekID)
	if err != nil {
		return err
	}
	if err := db.LockForTx(ctx, m.deps.DB, "campaigns-proofchain:"+w.CampaignID); err != nil {
		return err
	}
	wcs, err := m.store.WeekCreativesOfWeeks(ctx, []string{w.ID})
	if err != nil {
		return err
	}
	var proofs []storedProof
	var keys []string
	for _, wc := range wcs {
		if wc.CreativeType == CreativeTypeProof {
			proofs = append(proofs, storedProof{ID: wc.ID, Key: wc.FileKey})
			keys = append(keys, wc.FileKey)
		}
	}
	sums, err := m.store.ProofFileHashes(ctx, keys)
	if err != nil {
		return err
	}
	for i := range proofs {
		sum, ok := sums[proofs[i].Key]
		if !ok { // a proof attached before the chain existed: hashed now, once
			if sum, err = m.hashObject(ctx, proofs[i].Key); err != nil {
				return err
			}
			if err := m.store.SaveProofFileHash(ctx, proofs[i].Key, sum); err != nil {
				return err
			}
		}
		proofs[i].SHA256 = sum
	}
	slices.SortFunc(proofs, func(a, b storedProof) int { return strings.Compare(a.ID, b.ID) })
	if proofs == nil {
		proofs = []storedProof{}
	}
	pj, err := json.Marshal(proofs)
	if err != nil {
		return err
	}
	last, ofWeek, err := m.store.LastProofRecords(ctx, w.CampaignID, w.ID)
	if err != nil {
		return err
	}
	if code == "" {
		if code, err = newProofCode(); err != nil {
			return err
		}
	}
	r := &store.ProofRecord{ID: ids.New(), CampaignID: w.CampaignID, Seq: 1, WeekID: w.ID, FaceID: w.FaceID, Week: w.StartAt.String(),
		Impressions: w.ActImp, Proofs: string(pj), Reason: reason, PrevHash: genesisHash,
		RecordedAt: m.deps.Clock.Now().UTC().Format(recordedAtLayout), KeyID: signing.KeyID(m.deps.Signer.PublicKey()),
		Code: code, CodeHash: sha256Hex([]byte(code))}
	if last != nil {
		r.Seq, r.PrevHash = last.Seq+1, last.Hash
	}
	if ofWeek != nil {
		r.Replaces = ofWeek.ID
	}
	return m.signAndInsert(ctx, r)
}

// signAndInsert fills the record's hash and signature and inserts it.
func (m *Module) signAndInsert(ctx context.Context, r *store.ProofRecord) error {
	c, err := canonical(r)
	if err != nil {
		return err
	}
	sig, err := m.deps.Signer.Sign(c)
	if err != nil {
		return err
	}
	r.Hash, r.Signature = sha256Hex(c), base64.StdEncoding.EncodeToString(sig)
	return m.store.Create(ctx, r)
}

// checkChain recomputes a chain (records in seq order, from the campaign's first) and returns
// where and why it breaks. Every record's hash, link, place and replaces are checked; signatures
// of every record when allSigs, else only the last one's: a valid signature on a record covers
// its prev, which covers the record before, and so on to the first, so an intact chain under one
// valid signature is as good as every signature checked.
func checkChain(records []store.ProofRecord, pub []byte, allSigs bool) (problems []ChainProblem, lastSigOK bool) {
	problems = []ChainProblem{}
	keyID := signing.KeyID(pub)
	prevHash := genesisHash
	var expect int64 = 1
	weekOf := map[string]string{} // record id -> week id, of the records seen
	for i := range records {
		r := &records[i]
		add := func(format string, a ...any) {
			problems = append(problems, ChainProblem{Seq: r.Seq, Reason: fmt.Sprintf(format, a...)})
		}
		switch {
		case r.Seq > expect:
			add("records %d to %d are missing: the chain jumps from record %d to record %d", expect, r.Seq-1, expect-1, r.Seq)
		case r.Seq < expect:
			add("it is out of order: record %d comes after record %d", r.Seq, expect-1)
		}
		expect = r.Seq + 1
		c, err := canonical(r)
		if err != nil {
			add("%v", err)
		} else if sha256Hex(c) != r.Hash {
			add("its content does not match its hash: it was changed after it was signed")
		}
		if r.PrevHash != prevHash {
			if i == 0 {
				add("it is the first record but does not start the chain")
			} else {
				add("its link to the previous record (%d) does not match that record's hash", records[i-1].Seq)
			}
		}
		if r.Replaces != "" {
			if wk, ok := weekOf[r.Replaces]; !ok || wk != r.WeekID {
				add("it replaces a record that is not an earlier record of the same week")
			}
		}
		weekOf[r.ID] = r.WeekID
		if allSigs || i == len(records)-1 {
			ok := err == nil && r.KeyID == keyID && verifySig(pub, c, r.Signature)
			switch {
			case r.KeyID != keyID:
				add("it is signed with key %s, not the published key %s", r.KeyID, keyID)
			case !ok && err == nil:
				add("its signature does not match its content")
			}
			if i == len(records)-1 {
				lastSigOK = ok
			}
		}
		prevHash = r.Hash
	}
	return problems, lastSigOK
}

func verifySig(pub, msg []byte, sigB64 string) bool {
	sig, err := base64.StdEncoding.DecodeString(sigB64)
	return err == nil && signing.Verify(pub, msg, sig)
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
}

// VerifyCampaignChain checks the whole chain of a campaign with every signature against pub (nil:
// this server's key), for marquee verify. An empty chain answers no records and no problems.
func (m *Module) VerifyCampaignChain(ctx context.Context, campaignID string, pub ed25519.PublicKey) (*ChainReport, error) {
	if pub == nil {
		pub = m.deps.Signer.PublicKey()
	}
	rows, err := m.store.ProofChain(ctx, campaignID, 0)
	if err != nil {
		return nil, err
	}
	problems, _ := checkChain(rows, pub, true)
	out := &ChainReport{CampaignID: campaignID, Problems: problems}
	for _, r := range rows {
		var sp []storedProof
		_ = json.Unmarshal([]byte(r.Proofs), &sp)
		out.Records = append(out.Records, ChainRecordLine{Seq: r.Seq, Code: displayCode(r.Code), Week: r.Week, FaceID: r.FaceID, Reason: r.Reason,
			Impressions: r.Impressions, Proofs: len(sp), Replaces: r.Replaces, RecordedAt: r.RecordedAt, Hash: r.Hash})
	}
	return out, nil
}

// ProofCodesOf returns the verification code of each week's current record, by week then face
// (ProofCodes). The caller has checked the campaign is the principal's.
func (m *Module) ProofCodesOf(ctx context.Context, campaignID string) ([]WeekProofCode, error) {
	rows, err := m.store.ProofChain(ctx, campaignID, 0)
	if err != nil {
		return nil, err
	}
	byWeek := map[string]int{}
	out := []WeekProofCode{}
	for _, r := range rows {
		wc := WeekProofCode{WeekID: r.WeekID, Week: r.Week, FaceID: r.FaceID, Code: displayCode(r.Code), Seq: r.Seq,
			RecordedAt: r.RecordedAt, Impressions: r.Impressions, Records: 1}
		if i, ok := byWeek[r.WeekID]; ok {
			wc.Records = out[i].Records + 1
			out[i] = wc
			continue
		}
		byWeek[r.WeekID] = len(out)
		out = append(out, wc)
	}
	weeks, err := m.store.WeeksOf(ctx, campaignID)
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
	slices.SortStableFunc(out, func(a, b WeekProofCode) int {
		if c := strings.Compare(a.Week, b.Week); c != 0 {
			return c
		}
		return strings.Compare(a.FaceID, b.FaceID)
	})
	return out, nil
}

// verifyCode answers /api/verify/{code}. Every input, well-formed or not, takes the same path: it
// is normalised, hashed and looked up by its hash, so neither the answer nor its time tells a
// valid prefix from an invalid one.
func (m *Module) verifyCode(ctx context.Context, code string) (*VerifyResult, error) {
	r, err := m.findByCode(ctx, code)
	if err != nil {
		return nil, err
	}
	chain, err := m.store.ProofChain(ctx, r.CampaignID, r.Seq)
	if err != nil {
		return nil, err
	}
	pub := m.deps.Signer.PublicKey()
	problems, sigOK := checkChain(chain, pub, false)
	if len(chain) == 0 || chain[len(chain)-1].ID != r.ID {
		// the record itself is out of its place (its seq changed under another)
		problems = append(problems, ChainProblem{Seq: r.Seq, Reason: "it is not at its place in the chain"})
		sigOK = false
	}
	w, err := m.store.FindWeek(ctx, r.WeekID)
	view := ProofRecordView{Code: displayCode(r.Code), Seq: r.Seq, Week: r.Week, Impressions: r.Impressions, Reason: r.Reason,
		Replaces: r.Replaces, RecordedAt: r.RecordedAt, PrevHash: r.PrevHash, Hash: r.Hash, Signature: r.Signature, KeyID: r.KeyID,
		Proofs: []ProofRecordProof{}}
	if d, derr := dates.Parse(r.Week); derr == nil {
		view.WeekEnd = d.AddDays(6).String()
	}
	if err == nil {
		view.Location = strings.Join(nonEmpty(w.LocationName, w.Face), ", ")
		view.Market = w.Market
	}
	if c, err := canonical(r); err == nil {
		view.Canonical = string(c)
	}
	var sp []storedProof
	_ = json.Unmarshal([]byte(r.Proofs), &sp)
	for _, p := range sp {
		base := "/api/verify/" + r.Code + "/proofs/" + p.ID
		view.Proofs = append(view.Proofs, ProofRecordProof{ID: p.ID, SHA256: p.SHA256, URL: base, Thumb: base + "?thumb=1"})
	}
	out := &VerifyResult{Record: view, SignatureValid: sigOK, Problems: problems, ChainLength: int64(len(chain)),
		PublicKey: base64.StdEncoding.EncodeToString(pub), PublicKeyURL: PublicKeyPath}
	// The chain is intact when nothing but this record's own signature is in question.
	out.ChainValid = true
	for _, p := range problems {
		if p.Seq != r.Seq || !strings.HasPrefix(p.Reason, "its signature") && !strings.HasPrefix(p.Reason, "it is signed with") {
			out.ChainValid = false
		}
	}
	out.Valid = out.SignatureValid && len(problems) == 0
	if next, err := m.store.ProofRecordReplacing(ctx, r.CampaignID, r.ID); err == nil && next != nil {
		out.Superseded, out.SupersededAt = true, next.RecordedAt
	}
	return out, nil
}

// CampaignOfCode returns the campaign of the record with this verification code (marquee verify
// --code). ENOTFOUND for an unknown code.
func (m *Module) CampaignOfCode(ctx context.Context, code string) (string, error) {
	r, err := m.findByCode(ctx, code)
	if err != nil {
		return "", err
	}
	return r.CampaignID, nil
}

// findByCode looks a code up by its hash. lookups counts the lookups (the tests check that an
// unknown and a malformed code both reach it).
func (m *Module) findByCode(ctx context.Context, code string) (*store.ProofRecord, error) {
	m.codeLookups.Add(1)
	r, err := m.store.ProofRecordByCodeHash(ctx, sha256Hex([]byte(normalizeCode(code))))
	if err != nil {
		return nil, db.Translate(err, MsgVerifyNotFound, "")
	}
	return r, nil
}

// proofOfRecord returns the file key of proof id when the record with this code lists it.
func (m *Module) proofOfRecord(ctx context.Context, code, id string) (string, error) {
	r, err := m.findByCode(ctx, code)
	if err != nil {
		return "", err
	}
	var sp []storedProof
	_ = json.Unmarshal([]byte(r.Proofs), &sp)
	for _, p := range sp {
		if p.ID == id {
			return p.Key, nil
		}
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
