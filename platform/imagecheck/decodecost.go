package imagecheck

import (
	"bufio"
	"encoding/binary"
	"image"
	"image/color"
	"io"
)

// Decoding an image for its thumbnail allocates its whole pixel buffer, and the buffer's size depends
// on the pixel format, not on the file: a 189 KB PNG of 5000x5000 pixels at 16 bits per channel
// decodes to 200 MB. DecodeCost reads that size from the header before anything is decoded, so a
// decode is budgeted by the bytes it will take, not by the file's size.

// decodeOverhead covers what a decode allocates besides the pixels: the thumbnail canvas, the
// decoders' row and Huffman buffers.
const decodeOverhead = 1 << 20

// bytesPerPixel is the size of one pixel of the image the standard decoders return for a colour
// model (image.DecodeConfig's), in bytes; unknown models count as the largest (8).
func bytesPerPixel(m color.Model) float64 {
	switch m {
	case color.GrayModel, color.AlphaModel:
		return 1
	case color.Gray16Model, color.Alpha16Model:
		return 2
	case color.YCbCrModel: // 4:4:4 at most; JPEG is measured from its frame header instead
		return 3
	case color.RGBAModel, color.NRGBAModel, color.CMYKModel, color.NYCbCrAModel:
		return 4
	case color.RGBA64Model, color.NRGBA64Model:
		return 8
	}
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	return 8
}

// DecodeCost estimates, from the header of the file r (at its start) and its config, the bytes the
// full decode of contentType allocates.
func DecodeCost(r io.ReadSeeker, contentType string, cfg image.Config) int64 {
	pixels := float64(cfg.Width) * float64(cfg.Height)
	perPixel := bytesPerPixel(cfg.ColorModel)
	switch contentType {
	case "image/jpeg":
		if j, ok := jpegFrame(r); ok {
			perPixel = j.perPixel()
		}
	case "image/png":
		// An interlaced PNG is decoded pass by pass into images of its own, then copied into the
		// full one: about twice the pixels.
		if pngInterlaced(r) {
			perPixel *= 2
		}
	case "image/tiff":
		// The TIFF decoder reads a whole compressed strip (often the whole image) into a buffer
		// that grows by doubling while it inflates, besides the pixels: about three times them
		// more.
		perPixel *= 4
	}
	return int64(pixels*perPixel) + decodeOverhead
}

// jpegInfo is what a JPEG's frame header (SOFn) says about the decode.
type jpegInfo struct {
	progressive bool
	components  []struct{ h, v int } // sampling factors
}

// perPixel is the decoder's bytes per image pixel: the planes (each component at its sampling), a
// CMYK conversion for four components, and for a progressive JPEG the DCT coefficients it keeps for
// every block until the last scan (64 int32 per 8x8 block: 4 bytes per sample).
func (j jpegInfo) perPixel() float64 {
	hmax, vmax := 1, 1
	for _, c := range j.components {
		hmax, vmax = max(hmax, c.h), max(vmax, c.v)
	}
	samples := 0.0
	for _, c := range j.components {
		samples += float64(c.h*c.v) / float64(hmax*vmax)
	}
	cost := samples
	if len(j.components) == 4 {
		cost += 4
	}
	if j.progressive {
		cost += 4 * samples
	}
	return cost
}

// jpegFrame reads the markers of a JPEG up to its frame header.
func jpegFrame(r io.ReadSeeker) (jpegInfo, bool) {
	var info jpegInfo
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return info, false
	}
	br := bufio.NewReaderSize(r, 4096)
	var soi [2]byte
	if _, err := io.ReadFull(br, soi[:]); err != nil || soi != [2]byte{0xFF, 0xD8} {
		return info, false
	}
	for {
		b, err := br.ReadByte()
		if err != nil {
			return info, false
		}
		if b != 0xFF {
			continue
		}
		marker, err := br.ReadByte()
		for err == nil && marker == 0xFF { // fill bytes
			marker, err = br.ReadByte()
		}
		if err != nil {
			return info, false
		}
		if marker == 0x00 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD8) {
			continue // no length: stuffed byte, TEM, RSTn, SOI
		}
		var lenBuf [2]byte
		if _, err := io.ReadFull(br, lenBuf[:]); err != nil {
			return info, false
		}
		n := int(binary.BigEndian.Uint16(lenBuf[:])) - 2
		if n < 0 {
			return info, false
		}
		// SOF0-SOF15 except DHT (C4), JPG (C8) and DAC (CC).
		if marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC {
			seg := make([]byte, n)
			if _, err := io.ReadFull(br, seg); err != nil || n < 6 {
				return info, false
			}
			info.progressive = marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE
			count := int(seg[5])
			if count < 1 || count > 4 || n < 6+3*count {
				return info, false
			}
			for i := range count {
				hv := seg[6+3*i+1]
				h, v := int(hv>>4), int(hv&0x0F)
				if h < 1 || v < 1 {
					return info, false
				}
				info.components = append(info.components, struct{ h, v int }{h, v})
			}
			return info, true
		}
		if _, err := br.Discard(n); err != nil {
			return info, false
		}
	}
}

// pngInterlaced reads the interlace method of a PNG's IHDR (the byte at offset 28).
func pngInterlaced(r io.ReadSeeker) bool {
	var ihdr [29]byte
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return false
	}
	if _, err := io.ReadFull(r, ihdr[:]); err != nil {
		return false
	}
	return ihdr[28] == 1
}
