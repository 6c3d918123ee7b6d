import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { ErrorNotice } from '../../../app/error-notice.js';
import { useThread } from '../../../app/model-context.js';
import type { ApprovalItem } from '../thread/display.js';
import { ApprovalScopeSelect } from './approval-scope-select.js';
import { contentPreview, plainReason, ruleWords, targetOf } from './approval-words.js';

/**
 * The question part of an approval: what will run (the exact command, or the content a write puts in a
 * file), the warning for unjailed commands, what "Always allow" saves (in words), and the three answers.
 * It takes focus when it appears (unless a half-typed message has it) so the keys answer it at once:
 * Enter = allow once, A = always (with the scope chosen beside it — the daemon's default until changed),
 * D or Escape = deny. Keys typed in the message box or the scope list are never taken.
 */
export function ApprovalPanel({ approval, capability, args }: { approval: ApprovalItem; capability: string; args: unknown }) {
  const answer = useThread((state) => state.answerApproval);
  const panel = useRef<HTMLDivElement | null>(null);
  const ruleId = useId();
  const keysId = useId();
  const busy = approval.state === 'answering';
  const shown = approval.args ?? args;
  const target = targetOf(shown);
  const preview = contentPreview(capability, shown);
  const scopes = approval.scopes ?? [];
  const [scopeId, setScopeId] = useState<string | undefined>(undefined);
  const chosen = scopes.find((scope) => scope.id === scopeId) ?? scopes[0];
  const covers = chosen?.rule ?? approval.alwaysCovers;
  const rule = covers ? ruleWords(capability, covers) : null;
  const always = () => void answer(approval.approvalId, 'always', chosen?.id);

  useEffect(() => {
    // Once, when the card appears: a later re-render must not pull focus back from the message box. Not
    // while the person is half-way through typing something: their next letters would answer the card.
    const active = document.activeElement;
    const typing = (active instanceof HTMLTextAreaElement || active instanceof HTMLInputElement) && active.value.trim() !== '';
    if (!typing) panel.current?.focus({ preventScroll: false });
  }, [approval.approvalId]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (busy || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target instanceof HTMLElement && event.target.closest('details, select')) return;
    const key = event.key.toLowerCase();
    const choice = key === 'enter' && event.target === event.currentTarget ? 'once' : key === 'a' && rule ? 'always' : key === 'd' || key === 'escape' ? 'deny' : null;
    if (!choice) return;
    event.preventDefault();
    event.stopPropagation();
    if (choice === 'always') always();
    else void answer(approval.approvalId, choice);
  };

  return (
    <div ref={panel} className="approval-panel" tabIndex={-1} onKeyDown={onKeyDown} aria-describedby={keysId} data-approval={approval.approvalId}>
      {approval.warning && <p className="approval-warning" role="note">{approval.warning}</p>}
      {approval.reason && <p className="approval-reason">{plainReason(approval.reason)}</p>}
      {target && (
        <p className="approval-target">
          <span className="muted small">{target.label}</span>
          <code className="tool-summary">{target.value}</code>
        </p>
      )}
      {preview && (
        <figure className="approval-preview" aria-label={preview.kind === 'write' ? 'What will be written' : 'What will change'}>
          <figcaption className="muted small">{preview.kind === 'write' ? 'What will be written' : 'What will change'}</figcaption>
          <pre className="diff">
            {preview.lines.map((line, index) => (
              <span key={index} className={line.sign === '+' ? 'diff-add' : 'diff-remove'}>
                {line.sign} {line.text}
                {'\n'}
              </span>
            ))}
          </pre>
          {preview.more > 0 && <figcaption className="muted small">…and {preview.more.toLocaleString('en-US')} more lines</figcaption>}
        </figure>
      )}
      <ApprovalScopeSelect scopes={scopes} value={chosen?.id ?? ''} disabled={busy} onChange={setScopeId} />
      <p className="always-covers" id={ruleId}>
        {rule ? (
          <>
            <strong>Always allow</strong> covers {rule.code && <code className="rule">{rule.code}</code>} {rule.scope}. {rule.sentence}
          </>
        ) : (
          <span className="muted">Reading what “Always allow” would cover…</span>
        )}
      </p>
      <div className="actions">
        <button type="button" className="primary" disabled={busy} onClick={() => void answer(approval.approvalId, 'once')} aria-keyshortcuts="Enter">
          Allow once
        </button>
        <button type="button" disabled={busy || !rule} onClick={always} aria-describedby={ruleId} aria-keyshortcuts="A">
          Always allow
        </button>
        <button type="button" className="danger" disabled={busy} onClick={() => void answer(approval.approvalId, 'deny')} aria-keyshortcuts="D Escape">
          Deny
        </button>
        <span id={keysId} className="muted small approval-keys">Enter allow once · A always · D or Esc deny</span>
      </div>
      {approval.error && <ErrorNotice error={approval.error} />}
    </div>
  );
}

const ANSWERED: Record<string, string> = {
  once: 'Allowed once',
  always: 'Always allowed (rule saved in config.toml)',
  deny: 'Denied — it did not run',
  cancelled: 'No longer waiting (the turn ended)',
};

/** One line after the answer, on the collapsed card. */
export function approvalOutcome(approval: ApprovalItem): string | null {
  return ANSWERED[approval.state] ?? null;
}
