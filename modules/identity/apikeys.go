package identity

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"marquee/modules/identity/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/audit"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/pagination"
)

// Why identity owns API keys (docs/architecture.md): a key is a credential of a company's user,
// like a password or a session, and resolving it needs the user and the company, which identity
// already loads for sessions (LoadPrincipal). platform/auth gets the KeyResolver port, so the
// platform still imports no module.

// prefixLen is how much of a key is kept in clear: "mq_live_" and 4 characters, enough to tell
// keys apart and nowhere near enough to guess one (the rest is ~250 bits).
const prefixLen = len(auth.APIKeyPrefix) + 4

// touchEvery bounds the last-used writes: at most once a minute per key.
const touchEvery = time.Minute

// newKeySecret makes a key: the prefix and 32 random bytes (256 bits), base64url.
func newKeySecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return auth.APIKeyPrefix + base64.RawURLEncoding.EncodeToString(b)
}

// keys is the API key part of the service.
type keys struct {
	s       *service
	touched sync.Map // key id -> time.Time of the last recorded use
}

func toAPIKey(k *store.APIKey) APIKey {
	return APIKey{ID: k.ID, Company: k.CompanyID, Name: k.Name, Scope: k.Scope, Prefix: k.Prefix, CreatedBy: k.CreatedBy,
		CreatedAt: k.CreatedAt, LastUsedAt: k.LastUsedAt, LastUsedIP: k.LastUsedIP, RevokedAt: k.RevokedAt}
}

// create makes a key of p's company; the answer holds the key, shown once.
func (k *keys) create(ctx context.Context, p *auth.Principal, req CreateAPIKeyRequest) (*CreatedAPIKey, error) {
	// A key would outlive the moderated session and the admin's rights.
	if err := auth.RefuseModerated(p); err != nil {
		return nil, err
	}
	name := strings.TrimSpace(req.Name)
	if name == "" || utf8.RuneCountInString(name) > 100 {
		return nil, apperr.Field("name", MsgAPIKeyName)
	}
	if req.Scope != auth.ScopeRead && req.Scope != auth.ScopeReadWrite {
		return nil, apperr.Field("scope", MsgAPIKeyScope)
	}
	secret := newKeySecret()
	row := &store.APIKey{ID: ids.New(), CompanyID: p.CompanyID, CreatedBy: p.UserID, Name: name, Scope: req.Scope,
		Prefix: secret[:prefixLen], Hash: auth.HashAPIKey(secret), CreatedAt: k.s.now()}
	err := db.Transact(ctx, k.s.deps.DB, func(ctx context.Context) error {
		// Serialize a company's creations, so the limit holds under concurrent requests.
		if err := db.LockForTx(ctx, k.s.deps.DB, "identity.api_keys:"+p.CompanyID); err != nil {
			return err
		}
		_, live, err := k.s.store.APIKeys(ctx, p.CompanyID, true, 0, 1)
		if err != nil {
			return err
		}
		if live >= MaxLiveAPIKeys {
			return apperr.New(apperr.ECONFLICT, MsgAPIKeyTooMany)
		}
		return k.s.store.CreateAPIKey(ctx, row)
	})
	if err != nil {
		return nil, err
	}
	return &CreatedAPIKey{Success: true, Key: toAPIKey(row), Secret: secret}, nil
}

// list returns the live keys of p's company, newest first.
func (k *keys) list(ctx context.Context, p *auth.Principal) ([]APIKey, error) {
	rows, _, err := k.s.store.APIKeys(ctx, p.CompanyID, true, 0, 0)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	out := make([]APIKey, 0, len(rows))
	for i := range rows {
		out = append(out, toAPIKey(&rows[i]))
	}
	return out, nil
}

