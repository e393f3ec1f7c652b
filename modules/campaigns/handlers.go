package campaigns

import (
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/authz"
	"marquee/platform/dates"
	"marquee/platform/httpx"
	"marquee/platform/pagination"
	"marquee/platform/server"
	"marquee/platform/signing"
)

// IdempotencyKeyHeader names the header that makes POST /api/campaigns idempotent.
const IdempotencyKeyHeader = "Idempotency-Key"

// PublicKeyPath is where the proof-signing public key is published (PEM); PublicKeyPath+".json"
// gives it as a JWK with the raw key in base64 too.
const PublicKeyPath = "/.well-known/marquee-proof-key"

// routes is every route of the module, one table for Routes and Policy.
//
// Creation: creating is for regular users only (B §2: admins are redirected away from
// /campaigns/new); the date defaults serve the admin edit form as well.
//
// Management: advertisers and admins share the campaign calls (admins reach every company's
// campaigns, for the admin screens); the admin grid, the weeks update, the mailer and delivery are
// for admins.
//
// Delivery assurance: pacing and renewal; the admin make-good calls (the filter over every company
// and the waiver; the advertiser reads a campaign's make-goods on its detail); the public
// verification (no sign-in: a code is the only thing it needs) and a campaign's codes for its
// owner.
func (m *Module) routes() server.RouteTable {
	limit, svc, as := m.deps.MaxJSONBytes, m.svc, m.assure
	return server.RouteTable{
		server.POST("/api/campaigns", authz.User, m.createHandler).Answers(http.StatusCreated).Conflicts(ConflictResponse{}).Doc("Create a campaign (201; 409 with the conflict draft when a face was taken)", CampaignForm{}, CreateResponse{}).
			Example(func(today dates.Date) any { return exampleForm(true, EarliestStart(today)) }).V1("/campaigns"),
		server.POST("/api/campaigns/quote", authz.User, httpx.CallBody(limit, svc.quote)).Doc("Price a campaign form without creating it", CampaignForm{}, CampaignQuote{}).
			Example(func(today dates.Date) any { return exampleForm(false, EarliestStart(today)) }).V1Read("/quotes"),
		server.POST("/api/campaigns/:id/resolve", authz.User, httpx.CallIDBody(limit, svc.resolve)).Doc("Resolve a creation conflict", ResolveRequest{}, ResolveResponse{}).V1("/campaigns/:id/resolve"),
		server.GET("/api/campaigns/defaults", authz.Member, httpx.Call(svc.defaults)).Doc("The campaign form's date defaults", nil, CampaignDefaults{}),

		server.GET("/api/campaigns", authz.Member, m.listHandler).Params(StatusQuery{}, &listSpec).Doc("List the company's campaigns (?status=, list params)", nil, CampaignList{}).V1("/campaigns"),
		server.GET("/api/campaigns/count", authz.Member, m.countHandler).Doc("The company's campaign counts", nil, Count{}),
		server.GET("/api/campaigns/:id", authz.Member, httpx.CallID(svc.campaignDetail)).Doc("A campaign with its totals", nil, CampaignDetail{}).V1("/campaigns/:id"),
		server.GET("/api/campaigns/:id/weeks", authz.Member, m.weeksHandler).Params(nil, &weeksSpec).Doc("A campaign's weeks: one face in one week each, with its delivery (act_imp)", nil, pagination.Page[Week]{}).V1("/campaigns/:id/weeks"),
		server.PUT("/api/campaigns/:id", authz.Member, httpx.CallIDBody(limit, svc.updateCampaign)).Doc("Update a campaign", CampaignForm{}, CreateResponse{}),
		server.PUT("/api/campaigns/:id/pause", authz.Member, httpx.CallID(svc.pauseCampaign)).Doc("Pause a campaign", nil, ActionResponse{}).V1("/campaigns/:id/pause"),
		server.PUT("/api/campaigns/:id/resume", authz.Member, httpx.CallID(svc.resumeCampaign)).Doc("Resume a paused campaign", nil, ActionResponse{}).V1("/campaigns/:id/resume"),
		server.PUT("/api/campaigns/:id/stop", authz.Member, httpx.CallID(svc.stopCampaign)).Doc("Stop a campaign", nil, ActionResponse{}).V1("/campaigns/:id/stop"),
		server.DELETE("/api/campaigns/:id", authz.Member, m.deleteHandler).Doc("Delete a campaign", nil, ActionResponse{}).Params(DeleteQuery{}, nil),
		server.PUT("/api/campaigns/:id/delete-ac", authz.Member, httpx.CallID(svc.releaseCalendar)).Doc("Release a campaign's spots", nil, ActionResponse{}),
		server.PUT("/api/campaigns/:id/creative", authz.Member, httpx.CallIDBody(limit, svc.changeCampaignCreative)).Doc("Change a campaign's creative", CreativeChange{}, MessageResponse{}),
		server.PUT("/api/campaigns/week/:id/creative", authz.Member, httpx.CallIDBody(limit, svc.changeWeekCreative)).Doc("Change a week's creative", CreativeChange{}, MessageResponse{}),
		server.GET("/api/admin/campaigns/", authz.Admin, m.adminListHandler).Doc("Every campaign (admin)", nil, CampaignList{}).Params(StatusQuery{}, &adminSpec),
		server.PUT("/api/admin/campaigns/weeks/:id", authz.Admin, httpx.CallIDBody(limit, svc.updateWeeks)).Doc("Update a campaign's weeks (admin)", WeeksUpdate{}, MessageResponse{}),
		server.POST("/api/campaigns/update/mailer/", authz.Admin, httpx.CallBody(limit, svc.sendUpdateMailer)).Doc("Email a campaign update (admin)", UpdateMailerRequest{}, MessageResponse{}),
		server.PUT("/api/admin/campaigns/week/:id/delivery", authz.Admin, httpx.CallIDBody(limit, as.recordDelivery)).Doc("Set a week's delivery (admin)", DeliveryUpdate{}, MessageResponse{}),
		server.POST("/api/admin/campaigns/week/:id/proofs", authz.Admin, m.proofsHandler).Doc("Attach proofs to a week (admin): image files, or the keys of stored ones", server.Upload{Field: "files", Many: true, JSON: ProofsUpload{}}, MessageResponse{}),
		server.DELETE("/api/admin/campaigns/proofs/:id", authz.Admin, httpx.CallID(as.deleteProof)).Doc("Delete a proof (admin)", nil, MessageResponse{}),

		server.GET("/api/campaigns/pacing", authz.Member, m.pacingListHandler).Doc("The company's campaigns' pacing", nil, PacingList{}),
		server.GET("/api/campaigns/:id/pacing", authz.Member, httpx.CallID(as.CampaignPacing)).Doc("A campaign's pacing", nil, Pacing{}),
		server.GET("/api/campaigns/:id/renew", authz.Member, httpx.CallID(as.renewPrefill)).Doc("A renewal form prefilled from a campaign", nil, RenewPrefill{}),

		server.GET("/api/admin/make-goods", authz.Admin, m.makeGoodsListHandler).Doc("The make-goods (admin)", nil, MakeGoodList{}).Params(MakeGoodsQuery{}, &makeGoodsSpec),
		server.PUT("/api/admin/make-goods/:id/waive", authz.Admin, m.waiveHandler).Doc("Waive a make-good (admin)", WaiveRequest{}, WaiveResponse{}),

		server.GET(PublicKeyPath, authz.Anonymous, m.publicKeyPEMHandler).Doc("The proof signing public key (PEM)", nil, server.File{Types: []string{"application/x-pem-file"}}),
		server.GET(PublicKeyPath+".json", authz.Anonymous, m.publicKeyJWKHandler).Doc("The proof signing public key (JWK)", nil, gin.H{}),
		server.GET("/api/verify/:code", authz.Anonymous, m.verifyHandler).Doc("Verify a proof code", nil, VerifyResult{}),
		server.GET("/api/verify/:code/proofs/:proof", authz.Anonymous, m.verifyProofHandler).Doc("A verified proof's image", nil, server.File{Types: []string{"image/jpeg", "image/png", "image/tiff", "image/webp"}}).Params(ThumbQuery{}, nil),
		server.GET("/api/verify/:code/chain", authz.Anonymous, m.verifyChainHandler).
			Doc("The proof-of-play chain of the code's campaign, superseded records included, by pages (next)", nil, ProofChainExport{}).Params(ChainQuery{}, nil),
		server.GET("/api/campaigns/:id/proof-codes", authz.Member, httpx.CallID(as.proofCodes)).Doc("A campaign's proof codes", nil, ProofCodes{}),
	}
}

