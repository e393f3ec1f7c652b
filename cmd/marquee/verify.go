package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"marquee/modules/campaigns"
	"marquee/platform/server"
	"marquee/platform/signing"
)

// errChainBroken makes marquee verify exit non-zero when a chain does not check.
var errChainBroken = errors.New("the proof-of-play chain is broken")

// verifyChain is `marquee verify --campaign ID | --code CODE [--key public.pem]`: it checks a
// campaign's whole proof-of-play chain against the database and the public key (this server's,
// or the PEM file given, e.g. the one published at /.well-known/marquee-proof-key), prints every
// record and every break, and fails when there is one (docs/delivery-assurance.md).
func verifyChain(ctx context.Context, app *application, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(out)
	campaignID := fs.String("campaign", "", "the campaign id")
	code := fs.String("code", "", "a verification code of the campaign (instead of --campaign)")
	keyFile := fs.String("key", "", "a PEM public key file to check against (default: this server's key)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if (*campaignID == "") == (*code == "") {
		return errors.New("usage: marquee verify --campaign ID | --code CODE [--key public.pem]")
	}
	m := server.Get[*campaigns.Module](app.modules)
	var pub ed25519.PublicKey
	if *keyFile != "" {
		raw, err := os.ReadFile(*keyFile)
		if err != nil {
			return err
		}
		if pub, err = signing.ParsePublicPEM(raw); err != nil {
			return err
		}
	}
	id := *campaignID
	if *code != "" {
		var err error
		if id, err = m.CampaignOfCode(ctx, *code); err != nil {
			return fmt.Errorf("no record has the code %s", *code)
		}
	}
	rep, err := m.VerifyCampaignChain(ctx, id, pub)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "campaign %s: %d records\n", id, len(rep.Records))
	bySeq := map[int64][]string{}
	for _, p := range rep.Problems {
		bySeq[p.Seq] = append(bySeq[p.Seq], p.Reason)
	}
	for _, r := range rep.Records {
		imp := "-"
		if r.Impressions != nil {
			imp = fmt.Sprint(*r.Impressions)
		}
		status := "ok"
		if len(bySeq[r.Seq]) > 0 {
			status = "BROKEN: " + strings.Join(bySeq[r.Seq], "; ")
		}
		replaces := ""
		if r.Replaces != "" {
			replaces = " replaces " + r.Replaces
		}
		if r.Screen != "" { // its device signature is checked with the chain (proofchain.CheckDevice)
			replaces += " signed by screen " + r.Screen
		}
		fmt.Fprintf(out, "#%d %s week %s face %s %s impressions=%s proofs=%d%s at %s hash %s: %s\n",
			r.Seq, r.Code, r.Week, r.FaceID, r.Reason, imp, r.Proofs, replaces, r.RecordedAt, r.Hash[:min(16, len(r.Hash))], status)
	}
	if len(rep.Problems) > 0 {
		fmt.Fprintf(out, "BROKEN: %d problems\n", len(rep.Problems))
		for _, p := range rep.Problems {
			fmt.Fprintf(out, "  record %d: %s\n", p.Seq, p.Reason)
		}
		return errChainBroken
	}
	if len(rep.Records) == 0 {
		fmt.Fprintln(out, "no records: nothing was delivered or proved yet")
		return nil
	}
	fmt.Fprintln(out, "OK: every record's hash, link and signature check, and every proof photo matches its signed SHA-256")
	return nil
}
