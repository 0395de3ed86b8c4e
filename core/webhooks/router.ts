import { router } from '../trpc.js';
import { createWebhook } from './create-webhook.js';
import { deleteWebhook } from './delete-webhook.js';
import { disableWebhook } from './disable-webhook.js';
import { enableWebhook } from './enable-webhook.js';
import { exportDeliveryLogs } from './export-delivery-logs.js';
import { findDeliveryLogs } from './find-delivery-logs.js';
import { findWebhooks } from './find-webhooks.js';
import { getWebhook } from './get-webhook.js';
import { getWebhookHealth } from './get-webhook-health.js';
import { listEventTypes } from './list-event-types.js';
import { replayWebhook } from './replay-webhook.js';
import { resendDelivery } from './resend-delivery.js';
import { revealWebhookSecret } from './reveal-webhook-secret.js';
import { rotateWebhookSecret } from './rotate-webhook-secret.js';
import { testWebhook } from './test-webhook.js';
import { updateWebhook } from './update-webhook.js';
import { verifyWebhook } from './verify-webhook.js';

export const webhooksRouter = router({
  getWebhook,
  findWebhooks,
  createWebhook,
  listEventTypes,
  updateWebhook,
  deleteWebhook,
  enableWebhook,
  disableWebhook,
  verifyWebhook,
  testWebhook,
  rotateWebhookSecret,
  revealWebhookSecret,
  exportDeliveryLogs,
  findDeliveryLogs,
  getWebhookHealth,
  replayWebhook,
  resendDelivery,
});
