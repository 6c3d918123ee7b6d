/**
 * What the manifest makes of one hosted call on our side, in order: the `argument_guards` check the
 * model's values, then the `collection_policy` sets or clamps the request's limit — both before the
 * turn budget is spent and before anything is sent — and afterwards caps the result's items. A tool
 * with neither passes through untouched.
 */
import type { ToolResult } from '../../../core/capabilities/index.js';
import type { PluginManifest } from '../../manifest.js';
import { checkArgumentGuards } from './argument-guards.js';
import { capResultItems, limitRequest, type LimitedRequest } from './collection-policy.js';

export function callShaping(manifest: PluginManifest, registered: string) {
  const tool = manifest.tools.find((entry) => entry.name === registered);
  const guards = tool?.argument_guards ?? [];
  const collection = tool?.collection_policy;
  return {
    /** The arguments to send (a copy when changed); throws the refusal, and then nothing is sent. */
    prepare(args: Record<string, unknown>): LimitedRequest {
      if (guards.length > 0) checkArgumentGuards(manifest.name, registered, guards, args);
      return collection ? limitRequest(manifest.name, registered, collection, args) : { args, lowered: null };
    },
    finish(request: LimitedRequest, result: ToolResult): ToolResult {
      return collection ? capResultItems(collection, request, result) : result;
    },
  };
}
