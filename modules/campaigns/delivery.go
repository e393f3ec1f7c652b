package campaigns

import (
	"context"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"

	"marquee/modules/campaigns/internal/makegood"
	"marquee/modules/campaigns/internal/store"
	"marquee/modules/creatives"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/httpx"
	"marquee/platform/ids"
)

// Delivery ("Recording delivery"): an admin records each week's actual impressions and
// its proof images. They feed the chart, the lists' totals and the reports.

// maxProofFiles is how many proof images one upload takes.
const maxProofFiles = 10

// recordDelivery sets a week's actual impressions and the campaign's total.
func (a *assurance) recordDelivery(ctx context.Context, p *auth.Principal, weekID string, req DeliveryUpdate) (*MessageResponse, error) {
	if req.ActImp < 0 || req.ActImp > makegood.MaxActImp {
		return nil, apperr.Field("act_imp", MsgActImpInvalid)
	}
	err := db.Transact(ctx, a.deps.DB, func(ctx context.Context) error {
		w, c, err := a.lockWeek(ctx, p, weekID)
		if err != nil {
			return err
		}
		// More than 10 times the week's contracted impressions is not a delivery.
		if limit := makegood.MaxImpressions(w.Ooh); req.ActImp > limit {
			return apperr.Field("act_imp", MsgActImpAboveLimit(limit))
		}
		// A figure from plays is replaced only on purpose: an audited override with a reason.
		reason := strings.TrimSpace(req.Reason)
		fromPlays := w.DeliverySource == DeliverySourceScreen || w.DeliverySource == DeliverySourceImport
		if fromPlays && reason == "" {
			return apperr.Field("reason", MsgOverrideReason)
		}
		if len(reason) > 500 {
			return apperr.Field("reason", "At most 500 characters.")
		}
		now := a.deps.Clock.Now()
		v := req.ActImp
		if err := a.store.UpdateWeeks(ctx, []string{w.ID}, map[string]any{"act_imp": &v, "delivery_source": DeliverySourceAdmin, "updated_at": now}); err != nil {
			return err
		}
		if fromPlays {
			if err := a.auditAdmin(ctx, p, AuditWeekDeliveryOverride, "campaign_week", w.ID,
				map[string]any{"act_imp": w.ActImp, "source": w.DeliverySource}, map[string]any{"act_imp": v, "reason": reason}); err != nil {
				return err
			}
		}
		if err := a.store.RefreshActImp(ctx, c.ID, now); err != nil {
			return err
		}
		a.notify(ctx, EventWeekDelivered, func(ctx context.Context) error {
			return a.deps.Events.Publish(ctx, EventWeekDelivered, WeekDelivered{CampaignID: c.ID, CompanyID: c.CompanyID, WeekID: w.ID, StartAt: w.StartAt, Impressions: v})
		})
		if err := a.appendProofRecord(ctx, w.ID, ProofReasonDelivery); err != nil { // signed proof of play
			return err
		}
		if err := a.auditAdmin(ctx, p, AuditWeekDelivery, "campaign_week", w.ID, map[string]any{"act_imp": w.ActImp}, map[string]any{"act_imp": v}); err != nil {
			return err
		}
		// A finished week's make-good follows its delivery (granted, or corrected).
		w.ActImp = &v
		_, err = a.settleMakeGood(ctx, c, w, nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &MessageResponse{Success: true, Message: MsgDeliveryUpdated}, nil
}

// proofURL is where the browser loads a stored proof (creatives' /proof/image).
func proofURL(key string, thumb bool) string {
	u := "/proof/image?image=" + url.QueryEscape(key)
	if thumb {
		u += "&thumb=1"
	}
	return u
}

// addProofs stores proof images for a week. The body is either multipart (parts named "file" or
// "files": each image is stored through creatives.StoreFile as a proof of the campaign's company)
// or JSON ProofsUpload naming proofs already stored for the campaign's company.
func (a *assurance) addProofs(c *gin.Context, p *auth.Principal, weekID string) (*MessageResponse, error) {
	w, err := a.store.FindWeek(c, weekID)
	if err != nil {
		return nil, db.Translate(err, MsgWeekNotFound, "")
	}
	camp, err := a.store.FindCampaign(c, scope(p), w.CampaignID)
	if err != nil {
		return nil, apperr.NotFound(MsgWeekNotFound)
	}
	var files []*creatives.File
	if strings.HasPrefix(c.ContentType(), "multipart/") {
		files, err = a.storeProofParts(c, p, camp.CompanyID)
	} else {
		files, err = a.namedProofs(c, camp.CompanyID)
	}
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, apperr.Field("files", "Please choose at least one proof image.")
	}
	if err := a.hashProofFiles(c, files); err != nil { // each proof's SHA-256, once, outside the transaction
		return nil, err
	}
	now := a.deps.Clock.Now()
	err = db.Transact(c, a.deps.DB, func(ctx context.Context) error {
		for _, f := range files {
			row := store.WeekCreative{ID: ids.New(), WeekID: w.ID, CampaignID: w.CampaignID, CreativeType: CreativeTypeProof,
				FileKey: f.Key, URL: proofURL(f.Key, false), CreatedAt: now}
			if f.ThumbKey != "" {
				row.Thumb = proofURL(f.Key, true)
			}
			if err := a.store.Create(ctx, &row); err != nil {
				return err
			}
		}
		if err := a.appendProofRecord(ctx, w.ID, ProofReasonProofsAdded); err != nil { // signed proof of play
			return err
		}
		keys := make([]string, len(files))
		for i, f := range files {
			keys[i] = f.Key
		}
		a.notify(ctx, EventProofsAdded, func(ctx context.Context) error {
			return a.deps.Events.Publish(ctx, EventProofsAdded, ProofsAdded{CampaignID: camp.ID, CompanyID: camp.CompanyID, WeekID: w.ID, Count: len(files)})
		})
		return a.auditAdmin(ctx, p, AuditWeekProofs, "campaign_week", w.ID, nil, map[string]any{"files": keys})
	})
	if err != nil {
		return nil, err
	}
	return &MessageResponse{Success: true, Message: MsgProofsAdded}, nil
}

// storeProofParts reads the multipart body part by part and stores each image as a proof.
func (a *assurance) storeProofParts(c *gin.Context, p *auth.Principal, companyID string) ([]*creatives.File, error) {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxProofFiles*(25<<20))
	mr, err := c.Request.MultipartReader()
	if err != nil {
		return nil, apperr.Field("files", "Please choose at least one proof image.")
	}
	var out []*creatives.File
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				return nil, apperr.New(apperr.ETOOLARGE, "The upload is too large.")
			}
			return nil, apperr.Field("files", "The upload could not be read.")
		}
		if name := part.FormName(); (name != "file" && name != "files") || part.FileName() == "" {
			_ = part.Close()
			continue
		}
		if len(out) == maxProofFiles {
			return nil, apperr.Field("files", "At most 10 proof images at a time.")
		}
		f, err := a.storeProof(c, p, companyID, part)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
}

