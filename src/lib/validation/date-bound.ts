// The one range of dates the service reads and stores: the years 1 to 9999, UTC. PostgreSQL holds
// more, but a JS Date past 9999 serialises with an extended year ("+010000-…") the driver's reader
// cannot parse, and Date.UTC reads the years 0–99 as 1900–1999. Every date taken from a request
// (fields, query parameters, times written in query text) passes through here, so none can reach
// the database out of range (a 422 for fields; a time expression out of range is simply not read as
// a time).
import { validationFailed } from "../errors";

const FIRST = Date.parse("0001-01-01T00:00:00.000Z");
const LAST = Date.parse("9999-12-31T23:59:59.999Z");

export const DATE_BOUND_MESSAGE = "must be an ISO 8601 date-time between the years 1 and 9999";

export function withinDateBound(date: Date): boolean {
  const time = date.getTime();
  return time >= FIRST && time <= LAST;
}

/**
 * A date-time string as a Date, or null when it does not parse or lies outside the years 1 to 9999.
 */
export function boundedDate(value: string | Date): Date | null {
  const date = new Date(value);
  return withinDateBound(date) ? date : null;
}

/**
 * Midnight UTC of a calendar day (month 0–11; day and month overflow roll over as in Date.UTC),
 * with the years 1–99 meant literally; null outside the bound.
 */
export function utcDay(year: number, monthIndex: number, day: number): Date | null {
  const date = new Date(Date.UTC(2000, monthIndex, day));
  date.setUTCFullYear(year + date.getUTCFullYear() - 2000);
  return withinDateBound(date) ? date : null;
}

/** An optional date-time field as a Date within the bound, or a 422 naming `path`. */
export function requireBoundedDate(value: string | undefined, path: string): Date | undefined {
  if (value === undefined) return undefined;
  const date = boundedDate(value);
  if (date === null) throw validationFailed([{ path, message: DATE_BOUND_MESSAGE }]);
  return date;
}