// exampleForm is the public API's example of a campaign form (the OpenAPI document shows it and the
// contract test sends it, with {face_id} replaced by a face of POST /api/v1/available-spots). Its
// start is the next bookable Monday on the day the document is served, so the example stays
// bookable.
func exampleForm(create bool, start dates.Date) CampaignForm {
	f := CampaignForm{Name: "Spring push", TypeCampaign: TypePremium, StrategySelected: StrategyMarket,
		MarketsSelected: []string{"SF Bay Area"}, PlacesChecked: []PlaceChecked{{ID: "{face_id}"}}, StartDate: start.String(),
		FrequencySelected: FrequencyWeekly, Duration: 2}
	f.UseDefaultCreative = create
	return f
}

// createHandler answers 201 with the campaign, or 409 with the conflict draft (B §7 "On a failed
// create, the response body is read for a campaign (with weeks) and params").
func (m *Module) createHandler(c *gin.Context) error {
	var form CampaignForm
	if err := httpx.BindJSON(c, &form, m.deps.MaxJSONBytes); err != nil {
		return err
	}
	out, err := m.svc.create(c, auth.Current(c), c.GetHeader(IdempotencyKeyHeader), form)
	if err != nil {
		return err
	}
	if out.conflict != nil {
		httpx.JSON(c, http.StatusConflict, out.conflict)
		return nil
	}
	httpx.Answer(c, CreateResponse{Success: true, Message: createdMessage(out.campaign.Status), Campaign: out.campaign})
	return nil
}