func (a *assurance) storeProof(ctx context.Context, p *auth.Principal, companyID string, part *multipart.Part) (*creatives.File, error) {
	defer part.Close()
	return a.deps.Creatives.StoreFile(ctx, creatives.StoreFileRequest{CompanyID: companyID, UploaderID: p.UserID,
		Kind: creatives.KindProof, OriginalName: part.FileName()}, part)
}

// namedProofs reads the JSON body: proof files already stored for the company.
func (a *assurance) namedProofs(c *gin.Context, companyID string) ([]*creatives.File, error) {
	var req ProofsUpload
	if err := httpx.BindJSON(c, &req, a.deps.MaxJSONBytes); err != nil {
		return nil, err
	}
	if len(req.Files) > maxProofFiles {
		return nil, apperr.Field("files", "At most 10 proof images at a time.")
	}
	var out []*creatives.File
	for _, pf := range req.Files {
		f, err := a.deps.Creatives.FindFile(c, strings.TrimSpace(pf.Path))
		if err != nil || f.CompanyID != companyID || f.Kind != creatives.KindProof {
			return nil, apperr.NotFound(MsgProofNotFound)
		}
		out = append(out, f)
	}
	return out, nil
}

// deleteProof removes a proof from its week (the stored file stays, as creatives keeps files).
func (a *assurance) deleteProof(ctx context.Context, p *auth.Principal, id string) (*MessageResponse, error) {
	wc, err := a.store.FindWeekCreative(ctx, id)
	if err != nil || wc.CreativeType != CreativeTypeProof {
		return nil, apperr.NotFound(MsgProofNotFound)
	}
	if _, err := a.store.FindCampaign(ctx, scope(p), wc.CampaignID); err != nil {
		return nil, apperr.NotFound(MsgProofNotFound)
	}
	err = db.Transact(ctx, a.deps.DB, func(ctx context.Context) error {
		if err := a.store.DeleteWeekCreative(ctx, wc.ID); err != nil {
			return err
		}
		if err := a.appendProofRecord(ctx, wc.WeekID, ProofReasonProofDeleted); err != nil { // signed proof of play
			return err
		}
		return a.auditAdmin(ctx, p, AuditProofDelete, "campaign_week", wc.WeekID, map[string]string{"proof": wc.ID, "file": wc.FileKey}, nil)
	})
	if err != nil {
		return nil, apperr.Internal(err)
	}
	return &MessageResponse{Success: true, Message: MsgProofDeleted}, nil
}
