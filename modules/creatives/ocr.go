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
type ocrRun struct {
	ocr     *OCR
	tempDir string // where the image is written
	ctx     context.Context
	cancel  context.CancelFunc
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	out     bytes.Buffer
	// slot: the run holds one of ocr.slots; started: its process runs and must be waited for.
	slot, started bool
	startErr      error
	timedOut      atomic.Bool
}

// startOCR starts a recognition for an image about to be decoded, whose grey copy will be written
// in tempDir: nil when there is no OCR (the text checks are skipped). When both slots are taken
// the process is started only when the image is ready (recognise waits for a slot then), so that
// a busy OCR never holds a decode up. The caller must close the run.
func (o *OCR) startOCR(ctx context.Context, tempDir string) *ocrRun {
	if o == nil || o.Binary == "" {
		return nil
	}
	r := &ocrRun{ocr: o, tempDir: tempDir}
	r.ctx, r.cancel = context.WithCancel(ctx)
	if o.slots.TryAcquire(1) {
		r.slot = true
		r.startErr = r.launch()
	}
	return r
}

// launch starts the process, which waits for its image on stdin.
func (r *ocrRun) launch() error {
	// --psm 3: automatic page segmentation (blocks and lines anywhere on the ad); one thread
	// (OMP_THREAD_LIMIT=1), so that one upload cannot take every core.
	r.cmd = exec.CommandContext(r.ctx, r.ocr.Binary, "stdin", "stdout", "-l", "eng", "--psm", "3", "-c", "stream_filelist=1", "tsv") // #nosec G204 -- the binary is tesseract from the PATH, the arguments constants
	r.cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	r.cmd.Stdout = &r.out
	// A killed tesseract cannot leave Wait stuck on its output.
	r.cmd.WaitDelay = time.Second
	stdin, err := r.cmd.StdinPipe()
	if err != nil {
		return err
	}
	r.stdin = stdin
	if err := r.cmd.Start(); err != nil {
		return err
	}
	r.started = true
	return nil
}

// recognise hands the grey image to the process and answers the confident words. The timeout
// runs from here.
func (r *ocrRun) recognise(gray *image.Gray) ([]ocrWord, error) {
	if !r.slot {
		if err := r.ocr.slots.Acquire(r.ctx, 1); err != nil {
			return nil, err
		}
		r.slot = true
		r.startErr = r.launch()
	}
	if r.startErr != nil {
		return nil, r.startErr
	}
	timer := time.AfterFunc(r.ocr.Timeout, func() {
		r.timedOut.Store(true)
		r.cancel()
	})
	defer timer.Stop()
	path, err := writePGM(gray, r.tempDir)
	if path != "" {
		defer func() { _ = os.Remove(path) }()
	}
	if err == nil {
		_, err = io.WriteString(r.stdin, path+"\n")
	}
	err = errors.Join(err, r.stdin.Close())
	err = errors.Join(r.cmd.Wait(), err)
	r.started = false
	if r.timedOut.Load() {
		return nil, errOCRTimeout
	}
	if err != nil {
		return nil, err
	}
	return parseTSV(r.out.Bytes()), nil
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
	for y := 0; y < b.Dy() && err == nil; y++ {
		_, err = f.Write(gray.Pix[y*gray.Stride : y*gray.Stride+b.Dx()])
	}
	return f.Name(), errors.Join(err, f.Close())
}

// close ends a run: a process that was never fed its image (the decode failed) is killed, and the
// slot is given back. A nil run is nothing to close.
func (r *ocrRun) close() {
	if r == nil {
		return
	}
	r.cancel()
	if r.started {
		_ = r.cmd.Wait()
		r.started = false
	}
	if r.slot {
		r.ocr.slots.Release(1)
		r.slot = false
	}
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
