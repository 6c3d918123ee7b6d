import { useCallback, useId, useRef, useState } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { ErrorNotice } from '../../app/error-notice.js';
import { Icon } from '../../ui/icons.js';
import { ApiKeyForm } from './api-key-form.js';
import { ConfigForm } from './config-form.js';
import { FixCommand } from './fix-command.js';
import { HostedWorkspacePicker } from './hosted-workspace-picker.js';
import { useHostedLive } from './use-hosted-live.js';
import { InstallProgressBar } from './install-progress.js';
import { OAuthClientModal, isOAuthProvider } from './oauth-client-modal.js';
import { PluginLogo } from './plugin-logo.js';
import { consentLine, hostedLiveStatus, readinessOf } from './readiness.js';
import { StatusBadge } from './status-badge.js';
import type { CatalogEntry, PluginState, PluginsState } from './store.js';

/**
 * What the window shows for a plugin: a catalog entry the person never installed reads "Not installed";
 * a ready OAuth plugin whose sign-in sat unused past expiry reads "Reconnect needed" (state.reconnect_needed).
 */
export function effectiveStatus(entry: CatalogEntry, state: Pick<PluginState, 'status' | 'reconnect_needed'> | undefined): string {
  const status = state?.status;
  if (entry.installed === null && (status === undefined || status === 'disabled')) return 'not_installed';
  if (status === 'ready' && state?.reconnect_needed) return 'reconnect_needed';
  return status ?? 'disabled';
}

const AUTH_WORDS: Record<string, string> = { api_key: 'API key', oauth2: 'OAuth sign-in', none: 'No sign-in' };

