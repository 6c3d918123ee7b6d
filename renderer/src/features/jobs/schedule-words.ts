/**
 * A job's schedule as people say it. The Jobs screen showed the raw cron line ("0 8 * * 1-5"); the common
 * shapes read as words ("Weekdays at 08:00") and anything else stays as written (the card keeps the
 * exact line in its tooltip either way).
 */
const DAYS = ['Sundays', 'Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays'];

function clock(minute: string, hour: string): string | undefined {
  if (!/^\d{1,2}$/.test(minute) || !/^\d{1,2}$/.test(hour) || Number(minute) > 59 || Number(hour) > 23) return undefined;
  return `${hour.padStart(2, '0')}:${minute.padStart(2, '0')}`;
}

export function scheduleInWords(schedule: string): string {
  const fields = schedule.trim().split(/\s+/);
  if (fields.length !== 5) return schedule;
  const [minute, hour, dayOfMonth, month, dayOfWeek] = fields;
  if (month !== '*') return schedule;
  if (hour === '*' && dayOfMonth === '*' && dayOfWeek === '*' && /^\d{1,2}$/.test(minute)) return minute === '0' ? 'Every hour' : `Every hour at :${minute.padStart(2, '0')}`;
  const at = clock(minute, hour);
  if (at === undefined) return schedule;
  if (dayOfMonth === '*' && dayOfWeek === '*') return `Every day at ${at}`;
  if (dayOfMonth === '*' && dayOfWeek === '1-5') return `Weekdays at ${at}`;
  if (dayOfMonth === '*' && (dayOfWeek === '0,6' || dayOfWeek === '6,0')) return `Weekends at ${at}`;
  if (dayOfMonth === '*' && /^[0-7]$/.test(dayOfWeek)) return `${DAYS[Number(dayOfWeek) % 7]} at ${at}`;
  if (dayOfWeek === '*' && /^\d{1,2}$/.test(dayOfMonth)) return `Day ${dayOfMonth} of every month at ${at}`;
  return schedule;
}
