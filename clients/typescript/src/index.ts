/**
 * @waybill/client: the Waybill Freight Operations API, typed from its OpenAPI document.
 *
 *   const client = createWaybillClient({ baseUrl, auth: clientCredentials({ authUrl, clientId, clientSecret, audience }) });
 *   const { data, error } = await client.GET('/api/p/v1.0/loads', { params: { query: { PageSize: 10 } } });
 */
export { createWaybillClient, retryAfterSeconds, type RetryOptions, type WaybillClient, type WaybillClientOptions } from './client.js';
export { etagOf, ifMatch } from './etag.js';
export { EventFeedError, type EventFeed, type EventFeedOptions, type FeedEvent } from './events.js';
export { clientCredentials, staticToken, TokenError, type ClientCredentialsOptions, type TokenSource } from './token.js';
export {
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookEvent,
  type WebhookHeaders,
} from './webhooks.js';
export type { components, operations, paths } from './schema.js';
