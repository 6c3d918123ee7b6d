/**
 * The schedule grammar of reference §2.8, exactly one of three forms:
 *   - interval `every N minutes|hours|days` (first run N after creation),
 *   - a 5-field cron (croner: lists, ranges, steps, 0 and 7 = Sunday, day-of-month AND day-of-week,
 *     DST-aware in the job's IANA timezone),
 *   - a one-off ISO 8601 instant with an offset (a past one fires on the next tick).
 * Anything else — free English such as "daily at 8am" — is refused with the grammar in the error, so a
 * model can correct itself in one step.
 */
import { Cron } from 'croner';
import { FermixError } from '../core/errors.js';
import { SCHEDULE_GRAMMAR } from '../tools/job-fields.js';

export type Schedule =
  | { kind: 'interval'; everyMs: number }
  | { kind: 'cron'; pattern: string; timezone: string }
  | { kind: 'once'; at: number };

const INTERVAL = /^every\s+(\d{1,6})\s+(minute|minutes|hour|hours|day|days)$/i;
const UNIT_MS: Record<string, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };
// An ISO instant must carry its offset (Z or ±hh:mm): a bare local time would depend on the daemon's zone.
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const CRON_FIELD = /^[\d*,/\-A-Za-z?]+$/;

export const DEFAULT_TIMEZONE = 'UTC';

function invalidSchedule(text: string, why: string): FermixError {
  return new FermixError({
    code: 'invalid_schedule',
    message: `The schedule ${JSON.stringify(text)} is not in the schedule grammar (${why}): ${SCHEDULE_GRAMMAR}`,
    hint: 'Call again with schedule set to e.g. "every 6 hours", "0 8 * * 1-5" (with timezone) or "2026-12-24T18:00:00+00:00".',
    data: { schedule: text, grammar: SCHEDULE_GRAMMAR },
  });
}

/** `invalid_timezone` unless the runtime knows the IANA zone. */
export function checkTimezone(timezone: string | undefined): string {
  const zone = timezone ?? DEFAULT_TIMEZONE;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    throw new FermixError({
      code: 'invalid_timezone',
      message: `${JSON.stringify(zone)} is not a known IANA timezone.`,
      hint: 'Use a zone name such as Europe/Lisbon, America/New_York or UTC.',
      data: { timezone: zone },
    });
  }
  return zone;
}

export function parseSchedule(text: string, timezone: string = DEFAULT_TIMEZONE): Schedule {
  const trimmed = text.trim();
  const interval = INTERVAL.exec(trimmed);
  if (interval) {
    const count = Number(interval[1]);
    if (count < 1) throw invalidSchedule(text, 'an interval needs N of at least 1');
    const unit = interval[2].toLowerCase().replace(/s$/, '');
    return { kind: 'interval', everyMs: count * UNIT_MS[unit] };
  }
  if (ISO_WITH_OFFSET.test(trimmed)) {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) throw invalidSchedule(text, 'the instant is not a real date');
    return { kind: 'once', at };
  }
  const fields = trimmed.split(/\s+/);
  if (fields.length === 5 && fields.every((field) => CRON_FIELD.test(field))) {
    const zone = checkTimezone(timezone);
    try {
      // domAndDow: when both day fields are set both must match (reference §2.8), not cron's usual OR.
      new Cron(trimmed, { timezone: zone, paused: true, domAndDow: true, mode: '5-part' }).nextRun();
    } catch (error) {
      throw invalidSchedule(text, `the cron expression is invalid: ${(error as Error).message.split('.')[0]}`);
    }
    return { kind: 'cron', pattern: trimmed, timezone: zone };
  }
  if (/^\d{4}-\d{2}-\d{2}/.test(trimmed)) throw invalidSchedule(text, 'an ISO 8601 instant needs a time and an offset such as Z or +01:00');
  throw invalidSchedule(text, fields.length === 5 ? 'a cron field has characters cron does not use' : 'free text is not accepted');
}

export function isRecurring(schedule: Schedule): boolean {
  return schedule.kind !== 'once';
}

/** The first due time of a new (or re-scheduled) job. */
export function firstRunAt(schedule: Schedule, createdAt: number): number | null {
  if (schedule.kind === 'interval') return createdAt + schedule.everyMs;
  if (schedule.kind === 'once') return schedule.at;
  return cronNext(schedule, createdAt);
}

/**
 * The due time after `previousDue` that is later than `now`: a recurring schedule advances past every
 * slot it missed (the freshness rule skips them, it never runs them in a burst). Null for a one-off.
 */
export function nextRunAfter(schedule: Schedule, previousDue: number, now: number): number | null {
  if (schedule.kind === 'once') return null;
  if (schedule.kind === 'interval') {
    const behind = Math.max(0, now - previousDue);
    const steps = Math.floor(behind / schedule.everyMs) + 1;
    return previousDue + steps * schedule.everyMs;
  }
  return cronNext(schedule, Math.max(previousDue, now));
}

function cronNext(schedule: Extract<Schedule, { kind: 'cron' }>, after: number): number | null {
  const next = new Cron(schedule.pattern, { timezone: schedule.timezone, paused: true, domAndDow: true, mode: '5-part' }).nextRun(new Date(after));
  return next ? next.getTime() : null;
}
