package creatives

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"marquee/platform/auth"
	"marquee/platform/server"
)

var _ server.DemoSeeder = (*Module)(nil)

// demoContent is the demo content library: every stored file type (and one item stored with the
// older type doc) and every scope. No YouTube item: the one seeded before was a well-known joke
// video passed off as the tutorial, and we ship no video of our own, so the
// dashboard's tutorial shows its written guide until an admin adds a real one.
var demoContent = []struct {
	name, typ, file, youtube, status string
	scopes, tags                     []string
	legacyDoc, relevant              bool
}{
	{name: "Getting started with Marquee", typ: ContentDocument, file: "getting-started.pdf", scopes: []string{ScopeStandard, ScopeAmbassador, ScopeCertified}, tags: []string{"GUIDE", "START"}, relevant: true},
	{name: "Rate card 2026", typ: ContentDocument, file: "rate-card-2026.pdf", scopes: []string{ScopeStandard}, tags: []string{"PRICING"}, legacyDoc: true},
	{name: "Rate card 2025", typ: ContentDocument, file: "rate-card-2025.pdf", scopes: []string{ScopeStandard}, tags: []string{"PRICING"}, status: StatusInactive},
	{name: "Certified partner deck", typ: ContentDocument, file: "partner-deck.pdf", scopes: []string{ScopeCertified}, tags: []string{"PARTNERS"}},
	{name: "Brand logo pack", typ: ContentImage, file: "brand-logo.png", scopes: []string{ScopeStandard, ScopeAmbassador}, tags: []string{"BRAND"}},
	{name: "Ambassador referral banner", typ: ContentImage, file: "ambassador-banner.png", scopes: []string{ScopeAmbassador}, tags: []string{"PARTNERS", "BRAND"}},
	{name: "Billboard walkthrough (placeholder video file)", typ: ContentVideo, file: "walkthrough.mp4", scopes: []string{ScopeStandard, ScopeCertified}, tags: []string{"VIDEO"}},
}

// demoCreatives are two builder-sized creatives for each advertiser-side demo company.
var demoCreatives = []struct {
	name, headline string
	bg             color.RGBA
}{
	{"Grand opening", "GRAND OPENING - THIS SATURDAY", color.RGBA{0xF5, 0x9E, 0x0B, 0xFF}},
	{"Summer sale", "SUMMER SALE - 20% OFF", color.RGBA{0x0E, 0x74, 0x90, 0xFF}},
}

// SeedDemo implements server.DemoSeeder: the content library (published by the demo admin) and
// creatives for the advertiser, ambassador and certified demo companies. Items that exist (by
// name) are kept, so a second run changes nothing.
func (m *Module) SeedDemo(ctx context.Context, demo server.DemoAccounts) (string, error) {
	admin, ok := demo["admin"]
	if !ok {
		return "", fmt.Errorf("creatives: the demo admin is missing")
	}
	adminP := &auth.Principal{UserID: admin.UserID, CompanyID: admin.CompanyID, Email: admin.Email, Role: auth.SubjectAdmin}
	contents, creatives := 0, 0
	for _, d := range demoContent {
		if exists, err := m.svc.store.ContentNamed(ctx, d.name); err != nil || exists {
			if err != nil {
				return "", err
			}
			continue
		}
		req := CreateContentRequest{Type: d.typ, Content: ContentFile{Name: d.name}, Scopes: d.scopes, Tags: d.tags, Youtube: d.youtube}
		if d.file != "" {
			f, err := m.svc.uploads.storeReader(ctx, contentKind(d.typ), owner{companyID: admin.CompanyID, uploaderID: admin.UserID},
				d.file, bytes.NewReader(demoFile(d.file, d.name)))
			if err != nil {
				return "", fmt.Errorf("creatives: demo file %s: %w", d.file, err)
			}
			req.Content.URL = f.Key
		}
		c, err := m.svc.createContent(ctx, adminP, req)
		if err != nil {
			return "", fmt.Errorf("creatives: demo content %s: %w", d.name, err)
		}
		cols := map[string]any{}
		if d.legacyDoc {
			cols["type"] = ContentLegacyDoc
		}
		if d.status != "" {
			cols["status"] = d.status
		}
		if len(cols) > 0 {
			if err := m.svc.store.UpdateContent(ctx, c.ID, cols); err != nil {
				return "", err
			}
		}
		if d.relevant {
			if _, err := m.svc.markRelevant(ctx, adminP, c.ID); err != nil {
				return "", err
			}
		}
		contents++
	}
	for _, role := range []string{"advertiser", "ambassador", "certified"} {
		acc, ok := demo[role]
		if !ok {
			continue
		}
		p := &auth.Principal{UserID: acc.UserID, CompanyID: acc.CompanyID, Email: acc.Email, Role: auth.SubjectUser}
		for _, d := range demoCreatives {
			if exists, err := m.svc.store.CreativeNamed(ctx, acc.CompanyID, d.name); err != nil || exists {
				if err != nil {
					return "", err
				}
				continue
			}
			f, err := m.svc.uploads.storeReader(ctx, kindCreativeImage, owner{companyID: acc.CompanyID, uploaderID: acc.UserID},
				strings.ToLower(strings.ReplaceAll(d.name, " ", "-"))+".png", bytes.NewReader(builderPNG(d.headline, d.bg)))
			if err != nil {
				return "", fmt.Errorf("creatives: demo creative %s: %w", d.name, err)
			}
			// The builder saves its design with the image: the demo creatives have their pre-flight.
			design := builderDesign(d.headline, d.bg)
			if _, err := m.svc.createCreative(ctx, p, CreateCreativeRequest{Creative: CreativeFile{Name: d.name, Alt: d.headline, URL: f.Key}, Design: &design}); err != nil {
				return "", fmt.Errorf("creatives: demo creative %s: %w", d.name, err)
			}
			creatives++
		}
	}
	return fmt.Sprintf("creatives: %d content items and %d creatives created", contents, creatives), nil
}

