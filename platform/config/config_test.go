package config

import (
	"os"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestDefaultsLoad(t *testing.T) {
	c, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Port != 8080 || c.DataDir != "./var" || c.DatabaseURL != "" || c.SessionIdleTimeout != 2*time.Hour {
		t.Fatalf("unexpected defaults: %+v", c)
	}
	if c.SecureCookies() {
		t.Fatal("http BASE_URL must not give Secure cookies under auto")
	}
	if loc, err := c.BusinessLocation(); err != nil || loc.String() != "America/New_York" {
		t.Fatalf("business time zone = %v, %v", loc, err)
	}
	if c.MailDirectory() != "./var/mail" {
		t.Fatalf("mail dir = %q", c.MailDirectory())
	}
	if c.UploadStagingDir() != "./var/tmp/uploads" {
		t.Fatalf("upload staging dir with fs storage = %q", c.UploadStagingDir())
	}
	// With S3, DATA_DIR holds nothing and may be read-only (deploy/k8s): uploads stage in TMPDIR.
	c.StorageDriver = "s3"
	if c.UploadStagingDir() != "" {
		t.Fatalf("upload staging dir with s3 storage = %q, want the system's (empty)", c.UploadStagingDir())
	}
}

func TestValuesAndErrors(t *testing.T) {
	c, err := Load(env(map[string]string{"PORT": "9000", "BASE_URL": "https://ads.example.com", "JOBS_ENABLED": "false", "MAIL_POLL_INTERVAL": "1s"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Port != 9000 || c.JobsEnabled || c.MailPollInterval != time.Second || !c.SecureCookies() {
		t.Fatalf("values not read: %+v", c)
	}
	for _, bad := range []map[string]string{
		{"PORT": "eighty"},
		{"PORT": "70000"},
		{"BASE_URL": "ftp://x"},
		{"STORAGE_DRIVER": "s3"},
		{"MAIL_DRIVER": "pigeon"},
		{"SESSION_IDLE_TIMEOUT": "soon"},
		{"JOBS_ENABLED": "maybe"},
		{"BUSINESS_TIMEZONE": "Eastern"},
	} {
		if _, err := Load(env(bad)); err == nil {
			t.Errorf("Load(%v) succeeded, want an error", bad)
		}
	}
}

// Every variable must be documented in .env.example, and nothing else may be listed there.
func TestEnvExampleListsEveryVariable(t *testing.T) {
	raw, err := os.ReadFile("../../.env.example")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(string(raw), "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "#"))
		if name, _, ok := strings.Cut(line, "="); ok && name == strings.ToUpper(name) && !strings.Contains(name, " ") {
			listed[strings.TrimSpace(name)] = true
		}
	}
	for _, v := range Vars() {
		if !listed[v.Name] {
			t.Errorf("%s is missing from .env.example", v.Name)
		}
		delete(listed, v.Name)
	}
	for name := range listed {
		t.Errorf(".env.example lists %s, which config does not read", name)
	}
}

// WEBHOOK_ALLOW_PRIVATE=auto allows private webhook addresses on a development server only (its
// BASE_URL is loopback: make run, serve on the defaults); a public BASE_URL refuses them, and an
// explicit value wins.
func TestWebhookPrivateAllowed(t *testing.T) {
	for _, tc := range []struct {
		base, allow string
		want        bool
	}{
		{"", "", true}, // the defaults: http://localhost:8080
		{"http://127.0.0.1:18204", "", true},
		{"http://[::1]:8080", "auto", true},
		{"http://app.localhost:8080", "auto", true},
		{"https://ads.example.com", "", false},
		{"http://10.0.0.5:8080", "auto", false}, // a private network is not the developer's own machine
		{"https://ads.example.com", "true", true},
		{"http://localhost:8080", "false", false},
	} {
		c, err := Load(env(map[string]string{"BASE_URL": tc.base, "WEBHOOK_ALLOW_PRIVATE": tc.allow}))
		if err != nil {
			t.Fatal(err)
		}
		if got := c.WebhookPrivateAllowed(); got != tc.want {
			t.Errorf("BASE_URL=%q WEBHOOK_ALLOW_PRIVATE=%q: allowed = %v, want %v", tc.base, tc.allow, got, tc.want)
		}
	}
	if _, err := Load(env(map[string]string{"WEBHOOK_ALLOW_PRIVATE": "yes"})); err == nil {
		t.Error("WEBHOOK_ALLOW_PRIVATE=yes was accepted")
	}
}