// revoke ends a live key of p's company (any company's for an admin, audited). Another company's
// key, an unknown id or a revoked key answer 404.
func (k *keys) revoke(ctx context.Context, p *auth.Principal, id string) (*MessageResponse, error) {
	return answered(MsgAPIKeyRevoked, db.Transact(ctx, k.s.deps.DB, func(ctx context.Context) error {
		row, err := k.s.store.APIKeyByID(ctx, id)
		if db.IsNotFound(err) || (err == nil && (row.RevokedAt != nil || (!p.IsAdmin() && row.CompanyID != p.CompanyID))) {
			return apperr.New(apperr.ENOTFOUND, MsgAPIKeyNotFound)
		}
		if err != nil {
			return err
		}
		now := k.s.now()
		if ok, err := k.s.store.RevokeAPIKey(ctx, id, p.UserID, now); err != nil || !ok {
			if err == nil {
				err = apperr.New(apperr.ENOTFOUND, MsgAPIKeyNotFound)
			}
			return err
		}
		if p.IsAdmin() {
			before := toAPIKey(row)
			after := before
			after.RevokedAt = &now
			return k.s.deps.Audit.Record(ctx, audit.Change{Action: AuditAPIKeyRevoke, ObjectType: AuditObjectAPIKey, ObjectID: id, Before: before, After: after})
		}
		return nil
	}))
}

// adminList is a page of every company's live keys (or one company's), with the company names.
func (k *keys) adminList(ctx context.Context, companyID string, p pagination.Params) (pagination.Page[APIKey], error) {
	offset := 0
	if p.PageSize > 0 {
		offset = (p.Page - 1) * p.PageSize
	}
	rows, total, err := k.s.store.APIKeys(ctx, companyID, true, offset, p.PageSize)
	if err != nil {
		return pagination.Page[APIKey]{}, apperr.Internal(err)
	}
	idSet := map[string]bool{}
	var companyIDs []string
	for _, r := range rows {
		if !idSet[r.CompanyID] {
			idSet[r.CompanyID] = true
			companyIDs = append(companyIDs, r.CompanyID)
		}
	}
	companies, err := k.s.store.CompaniesByIDs(ctx, companyIDs)
	if err != nil {
		return pagination.Page[APIKey]{}, apperr.Internal(err)
	}
	names := map[string]string{}
	for _, c := range companies {
		names[c.ID] = c.Name
	}
	out := make([]APIKey, 0, len(rows))
	for i := range rows {
		a := toAPIKey(&rows[i])
		a.CompanyName = names[a.Company]
		out = append(out, a)
	}
	return pagination.Envelope(out, total, p), nil
}

// ResolveAPIKey implements auth.KeyResolver: the key of that hash, live, made by a user who is
// still active in the key's company, acts as a regular user of the company (never an admin).
func (s *service) ResolveAPIKey(ctx context.Context, hash string) (*auth.Principal, error) {
	k, err := s.store.APIKeyByHash(ctx, hash)
	if db.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if k.RevokedAt != nil {
		return nil, nil
	}
	p, err := s.LoadPrincipal(ctx, k.CreatedBy)
	if err != nil || p == nil || p.CompanyID != k.CompanyID {
		return nil, err
	}
	c, err := s.store.CompanyByID(ctx, k.CompanyID)
	if db.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err // an outage answers 503, not "a valid API key is required"
	}
	if c.Status != StatusActive {
		return nil, nil
	}
	p.Role = RoleUser
	p.APIKey = &auth.APIKeyRef{ID: k.ID, Name: k.Name, Prefix: k.Prefix, Scope: k.Scope}
	return p, nil
}

// TouchAPIKey implements auth.KeyResolver: the last use, written at most once a minute per key
// (a memory of this process, and the UPDATE's own condition across replicas).
func (s *service) TouchAPIKey(ctx context.Context, keyID, ip string) {
	now := s.now()
	if last, ok := s.keys.touched.Load(keyID); ok && now.Sub(last.(time.Time)) < touchEvery {
		return
	}
	s.keys.touched.Store(keyID, now)
	_ = s.store.TouchAPIKey(ctx, keyID, ip, now, now.Add(-touchEvery))
}

var adminAPIKeyPage = pagination.Spec{PageSizes: []int{50, 75, 100, 0}, DefaultSize: 50}