// demoFile makes the bytes of a demo content file from its name: a one-page PDF, a PNG, or an MP4
// header (a placeholder that players cannot play: it keeps the repository free of media files).
func demoFile(file, title string) []byte {
	switch {
	case strings.HasSuffix(file, ".pdf"):
		return onePagePDF(title)
	case strings.HasSuffix(file, ".png"):
		return drawnPNG(800, 400, title, color.RGBA{0x4F, 0x46, 0xE5, 0xFF})
	default:
		// An ISO base media "ftyp" box: content sniffing (and players) read it as video/mp4.
		return []byte("\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2\x00\x00\x00\x08free")
	}
}

// builderPNG is a creative as the ad builder exports it (A §9: a 1400x400 png).
func builderPNG(headline string, bg color.RGBA) []byte {
	return drawnPNG(BuilderWidth, BuilderHeight, headline, bg)
}

// builderDesign is the design of builderPNG's image, as the builder would save it: the headline's
// box, size and colour on the background.
func builderDesign(headline string, bg color.RGBA) Design {
	_, size, width := drawText(BuilderWidth, BuilderHeight, headline, bg)
	return Design{Width: BuilderWidth, Height: BuilderHeight, Background: fmt.Sprintf("#%02x%02x%02x", bg.R, bg.G, bg.B),
		Elements: []DesignElement{{Kind: "text", X: float64((BuilderWidth - width) / 2), Y: float64(BuilderHeight)/2 - size*2/3,
			Width: float64(width), Height: size, Text: headline, FontSize: size, FontFamily: "Go Bold", Fill: "#ffffff"}}}
}

// drawnPNG draws text centred on a plain background.
func drawnPNG(w, h int, text string, bg color.RGBA) []byte {
	img, _, _ := drawText(w, h, text, bg)
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return buf.Bytes()
}

// drawText draws text centred on a plain background and answers the font size and text width it
// used.
func drawText(w, h int, text string, bg color.RGBA) (*image.RGBA, float64, int) {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
	size := float64(h) / 6
	width := 0
	if f, err := opentype.Parse(gobold.TTF); err == nil {
		if face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull}); err == nil {
			d := &font.Drawer{Dst: img, Src: image.NewUniform(color.White), Face: face}
			for d.MeasureString(text).Ceil() > w-40 && size > 12 {
				size -= 4
				_ = face.Close()
				face, _ = opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
				d.Face = face
			}
			width = d.MeasureString(text).Ceil()
			d.Dot = fixed.P((w-width)/2, h/2+int(size)/3)
			d.DrawString(text)
			_ = face.Close()
		}
	}
	return img, size, width
}

// onePagePDF writes a valid one-page PDF showing title (Helvetica, built into every reader).
func onePagePDF(title string) []byte {
	escaped := strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`).Replace(title)
	stream := fmt.Sprintf("BT /F1 28 Tf 72 720 Td (%s) Tj ET\nBT /F1 12 Tf 72 690 Td (Marquee demo document) Tj ET", escaped)
	objects := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(stream), stream),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	var buf bytes.Buffer
	buf.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objects))
	for i, o := range objects {
		offsets[i] = buf.Len()
		fmt.Fprintf(&buf, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := buf.Len()
	fmt.Fprintf(&buf, "xref\n0 %d\n0000000000 65535 f \n", len(objects)+1)
	for _, off := range offsets {
		fmt.Fprintf(&buf, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&buf, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objects)+1, xref)
	return buf.Bytes()
}
