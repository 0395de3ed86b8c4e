import { sql } from 'kysely';
import { dialectOf, type Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import { forgetPartitionPositions } from './asset-event-counts.repository.js';

/**
 * Daily partitions of the position history on Postgres (db/migrations/…0062): the days around
 * today exist before readings arrive, readings of days without a partition wait in the DEFAULT
 * partition and move into their day's partition when it is created, and with a retention whole
 * days are dropped. SQLite keeps the history in one table and has nothing to maintain.
 *
 * Rows are moved and deleted through the parent table, never by naming a partition, so the
 * parent's triggers keep the assets' Position counters (`asset_event_counts`, migration
 * 2026-11-23T0074) exact; a dropped partition fires nothing, so its counts are subtracted first.
 */

const DAILY = /^asset_positions_p(\d{4})(\d{2})(\d{2})$/;
const DAY_MS = 86_400_000;

export interface PositionPartitionSummary {
  /** Daily partitions created, by name, oldest first. */
  created: string[];
  /** Daily partitions dropped for the retention, by name, oldest first. */
  dropped: string[];
  /** Rows moved from the DEFAULT partition into a daily partition created for their day. */
  moved: number;
  /** Rows older than the retention deleted from the DEFAULT partition. */
  deleted: number;
}

export interface MaintainPositionPartitionsOptions {
  clock: Clock;
  /** POSITION_RETENTION_DAYS: null keeps every day. */
  retentionDays: number | null;
  /** Days after today to create partitions for (yesterday and today always). */
  daysAhead?: number;
  /**
   * Creating and dropping a partition locks the history table exclusively for a moment; a pass
   * that would wait longer than this behind running queries gives up (and every query queued
   * behind it with it) instead, and the next pass tries again. Readings meanwhile land in the
   * DEFAULT partition, so nothing is lost.
   */
  lockTimeoutMs?: number;
}

const emptySummary = (): PositionPartitionSummary => ({ created: [], dropped: [], moved: 0, deleted: 0 });

/** `YYYY-MM-DD` of the UTC day starting at `dayMs`. */
const isoDay = (dayMs: number) => new Date(dayMs).toISOString().slice(0, 10);
const partitionName = (dayMs: number) => `asset_positions_p${isoDay(dayMs).replaceAll('-', '')}`;

/**
 * One maintenance pass, in one transaction. Safe to run from every process at once: a
 * transaction-scoped advisory lock (one per schema) makes the passes take turns, and each reads
 * the partitions only once it holds the lock, so a second pass finds the work done. The
 * retention cutoff is the start of the UTC day `retentionDays` before today: daily partitions of
 * earlier days are dropped and DEFAULT rows recorded before it deleted, so a day goes as a whole
 * wherever its rows are.
 */
export async function maintainPositionPartitions(db: Db, options: MaintainPositionPartitionsOptions): Promise<PositionPartitionSummary> {
  if (dialectOf(db) !== 'postgres') return emptySummary();
  const now = options.clock.now().getTime();
  const today = now - (now % DAY_MS);
  const cutoff = options.retentionDays === null ? null : today - options.retentionDays * DAY_MS;
  const firstDay = Math.max(today - DAY_MS, cutoff ?? -Infinity);
  const lastDay = today + (options.daysAhead ?? 3) * DAY_MS;

  return db.transaction().execute(async (trx) => {
    const summary = emptySummary();
    await sql`select pg_advisory_xact_lock(hashtextextended(current_schema() || '.asset_positions partitions', 0))`.execute(trx);
    await sql`select set_config('lock_timeout', ${`${options.lockTimeoutMs ?? 5_000}ms`}, true)`.execute(trx);

    const { rows: parts } = await sql<{ name: string; is_default: boolean }>`
      select c.relname as name, c.oid = p.partdefid as is_default
      from pg_partitioned_table p
      join pg_inherits i on i.inhparent = p.partrelid
      join pg_class c on c.oid = i.inhrelid
      where p.partrelid = 'asset_positions'::regclass`.execute(trx);
    const fallback = parts.find((part) => part.is_default)?.name;
    if (!fallback) throw new Error('asset_positions has no DEFAULT partition; are the migrations applied?');
    const daily = new Map<number, string>();
    for (const { name } of parts) {
      const match = DAILY.exec(name);
      if (match) daily.set(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])), name);
    }

    if (cutoff !== null) {
      for (const day of [...daily.keys()].sort((a, b) => a - b)) {
        if (day >= cutoff) continue;
        const name = daily.get(day)!;
        await forgetPartitionPositions(trx, name);
        await sql`drop table ${sql.id(name)}`.execute(trx);
        summary.dropped.push(name);
      }
      // Every daily partition before the cutoff is gone: these rows are the DEFAULT partition's.
      const deleted = await sql`delete from asset_positions where recorded_at < ${isoDay(cutoff)}`.execute(trx);
      summary.deleted = Number(deleted.numAffectedRows ?? 0);
    }

    for (let day = firstDay; day <= lastDay; day += DAY_MS) {
      if (daily.has(day)) continue;
      summary.moved += await createDailyPartition(trx, fallback, day);
      summary.created.push(partitionName(day));
    }
    return summary;
  });
}

/**
 * Postgres refuses to create a partition while the DEFAULT partition holds rows of its range,
 * so those rows are taken out first, held in a temporary table and routed back through the
 * parent once the partition exists. Returns how many moved.
 */
async function createDailyPartition(trx: Db, fallback: string, day: number): Promise<number> {
  const from = isoDay(day);
  const to = isoDay(day + DAY_MS);
  const inRange = sql`recorded_at >= ${from} and recorded_at < ${to}`;
  const { rows } = await sql<{ waiting: boolean }>`select exists (select 1 from ${sql.id(fallback)} where ${inRange}) as waiting`.execute(trx);
  const waiting = rows[0]?.waiting === true;
  if (waiting) {
    await sql`create temporary table if not exists asset_positions_moving (like asset_positions) on commit drop`.execute(trx);
    // The day has no partition yet: its rows are the DEFAULT partition's.
    await sql`with taken as (delete from asset_positions where ${inRange} returning *) insert into asset_positions_moving select * from taken`.execute(trx);
  }
  // Partition bounds cannot be bind parameters; `from` and `to` are dates this module formatted.
  await sql`create table ${sql.id(partitionName(day))} partition of asset_positions for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(trx);
  if (!waiting) return 0;
  const moved = await sql`with taken as (delete from asset_positions_moving returning *) insert into asset_positions select * from taken`.execute(trx);
  return Number(moved.numAffectedRows ?? 0);
}
