/**
 * Where a finished run's answer goes. On the desktop the chat is the job inbox: one conversation
 * ("Jobs", id `jobs-inbox`) that collects every delivered result, plus a `job.run_finished` event the
 * window and the Electron shell show as a notification. A run that answered exactly `[SILENT]`
 * delivers nothing (reference §2.8); `none` delivers nothing either; `local` only notifies.
 */
import { SYSTEM_STREAM } from '../api/events.js';
import type { JobRow, RunRow } from './job-store.js';

export const JOB_INBOX_ID = 'jobs-inbox';
export const JOB_INBOX_TITLE = 'Jobs';
export const SILENT_MARKER = '[SILENT]';
const SUMMARY_CHARS = 280;

export interface DeliveryPorts {
  /** Creates the conversation when missing (TurnStore.ensureConversation). */
  ensureConversation(id: string, title: string): { created: boolean };
  /** Appends an assistant message outside any turn (TurnStore.appendMessage with a null turn). */
  appendAssistant(conversationId: string, text: string): void;
  emit(stream: string, type: string, payload: unknown): void;
}

export function isSilent(text: string | null): boolean {
  return (text ?? '').trim() === SILENT_MARKER;
}

export function createJobDelivery(ports: DeliveryPorts) {
  return {
    /** Delivers a finished run and announces it; returns the conversation it landed in, if any. */
    deliver(job: JobRow, run: RunRow): string | null {
      const silent = run.silent || isSilent(run.response);
      const inChat = !silent && job.delivery_mode === 'origin';
      if (inChat) {
        const { created } = ports.ensureConversation(JOB_INBOX_ID, JOB_INBOX_TITLE);
        const body = run.status === 'ok' ? (run.response ?? '').trim() || '(the run finished without an answer)' : `The run failed: ${run.error_message ?? run.error_code ?? 'unknown error'}${run.error_hint ? ` ${run.error_hint}` : ''}`;
        ports.appendAssistant(JOB_INBOX_ID, `**${job.name}** · ${run.trigger === 'manual' ? 'run now' : 'scheduled run'}\n\n${body}`);
        ports.emit(JOB_INBOX_ID, created ? 'conversation.created' : 'conversation.updated', { id: JOB_INBOX_ID, title: JOB_INBOX_TITLE });
      }
      const notify = !silent && job.delivery_mode !== 'none';
      const text = run.status === 'ok' ? (run.response ?? '') : (run.error_message ?? '');
      ports.emit(SYSTEM_STREAM, 'job.run_finished', {
        job_id: job.id,
        job_name: job.name,
        run_id: run.id,
        trigger: run.trigger,
        status: run.status,
        silent,
        notify,
        conversation_id: inChat ? JOB_INBOX_ID : null,
        summary: text.length > SUMMARY_CHARS ? `${text.slice(0, SUMMARY_CHARS - 1)}…` : text,
        error_code: run.error_code,
      });
      return inChat ? JOB_INBOX_ID : null;
    },
  };
}

export type JobDelivery = ReturnType<typeof createJobDelivery>;
