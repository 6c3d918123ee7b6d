import { useEffect, useId, useRef, useState, type FormEvent } from 'react';

const PROVIDERS = ['google', 'github', 'notion', 'x', 'slack', 'tesla'] as const;
export type OAuthProvider = (typeof PROVIDERS)[number];
export const isOAuthProvider = (value: string | null): value is OAuthProvider => PROVIDERS.includes(value as OAuthProvider);

/**
 * The per-provider OAuth client ([fermix_core.oauth.<provider>]): the person's own app registration. The
 * secret field is masked and never filled back; plugins.oauth_client.set puts it in the secret store.
 */
export function OAuthClientModal(props: { provider: OAuthProvider; displayName: string; busy: boolean; onSave: (clientId: string, clientSecret: string) => Promise<boolean>; onClose: () => void }) {
  const [clientId, setClientId] = useState('');
  const [secret, setSecret] = useState('');
  const id = useId();
  const first = useRef<HTMLInputElement>(null);
  const { onClose } = props;
  useEffect(() => {
    first.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = secret;
    setSecret('');
    if (await props.onSave(clientId.trim(), value)) onClose();
  };
  return (
    <div className="drawer-backdrop oauth-backdrop" onClick={(event) => event.target === event.currentTarget && onClose()}>
      <form className="card oauth-modal" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`} onSubmit={(event) => void submit(event)}>
        <h2 id={`${id}-title`}>OAuth client for {props.provider}</h2>
        <p className="muted small">{props.displayName} signs in through your own {props.provider} OAuth app. Its redirect URL is the loopback address Fermix prints when you connect (127.0.0.1).</p>
        <div className="field">
          <label htmlFor={`${id}-client`}>Client ID</label>
          <input id={`${id}-client`} ref={first} value={clientId} onChange={(event) => setClientId(event.target.value)} spellCheck={false} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor={`${id}-secret`}>Client secret</label>
          <input id={`${id}-secret`} type="password" value={secret} onChange={(event) => setSecret(event.target.value)} autoComplete="off" />
        </div>
        <div className="actions">
          <button type="submit" className="primary" disabled={props.busy || clientId.trim() === '' || secret === ''}>{props.busy ? 'Saving…' : 'Save client'}</button>
          <button type="button" onClick={onClose}>Cancel</button>
        </div>
      </form>
    </div>
  );
}
