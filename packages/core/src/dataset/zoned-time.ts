// A schedule's times as a researcher writes them ("2017-07-04 09:20" in the lab's time zone) turned into UTC
// microseconds. Time zone rules come from Intl (the core has no Node APIs and no time zone data of its own).

/** A date and time as written: its wall clock, how precisely it was written, and its offset when it has one. */
export interface WrittenTime {
  /** The wall clock read as if it were UTC, in microseconds since the epoch. */
  wallUs: number;
  /** The last unit written, in microseconds: a minute, a second, or the last fraction digit's place. */
  unitUs: number;
  /** Minutes east of UTC when the text ends with an offset ("Z", "+02:00"); null when a time zone decides. */
  offsetMinutes: number | null;
}

/** A time zone: a fixed offset ("-03:00") or an IANA name ("America/Halifax") with Intl's rules for it. */
export type TimeZone =
  | { offsetMinutes: number; format?: undefined }
  | { offsetMinutes?: undefined; format: Intl.DateTimeFormat };

const WRITTEN = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?([Zz]|[+-]\d{2}:\d{2})?$/;
const OFFSET = /^([+-])(\d{2}):(\d{2})$/;
/** Years a window may be in: captures start in 1970, and microseconds since the epoch stay exact until 2255. */
const FIRST_YEAR = 1970;
const LAST_YEAR = 2200;
const DAY_SECONDS = 86_400;

/** Parses "YYYY-MM-DD HH:MM[:SS[.ffffff]][Z|±HH:MM]" (a "T" for the space is fine); a string says why not. */
export function parseWrittenTime(text: string): WrittenTime | string {
  const m = WRITTEN.exec(text);
  if (m === null) return `"${text}" is not a date and time such as "2017-07-04 09:20" or "2017-07-04T09:20:00Z"`;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (year < FIRST_YEAR || year > LAST_YEAR) return `"${text}": the year must be ${FIRST_YEAR} to ${LAST_YEAR}`;
  if (month < 1 || month > 12) return `"${text}": there is no month ${month}`;
  if (day < 1 || day > daysInMonth(year, month)) return `"${text}": there is no day ${day} in that month`;
  if (hour > 23 || minute > 59 || second > 59) return `"${text}": the time of day is out of range`;
  const fraction = m[7] ?? "";
  const unitUs = m[6] === undefined ? 60_000_000 : 10 ** (6 - fraction.length);
  const fractionUs = fraction === "" ? 0 : Number(fraction) * unitUs;
  const wallUs = civilSeconds(year, month, day, hour, minute, second) * 1_000_000 + fractionUs;
  let offsetMinutes: number | null = null;
  if (m[8] !== undefined) {
    const offset = m[8] === "Z" || m[8] === "z" ? 0 : parseOffset(m[8]);
    if (offset === undefined) return `"${text}": the offset ${m[8]} is out of range`;
    offsetMinutes = offset;
  }
  return { wallUs, unitUs, offsetMinutes };
}

/** A fixed offset ("-03:00") or an IANA time zone name Intl knows; a string says why not. */
export function parseTimeZone(text: string): TimeZone | string {
  if (OFFSET.test(text)) {
    const offsetMinutes = parseOffset(text);
    return offsetMinutes === undefined ? `the offset "${text}" is out of range` : { offsetMinutes };
  }
  try {
    return {
      format: new Intl.DateTimeFormat("en-US", {
        timeZone: text,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      }),
    };
  } catch {
    return `"${text}" is not a time zone: give an IANA name such as "America/Halifax" or an offset such as "-03:00"`;
  }
}

/**
 * The UTC microseconds of a written time: its own offset when it has one, else the zone's. A wall clock that occurs
 * twice (the hour repeated when summer time ends) is the first of the two; one that does not occur (the hour skipped
 * when it starts) is read with the offset in force before the change, so it lands as far past the change as it was
 * written past it (02:30 on a night that jumps from 02:00 to 03:00 is 03:30). These are the rules of RFC 5545 and
 * of Temporal's "compatible" disambiguation.
 */
export function utcMicros(time: WrittenTime, zone: TimeZone): number {
  if (time.offsetMinutes !== null) return time.wallUs - time.offsetMinutes * 60_000_000;
  if (zone.format === undefined) return time.wallUs - zone.offsetMinutes * 60_000_000;
  const wallSec = Math.floor(time.wallUs / 1_000_000);
  return time.wallUs + (zonedToUtcSeconds(wallSec, zone.format) - wallSec) * 1_000_000;
}

/** The UTC second of wall-clock second `wallSec` in the zone, by the rules above. */
function zonedToUtcSeconds(wallSec: number, format: Intl.DateTimeFormat): number {
  // No zone changes its offset twice within two days, so the offsets a day before and a day after are the only two
  // the wall clock can have.
  const before = offsetSeconds(format, wallSec - DAY_SECONDS);
  const after = offsetSeconds(format, wallSec + DAY_SECONDS);
  const early = wallSec - before;
  const late = wallSec - after;
  const earlyHolds = offsetSeconds(format, early) === before;
  const lateHolds = after !== before && offsetSeconds(format, late) === after;
  if (earlyHolds && lateHolds) return Math.min(early, late);
  if (lateHolds) return late;
  return early;
}

/** Seconds east of UTC in force at UTC second `utcSec`. */
function offsetSeconds(format: Intl.DateTimeFormat, utcSec: number): number {
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let minute = 0;
  let second = 0;
  for (const part of format.formatToParts(utcSec * 1000)) {
    if (part.type === "year") year = Number(part.value);
    else if (part.type === "month") month = Number(part.value);
    else if (part.type === "day") day = Number(part.value);
    else if (part.type === "hour") hour = Number(part.value);
    else if (part.type === "minute") minute = Number(part.value);
    else if (part.type === "second") second = Number(part.value);
  }
  return civilSeconds(year, month, day, hour, minute, second) - utcSec;
}

/** Minutes east of UTC of "±HH:MM"; undefined beyond ±23:59. */
function parseOffset(text: string): number | undefined {
  const m = OFFSET.exec(text);
  if (m === null) return undefined;
  const hours = Number(m[2]);
  const minutes = Number(m[3]);
  if (hours > 23 || minutes > 59) return undefined;
  return (m[1] === "-" ? -1 : 1) * (hours * 60 + minutes);
}

/** Seconds since the epoch of a proleptic Gregorian date and time read as UTC (days from civil, H. Hinnant). */
function civilSeconds(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  const days = era * 146_097 + dayOfEra - 719_468;
  return days * DAY_SECONDS + hour * 3600 + minute * 60 + second;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
