package creatives

import (
	"context"
	"crypto/rand"
	"strings"

	"golang.org/x/sync/semaphore"

	"marquee/modules/creatives/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/audit"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/pagination"
	"marquee/platform/ratelimit"
)

// service implements Service, and the calls of the module's handlers.
type service struct {
	deps         Deps
	store        *store.Store
	uploads      *uploader
	requestLimit ratelimit.Counter   // POST /users/creative, per user
	previews     *semaphore.Weighted // previews rendered at once (PreviewLimit)
	renders      ratelimit.Counter   // previews drawn per user (PreviewRendersPerMinute)
}

var _ Service = (*service)(nil)

// creativeListSpec: A §9, the creatives list offers 10, 20, 50 and All.
var creativeListSpec = pagination.Spec{
	PageSizes: CreativePageSizes, DefaultSize: 10,
	Sortable:    map[string]string{"created_at": "created_at", "name": "name"},
	DefaultSort: "-created_at",
}

// creativeUploadKinds are the uploads a creative can be made of.
var creativeUploadKinds = []string{KindCreative, KindCreativeLibrary, KindCreativeImage, KindTemp}

// companyScope is the company whose creatives p works on: their own; an admin may name another
// (B §2), or none to see every company's.
func (s *service) companyScope(ctx context.Context, p *auth.Principal, requested string) (string, error) {
	if !p.IsAdmin() {
		return p.CompanyID, nil
	}
	if requested == "" {
		return "", nil
	}
	if _, err := s.deps.Identity.FindCompanyByID(ctx, requested); err != nil {
		if apperr.CodeOf(err) == apperr.ENOTFOUND {
			return "", apperr.NotFound(MsgCompanyNotFound)
		}
		return "", err
	}
	return requested, nil
}

func (s *service) listCreatives(ctx context.Context, p *auth.Principal, company string, params pagination.Params) (pagination.Page[*Creative], error) {
	companyID, err := s.companyScope(ctx, p, company)
	if err != nil {
		return pagination.Page[*Creative]{}, err
	}
	rows, total, err := s.store.ListCreatives(ctx, store.CreativeFilter{CompanyID: companyID}, params)
	if err != nil {
		return pagination.Page[*Creative]{}, apperr.Internal(err)
	}
	out, err := s.creativeDTOs(ctx, rows)
	if err != nil {
		return pagination.Page[*Creative]{}, err
	}
	return pagination.Envelope(out, total, params), nil
}

// creativesOfSize lists the company's creatives of exactly width x height (a face's ad size).
func (s *service) creativesOfSize(ctx context.Context, p *auth.Principal, company string, width, height int) ([]*Creative, error) {
	companyID, err := s.companyScope(ctx, p, company)
	if err != nil {
		return nil, err
	}
	rows, err := s.store.LatestCreatives(ctx, store.CreativeFilter{CompanyID: companyID, Width: width, Height: height}, 500)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	return s.creativeDTOs(ctx, rows)
}

func (s *service) creativeDTOs(ctx context.Context, rows []store.Creative) ([]*Creative, error) {
	keys := make([]string, 0, len(rows))
	for _, r := range rows {
		keys = append(keys, r.FileKey)
	}
	files, err := s.filesOf(ctx, keys)
	if err != nil {
		return nil, err
	}
	out := make([]*Creative, 0, len(rows))
	for i := range rows {
		out = append(out, creativeDTO(&rows[i], files[rows[i].FileKey]))
	}
	return out, nil
}

func creativeDTO(c *store.Creative, f *store.File) *Creative {
	dto := &Creative{ID: c.ID, AwsURL: fileURL(c.FileKey, false), Name: c.Name, Alt: c.Alt, URL: c.FileKey,
		Company: c.CompanyID, Reference: c.Reference, Width: c.Width, Height: c.Height, IsDefault: c.IsDefault,
		CreatedAt: c.CreatedAt.UTC(), Preflight: creativeReport(c, f)}
	if f != nil && f.ThumbKey != "" {
		dto.ConvertedThumb = fileURL(c.FileKey, true)
	}
	return dto
}

