/** The list's sections: pinned first, then by last activity in the person's own calendar days. */
export type GroupName = 'Pinned' | 'Today' | 'Yesterday' | 'Previous 7 days' | 'Older';

export interface Grouped<T> {
  name: GroupName;
  items: T[];
}

const DAY = 24 * 60 * 60 * 1000;

function startOfDay(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

export function groupConversations<T extends { pinned: boolean; updated_at: string }>(rows: T[], now: Date = new Date()): Grouped<T>[] {
  const today = startOfDay(now);
  const groups: Record<GroupName, T[]> = { Pinned: [], Today: [], Yesterday: [], 'Previous 7 days': [], Older: [] };
  for (const row of rows) {
    const time = new Date(row.updated_at).getTime();
    if (row.pinned) groups.Pinned.push(row);
    else if (time >= today) groups.Today.push(row);
    else if (time >= today - DAY) groups.Yesterday.push(row);
    else if (time >= today - 7 * DAY) groups['Previous 7 days'].push(row);
    else groups.Older.push(row);
  }
  return (Object.keys(groups) as GroupName[]).filter((name) => groups[name].length > 0).map((name) => ({ name, items: groups[name] }));
}

/** A row's time, as short as its group allows: 14:05 today, Mon this week, 3 Mar this year, 3 Mar 2025. */
export function shortTime(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  const today = startOfDay(now);
  if (date.getTime() >= today) return date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  if (date.getTime() >= today - 6 * DAY) return date.toLocaleDateString(undefined, { weekday: 'short' });
  if (date.getFullYear() === now.getFullYear()) return date.toLocaleDateString(undefined, { day: 'numeric', month: 'short' });
  return date.toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
}
