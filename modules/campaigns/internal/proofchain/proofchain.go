// Package proofchain is the pure core of signed proof of play (docs/delivery-assurance.md
// "Signed proof of play"): a record's canonical form, its hash, the verification codes, and the
// check of a whole chain. No I/O: campaigns' assurance reads and writes the records in the
// delivery transaction.
package proofchain

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"marquee/modules/campaigns/internal/store"
	"marquee/platform/signing"
)

// Problem is where and why a chain breaks: the record and the reason.
type Problem struct {
	Seq    int64
	Reason string
}

// Version is the "v" of the canonical form; a new format gets a new number.
const Version = 1

// Genesis is the prev of a chain's first record.
var Genesis = strings.Repeat("0", 64)

// codeAlphabet is RFC 4648 base32: upper-case letters and 2-7, no 0/1/8/9 to mistake for O/I/B/g.
const codeAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

// CodeLen characters of 5 bits: 60 random bits, far beyond guessing through a rate-limited page.
const CodeLen = 12

// RecordedAtLayout is the signed timestamp: UTC, milliseconds, so both databases give it back
// byte for byte (it is stored as text).
const RecordedAtLayout = "2006-01-02T15:04:05.000Z"

// Proof is a proof in the canonical form.
type Proof struct {
	ID     string `json:"id"`
	SHA256 string `json:"sha256"`
}

// Device is the part of a device batch's record that the screen signed (docs/screens.md): the
// screen, its public key (base64 of 32 bytes), the exact message it signed (method, path,
// timestamp and the body's SHA-256, one per line), its Ed25519 signature (base64), the batch's
// SHA-256 (hex, the message's last line) and the counted plays of this campaign-week in it.
type Device struct {
	BatchHash string `json:"batch_hash"`
	Message   string `json:"message"`
	Plays     int64  `json:"plays"`
	PublicKey string `json:"public_key"`
	ScreenID  string `json:"screen_id"`
	Signature string `json:"signature"`
}

// DeviceVersion is the "v" of a record with a device part.
const DeviceVersion = 2

// Fields are a record's signed fields, as its canonical JSON names them.
type Fields struct {
	Campaign    string  `json:"campaign"`
	Code        string  `json:"code"`
	Device      *Device `json:"device,omitempty"`
	Face        string  `json:"face"`
	ID          string  `json:"id"`
	Impressions *int64  `json:"impressions"`
	KeyID       string  `json:"key_id"`
	Prev        string  `json:"prev"`
	Proofs      []Proof `json:"proofs"`
	Reason      string  `json:"reason"`
	RecordedAt  string  `json:"recorded_at"`
	Replaces    string  `json:"replaces"`
	Seq         int64   `json:"seq"`
	V           int     `json:"v"`
	Week        string  `json:"week"`
	WeekID      string  `json:"week_id"`
}

