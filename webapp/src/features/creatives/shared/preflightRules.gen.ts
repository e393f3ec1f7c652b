// PROVISIONAL stand-in for the file the server generates from the Go pre-flight rules (issue 29,
// branch `preflight`). It is replaced by the generated file at merge time; preflight.ts reads only
// the names below, so the generated file must export them (or preflight.ts is adapted to it).

/** The ids of the seven checks, in the order the report lists them. */
export const CheckSize = 'size'
export const CheckWords = 'words'
export const CheckLetterHeight = 'letter_height'
export const CheckContrast = 'contrast'
export const CheckNightBrightness = 'night_brightness'
export const CheckSafeArea = 'safe_area'
export const CheckClutter = 'clutter'

export const LevelPass = 'pass'
export const LevelWarning = 'warning'
export const LevelFail = 'fail'
export const LevelSkipped = 'skipped'

/** Points of each check in the score out of 100. */
export const CheckWeights: Record<string, number> = {
  size: 15,
  words: 15,
  letter_height: 20,
  contrast: 20,
  night_brightness: 10,
  safe_area: 10,
  clutter: 10,
}
/** Share of a check's points that a level earns. */
export const LevelCredit: Record<string, number> = { pass: 1, warning: 0.5, fail: 0 }

/** Outdoor advertising rule of thumb: seven words or fewer. */
export const WordsWarnAbove = 7
export const WordsFailAbove = 12
/** Legibility index: feet of viewing distance per inch of letter height. */
export const LegibilityFeetPerInch = 30
/** Cap height of the builder's fonts as a share of the font size. */
export const CapHeightRatio = 0.7
/** A letter legible from at least this share of the viewing distance is a warning, not a fail. */
export const LetterWarnShare = 0.75
/** WCAG 2 contrast ratio: below WarnBelow a warning, below FailBelow a fail. */
export const ContrastWarnBelow = 7
export const ContrastFailBelow = 4.5
/** Mean relative luminance (0..1) of the ad. */
export const NightWarnAbove = 0.5
export const NightFailAbove = 0.75
/** Safe margin on each side, as a share of the ad's width and height. */
export const SafeMarginShare = 0.05
/** Separate elements (text blocks and images). */
export const ClutterWarnAbove = 5
export const ClutterFailAbove = 8
/** Aspect ratios closer than this share are a scaled fit; farther, letterboxed. */
export const AspectTolerance = 0.02
export const AspectFailAbove = 0.25

export interface ViewingClass {
  id: string
  label: string
  distance_ft: number
  speed_mph: number
}
export const ViewingClasses: ViewingClass[] = [
  { id: 'freeway', label: 'Freeway', distance_ft: 500, speed_mph: 65 },
  { id: 'arterial', label: 'Arterial', distance_ft: 300, speed_mph: 45 },
  { id: 'street', label: 'Street', distance_ft: 150, speed_mph: 30 },
]

/** Messages and hints; {value} and {threshold} are filled in. */
export const Messages: Record<string, Record<string, string>> = {
  size: {
    pass: 'The ad is {value} pixels; the face shows it exactly or scaled.',
    warning: 'The ad is {value} pixels: on this face it is letterboxed.',
    fail: 'The ad is {value} pixels: its shape is far from the face’s {threshold}.',
    hint: 'Make the ad the face’s size, {threshold} pixels.',
  },
  words: {
    pass: '{value} words: short enough to read at a glance.',
    warning: '{value} words: more than {threshold}, hard to read while driving.',
    fail: '{value} words: far more than {threshold}; drivers will not read it.',
    hint: 'Keep the message to {threshold} words or fewer.',
  },
  letter_height: {
    pass: 'The smallest letters are {value} in high, legible from the road.',
    warning: 'The smallest letters are {value} in high; they need {threshold} in for this road.',
    fail: 'The smallest letters are {value} in high; they need {threshold} in for this road.',
    hint: 'Make the smallest text bigger: at least {threshold} inches on the face.',
  },
  contrast: {
    pass: 'Text contrast is {value}:1, clear outdoors.',
    warning: 'Text contrast is {value}:1; outdoors aim for {threshold}:1.',
    fail: 'Text contrast is {value}:1, too low to read outdoors ({threshold}:1 wanted).',
    hint: 'Use dark text on a light background, or light text on a dark one.',
  },
  night_brightness: {
    pass: 'Mean brightness is {value}; it will not glare at night.',
    warning: 'Mean brightness is {value}; it may glare at night (above {threshold}).',
    fail: 'Mean brightness is {value}; it will glare at night (above {threshold}).',
    hint: 'Use a darker background; keep white for the text.',
  },
  safe_area: {
    pass: 'All text is inside the safe area.',
    warning: '{value} text items reach into the {threshold} margin.',
    fail: '{value} text items are cut off at the edge.',
    hint: 'Keep text at least {threshold} from every edge.',
  },
  clutter: {
    pass: '{value} elements: one clear message.',
    warning: '{value} elements: more than {threshold} competes for attention.',
    fail: '{value} elements: far more than {threshold}; the message is lost.',
    hint: 'Keep one message: a headline, a picture and a logo.',
  },
}

/** A face of standard size (a 48x14 ft bulletin shown at the builder's 1400x400). */
export const DefaultFace = { width_ft: 48, height_ft: 14, width_px: 1400, height_px: 400, viewing_class: 'arterial' }
