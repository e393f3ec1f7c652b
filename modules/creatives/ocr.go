package creatives

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"image"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"

	"marquee/modules/creatives/internal/preflight"
)

// Text recognition for the pre-flight (docs/creatives.md "Uploaded images"): the tesseract CLI,
// started before the upload is decoded, then handed a grey PGM.

// OCR reasons shown in a skipped check (the message reads "... could not be read: <reason>.").
const (
	ReasonNoOCR      = "text recognition (Tesseract) is not installed on this server"
	ReasonOCRTimeout = "text recognition took too long"
	ReasonOCRFailed  = "text recognition failed"
)

// ocrMinConfidence is the Tesseract word confidence (0-100) below which a word is taken for noise:
// Tesseract reports textures and edges as low-confidence "words".
const ocrMinConfidence = 60

// OCR runs the tesseract CLI (TSV output). Binary empty means it is not installed: the text checks
// are then skipped.
type OCR struct {
	Binary string
	// Timeout bounds one recognition, from the moment the image is handed over (the decode that
	// comes before is bounded by the decode budget, not by this).
	Timeout time.Duration
	// slots bounds the recognitions running at once: each is a process with its own memory.
	slots *semaphore.Weighted
}

// NewOCR finds tesseract on the PATH (none: text checks skipped) with a timeout per recognition.
func NewOCR(timeout time.Duration) *OCR {
	bin, err := exec.LookPath("tesseract")
	if err != nil {
		bin = ""
	}
	return &OCR{Binary: bin, Timeout: timeout, slots: semaphore.NewWeighted(2)}
}

// ocrWord is one recognised word, in the working copy's pixels.
type ocrWord struct {
	text       string
	x, y, w, h int
	line       string // block/paragraph/line: the words of one line share it
}

// errOCRTimeout is a recognition cut short by the timeout.
var errOCRTimeout = errors.New("ocr timeout")

// ocrRun is one recognition. Tesseract spends about 75 ms loading its model before it reads its
// standard input (measured: a blank image handed over 100 ms after the start is answered in 10
// ms), so the run is started before the image is decoded: the model loads on the other core while
// Go decodes. The image is then written as a PGM file (a header and the raw bytes: no deflate)
// and its path sent on stdin (stream_filelist): Tesseract reads an image sent on stdin itself a
// byte at a time, 20-30 ms more for a 1400 x 1050 copy (docs/performance.md "Creative
// pre-flight and preview").
//
// A run may read its image as two strips at once, one process a strip, when the image can be cut
// where no text can be (ocrSplitRow): each process holds one of the OCR's slots, so a split run
// takes both. The second process is started beside the first when its slot is free, and ended
// unfed when the image cannot be split.
type ocrRun struct {
	ocr      *OCR
	tempDir  string // where the images are written
	ctx      context.Context
	cancel   context.CancelFunc
	procs    []*ocrProc // one a slot held; a process only once launched
	timedOut atomic.Bool
}

// ocrProc is one tesseract process of a run, waiting for its image's path on stdin.
type ocrProc struct {
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	out      bytes.Buffer
	startErr error
	started  bool // its process runs and must be waited for
}

// ocrStrips is the most processes one recognition runs: the OCR's slots are two.
const ocrStrips = 2

// startOCR starts a recognition for an image of size (from its header; zero when unknown) about
// to be decoded, whose grey copy will be written in tempDir: nil when there is no OCR (the text
// checks are skipped). It starts a process with a free slot, and a second one, for a split, when
// the working copy will be tall enough to be cut (ocrSplitMinRows) and the other slot is free:
// no image that cannot be split costs a second model load. When both slots are taken the process
// is started only when the image is ready (recognise waits for a slot then), so that a busy OCR
// never holds a decode up. The caller must close the run.
func (o *OCR) startOCR(ctx context.Context, tempDir string, size image.Point) *ocrRun {
	if o == nil || o.Binary == "" {
		return nil
	}
	r := &ocrRun{ocr: o, tempDir: tempDir}
	r.ctx, r.cancel = context.WithCancel(ctx)
	want := 1
	if workingSize(size).Y >= ocrSplitMinRows {
		want = ocrStrips
	}
	for len(r.procs) < want && o.slots.TryAcquire(1) {
		r.procs = append(r.procs, r.launch())
	}
	return r
}

// launch starts a process, which waits for its image on stdin; the caller holds a slot for it.
func (r *ocrRun) launch() *ocrProc {
	// --psm 3: automatic page segmentation (blocks and lines anywhere on the ad); one thread
	// (OMP_THREAD_LIMIT=1), so that one process cannot take every core.
	p := &ocrProc{cmd: exec.CommandContext(r.ctx, r.ocr.Binary, "stdin", "stdout", "-l", "eng", "--psm", "3", "-c", "stream_filelist=1", "tsv")} // #nosec G204 -- the binary is tesseract from the PATH, the arguments constants
	p.cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	p.cmd.Stdout = &p.out
	// A killed tesseract cannot leave Wait stuck on its output.
	p.cmd.WaitDelay = time.Second
	if p.stdin, p.startErr = p.cmd.StdinPipe(); p.startErr != nil {
		return p
	}
	if p.startErr = p.cmd.Start(); p.startErr == nil {
		p.started = true
	}
	return p
}

