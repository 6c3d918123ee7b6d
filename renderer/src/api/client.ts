import { createApiClient, type ApiClient } from '../../../main/api/client.js';
import type { AppTransport } from './transport-types.js';

export type { ApiClient };

/** The typed API client over whichever transport the window picked. */
export function createClient(transport: AppTransport): ApiClient {
  return createApiClient(transport);
}
