import type { Migration } from 'kysely';
import * as tenancy from './2026-11-22T0001-tenancy.js';
import * as records from './2026-11-22T0002-records.js';
import * as outbox from './2026-11-22T0003-outbox.js';
import * as rateLimits from './2026-11-22T0010-rate-limits.js';
import * as documentHistory from './2026-11-22T0030-document-history.js';
import * as webhookDeliveries from './2026-11-22T0050-webhook-deliveries.js';
import * as money from './2026-11-22T0040-money.js';
import * as assetPositions from './2026-11-22T0060-asset-positions.js';
import * as assetTelemetry from './2026-11-22T0061-asset-telemetry.js';
import * as positionPartitions from './2026-11-22T0062-position-partitions.js';
import * as listIndexes from './2026-11-23T0070-list-indexes.js';
import * as listCounts from './2026-11-23T0071-list-counts.js';
import * as positionListIndex from './2026-11-23T0072-position-list-index.js';
import * as assetEventIndexes from './2026-11-23T0073-asset-event-indexes.js';
import * as positionEventCounts from './2026-11-23T0074-position-event-counts.js';
import * as masterData from './2026-11-23T0080-master-data.js';
import * as customers from './2026-11-23T0081-customers.js';
import * as dispatchPreferences from './2026-11-23T0082-dispatch-preferences.js';
import * as stopAssets from './2026-11-23T0083-stop-assets.js';
import * as deliveryAttemptCounts from './2026-11-23T0084-delivery-attempt-counts.js';
import * as positionSubsidiaryCounts from './2026-11-23T0085-position-subsidiary-counts.js';
import * as invoices from './2026-11-23T0090-invoices.js';
import * as fuelAndTolls from './2026-11-23T0091-fuel-and-tolls.js';
import * as tenders from './2026-11-23T0092-tenders.js';
import * as webhookReplay from './2026-11-23T0094-webhook-replay.js';
import * as idempotencyKeys from './2026-11-23T0095-idempotency-keys.js';
import * as visibilityShares from './2026-11-23T0096-visibility-shares.js';
import * as trackingLinks from './2026-11-23T0097-tracking-links.js';
import * as documentChunks from './2026-11-23T0098-document-chunks.js';
import * as masterDataTextSearch from './2026-11-23T0099-master-data-text-search.js';
import * as listLoadSearchKeys from './2026-11-23T0102-list-load-search-keys.js';
import * as stopReceivedAt from './2026-11-23T0103-stop-received-at.js';
import * as externalIds from './2026-11-27T0104-external-ids.js';
import * as loadWrites from './2026-11-27T0110-load-writes.js';
import * as notesAndCheckCalls from './2026-11-27T0130-notes-and-check-calls.js';
import * as fleetWrites from './2026-11-27T0140-fleet-writes.js';
import * as partnerWrites from './2026-11-27T0150-partner-writes.js';
import * as invoiceWrites from './2026-11-27T0160-invoice-writes.js';
import * as stopVisitSources from './2026-11-27T0200-stop-visit-sources.js';
import * as detention from './2026-11-27T0210-detention.js';
import * as eventsFeed from './2026-11-27T0220-events-feed.js';
import * as edi from './2026-11-27T0300-edi.js';
import * as tenderEdiPartner from './2026-11-27T0320-tender-edi-partner.js';
import * as ediLoadStatus from './2026-11-27T0340-edi-load-status.js';
import * as webhookMessageIds from './2026-11-27T0360-webhook-message-ids.js';
import * as rateLimitLastGrant from './2026-11-27T0370-rate-limit-last-grant.js';
import * as countTriggersSkipUnchanged from './2026-11-28T0380-count-triggers-skip-unchanged.js';
import * as stopEventCountsSkipEventless from './2026-11-28T0390-stop-event-counts-skip-eventless.js';

/**
 * Every migration, by name, in order. Listed statically (not read from the folder) so the
 * same code runs from TypeScript under tsx and from the compiled `dist/`.
 */
export const migrations: Record<string, Migration> = {
  '2026-11-22T0001-tenancy': tenancy,
  '2026-11-22T0002-records': records,
  '2026-11-22T0003-outbox': outbox,
  '2026-11-22T0010-rate-limits': rateLimits,
  '2026-11-22T0030-document-history': documentHistory,
  '2026-11-22T0050-webhook-deliveries': webhookDeliveries,
  '2026-11-22T0040-money': money,
  '2026-11-22T0060-asset-positions': assetPositions,
  '2026-11-22T0061-asset-telemetry': assetTelemetry,
  '2026-11-22T0062-position-partitions': positionPartitions,
  '2026-11-23T0070-list-indexes': listIndexes,
  '2026-11-23T0071-list-counts': listCounts,
  '2026-11-23T0072-position-list-index': positionListIndex,
  '2026-11-23T0073-asset-event-indexes': assetEventIndexes,
  '2026-11-23T0074-position-event-counts': positionEventCounts,
  '2026-11-23T0080-master-data': masterData,
  '2026-11-23T0081-customers': customers,
  '2026-11-23T0082-dispatch-preferences': dispatchPreferences,
  '2026-11-23T0083-stop-assets': stopAssets,
  '2026-11-23T0084-delivery-attempt-counts': deliveryAttemptCounts,
  '2026-11-23T0085-position-subsidiary-counts': positionSubsidiaryCounts,
  '2026-11-23T0090-invoices': invoices,
  '2026-11-23T0091-fuel-and-tolls': fuelAndTolls,
  '2026-11-23T0092-tenders': tenders,
  '2026-11-23T0094-webhook-replay': webhookReplay,
  '2026-11-23T0095-idempotency-keys': idempotencyKeys,
  '2026-11-23T0096-visibility-shares': visibilityShares,
  '2026-11-23T0097-tracking-links': trackingLinks,
  '2026-11-23T0098-document-chunks': documentChunks,
  '2026-11-23T0099-master-data-text-search': masterDataTextSearch,
  '2026-11-23T0102-list-load-search-keys': listLoadSearchKeys,
  '2026-11-23T0103-stop-received-at': stopReceivedAt,
  '2026-11-27T0104-external-ids': externalIds,
  '2026-11-27T0110-load-writes': loadWrites,
  '2026-11-27T0130-notes-and-check-calls': notesAndCheckCalls,
  '2026-11-27T0140-fleet-writes': fleetWrites,
  '2026-11-27T0150-partner-writes': partnerWrites,
  '2026-11-27T0160-invoice-writes': invoiceWrites,
  '2026-11-27T0200-stop-visit-sources': stopVisitSources,
  '2026-11-27T0210-detention': detention,
  '2026-11-27T0220-events-feed': eventsFeed,
  '2026-11-27T0300-edi': edi,
  '2026-11-27T0320-tender-edi-partner': tenderEdiPartner,
  '2026-11-27T0340-edi-load-status': ediLoadStatus,
  '2026-11-27T0360-webhook-message-ids': webhookMessageIds,
  '2026-11-27T0370-rate-limit-last-grant': rateLimitLastGrant,
  '2026-11-28T0380-count-triggers-skip-unchanged': countTriggersSkipUnchanged,
  '2026-11-28T0390-stop-event-counts-skip-eventless': stopEventCountsSkipEventless,
};
