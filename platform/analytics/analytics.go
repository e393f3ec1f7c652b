// Package analytics records page views in our own database (A §1: page views are reported on every
// route change; DESIGN.md §1.8: the analytics service is ours).
package analytics

import (
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"gorm.io/gorm"

	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/authz"
	"marquee/platform/clock"
	"marquee/platform/db"
	"marquee/platform/httpx"
	"marquee/platform/ids"
	"marquee/platform/jobs"
	"marquee/platform/ratelimit"
)

type pageViewRow struct {
	ID        string    `gorm:"primaryKey;size:36"`
	Path      string    `gorm:"size:512;not null;index"`
	Referrer  string    `gorm:"size:512"`
	UserID    *string   `gorm:"size:36;index"`
	CreatedAt time.Time `gorm:"not null;index"`
}

func (pageViewRow) TableName() string { return "analytics_page_views" }

// PageView is the payload of POST /api/analytics/pageviews.
type PageView struct {
	Path     string `json:"path" validate:"required,startswith=/,max=512,singleline"`
	Referrer string `json:"referrer" validate:"max=512,singleline"`
}

// Recorder stores page views. It is a platform module: it owns a table and a route.
type Recorder struct {
	db    *gorm.DB
	clock clock.Clock
	limit ratelimit.Counter
}

// MaxViewsPerMinute caps the page views one client address may record: anyone may call the
// route, so it must not be a way to fill the database.
const MaxViewsPerMinute = 120

// MsgTooMany answers a client over the cap.
const MsgTooMany = "Too many page views from this address."

// New returns the recorder; its cap counts with limits.
func New(gdb *gorm.DB, clk clock.Clock, limits ratelimit.Factory) *Recorder {
	return &Recorder{db: gdb, clock: clk, limit: limits("pageviews", MaxViewsPerMinute, time.Minute)}
}

func (r *Recorder) Name() string { return "analytics" }

func (r *Recorder) Migrations() []*db.Migration {
	return []*db.Migration{{
		ID:       "analytics-0001-page-views",
		Migrate:  func(tx *gorm.DB) error { return tx.Migrator().CreateTable(&pageViewRow{}) },
		Rollback: func(tx *gorm.DB) error { return tx.Migrator().DropTable("analytics_page_views") },
	}}
}

func (r *Recorder) Policy() []authz.Rule {
	return []authz.Rule{authz.Allow(authz.Anonymous, http.MethodPost, "/api/analytics/pageviews")}
}

func (r *Recorder) Jobs() []jobs.Job { return nil }

func (r *Recorder) Routes(g gin.IRouter) {
	g.POST("/api/analytics/pageviews", httpx.H(r.record))
}

// Record is the handler of POST /api/analytics/pageviews (the kernel registers it through a route
// table, so the OpenAPI document names it: platform/server cannot be imported from here).
func (r *Recorder) Record(c *gin.Context) error { return r.record(c) }

func (r *Recorder) record(c *gin.Context) error {
	if err := ratelimit.Check(c.Request.Context(), r.limit, MsgTooMany, c.ClientIP()); err != nil {
		return err
	}
	var in PageView
	if err := httpx.BindJSON(c, &in, 4096); err != nil {
		return err
	}
	// Never store a query string: reset and access links carry tokens in it.
	in.Path, _, _ = strings.Cut(in.Path, "?")
	in.Referrer, _, _ = strings.Cut(in.Referrer, "?")
	if err := httpx.Validate(&in, nil); err != nil {
		return err
	}
	row := pageViewRow{ID: ids.New(), Path: in.Path, Referrer: in.Referrer, CreatedAt: r.clock.Now()}
	if p := auth.Current(c); p != nil {
		row.UserID = &p.UserID
	}
	if err := db.Conn(c.Request.Context(), r.db).Create(&row).Error; err != nil {
		return apperr.Internal(err)
	}
	c.Status(http.StatusNoContent)
	return nil
}
