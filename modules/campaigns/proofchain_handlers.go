package campaigns

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/authz"
	"marquee/platform/httpx"
	"marquee/platform/server"
	"marquee/platform/signing"
	"marquee/platform/storage"
)

// Objects reads stored objects (platform/storage): proofs are hashed from their stored bytes and
// the public /verify page shows them.
type Objects interface {
	Get(ctx context.Context, key string) (io.ReadCloser, storage.Object, error)
}

// PublicKeyPath is where the proof-signing public key is published (PEM); PublicKeyPath+".json"
// gives it as a JWK with the raw key in base64 too.
const PublicKeyPath = "/.well-known/marquee-proof-key"

// proofSigner builds the signer from PROOF_SIGNING_KEY, or the development key in DATA_DIR.
func proofSigner(k *server.Kernel) (signing.Signer, error) {
	s, generated, err := signing.FromConfig(k.Config.ProofSigningKey, k.Config.DataDir)
	if err != nil {
		return nil, fmt.Errorf("campaigns: PROOF_SIGNING_KEY: %w", err)
	}
	if generated {
		k.Log.Debug("campaigns: proof-of-play records are signed with the development key in DATA_DIR", "key_id", signing.KeyID(s.PublicKey()))
	}
	return s, nil
}

// proofChainRoutes: the public verification (no sign-in: a code is the only thing it needs) and
// the codes of a campaign for its owner.
func (m *Module) proofChainRoutes() server.RouteTable {
	return server.RouteTable{
		server.GET(PublicKeyPath, authz.Anonymous, m.publicKeyPEM).Doc("The proof signing public key (PEM)", nil, server.File{Types: []string{"application/x-pem-file"}}),
		server.GET(PublicKeyPath+".json", authz.Anonymous, m.publicKeyJWK).Doc("The proof signing public key (JWK)", nil, gin.H{}),
		server.GET("/api/verify/:code", authz.Anonymous, m.verifyHandler).Doc("Verify a proof code", nil, VerifyResult{}),
		server.GET("/api/verify/:code/proofs/:proof", authz.Anonymous, m.verifyProofHandler).Doc("A verified proof's image", nil, server.File{Types: []string{"image/jpeg", "image/png", "image/tiff", "image/webp"}}).Params(ThumbQuery{}, nil),
		server.GET("/api/verify/:code/chain", authz.Anonymous, m.verifyChainHandler).
			Doc("The whole proof-of-play chain of the code's campaign, superseded records included", nil, ProofChainExport{}),
		server.GET("/api/campaigns/:id/proof-codes", authz.Member, m.proofCodesHandler).Doc("A campaign's proof codes", nil, ProofCodes{}),
	}
}

func (m *Module) publicKeyPEM(c *gin.Context) error {
	c.Header("Cache-Control", "public, max-age=3600")
	c.Data(http.StatusOK, "application/x-pem-file", []byte(signing.PublicPEM(m.deps.Signer.PublicKey())))
	return nil
}

func (m *Module) publicKeyJWK(c *gin.Context) error {
	pub := m.deps.Signer.PublicKey()
	c.Header("Cache-Control", "public, max-age=3600")
	httpx.OK(c, gin.H{"kty": "OKP", "crv": "Ed25519", "alg": "EdDSA", "use": "sig",
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
	httpx.OK(c, out)
	return nil
}

func (m *Module) verifyChainHandler(c *gin.Context) error {
	out, err := m.assure.ChainExport(c, c.Param("code"))
	if err != nil {
		return err
	}
	httpx.OK(c, out)
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

func (m *Module) proofCodesHandler(c *gin.Context) error {
	p := auth.Current(c)
	if _, err := m.svc.store.FindCampaign(c, scope(p), c.Param("id")); err != nil {
		return apperr.NotFound(MsgCampaignNotFound)
	}
	weeks, err := m.assure.ProofCodesOf(c, c.Param("id"))
	if err != nil {
		return err
	}
	httpx.OK(c, ProofCodes{Weeks: weeks})
	return nil
}
