import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectionOf } from '../../../net/test-support.js';
import { GOOGLE_READONLY_TOKEN } from '../../../../test/fixtures/plugin-fakes/google-fake.js';
import { startGoogleKit } from './google-test-kit.js';
import { createTestPolicy } from '../../../net/test-policy.js';

let kit: Awaited<ReturnType<typeof startGoogleKit>>;
beforeAll(async () => { kit = await startGoogleKit('google_drive', 'www.googleapis.com', createTestPolicy()); });
afterAll(() => kit.fake.close());

describe('HTTP rail against the Google Drive fake', () => {
  it('searches with q (trash excluded unless asked), pageSize 10 by default, following nextPageToken', async () => {
    expect(kit.manifest.tools.map((t) => t.name)).toEqual(['google_drive_search_files', 'google_drive_create_folder', 'google_drive_upload_file', 'google_drive_update_file', 'google_drive_move_file', 'google_drive_copy_file']);
    await kit.call('google_drive_search_files', { query: "name contains 'Doc'" });
    expect([kit.query().get('q'), kit.query().get('pageSize')]).toEqual(["(name contains 'Doc') and (trashed = false or trashed = false)", '10']);
    const paged = (await kit.call('google_drive_search_files', { query: "name contains 'Doc'", max_results: 2, include_trashed: true })).data as { items: { id: string }[] };
    expect(paged.items.map((f) => f.id)).toEqual(['file0', 'file1', 'file2']);
    expect(kit.query().get('q')).toBe("(name contains 'Doc') and (trashed = false or trashed = true)");
    expect(kit.query().get('pageToken')).not.toBeNull();
  });

  it('creates a folder, uploads text as multipart/related, renames, moves and copies', async () => {
    await kit.call('google_drive_create_folder', { name: 'Plans' });
    expect(kit.fake.bodies.at(-1)).toEqual({ name: 'Plans', mimeType: 'application/vnd.google-apps.folder' });
    await kit.call('google_drive_upload_file', { name: 'notes.md', content: 'hello', mime_type: 'text/markdown', parent_id: 'folder-new' });
    const seen = kit.fake.server.requests.at(-1)!;
    expect([seen.path.split('?')[0], kit.query().get('uploadType')]).toEqual(['/upload/drive/v3/files', 'multipart']);
    const boundary = /boundary=(\S+)/.exec(String(seen.headers['content-type']))![1];
    expect(kit.fake.bodies.at(-1)).toBe(`--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n{"name":"notes.md","mimeType":"text/markdown","parents":["folder-new"]}\r\n--${boundary}\r\nContent-Type: text/markdown\r\n\r\nhello\r\n--${boundary}--\r\n`);
    expect((await kit.call('google_drive_update_file', { file_id: 'file1', name: 'Renamed' })).data).toMatchObject({ id: 'file1', name: 'Renamed' });
    expect((await kit.call('google_drive_move_file', { file_id: 'file1', add_parent_id: 'folder-new', remove_parent_id: 'root' })).data).toMatchObject({ parents: ['folder-new'] });
    expect([kit.query().get('addParents'), kit.query().get('removeParents')]).toEqual(['folder-new', 'root']);
    expect((await kit.call('google_drive_copy_file', { file_id: 'file2' })).data).toMatchObject({ id: 'file2-copy', name: 'Copy of Doc 2' });
  });

  it('refuses non-text uploads before sending, and classes 403s: file permission vs missing scope', async () => {
    expect((await rejectionOf(kit.call('google_drive_upload_file', { name: 'a', content: 'b', mime_type: 'application/pdf' }))).message).toBe('invalid parameter: mime_type');
    const file = await rejectionOf(kit.call('google_drive_update_file', { file_id: 'not-shared', name: 'x' }));
    expect([file.code, file.data?.reason]).toEqual(['file_permission_denied', 'insufficientFilePermissions']);
    expect(file.message.startsWith('this Google account has no permission for that item (insufficientFilePermissions)')).toBe(true);
    const scope = await rejectionOf(kit.call('google_drive_create_folder', { name: 'x' }, GOOGLE_READONLY_TOKEN));
    expect([scope.code, scope.hint]).toEqual(['permission_denied', 'Reconnect and grant https://www.googleapis.com/auth/drive: `fermix plugins auth reauthorize google_drive`.']);
  });
});
