import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectionOf } from '../../../net/test-support.js';
import { GOOGLE_READONLY_TOKEN } from '../../../../test/fixtures/plugin-fakes/google-fake.js';
import { startGoogleKit } from './google-test-kit.js';
import { createTestPolicy } from '../../../net/test-policy.js';

let kit: Awaited<ReturnType<typeof startGoogleKit>>;
beforeAll(async () => { kit = await startGoogleKit('google_calendar', 'www.googleapis.com', createTestPolicy()); });
afterAll(() => kit.fake.close());
const lastPath = () => kit.fake.server.requests.at(-1)!.path;

describe('HTTP rail against the Google Calendar fake', () => {
  it('searches the primary calendar by default, single events by start time, until nextSyncToken', async () => {
    expect(kit.manifest.tools.map((t) => t.name)).toEqual(['google_calendar_search_events', 'google_calendar_create_event', 'google_calendar_update_event', 'google_calendar_respond_to_event', 'google_calendar_move_event', 'google_calendar_delete_event']);
    const found = (await kit.call('google_calendar_search_events', { query: 'standup', max_results: 3 })).data as { items: { id: string }[]; truncated: boolean };
    expect([found.items.map((e) => e.id), found.truncated]).toEqual([['evt0', 'evt1', 'evt2', 'evt3'], false]);
    expect(lastPath().startsWith('/calendar/v3/calendars/primary/events?')).toBe(true);
    expect([kit.query().get('singleEvents'), kit.query().get('orderBy'), kit.query().get('q')]).toEqual(['true', 'startTime', 'standup']);
  });

  it('creates, updates (only what was given), responds, moves and deletes (204)', async () => {
    await kit.call('google_calendar_create_event', { summary: 'Lunch', start: '2026-02-01T12:00:00+01:00', end: '2026-02-01T13:00:00+01:00', time_zone: 'Europe/Paris' });
    expect(kit.fake.bodies.at(-1)).toEqual({ summary: 'Lunch', start: { dateTime: '2026-02-01T12:00:00+01:00', timeZone: 'Europe/Paris' }, end: { dateTime: '2026-02-01T13:00:00+01:00', timeZone: 'Europe/Paris' } });
    await kit.call('google_calendar_update_event', { event_id: 'evt1', summary: 'Renamed', send_updates: 'all' });
    // No `start: {}` for absent times: a PATCH would read that as clearing them.
    expect([kit.fake.bodies.at(-1), kit.query().get('sendUpdates')]).toEqual([{ summary: 'Renamed' }, 'all']);
    await kit.call('google_calendar_respond_to_event', { event_id: 'evt1', response: 'tentative', attendee_email: 'ana@example.com' });
    expect(kit.fake.bodies.at(-1)).toEqual({ attendeesOmitted: true, attendees: [{ email: 'ana@example.com', responseStatus: 'tentative' }] });
    await kit.call('google_calendar_move_event', { event_id: 'evt1', destination_calendar_id: 'team@example.com' });
    expect([lastPath().split('?')[0], kit.query().get('destination')]).toEqual(['/calendar/v3/calendars/primary/events/evt1/move', 'team@example.com']);
    expect((await kit.call('google_calendar_delete_event', { event_id: 'evt1', send_updates: 'none' })).data).toBeNull();
  });

  it('classes 403s distinctly: missing scope, organizer-only, calendar permission, rate limit', async () => {
    const scope = await rejectionOf(kit.call('google_calendar_create_event', { summary: 'x', start: 'a', end: 'b' }, GOOGLE_READONLY_TOKEN));
    expect([scope.code, scope.message.startsWith('permission denied (requires: https://www.googleapis.com/auth/calendar.events)')]).toEqual(['permission_denied', true]);
    const organizer = await rejectionOf(kit.call('google_calendar_update_event', { event_id: 'evt-not-mine', summary: 'x' }));
    expect([organizer.code, organizer.message]).toEqual(['organizer_only', 'only the event organizer can make this change']);
    const shared = await rejectionOf(kit.call('google_calendar_delete_event', { event_id: 'evt1', calendar_id: 'shared@example.com' }));
    expect([shared.code, shared.data?.reason]).toEqual(['file_permission_denied', 'requiredAccessLevel']);
    const rate = await rejectionOf(kit.call('google_calendar_search_events', { calendar_id: 'busy@example.com' }));
    expect([rate.code, rate.data?.reason]).toEqual(['rate_limited', 'rateLimitExceeded']);
  });
});
