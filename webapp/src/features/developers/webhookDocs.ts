// The webhooks section of /developers (docs/api.md "Webhooks"): the events an endpoint can
// subscribe to (modules/webhooks EventTypes), their payloads, and how to verify Marquee-Signature.

export const webhookEvents: { type: string; when: string; data: string }[] = [
  { type: 'campaign.activated', when: 'A campaign becomes active (its first charge succeeded, or it was resumed).', data: '{campaign_id, status}' },
  { type: 'campaign.paused', when: "Paused by hand, or because a week's payment failed.", data: '{campaign_id, status}' },
  { type: 'campaign.completed', when: 'Stopped, or past its end date.', data: '{campaign_id, status, total_cost}' },
  { type: 'payment.failed', when: 'A charge of the campaign failed at the gateway.', data: '{campaign_id, transaction_id, week, amount, message}' },
  { type: 'week.delivered', when: "A week's actual impressions were recorded.", data: '{campaign_id, week_id, start_at, impressions}' },
  { type: 'proof.added', when: 'Proof photos were added to a week.', data: '{campaign_id, week_id, count}' },
  { type: 'report.ready', when: 'A performance report was generated or uploaded.', data: '{report_id, campaign_id, name, source}' },
  { type: 'make_good.granted', when: 'A make-good credit was granted for an under-delivered week.', data: '{make_good_id, campaign_id, week_id, credit}' },
  { type: 'webhook.test', when: '"Send test event" in Settings → Webhooks.', data: '{endpoint_id, message}' },
]

export const webhookBody = `POST /your/endpoint
Content-Type: application/json
User-Agent: Marquee-Webhooks/1
Marquee-Event-Id: evt_0193…
Marquee-Event-Type: campaign.paused
Marquee-Delivery-Id: 0193…
Marquee-Signature: t=1795574400,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd

{"id": "evt_0193…", "type": "campaign.paused", "created": 1795574400,
 "data": {"campaign_id": "…", "status": "paused"}}`

export const verifyGo = `import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// verify checks Marquee-Signature over the raw body, before it is parsed.
func verify(header, secret string, body []byte, now time.Time) bool {
	var t string
	var sigs []string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(part, "=")
		if k == "t" {
			t = v
		} else if k == "v1" {
			sigs = append(sigs, v)
		}
	}
	sec, err := strconv.ParseInt(t, 10, 64)
	if err != nil || now.Sub(time.Unix(sec, 0)).Abs() > 5*time.Minute {
		return false // a replay, or no timestamp
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(t + "."))
	mac.Write(body)
	want := hex.EncodeToString(mac.Sum(nil))
	for _, s := range sigs {
		if hmac.Equal([]byte(s), []byte(want)) {
			return true
		}
	}
	return false
}`

export const verifyNode = `import { createHmac, timingSafeEqual } from 'node:crypto'

// verify checks Marquee-Signature over the raw body (express.raw(), not express.json()).
export function verify(header: string, secret: string, rawBody: string, nowMs = Date.now()): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]))
  if (!parts.t || !parts.v1 || Math.abs(nowMs / 1000 - Number(parts.t)) > 300) return false
  const want = createHmac('sha256', secret).update(\`\${parts.t}.\${rawBody}\`).digest()
  const got = Buffer.from(parts.v1, 'hex')
  return got.length === want.length && timingSafeEqual(got, want)
}`

export const verifyPython = `import hashlib
import hmac
import time


def verify(header: str, secret: str, raw_body: bytes, now: float | None = None) -> bool:
    """Checks Marquee-Signature over the raw body (request.get_data(), not request.json)."""
    t, sigs = None, []
    for part in header.split(","):
        key, _, value = part.partition("=")
        if key == "t":
            t = value
        elif key == "v1":
            sigs.append(value)
    if t is None or not t.isdigit():
        return False
    if abs((now if now is not None else time.time()) - int(t)) > 300:
        return False  # a replay: more than 5 minutes from our clock
    want = hmac.new(secret.encode(), t.encode() + b"." + raw_body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(s, want) for s in sigs)`
