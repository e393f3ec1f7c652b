/** Hero art: a digital billboard face over a skyline, with a map pin for "pick it on the map". */
export default function BillboardIllustration({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 480 340" className={className} role="img" aria-labelledby="billboard-illustration-title">
      <title id="billboard-illustration-title">A digital billboard showing an ad above a city skyline</title>
      <defs>
        <linearGradient id="bb-sky" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#eef2ff" />
          <stop offset="1" stopColor="#f8fafc" />
        </linearGradient>
        <linearGradient id="bb-screen" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#4f46e5" />
          <stop offset="1" stopColor="#7c3aed" />
        </linearGradient>
      </defs>
      <rect x="0" y="0" width="480" height="340" rx="24" fill="url(#bb-sky)" />
      {/* skyline */}
      <g fill="#e2e8f0">
        <rect x="20" y="200" width="44" height="110" />
        <rect x="70" y="170" width="36" height="140" />
        <rect x="112" y="215" width="50" height="95" />
        <rect x="330" y="185" width="40" height="125" />
        <rect x="376" y="150" width="34" height="160" />
        <rect x="416" y="205" width="44" height="105" />
      </g>
      <g fill="#cbd5e1">
        <rect x="80" y="182" width="6" height="8" />
        <rect x="92" y="182" width="6" height="8" />
        <rect x="80" y="198" width="6" height="8" />
        <rect x="386" y="164" width="6" height="8" />
        <rect x="396" y="164" width="6" height="8" />
        <rect x="386" y="180" width="6" height="8" />
      </g>
      <rect x="0" y="306" width="480" height="34" fill="#cbd5e1" />
      {/* pole and catwalk */}
      <rect x="228" y="196" width="24" height="112" fill="#334155" />
      <rect x="196" y="300" width="88" height="8" rx="2" fill="#334155" />
      <rect x="112" y="188" width="256" height="6" rx="2" fill="#475569" />
      {/* billboard frame and screen (1400 x 400 is 3.5 : 1) */}
      <rect x="92" y="60" width="296" height="128" rx="8" fill="#1e293b" />
      <rect x="102" y="70" width="276" height="108" rx="4" fill="url(#bb-screen)" />
      <circle cx="146" cy="124" r="26" fill="#fbbf24" />
      <text x="184" y="116" fill="#ffffff" fontFamily="Arial, sans-serif" fontSize="22" fontWeight="700">
        Grand opening
      </text>
      <text x="184" y="142" fill="#e0e7ff" fontFamily="Arial, sans-serif" fontSize="14">
        This Saturday · Main St.
      </text>
      {/* map pin */}
      <g transform="translate(392 28)">
        <path d="M28 0C12.5 0 0 12.3 0 27.5 0 48 28 72 28 72s28-24 28-44.5C56 12.3 43.5 0 28 0z" fill="#4f46e5" />
        <circle cx="28" cy="27" r="10" fill="#ffffff" />
      </g>
    </svg>
  )
}
