import { describe, expect, it } from 'vitest';
import { groupConversations, shortTime } from './group-conversations.js';

const now = new Date(2026, 2, 10, 15, 0); // 10 March 2026, 15:00 local time
const at = (days: number, hour = 9) => new Date(2026, 2, 10 - days, hour).toISOString();

describe('groupConversations', () => {
  it('puts pinned first, then Today / Yesterday / Previous 7 days / Older by local calendar day, and drops empty groups', () => {
    const rows = [
      { id: 'a', pinned: false, updated_at: at(0, 1) },
      { id: 'b', pinned: true, updated_at: at(30) },
      { id: 'c', pinned: false, updated_at: at(1, 23) },
      { id: 'd', pinned: false, updated_at: at(7) },
      { id: 'e', pinned: false, updated_at: at(8) },
    ];
    expect(groupConversations(rows, now).map((group) => [group.name, group.items.map((row) => row.id)])).toEqual([
      ['Pinned', ['b']],
      ['Today', ['a']],
      ['Yesterday', ['c']],
      ['Previous 7 days', ['d']],
      ['Older', ['e']],
    ]);
    expect(groupConversations([{ id: 'x', pinned: false, updated_at: at(3) }], now).map((group) => group.name)).toEqual(['Previous 7 days']);
  });

  it('shows a short time instead of a full date-time', () => {
    expect(shortTime(at(0, 14), now)).toMatch(/14|2/);
    expect(shortTime(at(0, 14), now)).not.toMatch(/2026/);
    expect(shortTime(at(40), now)).not.toMatch(/2026|:/);
    expect(shortTime(new Date(2024, 5, 1).toISOString(), now)).toMatch(/2024/);
  });
});
