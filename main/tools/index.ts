/**
 * The built-in tools. The composition root registers ALWAYS_ON_BUILTINS, adds DEFERRAL_BRIDGES unless
 * `[fermix_core.tools.tool_search] enabled = false`, and adds COMPUTER_USE_TOOL only when computer use is
 * enabled and its helper is installed.
 */
import type { z } from 'zod';
import type { Capability } from '../core/capabilities/capability.js';
import { browser, browserInput } from './browser.js';
import { computerUse, computerUseInput } from './computer-use.js';
import { contentSearch, contentSearchInput } from './content-search.js';
import { fileEdit, fileEditInput } from './file-edit.js';
import { fileRead, fileReadInput } from './file-read.js';
import { fileWrite, fileWriteInput } from './file-write.js';
import { generateImage, generateImageInput } from './generate-image.js';
import { getJobRun, getJobRunInput } from './get-job-run.js';
import { gitRead, gitReadInput } from './git-read.js';
import { gitWrite, gitWriteInput } from './git-write.js';
import { globSearch, globSearchInput } from './glob-search.js';
import { listJobRuns, listJobRunsInput } from './list-job-runs.js';
import { listJobs, listJobsInput } from './list-jobs.js';
import { memoryRecall, memoryRecallInput } from './memory-recall.js';
import { memorySourcesList, memorySourcesListInput } from './memory-sources-list.js';
import { memoryStore, memoryStoreInput } from './memory-store.js';
import { modelRoutingConfig, modelRoutingConfigInput } from './model-routing-config.js';
import { pauseJob, pauseJobInput } from './pause-job.js';
import { react, reactInput } from './react.js';
import { removeJob, removeJobInput } from './remove-job.js';
import { requestDirectoryAccess, requestDirectoryAccessInput } from './request-directory-access.js';
import { resumeJob, resumeJobInput } from './resume-job.js';
import { runJobNow, runJobNowInput } from './run-job-now.js';
import { scheduleJob, scheduleJobInput } from './schedule-job.js';
import { sendAttachment, sendAttachmentInput } from './send-attachment.js';
import { shell, shellInput } from './shell.js';
import { skillCreate, skillCreateInput } from './skill-create.js';
import { skillList, skillListInput } from './skill-list.js';
import { skillReload, skillReloadInput } from './skill-reload.js';
import { skillRun, skillRunInput } from './skill-run.js';
import { skillView, skillViewInput } from './skill-view.js';
import { subagents, subagentsInput } from './subagents.js';
import { toolCall, toolCallInput } from './tool-call.js';
import { toolDescribe, toolDescribeInput } from './tool-describe.js';
import { toolHelp, toolHelpInput } from './tool-help.js';
import { toolSearch, toolSearchInput } from './tool-search.js';
import { updateJob, updateJobInput } from './update-job.js';
import { webFetch, webFetchInput } from './web-fetch.js';
import { webSearch, webSearchInput } from './web-search.js';

/** The 35 built-ins that ship unconditionally, in the seed's table order. */
export const ALWAYS_ON_BUILTINS: readonly Capability[] = [
  shell, fileRead, fileWrite, fileEdit, globSearch, contentSearch, gitRead, gitWrite, webFetch, webSearch, browser,
  memoryRecall, memoryStore, memorySourcesList, subagents, skillCreate, skillReload, skillView, skillRun, skillList,
  scheduleJob, updateJob, listJobs, listJobRuns, getJobRun, runJobNow, pauseJob, resumeJob, removeJob,
  modelRoutingConfig, generateImage, toolHelp, requestDirectoryAccess, sendAttachment, react,
];

/** Registered only while tool-schema deferral is on (the default); each carries metadata.deferral_bridge. */
export const DEFERRAL_BRIDGES: readonly Capability[] = [toolSearch, toolDescribe, toolCall];

/** The 35 built-ins plus the 3 deferral bridges. */
export const BUILTIN_TOOLS: readonly Capability[] = [...ALWAYS_ON_BUILTINS, ...DEFERRAL_BRIDGES];

/** Registered only when computer use is enabled in config and its native helper is installed. */
export const COMPUTER_USE_TOOL: Capability = computerUse;

/**
 * zod input schema per tool name, for the invoke wrapper that parses arguments before an executor runs.
 * Each entry is the tool's `lazySchema` getter: a schema is built the first time it is asked for.
 */
export const BUILTIN_INPUT_SCHEMAS: Readonly<Record<string, () => z.ZodObject>> = {
  shell: shellInput,
  file_read: fileReadInput,
  file_write: fileWriteInput,
  file_edit: fileEditInput,
  glob_search: globSearchInput,
  content_search: contentSearchInput,
  git_read: gitReadInput,
  git_write: gitWriteInput,
  web_fetch: webFetchInput,
  web_search: webSearchInput,
  browser: browserInput,
  memory_recall: memoryRecallInput,
  memory_store: memoryStoreInput,
  memory_sources_list: memorySourcesListInput,
  subagents: subagentsInput,
  skill_create: skillCreateInput,
  skill_reload: skillReloadInput,
  skill_view: skillViewInput,
  skill_run: skillRunInput,
  skill_list: skillListInput,
  schedule_job: scheduleJobInput,
  update_job: updateJobInput,
  list_jobs: listJobsInput,
  list_job_runs: listJobRunsInput,
  get_job_run: getJobRunInput,
  run_job_now: runJobNowInput,
  pause_job: pauseJobInput,
  resume_job: resumeJobInput,
  remove_job: removeJobInput,
  model_routing_config: modelRoutingConfigInput,
  generate_image: generateImageInput,
  tool_help: toolHelpInput,
  request_directory_access: requestDirectoryAccessInput,
  send_attachment: sendAttachmentInput,
  react: reactInput,
  tool_search: toolSearchInput,
  tool_describe: toolDescribeInput,
  tool_call: toolCallInput,
  computer_use: computerUseInput,
};

export { defineBuiltin, toJsonSchema } from './define-builtin.js';
export { lazySchema } from './lazy-schema.js';
export type { BuiltinExample, BuiltinSpec } from './define-builtin.js';
export { capabilityDoc, renderCapabilityDoc, resolveCapability } from './capability-doc.js';
export type { CapabilityDoc, CapabilityLookup } from './capability-doc.js';
export { SCOPES, SCOPE_NAMES, isScope } from './scopes.js';
export type { Scope } from './scopes.js';
