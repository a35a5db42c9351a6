// Instants given as query parameters (audit since/until, memory listing ranges): strict ISO 8601.
import { validationFailed } from "./errors";
import { withinDateBound } from "./validation/date-bound";

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The runtime's Date.parse rolls 2026-02-30 over to March; calendar fields are checked here. */
function fieldsInRange(value: string): boolean {
  const fields = (value.match(/\d+/g) ?? []).slice(0, 6).map(Number);
  const [y, mo, d, h = 0, mi = 0, sec = 0] = fields as number[];
  const daysInMonth = new Date(Date.UTC(y!, mo!, 0)).getUTCDate();
  return mo! >= 1 && mo! <= 12 && d! >= 1 && d! <= daysInMonth && h <= 23 && mi <= 59 && sec <= 59;
}

/**
 * Date-only means UTC midnight; a date-time without an offset is read as UTC. 422 names `field`.
 */
export function parseInstant(value: string, field: string): Date {
  const match = ISO_8601.exec(value);
  const hasOffset = match?.[4] !== undefined;
  const readAs = match?.[1] && !hasOffset ? `${value}Z` : value;
  const time = match && fieldsInRange(value) ? Date.parse(readAs) : Number.NaN;
  if (!withinDateBound(new Date(time))) {
    const message = "must be an ISO 8601 date or date-time, e.g. 2026-01-31T12:00:00Z";
    throw validationFailed([{ path: `/${field}`, message }]);
  }
  return new Date(time);
}

/** Instants are shown to the millisecond while rows keep microseconds: an upper bound covers its
 * whole millisecond, so a listed row's own timestamp, given back as the bound, includes that row.
 * */
export const endOfMillisecond = (at: Date): Date => new Date(at.getTime() + 1);
