import type { Config } from '../config.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { observations } from '../shared/observations.js';
import type { AttemptLog, Outcome } from './attempt-log.js';
import type { Delivery } from './delivery.repository.js';
import type { Target } from './delivery-targets.js';
import { postSigned } from './post-signed.js';
import { signedHeaders } from './signing.js';

/** Makes one attempt of a claimed delivery to its target and records it. */
export async function attemptDelivery(log: AttemptLog, config: Config, delivery: Delivery, target: Exclude<Target, null>): Promise<void> {
  const startedAt = log.clock.now();
  const outcome: Outcome =
    'skip' in target
      ? { status: 'skipped', httpStatus: null, durationMs: 0, reason: target.skip, responseBody: null }
      : await postSigned({
          url: target.url,
          body: delivery.body,
          headers: signedHeaders(target.secrets, delivery.message_id, startedAt, delivery.body),
          contentType: target.contentType,
          timeoutMs: config.webhookTimeoutMs,
          production: config.production,
        });
  await log.record(delivery, formatStoredDateTime(startedAt), outcome);
  observations().deliveryAttempt(outcome.status);
}
