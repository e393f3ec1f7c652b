package campaigns

import (
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
	"strconv"
	"strings"

	"marquee/modules/campaigns/internal/store"
	"marquee/modules/creatives"
	"marquee/platform/apperr"
	"marquee/platform/auth"
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

// recordFields are a record's signed fields, as its canonical JSON names them.
type recordFields struct {
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

// canonical is the exact byte string a record's hash and signature are computed over: JSON with
// the keys sorted and no spaces. Fields, in order: campaign, code, face, id, impressions (a
// number or null), key_id, prev, proofs (an array of {"id","sha256"}, sorted by id), reason,
// recorded_at, replaces, seq, v, week, week_id.
func canonical(f *recordFields) []byte {
	proofs := f.Proofs
	if proofs == nil {
		proofs = []canonicalProof{}
	}
	pj, _ := json.Marshal(proofs)
	b := make([]byte, 0, 420+len(pj))
	b = append(b, `{"campaign":`...)
	b = appendJSONString(b, f.Campaign)
	b = append(b, `,"code":`...)
	b = appendJSONString(b, f.Code)
	b = append(b, `,"face":`...)
	b = appendJSONString(b, f.Face)
	b = append(b, `,"id":`...)
	b = appendJSONString(b, f.ID)
	b = append(b, `,"impressions":`...)
	if f.Impressions == nil {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, *f.Impressions, 10)
	}
	b = append(b, `,"key_id":`...)
	b = appendJSONString(b, f.KeyID)
	b = append(b, `,"prev":`...)
	b = appendJSONString(b, f.Prev)
	b = append(b, `,"proofs":`...)
	b = append(b, pj...)
	b = append(b, `,"reason":`...)
	b = appendJSONString(b, f.Reason)
	b = append(b, `,"recorded_at":`...)
	b = appendJSONString(b, f.RecordedAt)
	b = append(b, `,"replaces":`...)
	b = appendJSONString(b, f.Replaces)
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, f.Seq, 10)
	b = append(b, `,"v":`...)
	b = strconv.AppendInt(b, int64(f.V), 10)
	b = append(b, `,"week":`...)
	b = appendJSONString(b, f.Week)
	b = append(b, `,"week_id":`...)
	b = appendJSONString(b, f.WeekID)
	return append(b, '}')
}

// fieldsOf parses a record's canonical text (for showing it; checks never trust it unhashed).
func fieldsOf(r *store.ProofRecord) recordFields {
	var f recordFields
	_ = json.Unmarshal([]byte(r.Canonical), &f)
	return f
}

// textField reads the string value of a top-level key from canonical text without parsing it
// all: the chain check reads ~1,500 records per /verify call. Top-level keys after the first are
// preceded by a comma, which no key inside the proofs array is ("[{" or "},{"), so the first
// match is the top-level one.
func textField(c, key string) string {
	marker := `,"` + key + `":"`
	i := strings.Index(c, marker)
	if i < 0 {
		return ""
	}
	rest := c[i+len(marker):]
	if j := strings.IndexByte(rest, '"'); j >= 0 {
		return rest[:j]
	}
	return ""
}

// intField reads the integer value of a top-level key from canonical text (-1 when absent).
func intField(c, key string) int64 {
	marker := `,"` + key + `":`
	i := strings.Index(c, marker)
	if i < 0 {
		return -1
	}
	rest := c[i+len(marker):]
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	n, err := strconv.ParseInt(rest[:j], 10, 64)
	if err != nil {
		return -1
	}
	return n
}

// appendJSONString writes s as a JSON string. The values the chain holds (ids, hex digests,
// dates, reasons) are plain ASCII and written as they are; anything else goes through
// encoding/json, so the text stays valid JSON even for a value changed in the database.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
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
		sum, err := a.hashObject(ctx, k)
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