func (m *Module) listHandler(c *gin.Context) error {
	pp, err := pagination.Parse(c, listSpec)
	if err != nil {
		return err
	}
	out, err := m.svc.listCampaigns(c, scope(auth.Current(c)), c.Query("status"), pp)
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}

func (m *Module) adminListHandler(c *gin.Context) error {
	pp, err := pagination.Parse(c, adminSpec)
	if err != nil {
		return err
	}
	out, err := m.svc.listCampaigns(c, "", c.Query("status"), pp)
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}

func (m *Module) countHandler(c *gin.Context) error {
	out, err := m.svc.countCampaigns(c, scope(auth.Current(c)))
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}

func (m *Module) weeksHandler(c *gin.Context) error {
	pp, err := pagination.Parse(c, weeksSpec)
	if err != nil {
		return err
	}
	out, err := m.svc.campaignWeeks(c, auth.Current(c), c.Param("id"), pp)
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}

func (m *Module) deleteHandler(c *gin.Context) error {
	var params DeleteParams
	if err := c.ShouldBindQuery(&params); err != nil {
		return apperr.Field("refund", "refund must be true or false.")
	}
	out, err := m.svc.deleteCampaign(c, auth.Current(c), c.Param("id"), params)
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}

// proofsHandler reads the proofs from the body itself: image files (multipart, read part by part)
// or the keys of stored ones (JSON).
func (m *Module) proofsHandler(c *gin.Context) error {
	out, err := m.assure.addProofs(c, auth.Current(c), c.Param("id"))
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}