// Canonical is the exact byte string a record's hash and signature are computed over: JSON with
// the keys sorted and no spaces. Fields, in order: campaign, code, face, id, impressions (a
// number or null), key_id, prev, proofs (an array of {"id","sha256"}, sorted by id), reason,
// recorded_at, replaces, seq, v, week, week_id; a device batch's record (v 2) also has device
// ({"batch_hash","message","plays","public_key","screen_id","signature"}) after code.
func Canonical(f *Fields) []byte {
	proofs := f.Proofs
	if proofs == nil {
		proofs = []Proof{}
	}
	pj, _ := json.Marshal(proofs)
	b := make([]byte, 0, 420+len(pj))
	b = append(b, `{"campaign":`...)
	b = appendJSONString(b, f.Campaign)
	b = append(b, `,"code":`...)
	b = appendJSONString(b, f.Code)
	if d := f.Device; d != nil {
		// Only device records have the key, so every earlier record keeps its exact bytes. Its
		// keys differ from every top-level key, so TextField and IntField still find those.
		b = append(b, `,"device":{"batch_hash":`...)
		b = appendJSONString(b, d.BatchHash)
		b = append(b, `,"message":`...)
		b = appendJSONString(b, d.Message)
		b = append(b, `,"plays":`...)
		b = strconv.AppendInt(b, d.Plays, 10)
		b = append(b, `,"public_key":`...)
		b = appendJSONString(b, d.PublicKey)
		b = append(b, `,"screen_id":`...)
		b = appendJSONString(b, d.ScreenID)
		b = append(b, `,"signature":`...)
		b = appendJSONString(b, d.Signature)
		b = append(b, '}')
	}
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

// ParseFields parses a record's canonical text (for showing it; checks never trust it unhashed).
func ParseFields(canonical string) Fields {
	var f Fields
	_ = json.Unmarshal([]byte(canonical), &f)
	return f
}

// TextField reads the string value of a top-level key from canonical text without parsing it
// all: the chain check reads ~1,500 records per /verify call. Top-level keys after the first are
// preceded by a comma, which no key inside the proofs array is ("[{" or "},{"), so the first
// match is the top-level one.
func TextField(c, key string) string {
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

// IntField reads the integer value of a top-level key from canonical text (-1 when absent).
func IntField(c, key string) int64 {
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

func SHA256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// NewCode draws a verification code.
func NewCode() (string, error) {
	var b [CodeLen]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	for i := range b {
		b[i] = codeAlphabet[b[i]&31]
	}
	return string(b[:]), nil
}

// NormalizeCode is what a typed code is looked up as: upper case, without the dashes and spaces of
// its display form. Whatever the input, its SHA-256 is looked up the same way.
func NormalizeCode(code string) string {
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

// DisplayCode groups a code as XXXX-XXXX-XXXX.
func DisplayCode(code string) string {
	if len(code) != CodeLen {
		return code
	}
	return code[:4] + "-" + code[4:8] + "-" + code[8:]
}

// Check recomputes a chain (records in seq order, from the campaign's first) and returns
// where and why it breaks. Every record's hash, link, place and replaces are checked; signatures
// of every record when allSigs, else only the last one's: a valid signature on a record covers
// its prev, which covers the record before, and so on to the first, so an intact chain under one
// valid signature is as good as every signature checked.
func Check(records []store.ProofRecord, pub []byte, allSigs bool) (problems []Problem, lastSigOK bool) {
	return CheckFrom(records, Start{}, nil, pub, allSigs)
}

// Start is where a check of part of a chain begins: after the record Seq, whose hash is Hash (a
// verified checkpoint). The zero Start is the chain's beginning.
type Start struct {
	Seq  int64
	Hash string
}

// Earlier is what a check needs of a record before the part it checks: its place and the week its
// signed text names (to check a replaces that points back past the part's start).
type Earlier struct {
	Seq    int64
	WeekID string
}

// EarlierOf reads an earlier record's Earlier from its canonical text.
func EarlierOf(seq int64, canonical string) Earlier {
	return Earlier{Seq: seq, WeekID: TextField(canonical, "week_id")}
}

// ReplacesBefore returns the ids that records replace and that are not among the records
// themselves: the earlier records a check from a checkpoint must look up (CheckFrom's earlier).
func ReplacesBefore(records []store.ProofRecord) []string {
	seen := make(map[string]bool, len(records))
	var out []string
	for i := range records {
		c := records[i].Canonical
		if rep := TextField(c, "replaces"); rep != "" && !seen[rep] {
			out = append(out, rep)
			seen[rep] = true
		}
		seen[TextField(c, "id")] = true
	}
	return out
}

// CheckFrom is Check of the records that follow from (in seq order, the first being from.Seq+1):
// the first's prev must be from.Hash. A replaces that names a record before them is checked
// against earlier (record id -> its place and week; ReplacesBefore lists the ids). The device
// signature of a screen's batch is checked on every record when allSigs, else on the last one
// only: Marquee's signature of the last record covers the text, device part included, of every
// record before it.
func CheckFrom(records []store.ProofRecord, from Start, earlier map[string]Earlier, pub []byte, allSigs bool) (problems []Problem, lastSigOK bool) {
	problems = []Problem{}
	keyID := signing.KeyID(pub)
	prevHash := Genesis
	if from.Seq > 0 {
		prevHash = from.Hash
	}
	expect := from.Seq + 1
	weekOf := make(map[string]string, len(records)) // record id -> week id, of the records seen
	for i := range records {
		r := &records[i]
		add := func(format string, a ...any) {
			problems = append(problems, Problem{Seq: r.Seq, Reason: fmt.Sprintf(format, a...)})
		}
		switch {
		case r.Seq > expect:
			add("records %d to %d are missing: the chain jumps from record %d to record %d", expect, r.Seq-1, expect-1, r.Seq)
		case r.Seq < expect:
			add("it is out of order: record %d comes after record %d", r.Seq, expect-1)
		}
		expect = r.Seq + 1
		c := r.Canonical
		if SHA256Hex([]byte(c)) != r.Hash {
			add("its content does not match its hash: it was changed after it was signed")
		}
		if signed := IntField(c, "seq"); signed != r.Seq {
			add("it was signed as record %d: records were moved", signed)
		}
		if prev := TextField(c, "prev"); prev != prevHash {
			switch {
			case i > 0:
				add("its link to the previous record (%d) does not match that record's hash", records[i-1].Seq)
			case from.Seq > 0:
				add("its link to the previous record (%d) does not match that record's hash when it was checked", from.Seq)
			default:
				add("it is the first record but does not start the chain")
			}
		}
		week := TextField(c, "week_id")
		if replaces := TextField(c, "replaces"); replaces != "" {
			wk, ok := weekOf[replaces]
			if !ok {
				e, found := earlier[replaces]
				ok, wk = found && e.Seq < r.Seq, e.WeekID
			}
			if !ok || wk != week {
				add("it replaces a record that is not an earlier record of the same week")
			}
		}
		weekOf[TextField(c, "id")] = week
		last := i == len(records)-1
		if (allSigs || last) && strings.Contains(c, `,"device":{`) {
			if why := CheckDevice(c); why != "" {
				add("%s", why)
			}
		}
		if allSigs || last {
			kid := TextField(c, "key_id")
			ok := kid == keyID && VerifySignature(pub, []byte(c), r.Signature)
			switch {
			case kid != keyID:
				add("it is signed with key %s, not the published key %s", kid, keyID)
			case !ok:
				add("its signature does not match its content")
			}
			if last {
				lastSigOK = ok
			}
		}
		prevHash = r.Hash
	}
	return problems, lastSigOK
}

func VerifySignature(pub, msg []byte, sigB64 string) bool {
	sig, err := base64.StdEncoding.DecodeString(sigB64)
	return err == nil && signing.Verify(pub, msg, sig)
}

// CheckDevice checks the device part of a record's canonical text: the screen's Ed25519 signature
// over the message, and that the message signs the batch hash the record names. It answers why
// it fails, or "" when it holds (or the record has no device part).
func CheckDevice(canonical string) string {
	f := ParseFields(canonical)
	d := f.Device
	if d == nil {
		return ""
	}
	pub, err := base64.StdEncoding.DecodeString(d.PublicKey)
	if err != nil || len(pub) != ed25519.PublicKeySize {
		return "its screen's public key is malformed"
	}
	lines := strings.Split(d.Message, "\n")
	if len(lines) != 4 || lines[3] != d.BatchHash {
		return "its screen's signed message does not name its batch hash"
	}
	sig, err := base64.StdEncoding.DecodeString(d.Signature)
	if err != nil || !ed25519.Verify(pub, []byte(d.Message), sig) {
		return "its screen's signature does not match the batch"
	}
	return ""
}