func (a *assurance) hashObject(ctx context.Context, key string) (string, error) {
	rc, _, err := a.deps.Objects.Get(ctx, key)
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
func (a *assurance) appendProofRecord(ctx context.Context, weekID, reason string) error {
	return a.appendProofRecordCode(ctx, weekID, reason, "")
}

// appendProofRecordCode is appendProofRecord with a chosen code ("" draws one; the demo seed
// chooses a code it can print).
func (a *assurance) appendProofRecordCode(ctx context.Context, weekID, reason, code string) error {
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
	proofs := []canonicalProof{}
	keyOf := map[string]string{}
	var keys []string
	for _, wc := range wcs {
		if wc.CreativeType == CreativeTypeProof {
			proofs = append(proofs, canonicalProof{ID: wc.ID})
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
			if sum, err = a.hashObject(ctx, key); err != nil {
				return err
			}
			if err := a.store.SaveProofFileHash(ctx, key, sum); err != nil {
				return err
			}
		}
		proofs[i].SHA256 = sum
	}
	slices.SortFunc(proofs, func(x, y canonicalProof) int { return strings.Compare(x.ID, y.ID) })
	kj, err := json.Marshal(keyOf)
	if err != nil {
		return err
	}
	last, ofWeek, err := a.store.LastProofRecords(ctx, w.CampaignID, w.ID)
	if err != nil {
		return err
	}
	if code == "" {
		if code, err = newProofCode(); err != nil {
			return err
		}
	}
	f := &recordFields{Campaign: w.CampaignID, Code: code, Face: w.FaceID, ID: ids.New(), Impressions: w.ActImp,
		KeyID: signing.KeyID(a.deps.Signer.PublicKey()), Prev: genesisHash, Proofs: proofs, Reason: reason,
		RecordedAt: a.deps.Clock.Now().UTC().Format(recordedAtLayout), Seq: 1, V: proofChainVersion, Week: w.StartAt.String(), WeekID: w.ID}
	if last != nil {
		f.Seq, f.Prev = last.Seq+1, last.Hash
	}
	if ofWeek != nil {
		f.Replaces = ofWeek.ID
	}
	c := canonical(f)
	sig, err := a.deps.Signer.Sign(c)
	if err != nil {
		return err
	}
	return a.store.Create(ctx, &store.ProofRecord{ID: f.ID, CampaignID: f.Campaign, Seq: f.Seq, WeekID: f.WeekID, Code: code,
		CodeHash: sha256Hex([]byte(code)), Canonical: string(c), Hash: sha256Hex(c), Signature: base64.StdEncoding.EncodeToString(sig),
		ProofKeys: string(kj)})
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
	weekOf := make(map[string]string, len(records)) // record id -> week id, of the records seen
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
		c := r.Canonical
		if sha256Hex([]byte(c)) != r.Hash {
			add("its content does not match its hash: it was changed after it was signed")
		}
		if signed := intField(c, "seq"); signed != r.Seq {
			add("it was signed as record %d: records were moved", signed)
		}
		if prev := textField(c, "prev"); prev != prevHash {
			if i == 0 {
				add("it is the first record but does not start the chain")
			} else {
				add("its link to the previous record (%d) does not match that record's hash", records[i-1].Seq)
			}
		}
		week := textField(c, "week_id")
		if replaces := textField(c, "replaces"); replaces != "" {
			if wk, ok := weekOf[replaces]; !ok || wk != week {
				add("it replaces a record that is not an earlier record of the same week")
			}
		}
		weekOf[textField(c, "id")] = week
		if allSigs || i == len(records)-1 {
			kid := textField(c, "key_id")
			ok := kid == keyID && verifySig(pub, []byte(c), r.Signature)
			switch {
			case kid != keyID:
				add("it is signed with key %s, not the published key %s", kid, keyID)
			case !ok:
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
func (a *assurance) VerifyCampaignChain(ctx context.Context, campaignID string, pub ed25519.PublicKey) (*ChainReport, error) {
	if pub == nil {
		pub = a.deps.Signer.PublicKey()
	}
	rows, err := a.store.ProofChain(ctx, campaignID, 0)
	if err != nil {
		return nil, err
	}
	problems, _ := checkChain(rows, pub, true)
	out := &ChainReport{CampaignID: campaignID, Problems: problems}
	superseded := supersededRecords(rows)
	for i := range rows {
		r := &rows[i]
		f := fieldsOf(r)
		_, photoProblems := a.checkPhotos(ctx, r, f, superseded[r.ID])
		out.Problems = append(out.Problems, photoProblems...)
		out.Records = append(out.Records, ChainRecordLine{Seq: r.Seq, Code: displayCode(r.Code), Week: f.Week, FaceID: f.Face, Reason: f.Reason,
			Impressions: f.Impressions, Proofs: len(f.Proofs), Replaces: f.Replaces, RecordedAt: f.RecordedAt, Hash: r.Hash})
	}
	return out, nil
}

// ProofCodesOf returns the verification code of each week's current record, by week then face
// (ProofCodes). The caller has checked the campaign is the principal's.
func (a *assurance) ProofCodesOf(ctx context.Context, campaignID string) ([]WeekProofCode, error) {
	rows, err := a.store.ProofChain(ctx, campaignID, 0)
	if err != nil {
		return nil, err
	}
	byWeek := map[string]int{}
	out := []WeekProofCode{}
	for i := range rows {
		r := &rows[i]
		f := fieldsOf(r)
		wc := WeekProofCode{WeekID: r.WeekID, Week: f.Week, FaceID: f.Face, Code: displayCode(r.Code), Seq: r.Seq,
			RecordedAt: f.RecordedAt, Impressions: f.Impressions, Records: 1}
		if i, ok := byWeek[r.WeekID]; ok {
			wc.Records = out[i].Records + 1
			out[i] = wc
			continue
		}
		byWeek[r.WeekID] = len(out)
		out = append(out, wc)
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
	chain, err := a.store.ProofChainToCheck(ctx, r.CampaignID, r.Seq)
	if err != nil {
		return nil, err
	}
	last := len(chain) - 1
	at := last >= 0 && chain[last].Seq == r.Seq && chain[last].Hash == r.Hash && chain[last].Canonical == r.Canonical
	if at {
		chain[last].Signature = r.Signature // the one signature this check needs (checkChain)
	}
	pub := a.deps.Signer.PublicKey()
	problems, sigOK := checkChain(chain, pub, false)
	if !at {
		// the record itself is out of its place (its seq changed under another)
		problems = append(problems, ChainProblem{Seq: r.Seq, Reason: "it is not at its place in the chain"})
		sigOK = false
	}
	f := fieldsOf(r)
	next, nerr := a.store.NextProofRecordOfWeek(ctx, r.CampaignID, r.WeekID, r.Seq)
	if nerr != nil {
		return nil, nerr
	}
	w, err := a.store.FindWeek(ctx, r.WeekID)
	view := ProofRecordView{Code: displayCode(r.Code), Seq: r.Seq, Week: f.Week, Impressions: f.Impressions, Reason: f.Reason,
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
	out := &VerifyResult{Record: view, SignatureValid: sigOK, Problems: problems, ChainLength: int64(len(chain)),
		PublicKey: base64.StdEncoding.EncodeToString(pub), PublicKeyURL: PublicKeyPath}
	// The chain is intact when nothing but this record's own signature is in question.
	out.ChainValid = true
	for _, p := range problems {
		if p.Seq != r.Seq || !strings.HasPrefix(p.Reason, "its signature") && !strings.HasPrefix(p.Reason, "it is signed with") {
			out.ChainValid = false
		}
	}
	// The photos: each served file against the SHA-256 the record signs (issue 24 §5).
	out.PhotosValid = len(photoProblems) == 0
	out.Problems = append(out.Problems, photoProblems...)
	out.Valid = out.SignatureValid && len(out.Problems) == 0
	if next != nil {
		out.Superseded, out.SupersededAt, out.SupersededBy = true, fieldsOf(next).RecordedAt, displayCode(next.Code)
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
func (a *assurance) checkPhotos(ctx context.Context, r *store.ProofRecord, f recordFields, superseded bool) (map[string]string, []ChainProblem) {
	var keys map[string]string
	_ = json.Unmarshal([]byte(r.ProofKeys), &keys)
	status := make(map[string]string, len(f.Proofs))
	var problems []ChainProblem
	for _, p := range f.Proofs {
		key, ok := keys[p.ID]
		var sum string
		var err error
		if ok {
			sum, err = a.hashObject(ctx, key)
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
		if rep := textField(rows[i].Canonical, "replaces"); rep != "" {
			out[rep] = true
		}
	}
	return out
}

// ChainExport is a campaign's whole chain as GET /api/verify/{code}/chain answers it: every record,
// superseded ones included, with its code, exact signed text, hash and signature, and where each
// proof photo is served, so a verifier outside Marquee can rebuild and check it all
// (docs/delivery-assurance.md).
func (a *assurance) ChainExport(ctx context.Context, code string) (*ProofChainExport, error) {
	r, err := a.findByCode(ctx, code)
	if err != nil {
		return nil, err
	}
	rows, err := a.store.ProofChain(ctx, r.CampaignID, 0)
	if err != nil {
		return nil, err
	}
	pub := a.deps.Signer.PublicKey()
	out := &ProofChainExport{KeyID: signing.KeyID(pub), PublicKey: base64.StdEncoding.EncodeToString(pub), PublicKeyURL: PublicKeyPath,
		Records: make([]ProofChainRecord, 0, len(rows))}
	superseded := supersededRecords(rows)
	for i := range rows {
		row := &rows[i]
		f := fieldsOf(row)
		rec := ProofChainRecord{Seq: row.Seq, Code: displayCode(row.Code), Canonical: row.Canonical, Hash: row.Hash, Signature: row.Signature,
			Superseded: superseded[row.ID], Proofs: []ProofRecordProof{}}
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
	r, err := a.store.ProofRecordByCodeHash(ctx, sha256Hex([]byte(normalizeCode(code))))
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
	if key, ok := keys[id]; ok && slices.ContainsFunc(fieldsOf(r).Proofs, func(p canonicalProof) bool { return p.ID == id }) {
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