// pacingListHandler answers the caller's own company's live campaigns (an admin's too: the
// dashboard is the company's).
func (m *Module) pacingListHandler(c *gin.Context) error {
	items, err := m.assure.CompanyPacing(c, auth.Current(c).CompanyID)
	if err != nil {
		return err
	}
	httpx.Answer(c, PacingList{Items: items})
	return nil
}

func (m *Module) makeGoodsListHandler(c *gin.Context) error {
	pp, err := pagination.Parse(c, makeGoodsSpec)
	if err != nil {
		return err
	}
	out, err := m.assure.listMakeGoods(c, c.Query("status"), c.Query("company"), pp)
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}

func (m *Module) waiveHandler(c *gin.Context) error {
	var req WaiveRequest
	if err := httpx.BindJSON(c, &req, m.deps.MaxJSONBytes); err != nil {
		return err
	}
	out, err := m.assure.waiveMakeGood(c, auth.Current(c), c.Param("id"), req)
	if err != nil {
		return err
	}
	httpx.Answer(c, WaiveResponse{Success: true, Message: MsgMakeGoodWaived, MakeGood: out})
	return nil
}

func (m *Module) publicKeyPEMHandler(c *gin.Context) error {
	c.Header("Cache-Control", "public, max-age=3600")
	c.Data(http.StatusOK, "application/x-pem-file", []byte(signing.PublicPEM(m.deps.Signer.PublicKey())))
	return nil
}

func (m *Module) publicKeyJWKHandler(c *gin.Context) error {
	pub := m.deps.Signer.PublicKey()
	c.Header("Cache-Control", "public, max-age=3600")
	httpx.Answer(c, gin.H{"kty": "OKP", "crv": "Ed25519", "alg": "EdDSA", "use": "sig",
		"kid": signing.KeyID(pub), "x": base64.RawURLEncoding.EncodeToString(pub),
		"raw": base64.StdEncoding.EncodeToString(pub), "pem": signing.PublicPEM(pub)})
	return nil
}

func (m *Module) verifyHandler(c *gin.Context) error {
	out, err := m.assure.verifyCode(c, c.Param("code"))
	if err != nil {
		return err
	}
	out.ChainURL = "/api/verify/" + strings.ReplaceAll(out.Record.Code, "-", "") + "/chain"
	httpx.Answer(c, out)
	return nil
}

func (m *Module) verifyChainHandler(c *gin.Context) error {
	var after int64
	if v := c.Query("after"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return apperr.Field("after", "after must be a record's seq.")
		}
		after = n
	}
	out, err := m.assure.ChainExport(c, c.Param("code"), after)
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}

// verifyProofHandler serves a proof image (or its thumbnail with ?thumb=1) of the record with the
// code, and only the proofs that record lists.
func (m *Module) verifyProofHandler(c *gin.Context) error {
	key, err := m.assure.proofOfRecord(c, c.Param("code"), c.Param("proof"))
	if err != nil {
		return err
	}
	objectKey := key
	if c.Query("thumb") == "1" {
		if f, err := m.deps.Creatives.FindFile(c, key); err == nil && f.ThumbKey != "" {
			objectKey = f.ThumbKey
		}
	}
	rc, obj, err := m.deps.Objects.Get(c, objectKey)
	if err != nil {
		if apperr.CodeOf(err) == apperr.ENOTFOUND {
			return apperr.NotFound(MsgVerifyNotFound)
		}
		return err
	}
	defer rc.Close()
	h := c.Writer.Header()
	h.Set("Content-Type", obj.ContentType)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Content-Disposition", "inline")
	h.Set("Content-Length", fmt.Sprint(obj.Size))
	c.Status(http.StatusOK)
	_, _ = io.Copy(c.Writer, rc)
	return nil
}