// end kills a process that is not fed (a no-op for one that has exited) and waits for it.
func (p *ocrProc) end() {
	if p.started {
		_ = p.cmd.Process.Kill()
		_ = p.cmd.Wait()
		p.started = false
	}
}

// recognise hands the grey image to the process (or its two strips to two processes) and
// answers the confident words, in pixels from gray's corner. The timeout runs from here.
func (r *ocrRun) recognise(gray *image.Gray) ([]ocrWord, error) {
	if len(r.procs) == 0 {
		if err := r.ocr.slots.Acquire(r.ctx, 1); err != nil {
			return nil, err
		}
		r.procs = append(r.procs, r.launch())
	}
	strips := []image.Rectangle{gray.Rect}
	if cut, ok := ocrSplitRow(gray); ok {
		if len(r.procs) < ocrStrips && r.ocr.slots.TryAcquire(1) {
			r.procs = append(r.procs, r.launch())
		}
		if len(r.procs) == ocrStrips {
			b := gray.Rect
			strips = []image.Rectangle{image.Rect(b.Min.X, b.Min.Y, b.Max.X, b.Min.Y+cut), image.Rect(b.Min.X, b.Min.Y+cut, b.Max.X, b.Max.Y)}
		}
	}
	// A process with no strip is ended now and its slot given back, for another upload.
	for len(r.procs) > len(strips) {
		last := r.procs[len(r.procs)-1]
		last.end()
		r.procs = r.procs[:len(r.procs)-1]
		r.ocr.slots.Release(1)
	}
	for _, p := range r.procs {
		if p.startErr != nil {
			return nil, p.startErr
		}
	}
	timer := time.AfterFunc(r.ocr.Timeout, func() {
		r.timedOut.Store(true)
		r.cancel()
	})
	defer timer.Stop()
	errs := make([]error, len(strips))
	var wg sync.WaitGroup
	for i, strip := range strips {
		wg.Go(func() { errs[i] = r.procs[i].read(gray.SubImage(strip).(*image.Gray), r.tempDir) })
	}
	wg.Wait()
	if r.timedOut.Load() {
		return nil, errOCRTimeout
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	var words []ocrWord
	for i, strip := range strips {
		for _, w := range parseTSV(r.procs[i].out.Bytes()) {
			// Back in gray's pixels; each strip's lines are its own (Tesseract numbers them per image).
			w.y += strip.Min.Y - gray.Rect.Min.Y
			w.line = strconv.Itoa(i) + ":" + w.line
			words = append(words, w)
		}
	}
	return words, nil
}

// read writes img to a file, sends its path to the process and waits for the process to end.
func (p *ocrProc) read(img *image.Gray, tempDir string) error {
	path, err := writePGM(img, tempDir)
	if path != "" {
		defer func() { _ = os.Remove(path) }()
	}
	if err == nil {
		_, err = io.WriteString(p.stdin, path+"\n")
	}
	err = errors.Join(err, p.stdin.Close())
	err = errors.Join(p.cmd.Wait(), err)
	p.started = false
	return err
}

// writePGM writes gray to a new file in tempDir, named like a staged upload so that the debris of
// a crash is removed at the next start, and answers its path (also with an error, when the file
// was made).
func writePGM(gray *image.Gray, tempDir string) (string, error) {
	f, err := os.CreateTemp(tempDir, stagedUploadPrefix+"ocr-*.pgm")
	if err != nil {
		return "", err
	}
	if strings.ContainsAny(f.Name(), "\r\n") { // a path is one line of Tesseract's list
		_ = f.Close()
		return f.Name(), errors.New("ocr: the temporary directory's path holds a line break")
	}
	b := gray.Bounds()
	_, err = io.WriteString(f, "P5\n"+strconv.Itoa(b.Dx())+" "+strconv.Itoa(b.Dy())+"\n255\n")
	for y := b.Min.Y; y < b.Max.Y && err == nil; y++ {
		i := gray.PixOffset(b.Min.X, y)
		_, err = f.Write(gray.Pix[i : i+b.Dx()])
	}
	return f.Name(), errors.Join(err, f.Close())
}

// close ends a run: a process that was never fed its image (the decode failed) is killed, and the
// slots are given back. A nil run is nothing to close.
func (r *ocrRun) close() {
	if r == nil {
		return
	}
	r.cancel()
	for _, p := range r.procs {
		if p.started {
			_ = p.cmd.Wait()
			p.started = false
		}
		r.ocr.slots.Release(1)
	}
	r.procs = nil
}

// parseTSV reads tesseract's TSV: level 5 rows are words with their box and confidence.
func parseTSV(b []byte) []ocrWord {
	var out []ocrWord
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 12 || f[0] != "5" {
			continue
		}
		conf, err := strconv.ParseFloat(f[10], 64)
		text := strings.TrimSpace(f[11])
		if err != nil || conf < ocrMinConfidence || preflight.CountWords(text) == 0 {
			continue
		}
		n := make([]int, 4)
		ok := true
		for i := range 4 {
			if n[i], err = strconv.Atoi(f[6+i]); err != nil {
				ok = false
			}
		}
		if ok && n[2] > 0 && n[3] > 0 {
			out = append(out, ocrWord{text: text, x: n[0], y: n[1], w: n[2], h: n[3], line: f[2] + "/" + f[3] + "/" + f[4]})
		}
	}
	return out
}
