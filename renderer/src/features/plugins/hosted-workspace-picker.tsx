import { useEffect, useId, useState } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import type { OutputOf } from '../../../../main/api/contract.js';
import type { WireError } from '../../../../main/core/errors.js';
import { ErrorNotice } from '../../app/error-notice.js';
import { useApiClient } from '../../app/model-context.js';
import { toWireError } from '../connection/store.js';
import type { CatalogEntry, PluginsState } from './store.js';

type Listing = OutputOf<'plugins.workspaces'>;

/**
 * A hosted plugin's setup (plugins.workspaces / plugins.workspace_select): the disclosure that content
 * leaves the machine, the one workspace picked from the list the stored token reaches, and the access
 * profile — the read-only one by default, the write one only by explicit choice and with a
 * write-scoped token. This screen is the only way to choose them (no CLI verb, no config key).
 */
export function HostedWorkspacePicker({ entry, store, hasToken }: { entry: CatalogEntry; store: StoreApi<PluginsState>; hasToken: boolean }) {
  const client = useApiClient();
  const [listing, setListing] = useState<Listing | null>(null);
  const [workspace, setWorkspace] = useState<string | null>(null);
  const [profile, setProfile] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<WireError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const ids = { workspaces: useId(), profiles: useId() };
  const who = entry.developer_name ?? entry.display_name;

  const find = async () => {
    setBusy('Finding workspaces…');
    setError(null);
    try {
      const found = await client.call('plugins.workspaces', { name: entry.name });
      setListing(found);
      setWorkspace(found.chosen?.workspace_id ?? found.workspaces[0]?.id ?? null);
      setProfile(found.chosen?.profile ?? found.profiles.find((each) => each.default)?.name ?? null);
    } catch (caught) {
      setError(toWireError(caught));
    } finally {
      setBusy(null);
    }
  };
  // Listing needs the stored token: look as soon as there is one (and again after it changes).
  useEffect(() => {
    if (hasToken) void find();
  }, [hasToken, entry.name]);

  const save = async () => {
    if (!workspace) return;
    setBusy('Saving…');
    setError(null);
    setSaved(null);
    try {
      const chosen = await client.call('plugins.workspace_select', { name: entry.name, workspace_id: workspace, ...(profile ? { profile } : {}) });
      setSaved(`Using the workspace ${chosen.workspace_label} with the ${listing?.profiles.find((each) => each.name === chosen.profile)?.display_name ?? chosen.profile} profile.`);
      setListing((current) => (current ? { ...current, chosen: { workspace_id: chosen.workspace_id, workspace_label: chosen.workspace_label, profile: chosen.profile } } : current));
      // The card's live watcher (use-hosted-live.ts) follows the connection from here.
      await store.getState().recheck(entry.name);
    } catch (caught) {
      setError(toWireError(caught));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="plugin-form hosted-setup">
      <p className="small plugin-consent leaves hosted">
        {entry.display_name} runs on {who}&apos;s servers: the searches, notes and links its tools are given leave this machine.
      </p>
      {!hasToken && <p className="muted small">Add the access token first; then pick the workspace it may use.</p>}
      {hasToken && !listing && (
        <div className="actions">
          <button type="button" onClick={() => void find()} disabled={busy !== null}>{busy ?? 'Find workspaces'}</button>
        </div>
      )}
      {listing && listing.workspaces.length === 0 && <p className="small">This token reaches no workspace. Create one in {entry.display_name}, then find workspaces again.</p>}
      {listing && listing.workspaces.length > 0 && (
        <>
          <fieldset className="choice-list" aria-describedby={ids.workspaces}>
            <legend>Workspace</legend>
            <p className="muted small" id={ids.workspaces}>{entry.display_name} works in exactly one workspace; the agent cannot pick another.</p>
            {listing.workspaces.map((each) => (
              <label key={each.id} className="choice">
                <input type="radio" name={`${entry.name}-workspace`} value={each.id} checked={workspace === each.id} onChange={() => setWorkspace(each.id)} disabled={busy !== null} />
                <span><strong>{each.label}</strong>{listing.chosen?.workspace_id === each.id && <span className="muted"> (in use)</span>}</span>
              </label>
            ))}
          </fieldset>
          <fieldset className="choice-list" aria-describedby={ids.profiles}>
            <legend>Access</legend>
            <p className="muted small" id={ids.profiles}>
              {listing.credential_scope === 'write' ? 'This token may write.' : 'This token is read-only: writing needs a write-scoped token.'}
            </p>
            {listing.profiles.map((each) => {
              const blocked = each.required_credential_scope === 'write' && listing.credential_scope !== 'write';
              return (
                <label key={each.name} className="choice">
                  <input type="radio" name={`${entry.name}-profile`} value={each.name} checked={profile === each.name} onChange={() => setProfile(each.name)} disabled={busy !== null || blocked} />
                  <span>
                    <strong>{each.display_name}</strong> — {each.tools} tools{each.required_credential_scope === 'write' ? ', including ones that create and change items' : ''}
                    {blocked && <span className="muted"> (needs a write-scoped token)</span>}
                  </span>
                </label>
              );
            })}
          </fieldset>
          <div className="actions">
            <button type="button" className="primary" onClick={() => void save()} disabled={busy !== null || !workspace}>{busy ?? 'Use this workspace'}</button>
            <button type="button" onClick={() => void find()} disabled={busy !== null}>Find again</button>
          </div>
        </>
      )}
      {saved && <p className="key-verdict ok" role="status">{saved}</p>}
      {error && <ErrorNotice error={error} onDismiss={() => setError(null)} />}
    </div>
  );
}
