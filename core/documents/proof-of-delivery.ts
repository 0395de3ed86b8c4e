import type { Clock } from '../clock.js';
import type { Db } from '../../db/create-db.js';
import { appendShares } from '../visibility-shares/share.repository.js';
import type { Scope } from '../shared/scope.js';
import { findVisibilityCustomer, type LoadOwner } from './document.repository.js';
import type { TDocument } from './document.schemas.js';
import { PROOF_OF_DELIVERY } from './document-types.js';

/**
 * docs/api-rules.md#visibility: a load document that becomes (by a type change) or arrives as (by an
 * upload) a Proof of Delivery is posted to the load's customer's visibility integration, in
 * the transaction of the write, once per call, and recorded in the load's outbound history like
 * its tracking shares (the envelope is unchanged). Nothing happens without such an integration.
 */
export async function postProofOfDelivery(
  trx: Db,
  clock: Clock,
  scope: Scope,
  load: LoadOwner,
  document: TDocument,
): Promise<void> {
  if (document.AttachmentType !== PROOF_OF_DELIVERY || !load.customerId) return;
  const customer = await findVisibilityCustomer(trx, scope, load.customerId);
  if (!customer) return;
  await appendShares(trx, clock, [
    {
      tenantId: load.tenantId,
      subsidiaryId: load.subsidiaryId,
      customerId: customer.id,
      loadId: load.id,
      loadNumber: load.loadNumber,
      tripId: null,
      tripNumber: null,
      eventType: 'ProofOfDelivery',
      type: 'document',
      stopId: null,
      coordinates: null,
      address: null,
      data: { ...document, LoadNumber: load.loadNumber },
    },
  ]);
}