/** One catalog card: who makes it, what it may send where, its readiness with the one fix, and its setup. */
export function PluginCard({ entry, store }: { entry: CatalogEntry; store: StoreApi<PluginsState> }) {
  const state = useStore(store, (s) => s.states[entry.name]);
  const busy = useStore(store, (s) => s.busy[entry.name]);
  const progress = useStore(store, (s) => s.progress[entry.name]);
  const error = useStore(store, (s) => s.errors[entry.name]);
  const verdict = useStore(store, (s) => s.verdicts[entry.name]);
  const keys = useStore(store, (s) => s.config[entry.name]);
  const authUrl = useStore(store, (s) => s.authUrls[entry.name]);
  const [clientOpen, setClientOpen] = useState(false);
  const actions = store.getState();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const titleId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  useHostedLive(entry, store);
  const status = hostedLiveStatus(state) ?? effectiveStatus(entry, state);
  const development = state?.source === 'dev_local';
  const view = readinessOf(status);
  // An unsigned dev_local folder: nothing vouches for what its templates call.
  const consent = development ? { text: 'Unsigned code from your dev_local folder: Fermix has not verified it; its tools call the URLs its manifest names.', leaves: true, hosted: false } : consentLine(entry);
  const installed = entry.installed !== null;
  const enabled = state?.enabled ?? false;
  const onLoadConfig = useCallback(() => void store.getState().loadConfig(entry.name), [store, entry.name]);

  const openPanel = () => {
    setOpen(true);
    // After React shows the panel: the first field is where the fix is typed.
    requestAnimationFrame(() => panelRef.current?.querySelector<HTMLElement>('input, select')?.focus());
  };
  const fix = () => {
    switch (view.action) {
      case 'install':
      case 'reinstall':
        return void actions.install(entry.name);
      case 'enable':
        return void actions.setEnabled(entry.name, true);
      case 'recheck':
        return void actions.recheck(entry.name);
      case 'oauth_client':
        return isOAuthProvider(entry.auth_provider) ? setClientOpen(true) : openPanel();
      case 'connect':
        return void actions.connect(entry.name);
      case 'config':
      case 'secret':
      case 'command':
        return openPanel();
    }
  };
  const installing = busy === 'Installing…' || (busy === 'Enabling…' && !installed);

  return (
    <article className="card plugin-card" aria-labelledby={titleId} data-plugin={entry.name}>
      <div className="plugin-card-head">
        <PluginLogo name={entry.display_name} logo={entry.logo} color={entry.brand_color} />
        <div className="plugin-card-title">
          <h2 id={titleId}>{entry.display_name}</h2>
          <p className="muted small">
            {entry.developer_name ?? 'Fermix'} · {entry.category} · {AUTH_WORDS[entry.auth_type] ?? entry.auth_type} · {entry.rails.map((rail) => (rail === 'http' ? 'HTTP rail' : 'MCP rail')).join(', ')}
          </p>
        </div>
        {development && <span className="badge plugin-badge plugin-badge-muted" title="Loaded unsigned from [fermix_core.plugins] dev_local">Development</span>}
        <StatusBadge status={status} />
      </div>
      <p className="plugin-description">{entry.description}</p>
      <p className={`plugin-consent${consent.leaves ? ' leaves' : ''}${consent.hosted ? ' hosted' : ''}`}>
        {consent.leaves && <Icon name="warning" size={14} />}
        <span>{consent.text}</span>
      </p>
      {status !== 'ready' && status !== 'not_installed' && view.missing && (
        <p className="small plugin-missing">
          {view.missing}
          {state?.detail && <> <span className="muted">({state.detail})</span></>}
        </p>
      )}
      {(status === 'ready' || status === 'reconnect_needed') && state && (state.account || state.tools.length > 0) && (
        <p className="small muted plugin-tools">
          {state.account && <>Connected as {state.account}. </>}
          {state.tools.length > 0 && <>{state.tools.length} {state.tools.length === 1 ? 'tool' : 'tools'}: {state.tools.join(', ')}</>}
        </p>
      )}
      {installing && <InstallProgressBar name={entry.display_name} progress={progress} />}
      {authUrl && (
        <p className="small" role="status">
          Finish signing in on the page that opened. <a href={authUrl} target="_blank" rel="noopener noreferrer">Open the {entry.auth_provider ?? 'sign-in'} page again</a>
        </p>
      )}
      {clientOpen && isOAuthProvider(entry.auth_provider) && (
        <OAuthClientModal
          provider={entry.auth_provider}
          displayName={entry.display_name}
          busy={busy !== undefined}
          onSave={(clientId, clientSecret) => actions.setOAuthClient(entry.name, entry.auth_provider as 'github', clientId, clientSecret)}
          onClose={() => setClientOpen(false)}
        />
      )}
      {error && <ErrorNotice error={error} onDismiss={() => store.setState((s) => ({ errors: Object.fromEntries(Object.entries(s.errors).filter(([key]) => key !== entry.name)) }))} />}
      <div className="actions plugin-actions">
        {view.fix && (
          <button type="button" className="primary" onClick={fix} disabled={busy !== undefined} aria-label={`${view.fix} ${entry.display_name}`}>
            {busy ?? view.fix}
          </button>
        )}
        {installed && (
          <button
            type="button"
            role="switch"
            className="switch"
            aria-checked={enabled}
            aria-label={`${entry.display_name} enabled`}
            disabled={busy !== undefined}
            onClick={() => void actions.setEnabled(entry.name, !enabled)}
          >
            <span className="switch-track" aria-hidden="true"><span className="switch-thumb" /></span>
            {enabled ? 'Enabled' : 'Disabled'}
          </button>
        )}
        {installed && (
          <button type="button" aria-expanded={open} aria-controls={panelId} onClick={() => (open ? setOpen(false) : openPanel())}>
            {open ? 'Hide setup' : 'Setup'}
          </button>
        )}
        {installed && <span className="muted small plugin-version">v{entry.installed}{entry.bundled ? ' · bundled' : ''}{development ? ' · unsigned' : ''}</span>}
      </div>
      {open && installed && (
        <div className="plugin-panel" id={panelId} ref={panelRef}>
          {view.action === 'command' && view.command && <FixCommand command={view.command(entry.name)} what={`${view.missing}`} />}
          {entry.auth_type === 'api_key' && (
            <ApiKeyForm
              name={entry.name}
              displayName={entry.display_name}
              busy={busy !== undefined}
              hasKey={status !== 'needs_secret' && enabled}
              verdict={verdict}
              onSubmit={(value) => actions.setSecret(entry.name, value)}
              onClear={() => void actions.clearSecret(entry.name)}
            />
          )}
          {entry.auth_type === 'oauth2' && isOAuthProvider(entry.auth_provider) && (
            <div className="actions">
              <button type="button" onClick={() => setClientOpen(true)} disabled={busy !== undefined}>OAuth client…</button>
              <button type="button" onClick={() => void actions.connect(entry.name)} disabled={busy !== undefined}>{status === 'ready' ? 'Reconnect' : 'Connect'}</button>
            </div>
          )}
          {entry.runtime_kind === 'remote_mcp' && <HostedWorkspacePicker entry={entry} store={store} hasToken={enabled && !['needs_secret', 'disabled', 'not_installed'].includes(status)} />}
          <ConfigForm name={entry.name} keys={keys} busy={busy !== undefined} onLoad={onLoadConfig} onSave={(key, value) => actions.setConfig(entry.name, key, value)} />
        </div>
      )}
    </article>
  );
}
