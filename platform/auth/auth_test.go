package auth_test

import (
	"strings"
	"testing"
	"time"

	. "marquee/platform/auth"
	"marquee/platform/clock"
	"marquee/platform/db"
	"marquee/platform/testkit"
)

var cheap = Params{MemoryKiB: 64, Time: 1, Threads: 1}

func TestHashAndVerify(t *testing.T) {
	h := NewHasher(cheap)
	enc, err := h.Hash(t.Context(), "correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(enc, "$argon2id$v=19$m=64,t=1,p=1$") {
		t.Fatalf("not a PHC argon2id string: %s", enc)
	}
	other, _ := h.Hash(t.Context(), "correct horse battery")
	if other == enc {
		t.Fatal("two hashes of one password share a salt")
	}
	if ok, rehash, err := h.Verify(t.Context(), "correct horse battery", enc); !ok || rehash || err != nil {
		t.Fatalf("verify = %v %v %v", ok, rehash, err)
	}
	if ok, _, _ := h.Verify(t.Context(), "correct horse batterY", enc); ok {
		t.Fatal("wrong password verified")
	}
	// A hash made with older (cheaper) parameters verifies and asks to be replaced.
	stronger := NewHasher(Params{MemoryKiB: 128, Time: 1, Threads: 1})
	if ok, rehash, _ := stronger.Verify(t.Context(), "correct horse battery", enc); !ok || !rehash {
		t.Fatalf("verify with newer params = %v rehash %v", ok, rehash)
	}
	for _, bad := range []string{"", "$argon2i$v=19$m=64,t=1,p=1$c2FsdA$a2V5", "$argon2id$v=18$m=64,t=1,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5", "plain"} {
		if _, _, err := h.Verify(t.Context(), "x", bad); err == nil {
			t.Errorf("malformed hash %q accepted", bad)
		}
	}
	// The dummy hash used to equalise timing must be well-formed, or Burn would return at once.
	if err := DummyHashDecodes(); err != nil {
		t.Fatalf("dummy hash: %v", err)
	}
}

func TestDefaultParamsAreOWASPs(t *testing.T) {
	if DefaultParams.MemoryKiB < 19*1024 || DefaultParams.Time < 2 {
		t.Fatalf("argon2id parameters below OWASP's minimum: %+v", DefaultParams)
	}
}

func TestSessionsLifecycle(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		gdb := testkit.OpenDB(t, dialect)
		if err := db.Migrate(gdb, map[string][]*db.Migration{"auth": Migrations()}, []string{"auth"}); err != nil {
			t.Fatal(err)
		}
		clk := clock.NewManual(testkit.StartTime)
		s := NewSessions(gdb, clk, time.Hour, 4*time.Hour)
		ctx := t.Context()

		token, err := s.Create(ctx, "user-1", "127.0.0.1", "test")
		if err != nil {
			t.Fatal(err)
		}
		var stored string
		gdb.Raw("SELECT token_hash FROM auth_sessions").Scan(&stored)
		if stored == token || len(stored) != 64 {
			t.Fatal("the token must be stored hashed")
		}
		sess, err := s.Lookup(ctx, token)
		if err != nil || sess == nil || sess.UserID != "user-1" {
			t.Fatalf("lookup = %+v, %v", sess, err)
		}
		if got, _ := s.Lookup(ctx, token+"x"); got != nil {
			t.Fatal("a wrong token found a session")
		}

		// Touching keeps it alive past the idle timeout, up to the absolute one.
		for i := 0; i < 3; i++ {
			clk.Advance(50 * time.Minute)
			sess, _ = s.Lookup(ctx, token)
			if sess == nil {
				t.Fatalf("session ended after %d touches", i)
			}
			if err := s.Touch(ctx, token, sess); err != nil {
				t.Fatal(err)
			}
		}
		clk.Advance(61 * time.Minute) // idle
		if got, _ := s.Lookup(ctx, token); got != nil {
			t.Fatal("idle session still live")
		}
		n, err := s.DeleteExpired(ctx)
		if err != nil || n != 1 {
			t.Fatalf("delete expired = %d, %v", n, err)
		}

		a, _ := s.Create(ctx, "user-2", "", "")
		b, _ := s.Create(ctx, "user-2", "", "")
		keep, _ := s.Lookup(ctx, a)
		if err := s.RevokeUser(ctx, "user-2", keep.ID); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Lookup(ctx, a); got == nil {
			t.Fatal("the kept session was revoked")
		}
		if got, _ := s.Lookup(ctx, b); got != nil {
			t.Fatal("another session survived RevokeUser")
		}
		_ = s.Revoke(ctx, a)
		if got, _ := s.Lookup(ctx, a); got != nil {
			t.Fatal("revoked session still live")
		}
	})
}

func TestSubjects(t *testing.T) {
	var anon *Principal
	for p, want := range map[*Principal]string{
		anon:                                    SubjectAnonymous,
		{Role: "user", CompanyType: "standard"}: SubjectUser,
		{Role: "user", CompanyType: "ambassador"}:      SubjectAmbassador,
		{Role: "user", CompanyType: "certified"}:       SubjectCertified,
		{Role: "admin", CompanyType: "ambassador"}:     SubjectAdmin,
		{Role: "super_admin", CompanyType: "standard"}: SubjectSuperAdmin,
	} {
		if got := p.Subject(); got != want {
			t.Errorf("%+v subject = %s, want %s", p, got, want)
		}
	}
	if anon.IsAdmin() || (&Principal{Role: "user"}).IsAdmin() || !(&Principal{Role: "super_admin"}).IsAdmin() {
		t.Error("IsAdmin is wrong")
	}
}
