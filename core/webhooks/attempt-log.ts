import type { Insertable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { WebhookDeliveryAttemptsTable } from '../../db/tables/webhook-deliveries.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { GroupCommit } from '../shared/group-commit.js';
import { newRecordId } from '../shared/record-id.js';
import { recordShareOutcomes } from '../visibility-shares/share.repository.js';
import { insertAttempts } from './attempt.repository.js';
import { moveDeliveries, type Delivery, type Move } from './delivery.repository.js';
import { countEndedEvents } from './failure-count.repository.js';
import type { PostResult } from './post-signed.js';

export type Outcome = PostResult | { status: 'skipped'; httpStatus: null; durationMs: 0; reason: string; responseBody: null };

/** An attempt the log wrote, with the state it moved its delivery to (`succeeded`, `pending`, `failed`, `skipped`). */
export interface RecordedAttempt {
  delivery: Delivery;
  state: string;
  outcome: Outcome;
}

/**
 * What a group of recorded attempts means for records of a domain above this one (an EDI
 * document's status, docs/edi.md#outbound-delivery), written in the group's transaction. Handed in by the dispatcher, since
 * those domains import this one. Costs nothing (no statement) when no attempt concerns it.
 */
export type AttemptFollower = (trx: Db, recorded: readonly RecordedAttempt[], updatedAt: string) => Promise<void>;

interface Finished {
  delivery: Delivery;
  attemptedAt: string;
  outcome: Outcome;
}

/**
 * Records attempts and moves their deliveries on. Attempts that finish together are written
 * in one transaction (a group commit), which is most of the dispatcher's throughput; each
 * caller still waits until its own attempt is committed.
 *
 * Per attempt: success and skipped end the delivery; a failure or timeout schedules the next
 * retry, or ends it as failed after the last one. A failed event counts towards the
 * subscription's ConsecutiveFailures (disabled at 10), a success resets them. A delivery to a
 * customer's visibility integration writes the attempt's outcome on its share as well, and the
 * followers the dispatcher hands in write theirs (outbound EDI documents).
 *
 * A group costs a fixed number of statements whatever its size: one UPDATE of deliveries per
 * state (per retry time for retries), the attempt rows in one INSERT, one UPDATE of shares per
 * outcome, and one UPDATE of subscriptions per net change of their counts.
 */
export class AttemptLog {
  // Not serial: each turn's attempts commit at once, beside a group still committing.
  private readonly group = new GroupCommit<Finished>({ commit: (batch) => this.write(batch) });

  constructor(
    private readonly db: Db,
    readonly clock: Clock,
    private readonly config: Config,
    private readonly followers: readonly AttemptFollower[] = [],
  ) {}

  record(delivery: Delivery, attemptedAt: string, outcome: Outcome): Promise<void> {
    return this.group.push({ delivery, attemptedAt, outcome });
  }

  /** Where an attempt takes its delivery, by its outcome and the delivery's retry schedule. */
  private moveOf({ delivery, outcome }: Finished, finishedAt: Date): Move {
    const delays = this.config.webhookRetryDelays;
    // A replayed or resent delivery gets the whole schedule again; its attempt numbers keep counting.
    const round = delivery.attempts + 1 - delivery.retry_base;
    const retry = (outcome.status === 'failure' || outcome.status === 'timeout') && round <= delays.length;
    const state = outcome.status === 'success' ? 'succeeded' : outcome.status === 'skipped' ? 'skipped' : retry ? 'pending' : 'failed';
    return { delivery, state, nextAttemptAt: retry ? formatStoredDateTime(finishedAt.getTime() + delays[round - 1]! * 1000) : null };
  }

  private async write(batch: Finished[]): Promise<void> {
    const finishedAt = this.clock.now();
    const updatedAt = formatStoredDateTime(finishedAt);
    const moves = batch.map((finished) => this.moveOf(finished, finishedAt));
    await this.db.transaction().execute(async (trx) => {
      const kept = new Array<boolean>(moves.length).fill(false);
      for (const turn of inTurns(moves)) {
        const moved = await moveDeliveries(trx, turn.map((index) => moves[index]!), updatedAt);
        for (const index of turn) kept[index] = moved.has(moves[index]!.delivery.id);
      }
      // A lost lease (the subscription was deleted, the delivery requeued or claimed again) writes nothing.
      const recorded = batch.flatMap((finished, index) => (kept[index] ? [{ ...finished, state: moves[index]!.state }] : []));

      const rows: Insertable<WebhookDeliveryAttemptsTable>[] = recorded.map(({ delivery, attemptedAt, outcome }) => ({
        id: newRecordId('att'),
        tenant_id: delivery.tenant_id,
        delivery_id: delivery.id,
        event_id: delivery.outbox_id,
        webhook_id: delivery.webhook_id,
        customer_id: delivery.customer_id,
        event_type: delivery.event_type,
        attempt: delivery.attempts + 1,
        status: outcome.status,
        http_status: outcome.httpStatus,
        duration_ms: outcome.durationMs,
        reason: outcome.reason,
        response_body: outcome.responseBody,
        attempted_at: attemptedAt,
      }));
      await insertAttempts(trx, rows);

      await recordShareOutcomes(
        trx,
        recorded.flatMap(({ delivery, outcome }) => {
          if (!delivery.customer_id || !delivery.outbox_id) return [];
          const ok = outcome.status === 'success';
          return [{ outboxId: delivery.outbox_id, ok, error: ok ? null : (outcome.reason ?? `The receiver answered ${outcome.httpStatus}.`) }];
        }),
        updatedAt,
      );
      await countEndedEvents(
        trx,
        recorded.flatMap(({ delivery, state }) => (delivery.webhook_id ? [{ webhookId: delivery.webhook_id, state }] : [])),
      );
      for (const follow of this.followers) await follow(trx, recorded, updatedAt);
    });
  }
}

/**
 * The moves' indexes in turns of distinct deliveries, in the order they finished. A delivery
 * claimed again by this worker after its lease ran out can finish twice in one group: its
 * attempts go in successive turns, so the lease decides which one counts, as it would one at a
 * time. Otherwise (nearly always) there is one turn.
 */
function inTurns(moves: readonly Move[]): number[][] {
  const turns: number[][] = [];
  const seen = new Map<string, number>();
  moves.forEach((move, index) => {
    const turn = seen.get(move.delivery.id) ?? 0;
    seen.set(move.delivery.id, turn + 1);
    (turns[turn] ??= []).push(index);
  });
  return turns;
}