// createCreative saves an uploaded image as a creative of the caller's company, or of the company
// an admin names (B §2). The upload must be the caller's (A §5: 'Sorry! you must first upload your
// creative'). A company's first creative becomes its default.
func (s *service) createCreative(ctx context.Context, p *auth.Principal, req CreateCreativeRequest) (*Creative, error) {
	companyID := p.CompanyID
	if p.IsAdmin() && req.Company != "" {
		var err error
		if companyID, err = s.companyScope(ctx, p, req.Company); err != nil {
			return nil, err
		}
	}
	name, err := cleanText("name", req.Creative.Name, maxNameLen, false)
	if err != nil {
		return nil, err
	}
	alt, err := cleanText("alt", req.Creative.Alt, maxAltLen, false)
	if err != nil {
		return nil, err
	}
	design := ""
	if req.Design != nil {
		if design, err = validDesign(req.Design); err != nil {
			return nil, err
		}
	}
	file, err := s.ownUpload(ctx, p, companyID, req.Creative.URL, creativeUploadKinds)
	if err != nil && apperr.As(err).Code != apperr.ENOTFOUND {
		return nil, err // an outage is not the client's mistake
	}
	if err != nil || file.Width == 0 {
		return nil, apperr.New(apperr.EINVALID, MsgUploadCreative)
	}
	if name == "" {
		name = file.OriginalName
	}
	if name == "" {
		name = "Creative"
	}
	var row *store.Creative
	// Creatives of one company take turns deciding the default (db.LockForTx); a reference collision
	// hits a unique index, and the transaction is then run again.
	for range 3 {
		row = &store.Creative{ID: ids.New(), CompanyID: companyID, FileKey: file.Key, Name: name, Alt: alt,
			Reference: newReference(), Width: file.Width, Height: file.Height, CreatedBy: p.UserID, CreatedAt: s.deps.Clock.Now(), Design: design}
		err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
			if err := db.LockForTx(ctx, s.deps.DB, "creatives.default:"+companyID); err != nil {
				return err
			}
			if err := s.attach(ctx, file.Key, companyID); err != nil {
				return err
			}
			if _, err := s.store.DefaultCreative(ctx, companyID); db.IsNotFound(err) {
				row.IsDefault = true
			} else if err != nil {
				return err
			}
			if err := s.store.CreateCreative(ctx, row); err != nil {
				return err
			}
			if companyID == p.CompanyID {
				return nil
			}
			// An admin's creative for another company (B §2 "upload a creative for a company") is an
			// admin change (DESIGN.md §1.12).
			return s.deps.Audit.Record(ctx, audit.Change{Action: AuditCreativeForCompany, ObjectType: "company", ObjectID: companyID,
				After: map[string]string{"creative_id": row.ID, "name": row.Name, "file": row.FileKey}})
		})
		if !db.IsDuplicate(err) {
			break
		}
	}
	if err != nil {
		return nil, db.Translate(err, MsgUploadCreative, MsgSaveFailed)
	}
	file.CompanyID = companyID
	return creativeDTO(row, file), nil
}

// ownCreative returns the creative when p may manage it; another company's answers 404.
func (s *service) ownCreative(ctx context.Context, p *auth.Principal, id string) (*store.Creative, error) {
	c, err := s.store.CreativeByID(ctx, id)
	if err != nil {
		return nil, db.Translate(err, MsgCreativeNotFound, "")
	}
	if !p.IsAdmin() && c.CompanyID != p.CompanyID {
		return nil, apperr.NotFound(MsgCreativeNotFound)
	}
	return c, nil
}

func (s *service) deleteCreative(ctx context.Context, p *auth.Principal, id string) (SuccessResponse, error) {
	err := s.deleteWithFile(ctx, func(ctx context.Context) (string, error) {
		c, err := s.ownCreative(ctx, p, id)
		if err != nil {
			return "", err
		}
		return c.FileKey, s.store.DeleteCreative(ctx, id)
	})
	if err != nil {
		return SuccessResponse{}, db.Translate(err, MsgCreativeNotFound, "")
	}
	s.deletePreviews(ctx, id)
	return SuccessResponse{Success: true}, nil
}

// setDefault makes the creative its company's only default, in one transaction; concurrent
// changes of one company's default take turns (db.LockForTx).
func (s *service) setDefault(ctx context.Context, p *auth.Principal, id string) (*Creative, error) {
	var row *store.Creative
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		c, err := s.ownCreative(ctx, p, id)
		if err != nil {
			return err
		}
		if err := db.LockForTx(ctx, s.deps.DB, "creatives.default:"+c.CompanyID); err != nil {
			return err
		}
		if err := s.store.MakeDefault(ctx, c.CompanyID, c.ID); err != nil {
			return err
		}
		row, err = s.store.CreativeByID(ctx, id)
		return err
	})
	if err != nil {
		return nil, db.Translate(err, MsgCreativeNotFound, MsgSaveFailed)
	}
	out, err := s.creativeDTOs(ctx, []store.Creative{*row})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// defaultCreative is the company's default creative, or nil when it has none.
func (s *service) defaultCreative(ctx context.Context, p *auth.Principal, company string) (*Creative, error) {
	companyID := p.CompanyID
	if p.IsAdmin() && company != "" {
		var err error
		if companyID, err = s.companyScope(ctx, p, company); err != nil {
			return nil, err
		}
	}
	c, err := s.FindDefaultCreative(ctx, companyID)
	if apperr.CodeOf(err) == apperr.ENOTFOUND {
		return nil, nil
	}
	return c, err
}

// referenceAlphabet has no look-alike characters (0/O, 1/I/L), for a code read over the phone.
const referenceAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

// newReference is a short code that names a creative to support ("CR-" and 8 characters).
func newReference() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	var sb strings.Builder
	sb.WriteString("CR-")
	for _, x := range b {
		sb.WriteByte(referenceAlphabet[int(x)%len(referenceAlphabet)])
	}
	return sb.String()
}

// FindCreativesByIDs implements Service.
func (s *service) FindCreativesByIDs(ctx context.Context, ids []string) ([]*Creative, error) {
	rows, err := s.store.CreativesByIDs(ctx, ids)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	return s.creativeDTOs(ctx, rows)
}

// FindDefaultCreative implements Service.
func (s *service) FindDefaultCreative(ctx context.Context, companyID string) (*Creative, error) {
	c, err := s.store.DefaultCreative(ctx, companyID)
	if err != nil {
		return nil, db.Translate(err, MsgCreativeNotFound, "")
	}
	out, err := s.creativeDTOs(ctx, []store.Creative{*c})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}
