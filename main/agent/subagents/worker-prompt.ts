/**
 * What a worker is told. The system prompt is the runtime prompt of its narrowed tool list plus the
 * rules of delegated work; the first user message is the task with its context. Kept apart from the
 * runner so the wording can be read (and changed) in one place.
 */
export type ResultFormat = 'concise' | 'detailed' | 'structured';

export const WORKER_RULES = [
  '',
  '## You are a subagent',
  'The main agent delegated one task to you. Work on it alone with the tools offered here: nobody can answer a question or approve a call during this run, so a call that needs approval is refused.',
  'You cannot write local files or drive the desktop. When you are done, reply with your answer and nothing else; the main agent reads it and answers the owner.',
].join('\n');

const FORMAT_RULES: Record<ResultFormat, string> = {
  concise: 'Answer in a few sentences: the result, and the one source it rests on.',
  detailed: 'Answer thoroughly: the result, how you found it, and the evidence (sources, URLs, quotes).',
  structured: 'Answer in three labelled parts: Result, Evidence (sources or URLs), Open questions (or "none").',
};

export function workerMessage(input: { id: string; task: string; context?: string; shared_context?: string; result_format: ResultFormat }): string {
  const lines = [`Task ${input.id}: ${input.task}`];
  if (input.context) lines.push('', 'Context for this task:', input.context);
  if (input.shared_context) lines.push('', 'Context shared by every task of this batch:', input.shared_context);
  lines.push('', FORMAT_RULES[input.result_format]);
  return lines.join('\n');
}
